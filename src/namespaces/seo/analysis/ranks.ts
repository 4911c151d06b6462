/**
 * @module namespaces/seo/analysis/ranks
 * Score → rank (`WPSEO_Rank`): good 71–100, ok 41–70, bad 1–40, `na` without a score.
 */
export type Rank = 'good' | 'ok' | 'bad' | 'na';

export const RANK_ORDER: readonly Exclude<Rank, 'na'>[] = Object.freeze(['good', 'ok', 'bad']);

/** Score boundaries per rank, inclusive. */
export const RANK_RANGES: Readonly<Record<Exclude<Rank, 'na'>, readonly [number, number]>> = Object.freeze({
  bad: [1, 40],
  ok: [41, 70],
  good: [71, 100],
});

export function seoRank(score: number | null): Rank {
  if (score === null || score <= 0) return 'na';
  if (score <= 40) return 'bad';
  if (score <= 70) return 'ok';
  return 'good';
}

/** Readability: a 0 with a reading time is bad (the text was analysed and failed); without one it was not analysed. */
export function readabilityRank(score: number, readingTime: number): Rank {
  if (score <= 0) return readingTime > 0 ? 'bad' : 'na';
  return seoRank(score);
}

/** The overall score of assessments each rated 0–9 (negative ratings pull it down), as the original's assessor. */
export function overallScore(ratings: readonly number[]): number {
  if (ratings.length === 0) return 0;
  const total = ratings.reduce((a, b) => a + b, 0);
  return Math.max(0, Math.min(100, Math.round((total / (ratings.length * 9)) * 100)));
}
