/**
 * @module jobs/runner
 * The one background jobs runner (`ctx.jobs`). Areas declare handlers (`AreaDef.jobs`) and recurring
 * schedules (`AreaDef.schedules`); anything enqueues with `ctx.jobs.enqueue(kind, payload, options)`.
 * Every server process runs a runner: it claims due jobs from the shared table, runs them, renews the
 * claim while the handler runs, and on failure queues them again with exponential backoff. A runner
 * that dies leaves its claim to expire and another picks the job up (at least once) — at once when
 * the other runs where it can tell the dead runner's process is gone (see `runner-identity.ts`).
 */
import type { AppContext } from '../app-context.js';
import type { JobHandler, JobRun } from '../area.js';
import { crashPoint } from '../storage/crash-point.js';
import { isCertainlyDead, newRunnerId } from './runner-identity.js';
import { gmt, fromGmt, nextRun, parseEvery, type Every, type ScheduleSpec } from './schedule.js';
import {
  cancelJob, claimJobs, countJobs, extendLock, finishDone, finishFailed, getJob, insertJob, listJobs, pruneJobs, releaseClaimsOf, releaseJob, retryJob, runningHolders,
  type EnqueueOptions, type Job, type JobRow, type JobStatus, type ListFilter,
} from './store.js';

export interface RunnerOptions {
  /** How often an idle runner looks for due jobs. */
  pollMs: number;
  /** Jobs one process runs at once. */
  concurrency: number;
  /** How long a claim lasts without renewal; renewed every third of it while the handler runs. */
  lockMs: number;
  /** First retry delay; doubles with each attempt up to `backoffMaxMs`. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How often a polling runner looks for claims of runners that died (see `runner-identity.ts`). */
  reapMs: number;
}

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = { pollMs: 1000, concurrency: 2, lockMs: 60_000, backoffBaseMs: 10_000, backoffMaxMs: 3_600_000, reapMs: 10_000 };

export interface ScheduleInfo {
  name: string;
  kind: string;
  payload: unknown;
  every: string;
  nextRun: string;
  lastRun: string | null;
}

/** The runner's own duties. */
const BUILTIN: Record<string, JobHandler> = {
  'jobs.prune': async (ctx) => {
    await pruneJobs(ctx.db, ctx.now(), 7, 30);
  },
};
const BUILTIN_SCHEDULES = [{ name: 'jobs.prune', kind: 'jobs.prune', every: 'daily 03:17', payload: {} }];

/** Delay before retry number `attempt` (1-based count of failures so far). */
export function backoffMs(attempt: number, options: Pick<RunnerOptions, 'backoffBaseMs' | 'backoffMaxMs'>): number {
  return Math.min(options.backoffBaseMs * 2 ** Math.max(attempt - 1, 0), options.backoffMaxMs);
}

export class Jobs {
  /** Who holds a claim: host, process (exactly) and a random part (two runners in one process differ). */
  readonly runnerId = newRunnerId();
  readonly options: RunnerOptions;
  readonly #ctx: () => AppContext;
  readonly #active = new Set<Promise<void>>();
  /** Jobs this runner has claimed and is running, by id. */
  readonly #claimed = new Map<number, JobRow>();
  #stopping: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #started = false;
  #ticking = false;
  #again = false;
  #schedulesSynced = -1;
  /** When this runner last looked for dead runners' claims (`performance.now()`). */
  #reapedAt = -Infinity;

  constructor(ctx: () => AppContext, options: Partial<RunnerOptions> = {}) {
    this.#ctx = ctx;
    this.options = { ...DEFAULT_RUNNER_OPTIONS, ...options };
  }

  // ---- Producing jobs -------------------------------------------------------------------------

  /**
   * Queues a job of `kind` (a kind some area declares). With a `dedupeKey` it is idempotent: the job
   * already enqueued under that key is returned and nothing new is queued.
   */
  async enqueue(kind: string, payload: unknown = {}, options: EnqueueOptions = {}): Promise<Job> {
    this.#assertKind(kind);
    const ctx = this.#ctx();
    const { job, created } = await insertJob(options.db ?? ctx.db, ctx.now(), kind, payload, options);
    if (created && !options.db && fromGmt(job.runAt).getTime() <= ctx.now().getTime()) this.#nudge();
    return job;
  }

  /** Creates or updates the recurring schedule `name` (stored; every runner fires it, once per slot). */
  async schedule(name: string, kind: string, every: Every, payload: unknown = {}): Promise<void> {
    this.#assertKind(kind);
    if (!/^[\w.:-]{1,100}$/.test(name)) throw new Error(`jobs: bad schedule name ${JSON.stringify(name)}`);
    const spec = parseEvery(every);
    const ctx = this.#ctx();
    const now = ctx.now();
    const text = JSON.stringify(payload ?? null);
    const row = { kind, payload: text, every_seconds: spec.everySeconds, daily_at: spec.dailyAt, updated_gmt: gmt(now) };
    const existing = await ctx.db.selectFrom('job_schedules').selectAll().where('name', '=', name).executeTakeFirst();
    if (!existing) {
      await ctx.db
        .insertInto('job_schedules')
        .values({ name, ...row, next_run_gmt: gmt(nextRun(spec, now)), created_gmt: gmt(now) })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    } else if (existing.kind !== kind || existing.payload !== text || existing.every_seconds !== spec.everySeconds || existing.daily_at !== spec.dailyAt) {
      await ctx.db.updateTable('job_schedules').set({ ...row, next_run_gmt: gmt(nextRun(spec, now)) }).where('name', '=', name).execute();
    }
  }

  async unschedule(name: string): Promise<boolean> {
    const r = await this.#ctx().db.deleteFrom('job_schedules').where('name', '=', name).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async schedules(): Promise<ScheduleInfo[]> {
    const rows = await this.#ctx().db.selectFrom('job_schedules').selectAll().orderBy('name').execute();
    return rows.map((r) => ({
      name: r.name,
      kind: r.kind,
      payload: JSON.parse(r.payload),
      every: r.every_seconds !== null ? `${r.every_seconds}s` : `daily ${r.daily_at}`,
      nextRun: r.next_run_gmt,
      lastRun: r.last_run_gmt,
    }));
  }

  /** True once {@link mark} was called with `name`. */
  async marked(name: string): Promise<boolean> {
    return (await this.#ctx().db.selectFrom('job_marks').select('mark').where('mark', '=', name).executeTakeFirst()) !== undefined;
  }

  /**
   * Records that a side effect happened (an e-mail went out), so a retried or repeated job skips it:
   * check {@link marked} before the effect, mark right after it.
   */
  async mark(name: string): Promise<void> {
    await this.#ctx().db.insertInto('job_marks').values({ mark: name, created_gmt: gmt(this.#ctx().now()) }).onConflict((oc) => oc.column('mark').doNothing()).execute();
  }

  // ---- Inspecting and steering ----------------------------------------------------------------

  list(filter: ListFilter = {}): Promise<Job[]> {
    return listJobs(this.#ctx().db, filter);
  }

  counts(): Promise<Record<JobStatus, number>> {
    return countJobs(this.#ctx().db);
  }

  get(id: number): Promise<Job | undefined> {
    return getJob(this.#ctx().db, id);
  }

  /** Queues a failed, cancelled or waiting job to run now with its attempts reset. */
  async retry(id: number): Promise<Job | undefined> {
    const job = await retryJob(this.#ctx().db, this.#ctx().now(), id);
    if (job) this.#nudge();
    return job;
  }

  cancel(id: number): Promise<Job | undefined> {
    return cancelJob(this.#ctx().db, this.#ctx().now(), id);
  }

  /** Kinds this process can run: the enabled areas' and the runner's own. */
  handlers(): Map<string, JobHandler> {
    const map = new Map<string, JobHandler>(Object.entries(BUILTIN));
    for (const area of this.#ctx().areas.enabled()) for (const [kind, h] of Object.entries(area.jobs ?? {})) map.set(kind, h);
    return map;
  }

  // ---- Running ---------------------------------------------------------------------------------

  /**
   * Fires due schedules and runs due jobs in this process until none is due (or `onlyId`, at once,
   * whatever its time). Returns the jobs run. For the CLI and tests; servers use {@link start}.
   */
  async runDue(onlyId?: number): Promise<Job[]> {
    const ran: Job[] = [];
    await this.#releaseDeadClaims();
    await this.#syncSchedules();
    for (let round = 0; round < 1000; round++) {
      if (onlyId === undefined) await this.#fireSchedules();
      const rows = await this.#claim(this.options.concurrency, onlyId);
      if (rows.length === 0) break;
      await Promise.all(rows.map((row) => this.#run(row)));
      for (const row of rows) ran.push((await this.get(Number(row.id)))!);
      if (onlyId !== undefined) break;
    }
    return ran;
  }

  /** Starts polling (each server process). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#schedule(0);
  }

  /**
   * Stops claiming and waits up to `timeoutMs` for running handlers. A job still running after that
   * is handed back to the queue, due at once, so another runner retries it without waiting for the
   * claim to expire. Calls while stopping share the first call's wait.
   */
  stop(timeoutMs = 10_000): Promise<void> {
    this.#started = false;
    clearTimeout(this.#timer);
    this.#stopping ??= this.#drain(timeoutMs).finally(() => (this.#stopping = undefined));
    return this.#stopping;
  }

  async #drain(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.allSettled([...this.#active]), waited]);
    clearTimeout(timer);
    const ctx = this.#ctx();
    for (const row of this.#claimed.values()) {
      const released = await releaseJob(ctx.db, row, ctx.now()).catch(() => false);
      ctx.log.warn({ job: Number(row.id), kind: row.kind, released }, 'jobs: still running at shutdown; handed back to the queue');
    }
  }

  /** Handlers running now in this process. */
  get running(): number {
    return this.#active.size;
  }

  #assertKind(kind: string): void {
    const known = kind in BUILTIN || this.#ctx().areas.all.some((a) => a.jobs && kind in a.jobs);
    if (!known) throw new Error(`jobs: no area declares a job of kind ${JSON.stringify(kind)}`);
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    if (!this.#started) return;
    this.#timer = setTimeout(() => void this.#tick(), ms);
    this.#timer.unref?.();
  }

  #nudge(): void {
    if (this.#ticking) this.#again = true;
    else this.#schedule(0);
  }

  async #tick(): Promise<void> {
    if (this.#ticking) {
      this.#again = true;
      return;
    }
    this.#ticking = true;
    try {
      if (performance.now() - this.#reapedAt >= this.options.reapMs) await this.#releaseDeadClaims();
      await this.#syncSchedules();
      await this.#fireSchedules();
      const free = this.options.concurrency - this.#active.size;
      for (const row of free > 0 ? await this.#claim(free) : []) {
        const p = this.#run(row).finally(() => {
          this.#active.delete(p);
          this.#nudge();
        });
        this.#active.add(p);
      }
    } catch (err) {
      this.#ctx().log.warn({ err }, 'jobs: polling failed');
    } finally {
      this.#ticking = false;
      if (this.#again) {
        this.#again = false;
        this.#schedule(0);
      } else this.#schedule(this.options.pollMs);
    }
  }

  #claim(limit: number, onlyId?: number): Promise<JobRow[]> {
    const ctx = this.#ctx();
    const now = ctx.now();
    return claimJobs(ctx.db, now, new Date(now.getTime() + this.options.lockMs), this.runnerId, [...this.handlers().keys()], limit, onlyId);
  }

  /** Runs one claimed job and records the outcome (only while this runner still holds it). */
  async #run(row: JobRow): Promise<void> {
    const ctx = this.#ctx();
    const attempt = Number(row.attempts);
    const log = ctx.log.child({ job: Number(row.id), kind: row.kind, attempt });
    if (attempt > Number(row.max_attempts)) {
      // Claimed again after its last attempt's runner died.
      await finishFailed(ctx.db, row, ctx.now(), row.last_error ?? 'the runner stopped during the last attempt', undefined);
      return;
    }
    const handler = this.handlers().get(row.kind);
    this.#claimed.set(Number(row.id), row);
    const renew = setInterval(() => {
      extendLock(ctx.db, row, new Date(ctx.now().getTime() + this.options.lockMs)).catch((err: unknown) => log.warn({ err }, 'jobs: could not renew a claim'));
    }, Math.max(Math.floor(this.options.lockMs / 3), 10));
    renew.unref?.();
    const info: JobRun = { id: Number(row.id), key: row.key, kind: row.kind, attempt, dedupeKey: row.dedupe_key };
    try {
      if (!handler) throw new Error(`no handler for ${row.kind}`);
      await crashPoint('job.running');
      await handler(ctx, JSON.parse(row.payload), info);
      clearInterval(renew);
      if (!(await finishDone(ctx.db, row, ctx.now()))) log.warn('jobs: finished after losing its claim');
    } catch (err) {
      clearInterval(renew);
      const message = err instanceof Error ? err.message : String(err);
      const retryAt = attempt < Number(row.max_attempts) ? new Date(ctx.now().getTime() + backoffMs(attempt, this.options)) : undefined;
      log[retryAt ? 'warn' : 'error']({ err: message, retryAt }, retryAt ? 'jobs: attempt failed; will retry' : 'jobs: failed for good');
      await finishFailed(ctx.db, row, ctx.now(), message, retryAt).catch((e: unknown) => log.error({ err: e }, 'jobs: could not record a failure'));
    } finally {
      this.#claimed.delete(Number(row.id));
    }
  }

  /**
   * Queues again the jobs of runners that certainly died (a process gone on this machine), so they
   * run now instead of when their claims expire. A live runner's claim is never touched.
   */
  async #releaseDeadClaims(): Promise<void> {
    this.#reapedAt = performance.now();
    const ctx = this.#ctx();
    for (const holder of await runningHolders(ctx.db)) {
      if (holder === this.runnerId || !isCertainlyDead(holder)) continue;
      const released = await releaseClaimsOf(ctx.db, ctx.now(), holder);
      if (released > 0) ctx.log.warn({ runner: holder, released }, 'jobs: a runner died; its jobs are queued again');
    }
  }

  /** Stores the enabled areas' schedules (once per area switch). */
  async #syncSchedules(): Promise<void> {
    const ctx = this.#ctx();
    if (this.#schedulesSynced === ctx.areas.generation) return;
    for (const s of [...BUILTIN_SCHEDULES, ...ctx.areas.enabled().flatMap((a) => a.schedules ?? [])]) await this.schedule(s.name, s.kind, s.every, s.payload ?? {});
    this.#schedulesSynced = ctx.areas.generation;
  }

  /**
   * Enqueues one job per due schedule slot and moves the schedule on. The slot's dedupe key makes
   * this safe when several runners fire at once or one dies between the two statements.
   */
  async #fireSchedules(): Promise<void> {
    const ctx = this.#ctx();
    const now = ctx.now();
    const kinds = [...this.handlers().keys()];
    const due = await ctx.db.selectFrom('job_schedules').selectAll().where('next_run_gmt', '<=', gmt(now)).where('kind', 'in', kinds).execute();
    for (const s of due) {
      const spec: ScheduleSpec = { everySeconds: s.every_seconds === null ? null : Number(s.every_seconds), dailyAt: s.daily_at };
      await insertJob(ctx.db, now, s.kind, JSON.parse(s.payload), { dedupeKey: `schedule:${s.name}:${s.next_run_gmt}` });
      await ctx.db
        .updateTable('job_schedules')
        .set({ next_run_gmt: gmt(nextRun(spec, now)), last_run_gmt: s.next_run_gmt, updated_gmt: gmt(now) })
        .where('name', '=', s.name)
        .where('next_run_gmt', '=', s.next_run_gmt)
        .execute();
    }
  }
}
