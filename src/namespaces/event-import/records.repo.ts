/**
 * @module namespaces/event-import/records.repo
 * Import records: queries returning domain objects. Ids are word characters, as the original's
 * `import_id` route pattern (`\w+`).
 */
import crypto from 'node:crypto';
import { DateTime } from 'luxon';
import type { Selectable } from 'kysely';
import { toDbDate } from '../../content/posts.js';
import type { Db } from '../../storage/db.js';
import type { ImportRecordsTable } from '../../storage/tables/event-import.js';

export const ORIGINS = ['ics', 'csv', 'url', 'remote'] as const;
export type Origin = (typeof ORIGINS)[number];
export const FREQUENCIES = ['on_demand', 'hourly', 'daily', 'weekly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const STATUSES = ['draft', 'schedule', 'pending', 'success', 'failed'] as const;
export type RecordStatus = (typeof STATUSES)[number];

/** Post types and taxonomies the activity log is keyed by (the original's names). */
export const ACTIVITY_KEYS = ['tribe_events', 'tribe_venue', 'tribe_organizer', 'tribe_events_cat', 'post_tag', 'attachment'] as const;
export type ActivityKey = (typeof ACTIVITY_KEYS)[number];
export type ActivityList = 'created' | 'updated' | 'skipped' | 'scheduled';
export type Activity = Record<ActivityKey, Record<ActivityList, number[]>>;

export function emptyActivity(): Activity {
  const out = {} as Activity;
  for (const k of ACTIVITY_KEYS) out[k] = { created: [], updated: [], skipped: [], scheduled: [] };
  return out;
}

/** `b` added into `a` (ids kept unique, in order). */
export function mergeActivity(a: Activity, b: Activity): Activity {
  const out = emptyActivity();
  for (const k of ACTIVITY_KEYS) {
    for (const list of ['created', 'updated', 'skipped', 'scheduled'] as const) out[k][list] = [...new Set([...(a[k]?.[list] ?? []), ...(b[k]?.[list] ?? [])])];
  }
  return out;
}

export interface ImportRecord {
  id: string;
  origin: Origin;
  source: string;
  frequency: Frequency;
  status: RecordStatus;
  parentId: string | null;
  nextBatchHash: string | null;
  percentageComplete: number;
  totalEvents: number;
  activity: Activity;
  message: string;
  messageSlug: string;
  failures: number;
  nextRunGmt: string | null;
  createdGmt: string;
  updatedGmt: string;
}

function toRecord(r: Selectable<ImportRecordsTable>): ImportRecord {
  let activity: Activity;
  try {
    activity = mergeActivity(emptyActivity(), JSON.parse(r.activity) as Activity);
  } catch {
    activity = emptyActivity();
  }
  return {
    id: r.id, origin: r.origin as Origin, source: r.source, frequency: r.frequency as Frequency, status: r.status as RecordStatus,
    parentId: r.parent_id, nextBatchHash: r.next_batch_hash, percentageComplete: Number(r.percentage_complete), totalEvents: Number(r.total_events),
    activity, message: r.message, messageSlug: r.message_slug, failures: Number(r.failures), nextRunGmt: r.next_run_gmt,
    createdGmt: r.created_gmt, updatedGmt: r.updated_gmt,
  };
}

export function gmt(now: Date): string {
  return toDbDate(DateTime.fromJSDate(now).toUTC());
}

/** A new random id (digits, as the service's import ids). */
export function newImportId(): string {
  return `${Date.now()}${crypto.randomInt(100_000, 999_999)}`;
}

/** A fresh one-time batch hash (32 hex characters, as the original's md5). */
export function newBatchHash(): string {
  return crypto.randomBytes(16).toString('hex');
}

export interface NewRecord {
  id?: string;
  origin: Origin;
  source: string;
  frequency: Frequency;
  status: RecordStatus;
  parentId?: string | null;
  nextBatchHash?: string | null;
  nextRunGmt?: string | null;
}

export async function insertRecord(db: Db, input: NewRecord, now: Date): Promise<ImportRecord> {
  const stamp = gmt(now);
  const row = {
    id: input.id ?? newImportId(), origin: input.origin, source: input.source, frequency: input.frequency, status: input.status,
    parent_id: input.parentId ?? null, next_batch_hash: input.nextBatchHash ?? null, percentage_complete: 0, total_events: 0,
    activity: JSON.stringify(emptyActivity()), message: '', message_slug: '', failures: 0, next_run_gmt: input.nextRunGmt ?? null,
    created_gmt: stamp, updated_gmt: stamp,
  };
  await db.insertInto('import_records').values(row).execute();
  return toRecord(row);
}

export async function getRecord(db: Db, id: string): Promise<ImportRecord | undefined> {
  const row = await db.selectFrom('import_records').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

export async function listRecords(db: Db, filter: { status?: RecordStatus; parentId?: string } = {}): Promise<ImportRecord[]> {
  let q = db.selectFrom('import_records').selectAll().orderBy('created_gmt', 'desc').orderBy('id', 'desc');
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.parentId) q = q.where('parent_id', '=', filter.parentId);
  return (await q.execute()).map(toRecord);
}

/** Scheduled records whose next run is due. */
export async function dueSchedules(db: Db, now: Date): Promise<ImportRecord[]> {
  const rows = await db.selectFrom('import_records').selectAll().where('status', '=', 'schedule').where('next_run_gmt', '<=', gmt(now)).orderBy('next_run_gmt').execute();
  return rows.map(toRecord);
}

export type RecordChanges = Partial<{
  status: RecordStatus; nextBatchHash: string | null; percentageComplete: number; totalEvents: number; activity: Activity;
  message: string; messageSlug: string; failures: number; nextRunGmt: string | null; source: string; frequency: Frequency;
}>;

export async function updateRecord(db: Db, id: string, changes: RecordChanges, now: Date): Promise<void> {
  const set: Partial<Selectable<ImportRecordsTable>> = { updated_gmt: gmt(now) };
  if (changes.status !== undefined) set.status = changes.status;
  if (changes.nextBatchHash !== undefined) set.next_batch_hash = changes.nextBatchHash;
  if (changes.percentageComplete !== undefined) set.percentage_complete = changes.percentageComplete;
  if (changes.totalEvents !== undefined) set.total_events = changes.totalEvents;
  if (changes.activity !== undefined) set.activity = JSON.stringify(changes.activity);
  if (changes.message !== undefined) set.message = changes.message;
  if (changes.messageSlug !== undefined) set.message_slug = changes.messageSlug;
  if (changes.failures !== undefined) set.failures = changes.failures;
  if (changes.nextRunGmt !== undefined) set.next_run_gmt = changes.nextRunGmt;
  if (changes.source !== undefined) set.source = changes.source;
  if (changes.frequency !== undefined) set.frequency = changes.frequency;
  await db.updateTable('import_records').set(set).where('id', '=', id).execute();
}

/** Deletes a record and the runs of a scheduled one (imported events stay). */
export async function deleteRecord(db: Db, id: string): Promise<boolean> {
  await db.deleteFrom('import_records').where('parent_id', '=', id).execute();
  const res = await db.deleteFrom('import_records').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
