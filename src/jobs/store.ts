/**
 * @module jobs/store
 * The `jobs` and `job_schedules` rows: enqueue (idempotent by dedupe key), list, retry, cancel, and
 * the runner's claim and finish statements. Times come from the caller's clock.
 */
import crypto from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { JobsTable } from '../storage/tables/jobs.js';
import { skippingLockedRows } from '../storage/dialect.js';
import { gmt } from './schedule.js';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
export const JOB_STATUSES: readonly JobStatus[] = ['queued', 'running', 'done', 'failed', 'cancelled'];

export interface EnqueueOptions {
  /** Not before (default: now). */
  runAt?: Date;
  /** Enqueueing again with the same key returns the job already there (whatever its state). */
  dedupeKey?: string;
  /** Attempts before the job is `failed` (default 5). */
  maxAttempts?: number;
  /** Enqueue inside this transaction (the job exists only if the transaction commits). */
  db?: Kysely<Database>;
}

/** A job as callers see it. */
export interface Job {
  id: number;
  key: string;
  kind: string;
  status: JobStatus;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  runAt: string;
  lockedBy: string | null;
  lockedUntil: string | null;
  dedupeKey: string | null;
  created: string;
  updated: string;
  finished: string | null;
}

export type JobRow = Selectable<JobsTable>;

const MAX_ERROR_LENGTH = 2000;

export function toJob(row: JobRow): Job {
  let payload: unknown;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    payload = row.payload;
  }
  return {
    id: Number(row.id),
    key: row.key,
    kind: row.kind,
    status: row.status as JobStatus,
    payload,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    lastError: row.last_error,
    runAt: row.run_after_gmt,
    lockedBy: row.locked_by,
    lockedUntil: row.locked_until_gmt,
    dedupeKey: row.dedupe_key,
    created: row.created_gmt,
    updated: row.updated_gmt,
    finished: row.finished_gmt,
  };
}

/** Inserts a job, or returns the one with the same dedupe key. */
export async function insertJob(db: Kysely<Database>, now: Date, kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<{ job: Job; created: boolean }> {
  const maxAttempts = options.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100) throw new Error(`jobs: maxAttempts ${maxAttempts} out of range 1..100`);
  if (options.dedupeKey !== undefined && (options.dedupeKey === '' || options.dedupeKey.length > 191)) throw new Error('jobs: dedupeKey must be 1..191 characters');
  const text = JSON.stringify(payload ?? null);
  const nowText = gmt(now);
  const inserted = await db
    .insertInto('jobs')
    .values({
      kind,
      key: crypto.randomUUID(),
      status: 'queued',
      payload: text,
      result: '{}',
      attempts: 0,
      max_attempts: maxAttempts,
      dedupe_key: options.dedupeKey ?? null,
      run_after_gmt: gmt(options.runAt ?? now),
      created_gmt: nowText,
      updated_gmt: nowText,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { job: toJob(inserted), created: true };
  const existing = await db.selectFrom('jobs').selectAll().where('dedupe_key', '=', options.dedupeKey!).executeTakeFirstOrThrow();
  return { job: toJob(existing), created: false };
}

export interface ListFilter {
  status?: JobStatus;
  kind?: string;
  limit?: number;
  offset?: number;
}

export async function listJobs(db: Kysely<Database>, filter: ListFilter = {}): Promise<Job[]> {
  let q = db.selectFrom('jobs').selectAll();
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.kind) q = q.where('kind', '=', filter.kind);
  const rows = await q
    .orderBy('id', 'desc')
    .limit(Math.min(Math.max(filter.limit ?? 50, 1), 500))
    .offset(Math.max(filter.offset ?? 0, 0))
    .execute();
  return rows.map(toJob);
}

export async function countJobs(db: Kysely<Database>): Promise<Record<JobStatus, number>> {
  const rows = await db.selectFrom('jobs').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
  const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
  for (const r of rows) if (r.status in counts) counts[r.status as JobStatus] = Number(r.n);
  return counts;
}

export async function getJob(db: Kysely<Database>, id: number): Promise<Job | undefined> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toJob(row);
}

/** A `failed`, `cancelled` or waiting job queued to run now with fresh attempts. */
export async function retryJob(db: Kysely<Database>, now: Date, id: number): Promise<Job | undefined> {
  const row = await db
    .updateTable('jobs')
    .set({ status: 'queued', attempts: 0, run_after_gmt: gmt(now), updated_gmt: gmt(now), finished_gmt: null, locked_by: null, locked_until_gmt: null })
    .where('id', '=', id)
    .where('status', 'in', ['failed', 'cancelled', 'queued'])
    .returningAll()
    .executeTakeFirst();
  return row && toJob(row);
}

/** A `queued` or `failed` job will not run. A running job cannot be stopped from outside. */
export async function cancelJob(db: Kysely<Database>, now: Date, id: number): Promise<Job | undefined> {
  const row = await db
    .updateTable('jobs')
    .set({ status: 'cancelled', updated_gmt: gmt(now), finished_gmt: gmt(now) })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'failed'])
    .returningAll()
    .executeTakeFirst();
  return row && toJob(row);
}

/**
 * Claims up to `limit` due jobs of `kinds` for `runner` until `lockedUntil`: queued ones whose time
 * has come and running ones whose lock has expired (their runner died). One statement: on PostgreSQL
 * the picked rows are locked `SKIP LOCKED`, so concurrent claims never take the same row.
 */
export async function claimJobs(db: Kysely<Database>, now: Date, lockedUntil: Date, runner: string, kinds: readonly string[], limit: number, onlyId?: number): Promise<JobRow[]> {
  if (kinds.length === 0 || limit < 1) return [];
  const nowText = gmt(now);
  const due = (eb: any) =>
    eb.or([
      eb.and([eb('status', '=', 'queued'), onlyId === undefined ? eb('run_after_gmt', '<=', nowText) : eb.lit(true)]),
      eb.and([eb('status', '=', 'running'), eb('locked_until_gmt', '<', nowText)]),
    ]);
  let pick = db.selectFrom('jobs').select('id').where('kind', 'in', kinds).where(due);
  if (onlyId !== undefined) pick = pick.where('id', '=', onlyId);
  pick = skippingLockedRows(db, pick.orderBy('run_after_gmt').orderBy('id').limit(limit));
  // Materialised so the locked pick runs once (as an `IN (subquery)` PostgreSQL may re-run it per
  // row and claim past the limit).
  return db
    .with((cte) => cte('picked').materialized(), () => pick)
    .updateTable('jobs')
    .set({ status: 'running', locked_by: runner, locked_until_gmt: gmt(lockedUntil), attempts: sql`attempts + 1`, updated_gmt: nowText })
    .where('id', 'in', (eb) => eb.selectFrom('picked').select('picked.id'))
    .where(due)
    .returningAll()
    .execute();
}

/** Fences a statement to the runner still holding this attempt of the job. */
function holding(db: Kysely<Database>, row: JobRow) {
  return db.updateTable('jobs').where('id', '=', row.id).where('status', '=', 'running').where('locked_by', '=', row.locked_by).where('attempts', '=', row.attempts);
}

export async function extendLock(db: Kysely<Database>, row: JobRow, until: Date): Promise<boolean> {
  const r = await holding(db, row).set({ locked_until_gmt: gmt(until) }).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function finishDone(db: Kysely<Database>, row: JobRow, now: Date): Promise<boolean> {
  const r = await holding(db, row).set({ status: 'done', locked_by: null, locked_until_gmt: null, updated_gmt: gmt(now), finished_gmt: gmt(now) }).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Records a failure: queued again at `retryAt`, or `failed` for good when no attempts are left. */
export async function finishFailed(db: Kysely<Database>, row: JobRow, now: Date, error: string, retryAt: Date | undefined): Promise<boolean> {
  const base = { locked_by: null, locked_until_gmt: null, last_error: error.slice(0, MAX_ERROR_LENGTH), updated_gmt: gmt(now) };
  const r = await holding(db, row)
    .set(retryAt ? { ...base, status: 'queued', run_after_gmt: gmt(retryAt) } : { ...base, status: 'failed', finished_gmt: gmt(now) })
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Hands a job this runner is still running back to the queue, due now (the process is stopping):
 * the interrupted attempt does not count against its attempts. Another runner retries it; the
 * handler, idempotent, may find part of its work done.
 */
export async function releaseJob(db: Kysely<Database>, row: JobRow, now: Date): Promise<boolean> {
  const r = await holding(db, row)
    .set({ status: 'queued', locked_by: null, locked_until_gmt: null, attempts: sql`attempts - 1`, run_after_gmt: gmt(now), last_error: 'interrupted: the server stopped before it finished', updated_gmt: gmt(now) })
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Who holds the jobs running now. */
export async function runningHolders(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('jobs').select('locked_by').distinct().where('status', '=', 'running').where('locked_by', 'is not', null).execute();
  return rows.map((r) => r.locked_by!);
}

/**
 * Queues again, due now, the jobs `runner` (dead) was running. The attempt counts, as when its lock
 * expires: a job that kills its runner each time fails for good after its attempts.
 */
export async function releaseClaimsOf(db: Kysely<Database>, now: Date, runner: string): Promise<number> {
  const r = await db
    .updateTable('jobs')
    .set({ status: 'queued', locked_by: null, locked_until_gmt: null, run_after_gmt: gmt(now), last_error: `interrupted: its runner ${runner} died`, updated_gmt: gmt(now) })
    .where('status', '=', 'running')
    .where('locked_by', '=', runner)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Deletes finished jobs older than the cut-offs. */
export async function pruneJobs(db: Kysely<Database>, now: Date, doneDays: number, failedDays: number): Promise<number> {
  const cut = (days: number) => gmt(new Date(now.getTime() - days * 86_400_000));
  const a = await db.deleteFrom('jobs').where('status', 'in', ['done', 'cancelled']).where('finished_gmt', '<', cut(doneDays)).executeTakeFirst();
  const b = await db.deleteFrom('jobs').where('status', '=', 'failed').where('finished_gmt', '<', cut(failedDays)).executeTakeFirst();
  return Number(a.numDeletedRows) + Number(b.numDeletedRows);
}
