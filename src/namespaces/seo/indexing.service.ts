/**
 * @module namespaces/seo/indexing.service
 * Builds the indexables table in batches (posts, terms, post type archives, general pages) and
 * records the links between posts. Each call indexes at most one batch of objects that have no
 * indexable yet, so a client repeats it until a batch comes back short.
 */
import type { AppContext } from '../../app-context.js';
import { pathSegment } from '../../config.js';
import { CATEGORY_TAXONOMY, TAG_TAXONOMY } from '../events/index.js';
import { permalinkFor } from '../oembed/index.js';
import { ANALYSED_TYPES } from './analysis/analyse.job.js';
import { links } from './analysis/text.js';
import { getPostMeta, META_KEYS } from './store.js';
import { toGmt } from './time.js';

/** The original's batch sizes. */
export const INDEXING_LIMITS = Object.freeze({ posts: 25, terms: 25, archives: 25, general: 4, links: 5 });

const INDEXED_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];
export const INDEXED_TAXONOMIES: readonly string[] = Object.freeze([CATEGORY_TAXONOMY, TAG_TAXONOMY]);

/** Archive URL of each post type that has one. */
export const ARCHIVES: Readonly<Record<string, { path: string; title: string }>> = Object.freeze({
  tribe_events: { path: '/events/', title: 'Events' },
});

export interface IndexableObject {
  id: number;
  object_type: string;
  object_sub_type: string | null;
  object_id: number | null;
  permalink: string;
  breadcrumb_title: string;
  is_public: boolean;
}

type NewIndexable = { object_type: string; object_sub_type: string; object_id: number; permalink: string; breadcrumb_title: string; is_public: number };

async function insertIndexables(ctx: AppContext, rows: NewIndexable[]): Promise<IndexableObject[]> {
  const now = toGmt(ctx.now());
  const out: IndexableObject[] = [];
  for (const row of rows) {
    const inserted = await ctx.db
      .insertInto('seo_indexables')
      .values({ ...row, links_indexed: 0, updated_gmt: now })
      .onConflict((oc) => oc.columns(['object_type', 'object_sub_type', 'object_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) continue;
    out.push({
      id: inserted.id,
      object_type: row.object_type,
      object_sub_type: row.object_sub_type || null,
      object_id: row.object_id || null,
      permalink: row.permalink,
      breadcrumb_title: row.breadcrumb_title,
      is_public: row.is_public === 1,
    });
  }
  return out;
}

export function termPermalink(ctx: AppContext, taxonomy: string, slug: string): string {
  return taxonomy === CATEGORY_TAXONOMY ? `${ctx.urls.home}/events/category/${pathSegment(slug)}/` : `${ctx.urls.home}/tag/${pathSegment(slug)}/`;
}

export async function indexPosts(ctx: AppContext, limit = INDEXING_LIMITS.posts): Promise<IndexableObject[]> {
  const posts = await ctx.db
    .selectFrom('posts as p')
    .select(['p.id', 'p.type', 'p.slug', 'p.title', 'p.status', 'p.password'])
    .where('p.type', 'in', [...ANALYSED_TYPES])
    .where('p.status', 'in', INDEXED_STATUSES)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('seo_indexables as i').select('i.id').where('i.object_type', '=', 'post').whereRef('i.object_sub_type', '=', 'p.type').whereRef('i.object_id', '=', 'p.id'))))
    .orderBy('p.id')
    .limit(limit)
    .execute();
  const meta = await getPostMeta(ctx.db, posts.map((p) => p.id));
  return insertIndexables(ctx, posts.map((p) => ({
    object_type: 'post',
    object_sub_type: p.type,
    object_id: p.id,
    permalink: permalinkFor(ctx, p),
    breadcrumb_title: p.title,
    is_public: p.status === 'publish' && p.password === '' && meta.get(p.id)?.[META_KEYS.noindex] !== '1' ? 1 : 0,
  })));
}

export async function indexTerms(ctx: AppContext, limit = INDEXING_LIMITS.terms): Promise<IndexableObject[]> {
  const terms = await ctx.db
    .selectFrom('terms as t')
    .select(['t.id', 't.taxonomy', 't.slug', 't.name'])
    .where('t.taxonomy', 'in', [...INDEXED_TAXONOMIES])
    .where((eb) => eb.not(eb.exists(eb.selectFrom('seo_indexables as i').select('i.id').where('i.object_type', '=', 'term').whereRef('i.object_sub_type', '=', 't.taxonomy').whereRef('i.object_id', '=', 't.id'))))
    .orderBy('t.id')
    .limit(limit)
    .execute();
  return insertIndexables(ctx, terms.map((t) => ({
    object_type: 'term', object_sub_type: t.taxonomy, object_id: t.id, permalink: termPermalink(ctx, t.taxonomy, t.slug), breadcrumb_title: t.name, is_public: 1,
  })));
}

export async function indexArchives(ctx: AppContext, limit = INDEXING_LIMITS.archives): Promise<IndexableObject[]> {
  const existing = new Set(
    (await ctx.db.selectFrom('seo_indexables').select('object_sub_type').where('object_type', '=', 'post-type-archive').execute()).map((r) => r.object_sub_type),
  );
  const todo = Object.entries(ARCHIVES).filter(([type]) => !existing.has(type) && ctx.areas.postTypes.get(type)).slice(0, limit);
  return insertIndexables(ctx, todo.map(([type, a]) => ({
    object_type: 'post-type-archive', object_sub_type: type, object_id: 0, permalink: `${ctx.urls.home}${a.path}`, breadcrumb_title: a.title, is_public: 1,
  })));
}

export async function indexGeneral(ctx: AppContext, limit = INDEXING_LIMITS.general): Promise<IndexableObject[]> {
  const name = String(await ctx.options.get('blogname'));
  const wanted: NewIndexable[] = [
    { object_type: 'home-page', object_sub_type: '', object_id: 0, permalink: `${ctx.urls.home}/`, breadcrumb_title: name, is_public: 1 },
    { object_type: 'system-page', object_sub_type: 'search-result', object_id: 0, permalink: '', breadcrumb_title: 'Search', is_public: 0 },
    { object_type: 'system-page', object_sub_type: '404', object_id: 0, permalink: '', breadcrumb_title: 'Page not found', is_public: 0 },
    { object_type: 'date-archive', object_sub_type: '', object_id: 0, permalink: '', breadcrumb_title: 'Archives', is_public: 0 },
  ];
  const existing = await ctx.db.selectFrom('seo_indexables').select(['object_type', 'object_sub_type']).where('object_type', 'in', ['home-page', 'system-page', 'date-archive']).execute();
  const have = new Set(existing.map((e) => `${e.object_type}/${e.object_sub_type}`));
  return insertIndexables(ctx, wanted.filter((w) => !have.has(`${w.object_type}/${w.object_sub_type}`)).slice(0, limit));
}

/** The post a URL of this site points to, when it is a permalink the indexables know. */
async function targetsByPermalink(ctx: AppContext, urls: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (urls.length === 0) return out;
  const rows = await ctx.db.selectFrom('seo_indexables').select(['permalink', 'object_id']).where('object_type', '=', 'post').where('permalink', 'in', urls).execute();
  for (const r of rows) out.set(r.permalink, r.object_id);
  return out;
}

/** Records the links of one batch of indexed objects whose links are not recorded yet. */
export async function indexLinks(ctx: AppContext, source: 'post' | 'term', limit = INDEXING_LIMITS.links): Promise<{ id: number; type: string }[]> {
  const pending = await ctx.db
    .selectFrom('seo_indexables')
    .select(['id', 'object_id'])
    .where('object_type', '=', source)
    .where('links_indexed', '=', 0)
    .orderBy('id')
    .limit(limit)
    .execute();
  if (pending.length === 0) return [];
  const ids = pending.map((p) => p.object_id);
  const texts = source === 'post'
    ? await ctx.db.selectFrom('posts').select(['id', 'content as text']).where('id', 'in', ids).execute()
    : await ctx.db.selectFrom('terms').select(['id', 'description as text']).where('id', 'in', ids).execute();
  const home = new URL(ctx.urls.home);
  const processed: { id: number; type: string }[] = [];
  for (const item of texts) {
    const found = links(item.text).flatMap((l) => {
      try {
        const u = new URL(l.href, `${ctx.urls.home}/`);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') return [];
        return [{ url: u.toString(), internal: u.host === home.host }];
      } catch {
        return [];
      }
    });
    const targets = await targetsByPermalink(ctx, found.filter((f) => f.internal).map((f) => f.url));
    await ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('seo_links').where('source_type', '=', source).where('source_id', '=', item.id).execute();
      for (const f of found) {
        await trx.insertInto('seo_links').values({
          source_type: source, source_id: item.id, url: f.url, link_type: f.internal ? 'internal' : 'external', target_post_id: targets.get(f.url) ?? null,
        }).execute();
      }
    });
    processed.push({ id: item.id, type: source });
  }
  await ctx.db.updateTable('seo_indexables').set({ links_indexed: 1 }).where('id', 'in', pending.map((p) => p.id)).execute();
  return processed;
}
