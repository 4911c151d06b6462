/**
 * @module namespaces/seo/analysis/analyse.job
 * The `seo.analyse` job: scores every post of the analysed types whose content changed since its
 * last analysis (its `modified_gmt` differs from the one the scores were computed from), in batches.
 * Idempotent: running it twice computes nothing new. Readers enqueue it when they see stale posts.
 */
import type { AppContext } from '../../../app-context.js';
import type { Db } from '../../../storage/db.js';
import { yieldToEventLoop } from '../../../jobs/yield.js';
import { getPostMeta, META_KEYS } from '../store.js';
import { toGmt } from '../time.js';
import { assessReadability } from './readability.js';
import { assessSeo } from './seo-assessor.js';

export const ANALYSE_JOB = 'seo.analyse';

/** Post types the dashboard scores: this site's public content types. */
export const ANALYSED_TYPES: readonly string[] = Object.freeze(['tribe_events', 'tribe_venue', 'tribe_organizer', 'page', 'post']);

const ANALYSED_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];
const BATCH = 200;

/** Posts whose stored scores are missing or older than their content (at most `limit`, IDs after `afterId`). */
export async function stalePostIds(db: Db, limit: number, onlyIds?: readonly number[], afterId = 0): Promise<number[]> {
  let q = db
    .selectFrom('posts as p')
    .leftJoin('seo_scores as s', 's.post_id', 'p.id')
    .select('p.id')
    .where('p.id', '>', afterId)
    .where('p.type', 'in', [...ANALYSED_TYPES])
    .where('p.status', 'in', ANALYSED_STATUSES)
    .where((eb) => eb.or([eb('s.post_id', 'is', null), eb('s.analysed_modified', '<>', eb.ref('p.modified_gmt'))]))
    .orderBy('p.id')
    .limit(limit);
  if (onlyIds) q = q.where('p.id', 'in', onlyIds.length ? [...onlyIds] : [0]);
  return (await q.execute()).map((r) => r.id);
}

/** Analyses the given posts now and stores their scores. */
export async function analysePosts(ctx: AppContext, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const posts = await ctx.db.selectFrom('posts').select(['id', 'title', 'slug', 'content', 'excerpt', 'modified_gmt']).where('id', 'in', [...ids]).execute();
  const meta = await getPostMeta(ctx.db, ids);
  const now = toGmt(ctx.now());
  for (const p of posts) {
    const m = meta.get(p.id) ?? {};
    const seo = assessSeo({
      keyphrase: m[META_KEYS.focusKeyphrase] ?? '',
      title: m[META_KEYS.title] || p.title,
      slug: p.slug,
      content: p.content,
      metaDescription: m[META_KEYS.metaDescription] ?? '',
      home: ctx.urls.home,
    });
    const readability = assessReadability(p.content);
    const row = {
      seo_score: seo.score,
      readability_score: readability.score,
      reading_time: readability.readingTime,
      analysed_modified: p.modified_gmt,
      analysed_gmt: now,
    };
    await ctx.db
      .insertInto('seo_scores')
      .values({ post_id: p.id, ...row })
      .onConflict((oc) => oc.column('post_id').doUpdateSet(row))
      .execute();
  }
}

/** The job handler: payload `{ postIds?: number[] }` limits it to those posts. */
export async function runAnalyseJob(ctx: AppContext, payload: unknown): Promise<void> {
  const only = Array.isArray((payload as { postIds?: unknown })?.postIds)
    ? ((payload as { postIds: unknown[] }).postIds.map(Number).filter(Number.isInteger) as number[])
    : undefined;
  // Batches go on from the last ID analysed, so each reads past the analysed posts once (a post changed
  // meanwhile behind it is stale for the next run); requests get their turn between batches.
  for (let after = 0; ; ) {
    const ids = await stalePostIds(ctx.db, BATCH, only, after);
    if (ids.length === 0) return;
    await analysePosts(ctx, ids);
    if (ids.length < BATCH) return;
    after = ids[ids.length - 1]!;
    await yieldToEventLoop();
  }
}

/**
 * Queues an analysis on the jobs runner: of `postIds`, or of every stale post (at most one such job
 * per minute, whoever asks).
 */
export async function requestAnalysis(ctx: AppContext, postIds?: readonly number[]): Promise<void> {
  if (postIds) {
    await ctx.jobs.enqueue(ANALYSE_JOB, { postIds: [...postIds] });
    return;
  }
  const minute = Math.floor(ctx.now().getTime() / 60_000);
  await ctx.jobs.enqueue(ANALYSE_JOB, {}, { dedupeKey: `${ANALYSE_JOB}:stale:${minute}` });
}

/** True when some analysed post has no current scores. */
export async function hasStalePosts(db: Db): Promise<boolean> {
  return (await stalePostIds(db, 1)).length > 0;
}
