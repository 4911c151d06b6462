/**
 * @module namespaces/shop-admin/marketing.routes
 * `marketing/*`, `payment-gateway-suggestions` (+ `dismiss`) and `shipping-partner-suggestions`.
 */
import type { AppContext } from '../../app-context.js';
import { paginate, paginationArgs, paginationHeaders, type PaginationOptions } from '../../rest/pagination.js';
import { CREATABLE, EDITABLE, READABLE, respond, type RestRequest, type RouteDef } from '../../rest/route.js';
import { canInstallPlugins, canViewShop } from './access.js';
import { ShopAdminErrors } from './errors.js';
import { activeSlugs, installedSlugs, runExtensionWork } from './extensions.service.js';
import { specList } from './remote-specs.js';
import { KNOWLEDGE_BASE, MARKETING_RECOMMENDATIONS, PAYMENT_GATEWAY_SUGGESTIONS, SHIPPING_PARTNER_SUGGESTIONS } from './suggestions.js';

const DISMISSED_OPTION = 'woocommerce_setting_payments_recommendations_hidden';
const SUGGESTIONS_OPTION = 'woocommerce_show_marketplace_suggestions';

async function suggestionsOn(ctx: AppContext): Promise<boolean> {
  return (await ctx.options.get<string>(SUGGESTIONS_OPTION, 'yes')) !== 'no';
}

async function recommended(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const installed = new Set(await installedSlugs(ctx));
  const category = String(req.params.category ?? 'marketing');
  const list = (await specList(ctx, 'marketing-recommendations', MARKETING_RECOMMENDATIONS)) as Record<string, unknown>[];
  return list
    .filter((p) => !installed.has(String(p.plugin)) || !ctx.areas.isEnabled(String(p.plugin)))
    .filter((p) => !Array.isArray(p.categories) || p.categories.includes(category))
    .slice(0, Number(req.params.per_page));
}

/** Marketing extensions of this product (those of its areas that reach buyers), with their state. */
async function installedMarketing(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  const active = new Set(await activeSlugs(ctx));
  return MARKETING_RECOMMENDATIONS.filter((p) => ctx.areas.get(p.plugin)).map((p) => ({
    name: p.title,
    slug: p.plugin,
    description: p.description,
    url: '',
    icon: p.icon,
    status: active.has(p.plugin) ? 'activated' : 'installed',
    settingsUrl: ctx.urls.admin,
    docsUrl: '',
    supportUrl: '',
    dashboardUrl: '',
  }));
}

async function activateMarketingPlugin(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const slug = String(req.params.plugin);
  const { errors } = await runExtensionWork(ctx, 'activate', [slug]);
  if (errors[slug]) throw ShopAdminErrors.invalidPlugin(errors[slug]![0]!);
  return { status: 'success' };
}

async function channels(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  const out = [];
  for (const c of ctx.areas.contributions('marketingChannels')) {
    out.push({
      slug: c.slug,
      is_setup_completed: await c.isSetupCompleted(ctx),
      settings_url: c.settingsUrl(ctx),
      name: c.name,
      description: c.description,
      product_listings_status: await c.productListingsStatus(ctx),
      errors_count: await c.errorsCount(ctx),
      icon: c.icon,
    });
  }
  return out;
}

const PAGING: PaginationOptions = { perPage: 10, max: 100 };

async function paged<T>(req: RestRequest, ctx: AppContext, route: string, all: T[]) {
  const { page, perPage, offset } = await paginate(req, ctx, PAGING);
  return respond(all.slice(offset, offset + perPage), { headers: paginationHeaders(req, ctx.urls.rest(route), { total: all.length, perPage, page }) });
}

async function campaigns(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const all = [];
  for (const c of ctx.areas.contributions('marketingChannels')) for (const campaign of await c.campaigns(ctx)) all.push({ ...campaign, channel: c.slug });
  return paged(req, ctx, '/shop-admin/marketing/campaigns', all);
}

async function campaignTypes(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const all = ctx.areas.contributions('marketingChannels').flatMap((c) =>
    c.campaignTypes.map((t) => ({ id: t.id, name: t.name, description: t.description, channel: { slug: c.slug, name: c.name }, create_url: `${ctx.urls.admin}${t.createPath}`, icon_url: t.iconUrl })),
  );
  return paged(req, ctx, '/shop-admin/marketing/campaign-types', all);
}

async function paymentSuggestions(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const force = req.params.force_default_suggestions === true;
  if (!force && ((await ctx.options.get<string>(DISMISSED_OPTION, 'no')) === 'yes' || !(await suggestionsOn(ctx)))) return [];
  return force ? PAYMENT_GATEWAY_SUGGESTIONS : specList(ctx, 'payment-gateway-suggestions', PAYMENT_GATEWAY_SUGGESTIONS);
}

async function shippingSuggestions(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const force = req.params.force_default_suggestions === true;
  if (!force && !(await suggestionsOn(ctx))) return [];
  return force ? SHIPPING_PARTNER_SUGGESTIONS : specList(ctx, 'shipping-partner-suggestions', SHIPPING_PARTNER_SUGGESTIONS);
}

async function dismissPaymentSuggestions(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  if ((await ctx.options.get<string>(DISMISSED_OPTION, 'no')) === 'yes') return false;
  await ctx.options.set(DISMISSED_OPTION, 'yes');
  return true;
}

const campaignArgs = { context: { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: ['view'] }, ...paginationArgs(PAGING) };

export const marketingRouteDefs: RouteDef<AppContext>[] = [
  { path: '/marketing/misc-recommendations', endpoints: [{ methods: READABLE, permission: canViewShop, handler: (_r, ctx) => specList(ctx, 'marketing-misc-recommendations', []) }] },
  { path: '/marketing/overview/installed-plugins', endpoints: [{ methods: READABLE, permission: canInstallPlugins, handler: installedMarketing }] },
  { path: '/marketing/channels', endpoints: [{ methods: READABLE, permission: canViewShop, handler: channels }] },
  {
    path: '/marketing/recommended',
    endpoints: [
      {
        methods: READABLE,
        args: {
          per_page: { description: 'The maximum number of recommendations to return.', type: 'integer', default: 10, minimum: 1, maximum: 100 },
          category: { description: 'The category for the recommendations.', type: 'string' },
        },
        permission: canInstallPlugins,
        handler: recommended,
      },
    ],
  },
  {
    path: '/marketing/knowledge-base',
    endpoints: [{ methods: READABLE, args: { category: { description: 'The category for the knowledge base posts.', type: 'string' } }, permission: canViewShop, handler: (_r, ctx) => specList(ctx, 'marketing-knowledge-base', KNOWLEDGE_BASE) }],
  },
  {
    path: '/marketing/overview/activate-plugin',
    endpoints: [{ methods: EDITABLE, args: { plugin: { description: 'The plugin to activate.', type: 'string', required: true } }, permission: canInstallPlugins, handler: activateMarketingPlugin }],
  },
  {
    path: '/marketing/recommendations',
    endpoints: [
      {
        methods: READABLE,
        args: { category: { description: 'The category for the recommendations.', type: 'string', enum: ['channels', 'extensions'], required: true } },
        permission: canViewShop,
        handler: (req, ctx) => specList(ctx, `marketing-recommendations-${String(req.params.category)}`, []),
      },
    ],
  },
  { path: '/marketing/campaigns', endpoints: [{ methods: READABLE, args: campaignArgs, permission: canViewShop, handler: campaigns }] },
  { path: '/marketing/campaign-types', endpoints: [{ methods: READABLE, args: campaignArgs, permission: canViewShop, handler: campaignTypes }] },
  {
    path: '/payment-gateway-suggestions',
    endpoints: [{ methods: READABLE, args: { force_default_suggestions: { description: 'Return the default payment suggestions when woocommerce_show_marketplace_suggestions and woocommerce_setting_payments_recommendations_hidden options are set to no.', type: 'boolean' } }, permission: canInstallPlugins, handler: paymentSuggestions }],
  },
  { path: '/payment-gateway-suggestions/dismiss', endpoints: [{ methods: CREATABLE, permission: canInstallPlugins, handler: dismissPaymentSuggestions }] },
  {
    path: '/shipping-partner-suggestions',
    endpoints: [{ methods: READABLE, args: { force_default_suggestions: { description: 'Return the default shipping partner suggestions when woocommerce_show_marketplace_suggestions option is set to no.', type: 'boolean' } }, permission: canInstallPlugins, handler: shippingSuggestions }],
  },
];
