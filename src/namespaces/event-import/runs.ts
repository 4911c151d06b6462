/**
 * @module namespaces/event-import/runs
 * Imports that run here: a record's source (an .ics or CSV file, or a URL) is read, parsed and fed to
 * {@link applyItems}; the record carries the progress (`percentage_complete`), the outcome and the
 * activity. Scheduled records (hourly, daily, weekly) run through the jobs runner: each run is a record
 * of its own under the schedule; a failing source marks the run failed with the reason and is retried
 * with backoff (5 minutes, doubling, never later than the schedule's next regular run).
 */
import fs from 'node:fs/promises';
import type { AppContext } from '../../app-context.js';
import { siteTimeZone, siteTimeZoneSetting } from '../../content/posts.js';
import { RemoteRequestError, safeHttpGet } from '../../remote/oembed-client.js';
import type { RestUser } from '../../rest/route.js';
import { parseIcs } from '../events/ical/index.js';
import { parseEventsCsv } from './csv.js';
import { fromIcsFields, type ImportedItem, type SkippedItem } from './fields.js';
import { applyItems, type ApplyResult } from './import.service.js';
import { gmt, insertRecord, mergeActivity, updateRecord, type Frequency, type ImportRecord, type Origin } from './records.repo.js';

/** Largest file fetched from a URL. */
const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;
export const FREQUENCY_MS: Record<Exclude<Frequency, 'on_demand'>, number> = { hourly: 3_600_000, daily: 86_400_000, weekly: 7 * 86_400_000 };
/** First retry of a failed scheduled run; doubles with each further failure. */
export const RETRY_BASE_MS = 5 * 60_000;

/** Why a source could not be imported (unreadable, unreachable, not an events file). */
export class SourceError extends Error {
  constructor(readonly slug: 'unreadable_source' | 'fetch_failed' | 'invalid_source', message: string) {
    super(message);
    this.name = 'SourceError';
  }
}

async function loadText(ctx: AppContext, origin: Origin, source: string): Promise<string> {
  if (origin === 'url' || /^(https?|webcal):\/\//i.test(source)) {
    const url = source.replace(/^webcal:/i, 'https:');
    let res;
    try {
      res = await safeHttpGet(url, { allowPrivateNetwork: ctx.config.environment === 'local', timeoutMs: 30_000, maxBytes: MAX_DOWNLOAD_BYTES, headers: { accept: 'text/calendar, text/csv, */*;q=0.5' } });
    } catch (e) {
      if (e instanceof RemoteRequestError) throw new SourceError('fetch_failed', `could not fetch ${url}: ${e.message}`);
      throw e;
    }
    if (res.status !== 200) throw new SourceError('fetch_failed', `could not fetch ${url}: HTTP ${res.status}`);
    return res.body;
  }
  try {
    return await fs.readFile(source, 'utf8');
  } catch (e) {
    throw new SourceError('unreadable_source', `cannot read ${source}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(e)}`);
  }
}

/** The items of a source's text: iCalendar when it starts like one, CSV otherwise. */
export async function itemsOfText(ctx: AppContext, text: string, origin: Origin = 'url'): Promise<{ items: ImportedItem[]; skipped: SkippedItem[] }> {
  if (origin === 'ics' || (origin !== 'csv' && /^\uFEFF?\s*BEGIN:/i.test(text))) {
    const [siteZone, siteTimezone] = [await siteTimeZone(ctx.options), await siteTimeZoneSetting(ctx.options)];
    try {
      const parsed = parseIcs(text, { now: ctx.now(), siteZone, siteTimezone });
      return { items: parsed.items.map((i) => ({ key: i.key, fields: fromIcsFields(i.fields) })), skipped: parsed.skipped };
    } catch (e) {
      throw new SourceError('invalid_source', e instanceof Error ? e.message : String(e));
    }
  }
  try {
    return parseEventsCsv(text);
  } catch (e) {
    throw new SourceError('invalid_source', (e as Error).message);
  }
}

export interface RunOptions {
  user?: RestUser;
  onProgress?: (done: number, total: number) => void;
}

export interface RunResult extends Omit<ApplyResult, 'activity'> {
  record: string;
  status: 'success' | 'failed';
  message: string;
}

/**
 * Runs a one-off record (status draft, pending after a crash, failed, or success to run again):
 * pending while it runs, then success or failed with the reason. Never throws for a bad source.
 */
export async function runRecord(ctx: AppContext, record: ImportRecord, options: RunOptions = {}): Promise<RunResult> {
  const base = { record: record.id, created: 0, updated: 0, unchanged: 0, skipped: [] as SkippedItem[] };
  await updateRecord(ctx.db, record.id, { status: 'pending', message: '', messageSlug: '' }, ctx.now());
  let parsed;
  try {
    parsed = await itemsOfText(ctx, await loadText(ctx, record.origin, record.source), record.origin);
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    await updateRecord(ctx.db, record.id, { status: 'failed', message: e.message, messageSlug: e.slug }, ctx.now());
    return { ...base, status: 'failed', message: e.message };
  }
  await updateRecord(ctx.db, record.id, { totalEvents: parsed.items.length }, ctx.now());
  let lastPercent = -1;
  const result = await applyItems(ctx, record.id, parsed.items, {
    ...(options.user ? { user: options.user } : {}),
    onProgress: async (done, total) => {
      options.onProgress?.(done, total);
      const percent = total === 0 ? 100 : Math.floor((done * 100) / total);
      if (percent !== lastPercent && percent < 100) {
        lastPercent = percent;
        await updateRecord(ctx.db, record.id, { percentageComplete: percent }, ctx.now());
      }
    },
  });
  const skipped = [...parsed.skipped, ...result.skipped];
  const message = `${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged, ${skipped.length} skipped`;
  await updateRecord(ctx.db, record.id, { status: 'success', percentageComplete: 100, activity: mergeActivity(record.activity, result.activity), message, messageSlug: 'success' }, ctx.now());
  return { ...base, created: result.created, updated: result.updated, unchanged: result.unchanged, skipped, status: 'success', message };
}

/** When a schedule runs next: its period after a success; after the n-th failure in a row 5 min × 2^(n−1), at most the period. */
export function nextRunAfter(frequency: Frequency, now: Date, failures: number): string | null {
  if (frequency === 'on_demand') return null;
  const period = FREQUENCY_MS[frequency];
  const wait = failures === 0 ? period : Math.min(period, RETRY_BASE_MS * 2 ** Math.min(failures - 1, 20));
  return gmt(new Date(now.getTime() + wait));
}

/** One run of a scheduled record: a run record under it, then the schedule's next run (backoff on failure). */
export async function runSchedule(ctx: AppContext, schedule: ImportRecord, options: RunOptions = {}): Promise<RunResult> {
  const run = await insertRecord(ctx.db, { origin: schedule.origin, source: schedule.source, frequency: 'on_demand', status: 'draft', parentId: schedule.id }, ctx.now());
  const result = await runRecord(ctx, run, options);
  const failures = result.status === 'failed' ? schedule.failures + 1 : 0;
  await updateRecord(ctx.db, schedule.id, {
    failures, nextRunGmt: nextRunAfter(schedule.frequency, ctx.now(), failures), message: result.message,
    messageSlug: result.status === 'failed' ? 'failed' : 'success', totalEvents: result.created + result.updated + result.unchanged,
  }, ctx.now());
  return result;
}
