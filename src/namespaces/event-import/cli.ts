/**
 * @module namespaces/event-import/cli
 * `eventsuite import …`: one-off imports (`ics`, `csv`), and import records (`create`, `list`,
 * `show`, `run`, `schedule`, `delete`). Every command prints JSON with `--json`.
 */
import type { AppContext } from '../../app-context.js';
import type { RestUser } from '../../rest/route.js';
import { deleteRecord, FREQUENCIES, gmt, getRecord, insertRecord, listRecords, newBatchHash, ORIGINS, updateRecord, type Frequency, type ImportRecord, type Origin } from './records.repo.js';
import { nextRunAfter, runRecord, runSchedule, type RunResult } from './runs.js';

export interface ImportCommandIo {
  ctx: AppContext;
  args: string[];
  values: Record<string, string | boolean | undefined>;
  user?: RestUser;
  print(data: Record<string, unknown>, human: string): void;
  progress(done: number, total: number): void;
}

export const IMPORT_USAGE = [
  `${'import ics FILE|URL'.padEnd(30)}create or update events from an iCalendar file or URL (by UID)`,
  `  ${'import csv FILE|URL'.padEnd(30)}the same from a CSV file with the original's column names`,
  `      [--user LOGIN] [--json]`,
  `  ${'import create --origin ORIGIN'.padEnd(30)}new import record: --origin ics|csv|url --source FILE|URL`,
  `      [--frequency hourly|daily|weekly]; --origin remote waits for the import service's batches`,
  `  ${'import list | show ID'.padEnd(30)}import records and their outcome`,
  `  ${'import run ID'.padEnd(30)}run a record (again); a record a crash interrupted finishes`,
  `  ${'import schedule ID'.padEnd(30)}re-import --frequency hourly|daily|weekly (on_demand stops it)`,
  `  ${'import delete ID'.padEnd(30)}delete a record (its events stay)`,
].join('\n');

function shown(r: ImportRecord): Record<string, unknown> {
  return {
    import_id: r.id, origin: r.origin, source: r.source, frequency: r.frequency, status: r.status, parent_id: r.parentId,
    percentage_complete: r.percentageComplete, total_events: r.totalEvents, message: r.message, message_slug: r.messageSlug,
    failures: r.failures, next_run_gmt: r.nextRunGmt, created_gmt: r.createdGmt, updated_gmt: r.updatedGmt, activity: r.activity,
  };
}

function line(r: ImportRecord): string {
  return `${r.id}  ${r.origin.padEnd(6)} ${r.status.padEnd(8)} ${String(r.percentageComplete).padStart(3)}%  ${r.frequency.padEnd(9)} ${r.source}${r.message ? `  — ${r.message}` : ''}`;
}

function optionText(values: ImportCommandIo['values'], name: string): string {
  const v = values[name];
  return typeof v === 'string' ? v.trim() : '';
}

function frequencyOf(values: ImportCommandIo['values']): Frequency {
  const f = optionText(values, 'frequency') || 'on_demand';
  if (!(FREQUENCIES as readonly string[]).includes(f)) throw new Error(`--frequency must be one of ${FREQUENCIES.join(', ')}`);
  return f as Frequency;
}

async function recordArg(io: ImportCommandIo): Promise<ImportRecord> {
  const id = io.args[1] ?? '';
  const record = /^\w+$/.test(id) ? await getRecord(io.ctx.db, id) : undefined;
  if (!record) throw new Error(id ? `no import record ${id}` : 'usage: eventsuite import show|run|schedule|delete ID');
  return record;
}

/** Prints a run's outcome; a failed run is an error (its reason is on the record too). */
function printRun(io: ImportCommandIo, result: RunResult, source: string): number {
  if (result.status === 'failed') throw new Error(`import ${result.record} failed: ${result.message}`);
  const lines = [`imported ${source}: ${result.message}`];
  for (const s of result.skipped) lines.push(`  skipped ${s.uid || '(no UID)'}: ${s.reason}`);
  io.print({ created: result.created, updated: result.updated, unchanged: result.unchanged, skipped: result.skipped, import_id: result.record, status: result.status }, lines.join('\n'));
  return 0;
}

/** Runs `eventsuite import <action> …`; returns the exit code. */
export async function runImportCommand(io: ImportCommandIo): Promise<number> {
  const { ctx, args, values } = io;
  const action = args[0];
  const run = { ...(io.user ? { user: io.user } : {}), onProgress: io.progress };
  switch (action) {
    case 'ics':
    case 'csv': {
      const source = args[1];
      if (!source) throw new Error(`usage: eventsuite import ${action} FILE|URL`);
      const origin: Origin = action;
      const record = await insertRecord(ctx.db, { origin, source, frequency: 'on_demand', status: 'draft' }, ctx.now());
      return printRun(io, await runRecord(ctx, record, run), source);
    }
    case 'create': {
      const origin = optionText(values, 'origin');
      if (!(ORIGINS as readonly string[]).includes(origin)) throw new Error(`--origin must be one of ${ORIGINS.join(', ')}`);
      if (origin === 'remote') {
        const hash = newBatchHash();
        const record = await insertRecord(ctx.db, { origin: 'remote', source: '', frequency: 'on_demand', status: 'pending', nextBatchHash: hash }, ctx.now());
        io.print({ import_id: record.id, next_batch_hash: hash }, `import ${record.id} waits for batches; first batch hash ${hash}`);
        return 0;
      }
      const source = optionText(values, 'source');
      if (source === '') throw new Error('import create needs --source FILE|URL');
      const frequency = frequencyOf(values);
      const record = await insertRecord(ctx.db, {
        origin: origin as Origin, source, frequency, status: frequency === 'on_demand' ? 'draft' : 'schedule',
        nextRunGmt: frequency === 'on_demand' ? null : gmt(ctx.now()),
      }, ctx.now());
      io.print(shown(record), `created import ${record.id} (${record.status})`);
      return 0;
    }
    case 'list': {
      const records = await listRecords(ctx.db);
      io.print({ imports: records.map(shown) }, records.length === 0 ? 'no import records' : records.map(line).join('\n'));
      return 0;
    }
    case 'show': {
      const record = await recordArg(io);
      const a = record.activity.tribe_events;
      io.print(shown(record), `${line(record)}\nevents: ${a.created.length} created, ${a.updated.length} updated, ${a.skipped.length} skipped`);
      return 0;
    }
    case 'run': {
      const record = await recordArg(io);
      if (record.origin === 'remote') throw new Error(`import ${record.id} is fed by the remote service; it cannot run here`);
      const result = record.status === 'schedule' ? await runSchedule(ctx, record, run) : await runRecord(ctx, record, run);
      return printRun(io, result, record.source);
    }
    case 'schedule': {
      const record = await recordArg(io);
      if (record.origin === 'remote') throw new Error('a remote import cannot be scheduled here');
      const frequency = frequencyOf(values);
      const scheduled = frequency !== 'on_demand';
      await updateRecord(ctx.db, record.id, {
        frequency, status: scheduled ? 'schedule' : 'draft', failures: 0, nextRunGmt: scheduled ? nextRunAfter(frequency, ctx.now(), 0) : null,
      }, ctx.now());
      const updated = (await getRecord(ctx.db, record.id))!;
      io.print(shown(updated), scheduled ? `import ${record.id} runs ${frequency}; next run ${updated.nextRunGmt} UTC` : `import ${record.id} is no longer scheduled`);
      return 0;
    }
    case 'delete': {
      const record = await recordArg(io);
      await deleteRecord(ctx.db, record.id);
      io.print({ deleted: true, import_id: record.id }, `deleted import ${record.id}`);
      return 0;
    }
    default:
      throw new Error(`usage: eventsuite import ics|csv FILE|URL, or import create|list|show|run|schedule|delete (see --help)`);
  }
}
