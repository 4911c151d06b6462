/**
 * @module namespaces/marketplace/marketplace.routes
 * The eight `shop/v3/marketplace/*` routes. As the original sends them with `wp_send_json*`, answers
 * are bare `{success, data}` envelopes (or the bare subscription array), failures with status 400;
 * `create-order` relays the marketplace's own answer as a normal REST response.
 */
import type { AppContext } from '../../app-context.js';
import { switchArea } from '../../area-state.js';
import { MarketplaceError } from '../../remote/marketplace-client.js';
import { CREATABLE, READABLE, respond, type ArgSchema, type Permission, type RestRequest, type RouteDef } from '../../rest/route.js';
import { MARKETPLACE_MESSAGES, MarketplaceErrors } from './errors.js';
import {
  dropSubscriptionsCache, featured, findSubscription, isConnected, marketplaceClient, noteSubscriptionsTabLoaded, refresh, subscriptions,
} from './subscriptions.service.js';

const canManage: Permission = (req) => req.user?.can('manage_woocommerce') === true;

const ok = (data: unknown) => respond({ success: true, data });
const fail = (data: Record<string, unknown>, status = 400) => respond({ success: false, data }, { status });
const M = MARKETPLACE_MESSAGES;

const KEY_ARG: Record<string, ArgSchema> = { product_key: { description: 'The subscription product key.', type: 'string', required: true } };

/** Users have no language of their own here (`users.present` reports en_US), so the user locale the original sends is en_US. */
const USER_LOCALE = 'en_US';

async function baseCountry(ctx: AppContext): Promise<string> {
  const value = await ctx.options.get<unknown>('woocommerce_default_country', 'US:CA');
  return (typeof value === 'string' ? value.split(':')[0] : '') || 'US';
}

async function getFeatured(_req: RestRequest, ctx: AppContext) {
  try {
    return respond(await featured(ctx, USER_LOCALE, await baseCountry(ctx)));
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    return fail({ message: e.message }, 200); // the original answers this failure with 200
  }
}

async function listSubscriptions(_req: RestRequest, ctx: AppContext) {
  await noteSubscriptionsTabLoaded(ctx);
  return respond(await subscriptions(ctx));
}

async function postRefresh(_req: RestRequest, ctx: AppContext) {
  try {
    const list = await refresh(ctx);
    await noteSubscriptionsTabLoaded(ctx);
    return respond(list);
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    return fail({ message: e.message });
  }
}

/** Connecting an installed product that is switched off switches it on, for a caller who may. */
async function connect(req: RestRequest, ctx: AppContext) {
  const key = String(req.params.product_key);
  const sub = await findSubscription(ctx, key);
  if (!sub) return fail({ message: M.subscriptionNotFound });
  try {
    await (await marketplaceClient(ctx)).activate(key, ctx.urls.home);
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    return fail({ message: e.message, code: e.code, ...(e.data !== undefined ? { data: e.data } : {}) }, e.status);
  }
  const local = sub.local as { installed: boolean; active: boolean; slug: string | null };
  if (local.installed && !local.active && local.slug && req.user?.can('activate_plugins')) await switchArea(ctx, local.slug, true);
  await dropSubscriptionsCache(ctx);
  return ok({ message: M.connected });
}

async function disconnect(req: RestRequest, ctx: AppContext) {
  const key = String(req.params.product_key);
  if (!(await findSubscription(ctx, key))) return fail({ message: M.subscriptionNotFound });
  try {
    await (await marketplaceClient(ctx)).deactivate(key, ctx.urls.home);
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    return fail({ message: e.message }); // the original passes on the sentence only, without a code
  }
  await dropSubscriptionsCache(ctx);
  return ok({ message: M.disconnected });
}

/** As the original: the caller needs the capability of the product's kind (a shop manager has neither). */
const ACTIVATION_CAPABILITY = new Map([
  ['plugin', { capability: 'activate_plugins', refused: M.cannotActivate }],
  ['theme', { capability: 'switch_themes', refused: M.cannotSwitchTheme }],
]);

async function activate(req: RestRequest, ctx: AppContext) {
  const sub = await findSubscription(ctx, String(req.params.product_key));
  if (!sub) return fail({ message: M.noSubscription });
  const kind = ACTIVATION_CAPABILITY.get(String(sub.product_type));
  if (!kind) return fail({ message: M.unsupportedType });
  if (!req.user?.can(kind.capability)) return fail({ message: kind.refused });
  const local = sub.local as { installed: boolean; active: boolean; slug: string | null };
  if (!local.installed || !local.slug) return fail({ message: M.notInstalled });
  if (local.active) return ok({ message: M.alreadyActive });
  await switchArea(ctx, local.slug, true);
  // CASE: an area that needs another one which is off stays off, as a plugin whose activation fails.
  if (!ctx.areas.isEnabled(local.slug)) return fail({ message: M.activationFailed });
  return ok({ message: M.activated });
}

async function installUrl(req: RestRequest, ctx: AppContext) {
  const key = String(req.params.product_key);
  const sub = await findSubscription(ctx, key);
  if (!sub) return fail({ message: M.noSubscription });
  if ((sub.local as { installed: boolean }).installed) return ok({ message: M.alreadyInstalled });
  try {
    return ok({ url: await (await marketplaceClient(ctx)).installUrl(key) });
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    ctx.log.warn({ code: e.code, reason: e.message }, 'marketplace install URL could not be loaded');
    return fail({ message: M.noInstallUrl });
  }
}

async function createOrder(req: RestRequest, ctx: AppContext) {
  if (!req.user?.can('install_plugins')) return respond({ message: M.cannotInstall }, { status: 403 });
  if (!(await isConnected(ctx))) return MarketplaceErrors.couldNotInstall(M.notConnected, 400);
  try {
    const answer = await (await marketplaceClient(ctx)).createOrder(Number(req.params.product_id));
    // CASE: the original relays the marketplace's status as is; a marketplace failing (5xx) is a bad gateway here, not our 500.
    return respond(answer.body ?? null, { status: answer.status >= 200 && answer.status < 500 ? answer.status : 502 });
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    return MarketplaceErrors.couldNotInstall(e.message, 502);
  }
}

export const marketplaceRouteDefs: RouteDef<AppContext>[] = [
  { path: '/marketplace/featured', endpoints: [{ methods: READABLE, args: {}, permission: canManage, handler: getFeatured }] },
  { path: '/marketplace/refresh', endpoints: [{ methods: CREATABLE, args: {}, permission: canManage, handler: postRefresh }] },
  { path: '/marketplace/subscriptions', endpoints: [{ methods: READABLE, args: {}, permission: canManage, handler: listSubscriptions }] },
  { path: '/marketplace/subscriptions/connect', endpoints: [{ methods: CREATABLE, args: KEY_ARG, permission: canManage, handler: connect }] },
  { path: '/marketplace/subscriptions/disconnect', endpoints: [{ methods: CREATABLE, args: KEY_ARG, permission: canManage, handler: disconnect }] },
  { path: '/marketplace/subscriptions/activate', endpoints: [{ methods: CREATABLE, args: KEY_ARG, permission: canManage, handler: activate }] },
  { path: '/marketplace/subscriptions/install-url', endpoints: [{ methods: READABLE, args: KEY_ARG, permission: canManage, handler: installUrl }] },
  {
    path: '/marketplace/create-order',
    endpoints: [
      {
        methods: CREATABLE,
        args: { product_id: { description: 'The marketplace product ID.', required: true, validate: (v) => typeof v === 'number' && Number.isInteger(v) } },
        permission: canManage,
        handler: createOrder,
      },
    ],
  },
];
