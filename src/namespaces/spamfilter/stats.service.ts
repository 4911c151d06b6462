/**
 * @module namespaces/spamfilter/stats.service
 * `stats` from the recorded checks (when no remote service is configured): caught spam, ham, missed
 * spam, false positives, accuracy and a breakdown over the interval, shaped as the service's
 * `get-stats` answers (Automattic/akismet-api `spec.yml`): by day for `60-days`, by month for
 * `6-months`, by year for `all`, each period with its first day as `da`.
 */
import type { AppContext } from '../../app-context.js';
import { gmt } from './settings.js';

export const INTERVALS = Object.freeze(['60-days', '6-months', 'all'] as const);
export type Interval = (typeof INTERVALS)[number];

/** The original's `sanitize_interval`: trimmed; anything else is `all`. */
export function normaliseInterval(value: unknown): Interval {
  const v = typeof value === 'string' ? value.trim() : '';
  return (INTERVALS as readonly string[]).includes(v) ? (v as Interval) : 'all';
}

interface Counts {
  spam: number;
  ham: number;
  missed_spam: number;
  false_positives: number;
}

function since(interval: Interval, now: Date): string | undefined {
  if (interval === 'all') return undefined;
  const d = new Date(now);
  if (interval === '60-days') d.setUTCDate(d.getUTCDate() - 60);
  else d.setUTCMonth(d.getUTCMonth() - 6);
  return gmt(d);
}

function tally(c: Counts, verdict: string, actual: string | null): void {
  if (verdict === 'spam' && actual === 'ham') c.false_positives++;
  else if (verdict === 'ham' && actual === 'spam') c.missed_spam++;
  else if (verdict === 'spam') c.spam++;
  else c.ham++;
}

/** The breakdown period of a `YYYY-MM-DD HH:MM:SS` time: its key and its first day (`da`). */
function period(interval: Interval, time: string): { key: string; da: string } {
  if (interval === '60-days') return { key: time.slice(0, 10), da: time.slice(0, 10) };
  if (interval === '6-months') return { key: time.slice(0, 7), da: `${time.slice(0, 7)}-01` };
  return { key: time.slice(0, 4), da: `${time.slice(0, 4)}-01-01` };
}

/** Figures of the local history over `interval`. */
export async function localStats(ctx: AppContext, interval: Interval): Promise<Record<string, unknown>> {
  let q = ctx.db.selectFrom('spamfilter_checks').select(['verdict', 'actual', 'created_gmt']);
  const from = since(interval, ctx.now());
  if (from) q = q.where('created_gmt', '>=', from);
  const rows = await q.orderBy('created_gmt').execute();
  const total: Counts = { spam: 0, ham: 0, missed_spam: 0, false_positives: 0 };
  const breakdown: Record<string, Counts & { da: string }> = {};
  for (const r of rows) {
    tally(total, r.verdict, r.actual);
    const { key, da } = period(interval, r.created_gmt);
    tally((breakdown[key] ??= { spam: 0, ham: 0, missed_spam: 0, false_positives: 0, da }), r.verdict, r.actual);
  }
  const checked = rows.length;
  const wrong = total.missed_spam + total.false_positives;
  const accuracy = checked === 0 ? 100 : Math.round(((checked - wrong) / checked) * 1000) / 10;
  return { ...total, accuracy, breakdown };
}
