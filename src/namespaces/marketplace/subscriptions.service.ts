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
    return list;
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    ctx.log.warn({ code: e.code }, 'marketplace subscriptions could not be loaded');
    await store(ctx, SUBSCRIPTIONS_CACHE, [], SUBSCRIPTIONS_FAILURE_TTL_MS);
    if (rethrow) throw e;
    return [];
  }
}

/** The first time the list is asked for while connected, the helper notes when (`Y-m-d H:i:s`, UTC). */
export async function noteSubscriptionsTabLoaded(ctx: AppContext): Promise<void> {
  if (!(await isConnected(ctx))) return;
  const helper = await helperData(ctx);
  if (helper.my_subscriptions_tab_loaded) return;
  const loaded = ctx.now().toISOString().slice(0, 19).replace('T', ' ');
  await ctx.options.set(HELPER_OPTION, { ...helper, my_subscriptions_tab_loaded: loaded });
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

/** This product's areas as installed products with no subscription: the original's keys first, in its order. */
function localOnly(ctx: AppContext, slug: string): Record<string, unknown> {
  const area = ctx.areas.get(slug)!;
  return {
    product_key: '', product_id: 0, product_name: area.title, product_url: '', zip_slug: area.id, documentation_url: '', key_type: '', key_type_label: '',
    lifetime: false, product_status: 'publish', connections: [], expires: 0, expired: true, expiring: false, sites_max: 0, sites_active: 0, autorenew: false,
    maxed: false, product_icon: '', product_slug: area.id, product_type: 'plugin', legacy_connections: [], shares: [], order_id: 0, product_keys_all: [],
    version: APP_VERSION, is_installable: false, is_shared: false, owner_email: '', has_changelog: false, active: false, local: localBlock(ctx, area.id),
  };
}

type Subscription = Record<string, unknown>;

/** Local-only entries have no marketplace product ID (0), so they are told apart by their slug. */
function sameProduct(a: Subscription, b: Subscription): boolean {
  const id = Number(a.product_id);
  return id > 0 ? id === Number(b.product_id) : Number(b.product_id) <= 0 && a.zip_slug === b.zip_slug;
}

/** Not connected here, not expired, and no other subscription of the product is. */
function isAvailable(sub: Subscription, all: Subscription[]): boolean {
  if (sub.active === true || sub.expired === true) return false;
  return !all.some((o) => o.active === true && sameProduct(o, sub));
}

/** Installed, and the one subscription of its product that stands for the installed copy. */
function isInstalled(sub: Subscription, all: Subscription[]): boolean {
  if ((sub.local as { installed: boolean }).installed !== true) return false;
  if (sub.active === true) return true;
  const same = all.filter((o) => sameProduct(o, sub));
  if (same.length <= 1) return true;
  if (same.some((o) => o.active === true)) return false;
  // CASE: several unconnected subscriptions of one installed product: the first one not maxed out (else the first) is it.
  const stand = same.find((o) => o.maxed === false) ?? same[0]!;
  return stand.product_key === sub.product_key;
}

/** Product names compared as the original's `strcasecmp`: case-insensitive, by code unit rather than locale. */
function byNameThenExpiry(a: Subscription, b: Subscription): number {
  const x = String(a.product_name ?? '').toLowerCase();
  const y = String(b.product_name ?? '').toLowerCase();
  return x < y ? -1 : x > y ? 1 : Number(a.expires ?? 0) - Number(b.expires ?? 0);
}

/** Remote subscriptions with their local block, plus installed products without one; by name, then expiry. */
export async function subscriptions(ctx: AppContext): Promise<Subscription[]> {
  const siteId = Number((await auth(ctx)).site_id ?? 0);
  const remote = (await remoteSubscriptions(ctx)).map((s): Subscription => {
    const connections = Array.isArray(s.connections) ? s.connections.map(Number) : [];
    // No update feed: the areas ship with this product, so none has an update of its own.
    return { ...s, active: siteId > 0 && connections.includes(siteId), local: localBlock(ctx, s.zip_slug), has_update: false };
  });
  const covered = new Set(remote.map((s) => s.zip_slug));
  const local = ctx.areas.all.filter((a) => !covered.has(a.id)).map((a) => ({ ...localOnly(ctx, a.id), has_update: false }));
  const all = [...remote, ...local].sort(byNameThenExpiry);
  return all.map((s) => ({ ...s, subscription_available: isAvailable(s, all), subscription_installed: isInstalled(s, all) }));
}

/** The subscription whose own key is `productKey` (as the original, a key of the same product listed under `product_keys_all` does not count). */
export async function findSubscription(ctx: AppContext, productKey: string): Promise<Subscription | undefined> {
  if (productKey === '') return undefined;
  return (await subscriptions(ctx)).find((s) => s.product_key === productKey);
}

/** After connect/disconnect the cached list is stale. */
export async function dropSubscriptionsCache(ctx: AppContext): Promise<void> {
  await ctx.options.delete(SUBSCRIPTIONS_CACHE);
}
