/**
 * @module namespaces/seo/store
 * Where the SEO area keeps its state: site settings (the original's `wpseo` option keys, each an
 * option `seo_<key>`), per-user values (the original's user meta), post custom fields and a small
 * expiring cache.
 */
import type { AppContext } from '../../app-context.js';
import type { Db } from '../../storage/db.js';
import { toGmt } from './time.js';

/** Defaults of the `wpseo` keys this area reads (`WPSEO_Option_Wpseo`, `WPSEO_Option_Titles`, `WPSEO_Option_Social`). */
export const SEO_DEFAULTS = Object.freeze({
  company_or_person: 'company',
  company_name: '',
  website_name: '',
  company_logo: '',
  company_logo_id: 0,
  company_logo_meta: false,
  person_logo: '',
  person_logo_id: 0,
  person_logo_meta: false,
  company_or_person_user_id: false,
  facebook_site: '',
  twitter_site: '',
  other_social_urls: [] as string[],
  tracking: false,
  toggled_tracking: false,
  configuration_finished_steps: [] as string[],
  first_time_install: true,
  new_post_types: [] as string[],
  new_taxonomies: [] as string[],
  semrush_integration_active: true,
  wincher_integration_active: true,
  semrush_country_code: 'us',
  semrush_tokens: [] as unknown,
  wincher_tokens: [] as unknown,
  wincher_website_id: '',
  workouts_data: { configuration: { finishedSteps: [] as string[] } },
  indexables_indexing_completed: false,
  indexing_started: null as number | null,
  indexing_reason: '',
  enable_headless_rest_endpoints: true,
} as const);

export type SeoKey = keyof typeof SEO_DEFAULTS;

const optionName = (key: string) => `seo_${key}`;

/** A `wpseo` key. */
export async function getSeoOption<T = unknown>(ctx: AppContext, key: SeoKey | string): Promise<T> {
  const fallback = (SEO_DEFAULTS as Record<string, unknown>)[key];
  const value = await ctx.options.get<unknown>(optionName(key), null);
  return (value === null || value === undefined ? fallback : value) as T;
}

export async function setSeoOption(ctx: AppContext, key: SeoKey | string, value: unknown): Promise<void> {
  await ctx.options.set(optionName(key), value);
}

// ---- per-user values ---------------------------------------------------------------------------

export async function getUserValue<T>(db: Db, userId: number, name: string, fallback: T): Promise<T> {
  const row = await db.selectFrom('seo_user_meta').select('value').where('user_id', '=', userId).where('name', '=', name).executeTakeFirst();
  return row ? (JSON.parse(row.value) as T) : fallback;
}

export async function setUserValue(db: Db, userId: number, name: string, value: unknown): Promise<void> {
  const text = JSON.stringify(value);
  await db
    .insertInto('seo_user_meta')
    .values({ user_id: userId, name, value: text })
    .onConflict((oc) => oc.columns(['user_id', 'name']).doUpdateSet({ value: text }))
    .execute();
}

// ---- post custom fields ------------------------------------------------------------------------

/** The SEO custom fields of posts (the original's `_yoast_wpseo_*` meta keys). */
export const META_KEYS = Object.freeze({
  focusKeyphrase: '_yoast_wpseo_focuskw',
  metaDescription: '_yoast_wpseo_metadesc',
  title: '_yoast_wpseo_title',
  noindex: '_yoast_wpseo_meta-robots-noindex',
  canonical: '_yoast_wpseo_canonical',
});

export async function getPostMeta(db: Db, postIds: readonly number[]): Promise<Map<number, Record<string, string>>> {
  const out = new Map<number, Record<string, string>>();
  if (postIds.length === 0) return out;
  const rows = await db.selectFrom('seo_post_meta').selectAll().where('post_id', 'in', [...postIds]).execute();
  for (const r of rows) {
    const m = out.get(r.post_id) ?? {};
    m[r.meta_key] = r.meta_value;
    out.set(r.post_id, m);
  }
  return out;
}

export async function setPostMeta(db: Db, postId: number, values: Record<string, string>): Promise<void> {
  for (const [meta_key, meta_value] of Object.entries(values)) {
    await db
      .insertInto('seo_post_meta')
      .values({ post_id: postId, meta_key, meta_value })
      .onConflict((oc) => oc.columns(['post_id', 'meta_key']).doUpdateSet({ meta_value }))
      .execute();
  }
}

// ---- expiring cache ----------------------------------------------------------------------------

export async function cacheGet<T>(ctx: AppContext, key: string): Promise<T | undefined> {
  const row = await ctx.db.selectFrom('seo_cache').select(['value', 'expires_gmt']).where('cache_key', '=', key).executeTakeFirst();
  if (!row || row.expires_gmt <= toGmt(ctx.now())) return undefined;
  return JSON.parse(row.value) as T;
}

export async function cacheSet(ctx: AppContext, key: string, value: unknown, ttlSeconds: number): Promise<void> {
  const text = JSON.stringify(value);
  const expires = toGmt(new Date(ctx.now().getTime() + ttlSeconds * 1000));
  await ctx.db
    .insertInto('seo_cache')
    .values({ cache_key: key, value: text, expires_gmt: expires })
    .onConflict((oc) => oc.column('cache_key').doUpdateSet({ value: text, expires_gmt: expires }))
    .execute();
}

export async function cacheDelete(ctx: AppContext, key: string): Promise<void> {
  await ctx.db.deleteFrom('seo_cache').where('cache_key', '=', key).execute();
}
