/**
 * @module namespaces/seo/scores.service
 * The dashboard's score groups (`seo_scores`, `readability_scores`) and the per-user statistics
 * widget, read from the stored analysis results.
 */
import type { AppContext } from '../../app-context.js';
import type { RestUser } from '../../rest/route.js';
import { CATEGORY_TAXONOMY } from '../events/index.js';
import { ANALYSED_TYPES, hasStalePosts, requestAnalysis } from './analysis/analyse.job.js';
import { readabilityRank, seoRank, type Rank } from './analysis/ranks.js';
import { SEO_MESSAGES } from './errors.js';
import { META_KEYS } from './store.js';

export type ScoreKind = 'seo' | 'readability';

/** Filtering taxonomy per content type (the taxonomy the dashboard may narrow by). */
export const FILTERING_TAXONOMY: Readonly<Record<string, string>> = Object.freeze({ tribe_events: CATEGORY_TAXONOMY });

export class ScoreRequestError extends Error {}

interface ScoredPost {
  id: number;
  seo: number | null;
  readability: number;
  readingTime: number;
  noindex: boolean;
}

async function scoredPosts(ctx: AppContext, types: readonly string[], filter: { termId?: number; author?: number } = {}): Promise<ScoredPost[]> {
  let q = ctx.db
    .selectFrom('posts as p')
    .leftJoin('seo_scores as s', 's.post_id', 'p.id')
    .leftJoin('seo_post_meta as n', (j) => j.onRef('n.post_id', '=', 'p.id').on('n.meta_key', '=', META_KEYS.noindex))
    .select(['p.id', 's.seo_score', 's.readability_score', 's.reading_time', 'n.meta_value as noindex'])
    .where('p.type', 'in', [...types])
    .where('p.status', '=', 'publish')
    .orderBy('p.id');
  if (filter.termId !== undefined) {
    const termId = filter.termId;
    q = q.where((eb) => eb.exists(eb.selectFrom('term_relationships as tr').select('tr.post_id').whereRef('tr.post_id', '=', 'p.id').where('tr.term_id', '=', termId)));
  }
  if (filter.author !== undefined) q = q.where('p.author', '=', filter.author);
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.id,
    seo: r.seo_score === null || r.seo_score === undefined ? null : Number(r.seo_score),
    readability: Number(r.readability_score ?? 0),
    readingTime: Number(r.reading_time ?? 0),
    noindex: r.noindex === '1',
  }));
}

export interface ScoreQuery {
  contentType: string;
  taxonomy: string;
  term: number | null;
  troubleshooting: boolean;
}

/** Checks the request as the original does; the message is sent as `{"error": …}` with 400. */
async function resolveFilter(ctx: AppContext, q: ScoreQuery): Promise<{ term?: { id: number; slug: string; taxonomy: string } }> {
  if (!ANALYSED_TYPES.includes(q.contentType) || !ctx.areas.postTypes.get(q.contentType)) throw new ScoreRequestError(SEO_MESSAGES.invalidContentType);
  const taxonomy = q.taxonomy === '' ? null : q.taxonomy;
  if (taxonomy !== null && FILTERING_TAXONOMY[q.contentType] !== taxonomy) throw new ScoreRequestError(SEO_MESSAGES.invalidTaxonomy);
  if (q.term !== null && taxonomy === null) throw new ScoreRequestError(SEO_MESSAGES.termWithoutTaxonomy);
  if (q.term === null && taxonomy !== null) throw new ScoreRequestError(SEO_MESSAGES.taxonomyWithoutTerm);
  if (q.term === null || taxonomy === null) return {};
  const term = await ctx.db.selectFrom('terms').select(['id', 'slug', 'taxonomy']).where('id', '=', q.term).executeTakeFirst();
  if (!term || term.taxonomy !== taxonomy) throw new ScoreRequestError(SEO_MESSAGES.invalidTerm);
  return { term };
}

const GROUP_NAMES: readonly [Rank, string][] = [['good', 'good'], ['ok', 'ok'], ['bad', 'bad'], ['na', 'notAnalyzed']];

export async function scoreGroups(ctx: AppContext, kind: ScoreKind, q: ScoreQuery) {
  const started = process.hrtime.bigint();
  const { term } = await resolveFilter(ctx, q);
  // Scores are computed in the background; a stale post is counted with what is stored until then.
  if (await hasStalePosts(ctx.db)) await requestAnalysis(ctx);
  const posts = await scoredPosts(ctx, [q.contentType], term ? { termId: term.id } : {});
  const rankOf = (p: ScoredPost): Rank => (kind === 'seo' ? seoRank(p.seo) : readabilityRank(p.readability, p.readingTime));
  const filterKey = kind === 'seo' ? 'seo_filter' : 'readability_filter';
  const scores = GROUP_NAMES.map(([rank, name]) => {
    const members = posts.filter((p) => rankOf(p) === rank);
    const view = new URL(`${ctx.urls.admin}edit.php`);
    view.searchParams.set('post_status', 'publish');
    view.searchParams.set('post_type', q.contentType);
    view.searchParams.set(filterKey, rank);
    if (term) view.searchParams.set(term.taxonomy, term.slug);
    const group: Record<string, unknown> = { name, amount: members.length, links: { view: view.toString() } };
    if (q.troubleshooting && members.length > 0) group.ids = members.map((m) => m.id).join(',');
    return group;
  });
  const queryTime = Number(process.hrtime.bigint() - started) / 1e9;
  return { scores, queryTime: Math.round(queryTime * 1e4) / 1e4, cacheUsed: false };
}

const STAT_LABELS: Readonly<Record<string, string>> = Object.freeze({
  na: 'Posts <strong>without</strong> a focus keyphrase',
  bad: 'Posts with the SEO score: <strong>needs improvement</strong>',
  ok: 'Posts with the SEO score: <strong>OK</strong>',
  good: 'Posts with the SEO score: <strong>good</strong>',
  noindex: 'Posts that should not show up in search results',
});

const STAT_HEADERS = {
  none: 'You don\'t have any published posts, your SEO scores will appear here once you make your first post!',
  some: 'Below are your published posts\' SEO scores. Now is as good a time as any to start improving some of your posts!',
} as const;

/** The statistics widget for `user`: their own posts unless they may edit others'. */
export async function statistics(ctx: AppContext, user: RestUser) {
  const own = !user.can('edit_others_posts');
  const posts = await scoredPosts(ctx, ANALYSED_TYPES, own ? { author: user.id } : {});
  const counts = new Map<string, number>();
  for (const p of posts) {
    const rank = p.noindex ? 'noindex' : seoRank(p.seo);
    counts.set(rank, (counts.get(rank) ?? 0) + 1);
  }
  const seo_scores = ['na', 'bad', 'ok', 'good', 'noindex']
    .filter((r) => (counts.get(r) ?? 0) > 0)
    .map((r) => ({
      seo_rank: r,
      label: STAT_LABELS[r],
      count: counts.get(r)!,
      // As the original, a user who may not edit others' posts is sent to their own.
      link: `${ctx.urls.admin}edit.php?post_status=publish&post_type=tribe_events&seo_filter=${r}${own ? `&author=${user.id}` : ''}`,
    }));
  return { header: posts.length === 0 ? STAT_HEADERS.none : STAT_HEADERS.some, seo_scores };
}
