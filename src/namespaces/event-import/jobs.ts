/**
 * @module namespaces/event-import/jobs
 * Background jobs of the import area (the jobs runner calls them, at least once): run the scheduled
 * imports that are due, and run one record. Both are safe to repeat: items are matched by origin id.
 */
import type { AppContext } from '../../app-context.js';
import { dueSchedules, getRecord, listRecords } from './records.repo.js';
import { runRecord, runSchedule } from './runs.js';

/** Job kinds. */
export const RUN_DUE_JOB = 'event-import.run-due';
export const RUN_RECORD_JOB = 'event-import.run';

/** Runs every scheduled import whose time has come (each one's failure is recorded on it, not thrown). */
export async function runDueImports(ctx: AppContext): Promise<number> {
  let ran = 0;
  for (const schedule of await dueSchedules(ctx.db, ctx.now())) {
    await runSchedule(ctx, schedule);
    ran++;
  }
  return ran;
}

/** Finishes local imports a crash left pending (remote ones wait for their service). */
export async function resumeInterrupted(ctx: AppContext): Promise<number> {
  const pending = (await listRecords(ctx.db, { status: 'pending' })).filter((r) => r.origin !== 'remote');
  for (const record of pending) await runRecord(ctx, record);
  return pending.length;
}

export const importJobs = {
  [RUN_DUE_JOB]: async (ctx: AppContext, _payload: unknown) => {
    await runDueImports(ctx);
  },
  [RUN_RECORD_JOB]: async (ctx: AppContext, payload: unknown) => {
    const id = (payload as { import_id?: unknown } | null)?.import_id;
    const record = typeof id === 'string' ? await getRecord(ctx.db, id) : undefined;
    if (!record || record.origin === 'remote' || record.status === 'schedule') return;
    // At least once: a record that already succeeded is not run again by a repeated delivery.
    if (record.status === 'success') return;
    await runRecord(ctx, record);
  },
};
