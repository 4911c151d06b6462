/**
 * @module namespaces/marketplace/marketplace.routes
 * The seven `shop/v3/marketplace/*` routes. As the original sends them with `wp_send_json*`, answers
 * are bare `{success, data}` envelopes (or the bare subscription array), failures with status 400;
 * `create-order` relays the marketplace's own answer as a normal REST response.
 */
import type { AppContext } from '../../app-context.js';
import { switchArea } from '../../area-state.js';
import { MarketplaceError } from '../../remote/marketplace-client.js';
import { CREATABLE, READABLE, respond, type ArgSchema, type Permission, type RestRequest, type RouteDef } from '../../rest/route.js';
import { MarketplaceErrors } from './errors.js';
import { dropSubscriptionsCache, featured, findSubscription, marketplaceClient, refresh, subscriptions } from './subscriptions.service.js';

const canManage: Permission = (req) => req.user?.can('manage_woocommerce') === true;

const ok = (data: unknown) => respond({ success: true, data });
const fail = (data: Record<string, unknown>, status = 400) => respond({ success: false, data }, { status });
const failure = (e: MarketplaceError) => fail({ message: e.message, code: e.code, ...(e.data !== undefined ? { data: e.data } : {}) }, e.status);

const KEY_ARG: Record<string, ArgSchema> = { product_key: { description: 'The subscription product key.', type: 'string', required: true } };

async function getFeatured(req: RestRequest, ctx: AppContext) {
  try {
    const lang = (req.headers['accept-language'] ?? '').split(',')[0]?.trim() ?? '';
    const locale = /^[a-z]{2}([-_][A-Z]{2})?$/.test(lang) ? lang.replace('-', '_') : 'en_US';
    return respond(await featured(ctx, locale, String(await ctx.options.get('woocommerce_default_country', 'US')).split(':')[0] ?? 'US'));
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    return fail({ message: e.message }, 200); // the original answers this failure with 200
  }
}

async function postRefresh(_req: RestRequest, ctx: AppContext) {
  try {
    return respond(await refresh(ctx));
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    return fail({ message: e.message });
  }
}

async function connect(req: RestRequest, ctx: AppContext, on: boolean) {
  const key = String(req.params.product_key);
  try {
    const client = await marketplaceClient(ctx);
    await (on ? client.activate(key, ctx.urls.home) : client.deactivate(key, ctx.urls.home));
    await dropSubscriptionsCache(ctx);
    const sub = await findSubscription(ctx, key);
    const name = typeof sub?.product_name === 'string' ? sub.product_name : 'The subscription';
    return ok({ message: on ? `${name} successfully connected.` : `${name} successfully disconnected.` });
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    return failure(e);
  }
}

async function activate(req: RestRequest, ctx: AppContext) {
  if (!req.user?.can('activate_plugins')) return fail({ message: 'You do not have permission to activate plugins.' });
  const sub = await findSubscription(ctx, String(req.params.product_key));
  if (!sub) return fail({ message: 'We could not find a subscription with the provided product key.' });
  if (sub.product_type !== 'plugin' && sub.product_type !== 'theme') return fail({ message: 'This product type is not supported.' });
  const local = sub.local as { installed: boolean; active: boolean; slug: string | null };
  if (!local.installed || !local.slug) return fail({ message: 'This product is not installed.' });
  if (local.active) return ok({ message: `${String(sub.product_name)} is already active.` });
  await switchArea(ctx, local.slug, true);
  if (!ctx.areas.isEnabled(local.slug)) return fail({ message: `${String(sub.product_name)} could not be activated: a product it needs is off.` });
  return ok({ message: `${String(sub.product_name)} activated successfully. You can now use it.` });
}

async function installUrl(req: RestRequest, ctx: AppContext) {
  const key = String(req.params.product_key);
  const sub = await findSubscription(ctx, key);
  if (!sub) return fail({ message: 'We could not find a subscription with the provided product key.' });
  if ((sub.local as { installed: boolean }).installed) return ok({ message: `${String(sub.product_name)} is already installed.` });
  try {
    return ok({ url: await (await marketplaceClient(ctx)).installUrl(key) });
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    return failure(e);
  }
}

async function createOrder(req: RestRequest, ctx: AppContext) {
  if (!req.user?.can('install_plugins')) return respond({ message: 'You do not have permission to install plugins.' }, { status: 403 });
  try {
    const answer = await (await marketplaceClient(ctx)).createOrder(Number(req.params.product_id));
    return respond(answer.body ?? null, { status: answer.status >= 200 && answer.status < 600 ? answer.status : 502 });
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    return MarketplaceErrors.couldNotInstall(e.message);
  }
}

export const marketplaceRouteDefs: RouteDef<AppContext>[] = [
  { path: '/marketplace/featured', endpoints: [{ methods: READABLE, args: {}, permission: canManage, handler: getFeatured }] },
  { path: '/marketplace/refresh', endpoints: [{ methods: CREATABLE, args: {}, permission: canManage, handler: postRefresh }] },
  { path: '/marketplace/subscriptions', endpoints: [{ methods: READABLE, args: {}, permission: canManage, handler: async (_req, ctx) => respond(await subscriptions(ctx)) }] },
  { path: '/marketplace/subscriptions/connect', endpoints: [{ methods: CREATABLE, args: KEY_ARG, permission: canManage, handler: (req, ctx) => connect(req, ctx, true) }] },
  { path: '/marketplace/subscriptions/disconnect', endpoints: [{ methods: CREATABLE, args: KEY_ARG, permission: canManage, handler: (req, ctx) => connect(req, ctx, false) }] },
  { path: '/marketplace/subscriptions/activate', endpoints: [{ methods: CREATABLE, args: KEY_ARG, permission: canManage, handler: activate }] },
  { path: '/marketplace/subscriptions/install-url', endpoints: [{ methods: READABLE, args: KEY_ARG, permission: canManage, handler: installUrl }] },
  {
    path: '/marketplace/create-order',
    endpoints: [
      {
        methods: CREATABLE,
        args: { product_id: { description: 'The marketplace product ID.', required: true, validate: (v) => (typeof v === 'number' && Number.isInteger(v) ? true : 'product_id is not of type integer.') } },
        permission: canManage,
        handler: createOrder,
      },
    ],
  },
];
