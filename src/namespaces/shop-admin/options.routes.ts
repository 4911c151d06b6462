/**
 * @module namespaces/shop-admin/options.routes
 * `options` (read and write allow-listed settings), `notice/dismiss`, `features` and
 * `experiments/assignment`.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { verifyNonce } from '../../auth/nonces.js';
import { CREATABLE, EDITABLE, READABLE, type RestRequest, type RouteDef } from '../../rest/route.js';
import { CURRENCY_OPTION, OFFLINE_PAYMENTS_OPTION } from '../tickets/index.js';
import { canEditShop, canViewShop } from './access.js';
import { MOBILE_APP_MODAL_OPTION } from './tasks.model.js';
import { ShopAdminErrors } from './errors.js';
import type { RestError } from '../../rest/errors.js';

/**
 * Settings this route may read and write, by the original's option names. `woocommerce_currency` is
 * the ticket shop's currency. Core options (`blogname`, `date_format`, `time_format`, `stylesheet`)
 * are refused as the original refuses them, for administrators too.
 */
const ALIASES: Readonly<Record<string, string>> = { woocommerce_currency: CURRENCY_OPTION };
const ALLOWED = new Set([
  'woocommerce_onboarding_profile', 'woocommerce_default_country', 'woocommerce_currency', 'woocommerce_allow_tracking',
  'woocommerce_show_marketplace_suggestions', 'woocommerce_demo_store', 'woocommerce_demo_store_notice', 'woocommerce_calc_taxes',
  'woocommerce_no_sales_tax', 'woocommerce_weight_unit', 'woocommerce_dimension_unit', 'woocommerce_coming_soon',
  'woocommerce_store_pages_only', 'woocommerce_private_link', 'woocommerce_default_homepage_layout', 'eventsuite_theme',
  OFFLINE_PAYMENTS_OPTION, 'woocommerce_blocks_allow_ai_connection', 'woocommerce_setting_payments_recommendations_hidden',
  MOBILE_APP_MODAL_OPTION,
]);
const allowed = (name: string) => ALLOWED.has(name) || name.startsWith('woocommerce_task_list_');

function optionNames(req: RestRequest): string[] | undefined {
  const raw = req.query.options ?? req.params.options;
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

async function getOptions(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const names = optionNames(req)!;
  const out: Record<string, unknown> = {};
  for (const name of names) out[name] = await ctx.options.get<unknown>(ALIASES[name] ?? name, false);
  return out;
}

async function setOptions(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const out: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(req.json ?? {})) {
    const key = ALIASES[name] ?? name;
    const before = await ctx.options.get<unknown>(key, undefined);
    const changed = JSON.stringify(before) !== JSON.stringify(value);
    if (changed) await ctx.options.set(key, value);
    out[name] = changed;
  }
  return out;
}

/** Read: `options=a,b` must be given and every name allowed; write: a JSON object of allowed names. */
function canManageOptions(req: RestRequest): boolean | RestError {
  const names = req.method === 'GET' ? optionNames(req) : req.json && typeof req.json === 'object' && !Array.isArray(req.json) ? Object.keys(req.json) : undefined;
  if (!names) return req.method === 'GET' ? ShopAdminErrors.mustSupply() : ShopAdminErrors.mustSupplyValues();
  const refused = () => (req.method === 'GET' ? ShopAdminErrors.optionViewForbidden(req) : ShopAdminErrors.optionForbidden(req));
  if (!req.user?.can('manage_woocommerce')) return refused();
  return names.every(allowed) || refused();
}

/** The notices `notice/dismiss` accepts (the marketplace connect and expiry notices). */
const NOTICES = ['woo_subscription_expired_notice', 'woo_subscription_expiring_notice', 'woo_subscription_missing_notice', 'woo_connect_notice'];

async function dismissNotice(req: RestRequest, ctx: AppContext): Promise<unknown> {
  if (!req.user || !(await verifyNonce(ctx, { user: req.user, auth: req.auth }, 'dismiss_notice', req.params.dismiss_notice_nonce))) throw ShopAdminErrors.unauthorizedNotice();
  const notice = String(req.params.notice_id ?? '');
  if (!NOTICES.includes(notice)) return { success: false };
  await ctx.options.set(`${notice}_dismissed:${req.user.id}`, Math.floor(ctx.now().getTime() / 1000));
  return { success: true };
}

/** Admin features of this product that are switched on. */
export const FEATURES = ['analytics', 'homescreen', 'marketing', 'onboarding', 'onboarding-tasks', 'launch-your-store', 'coming-soon'];

/**
 * A stable A/B assignment per site and experiment (`experiment_name`, required in the query string as
 * in the original), the way the original's experiment service answers: the variation is derived from
 * the site, so every process agrees.
 */
async function experimentAssignment(req: RestRequest, ctx: AppContext): Promise<unknown> {
  if (req.query.experiment_name === undefined) throw ShopAdminErrors.experimentNameRequired();
  const name = String(req.query.experiment_name);
  if (name === '') return { variations: {} };
  const bucket = crypto.createHash('sha256').update(`${ctx.urls.home}|${name}`).digest()[0]! % 2;
  return { variations: { [name]: bucket === 0 ? 'control' : 'treatment' }, ttl: 3600 };
}

export const optionRouteDefs: RouteDef<AppContext>[] = [
  { path: '/notice/dismiss', endpoints: [{ methods: CREATABLE, permission: canEditShop, handler: dismissNotice }] },
  { path: '/features', endpoints: [{ methods: READABLE, permission: canViewShop, handler: () => FEATURES }] },
  { path: '/experiments/assignment', endpoints: [{ methods: READABLE, permission: canViewShop, handler: experimentAssignment }] },
  {
    path: '/options',
    endpoints: [
      { methods: READABLE, permission: canManageOptions, handler: getOptions },
      { methods: EDITABLE, permission: canManageOptions, handler: setOptions },
    ],
  },
];

