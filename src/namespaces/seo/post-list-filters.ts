/**
 * @module namespaces/seo/post-list-filters
 * The posts screen's `seo_filter` and `readability_filter` (the links of the score groups and the
 * statistics widget): a rank selects the posts whose stored score has it, `noindex` the posts kept
 * out of search results.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { PostListFilter } from '../../admin/posts.page.js';
import { RANK_RANGES, type Rank } from './analysis/ranks.js';
import { META_KEYS } from './store.js';

type Condition = (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>;

const scoreOf = (eb: ExpressionBuilder<any, any>, where: string) =>
  eb.exists(eb.selectFrom('seo_scores as s').select('s.post_id').whereRef('s.post_id', '=', 'p.id').where(sql<SqlBool>`(${sql.raw(where)})`));

function inRange(column: string, rank: Exclude<Rank, 'na'>): string {
  const [lo, hi] = RANK_RANGES[rank];
  return `s.${column} >= ${lo} AND s.${column} <= ${hi}`;
}

const isRank = (v: string): v is Rank => v === 'good' || v === 'ok' || v === 'bad' || v === 'na';

const seoFilter: PostListFilter = {
  param: 'seo_filter',
  label: 'SEO score',
  condition(value): Condition | undefined {
    if (value === 'noindex') {
      return (eb) => eb.exists(eb.selectFrom('seo_post_meta as n').select('n.post_id').whereRef('n.post_id', '=', 'p.id').where('n.meta_key', '=', META_KEYS.noindex).where('n.meta_value', '=', '1'));
    }
    if (!isRank(value)) return undefined;
    if (value === 'na') return (eb) => eb.not(scoreOf(eb, 's.seo_score > 0'));
    return (eb) => scoreOf(eb, inRange('seo_score', value));
  },
};

const readabilityFilter: PostListFilter = {
  param: 'readability_filter',
  label: 'Readability score',
  condition(value): Condition | undefined {
    if (!isRank(value)) return undefined;
    // A 0 with a reading time is bad (analysed and failed); without one it was not analysed.
    if (value === 'na') return (eb) => eb.not(scoreOf(eb, 's.readability_score > 0 OR s.reading_time > 0'));
    if (value === 'bad') return (eb) => scoreOf(eb, `(${inRange('readability_score', 'bad')}) OR (s.readability_score <= 0 AND s.reading_time > 0)`);
    return (eb) => scoreOf(eb, inRange('readability_score', value));
  },
};

export const SEO_POST_LIST_FILTERS: readonly PostListFilter[] = Object.freeze([seoFilter, readabilityFilter]);
