/**
 * @module namespaces/marketplace/subscriptions.service
 * The marketplace connection as the original's helper keeps it: the access token stored by the
 * shop-admin connect flow (`woocommerce_helper_data.auth`), remote subscriptions cached 3 hours (an
 * empty list for 15 minutes after a failure), the featured list cached a day per locale, and this
 * product's areas as the locally installed products.
 */
import type { AppContext } from '../../app-context.js';
import { APP_VERSION } from '../../app.js';
import { MarketplaceClient, MarketplaceError } from '../../remote/marketplace-client.js';

export const HELPER_OPTION = 'woocommerce_helper_data';
const SUBSCRIPTIONS_CACHE = '_shop_helper_subscriptions';
const FEATURED_CACHE = '_shop_addons_featured_';
export const SUBSCRIPTIONS_TTL_MS = 3 * 3600_000;
export const SUBSCRIPTIONS_FAILURE_TTL_MS = 15 * 60_000;
export const FEATURED_TTL_MS = 24 * 3600_000;

interface Cached<T> {
  expires: number;
  value: T;
}

async function helperData(ctx: AppContext): Promise<Record<string, unknown>> {
  const v = await ctx.options.get<unknown>(HELPER_OPTION, {});
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

async function auth(ctx: AppContext): Promise<Record<string, unknown>> {
  const a = (await helperData(ctx)).auth;
  return a && typeof a === 'object' ? (a as Record<string, unknown>) : {};
}

/** "Connected" means the stored access token is not empty. */
export async function isConnected(ctx: AppContext): Promise<boolean> {
  const token = (await auth(ctx)).access_token;
  return typeof token === 'string' && token !== '';
}

export async function marketplaceClient(ctx: AppContext): Promise<MarketplaceClient> {
  const endpoint = ctx.config.remotes.marketplace;
  if (!endpoint) throw new MarketplaceError('No marketplace is configured.', 'unreachable', 400);
  const token = (await auth(ctx)).access_token;
  return new MarketplaceClient(endpoint, typeof token === 'string' ? token : '');
}

async function cached<T>(ctx: AppContext, name: string): Promise<T | undefined> {
  ctx.options.clearCache();
  const c = await ctx.options.get<Cached<T> | null>(name, null);
  return c && typeof c === 'object' && c.expires > ctx.now().getTime() ? c.value : undefined;
}

function store<T>(ctx: AppContext, name: string, value: T, ttl: number): Promise<void> {
  return ctx.options.set(name, { expires: ctx.now().getTime() + ttl, value });
}

/** The featured document for `locale`, from the cache or the marketplace. */
export async function featured(ctx: AppContext, locale: string, country: string): Promise<unknown[]> {
  const key = `${FEATURED_CACHE}${locale}`;
  const hit = await cached<unknown[]>(ctx, key);
  if (hit) return hit;
  const list = await (await marketplaceClient(ctx)).featured(locale, country);
  await store(ctx, key, list, FEATURED_TTL_MS);
  return list;
}

/** Remote subscriptions (cached); [] when not connected, and for 15 minutes after a failure. */
async function remoteSubscriptions(ctx: AppContext, rethrow = false): Promise<Record<string, unknown>[]> {
  if (!(await isConnected(ctx))) return [];
  const hit = await cached<Record<string, unknown>[]>(ctx, SUBSCRIPTIONS_CACHE);
  if (hit) return hit;
  try {
    const list = await (await marketplaceClient(ctx)).subscriptions();
    await store(ctx, SUBSCRIPTIONS_CACHE, list, SUBSCRIPTIONS_TTL_MS);
    const helper = await helperData(ctx);
    if (!helper.my_subscriptions_tab_loaded) await ctx.options.set(HELPER_OPTION, { ...helper, my_subscriptions_tab_loaded: true });
    return list;
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    ctx.log.warn({ code: e.code }, 'marketplace subscriptions could not be loaded');
    await store(ctx, SUBSCRIPTIONS_CACHE, [], SUBSCRIPTIONS_FAILURE_TTL_MS);
    if (rethrow) throw e;
    return [];
  }
}

/** Drops the cached lists and loads the subscriptions again (a failure is thrown). */
export async function refresh(ctx: AppContext): Promise<Record<string, unknown>[]> {
  await ctx.options.delete(SUBSCRIPTIONS_CACHE);
  await remoteSubscriptions(ctx, true);
  return subscriptions(ctx);
}

const NOT_INSTALLED = { installed: false, active: false, version: null, type: null, slug: null, path: null };

function localBlock(ctx: AppContext, slug: unknown) {
  const area = typeof slug === 'string' ? ctx.areas.get(slug) : undefined;
  if (!area) return NOT_INSTALLED;
  return { installed: true, active: ctx.areas.isEnabled(area.id), version: APP_VERSION, type: 'plugin', slug: area.id, path: `${area.id}/${area.id}.php` };
}

/** This product's areas as installed products with no subscription. */
function localOnly(ctx: AppContext, slug: string): Record<string, unknown> {
  const area = ctx.areas.get(slug)!;
  return {
    product_key: '', product_id: 0, product_name: area.title, product_url: '', product_icon: '', product_slug: area.id, product_type: 'plugin',
    documentation_url: '', zip_slug: area.id, key_type: '', key_type_label: '', autorenew: false, connections: [], legacy_connections: [], shares: [],
    lifetime: false, expires: 0, expired: true, expiring: false, sites_max: 0, sites_active: 0, maxed: false, order_id: 0, product_keys_all: [],
    product_status: 'publish', active: false, has_update: false, version: APP_VERSION, subscription_installed: true, subscription_available: false,
    is_installable: false, is_shared: false, owner_email: '', has_changelog: false, local: localBlock(ctx, area.id),
  };
}

/** Remote subscriptions with their local block, plus installed products without one; by name, then expiry. */
export async function subscriptions(ctx: AppContext): Promise<Record<string, unknown>[]> {
  const siteId = Number((await auth(ctx)).site_id ?? 0);
  const remote = (await remoteSubscriptions(ctx)).map((s): Record<string, unknown> => {
    const local = localBlock(ctx, s.zip_slug);
    const connections = Array.isArray(s.connections) ? s.connections.map(Number) : [];
    return { ...s, active: siteId > 0 && connections.includes(siteId), subscription_installed: local.installed, local };
  });
  const covered = new Set(remote.map((s) => s.zip_slug));
  const local = ctx.areas.all.filter((a) => !covered.has(a.id)).map((a) => localOnly(ctx, a.id));
  return [...remote, ...local].sort((a, b) => String(a.product_name).localeCompare(String(b.product_name)) || Number(a.expires ?? 0) - Number(b.expires ?? 0));
}

/** The subscription holding `productKey`. */
export async function findSubscription(ctx: AppContext, productKey: string): Promise<Record<string, unknown> | undefined> {
  if (productKey === '') return undefined;
  return (await subscriptions(ctx)).find((s) => s.product_key === productKey || (Array.isArray(s.product_keys_all) && s.product_keys_all.includes(productKey)));
}

/** After connect/disconnect the cached list is stale. */
export async function dropSubscriptionsCache(ctx: AppContext): Promise<void> {
  await ctx.options.delete(SUBSCRIPTIONS_CACHE);
}
