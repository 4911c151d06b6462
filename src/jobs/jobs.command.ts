/**
 * @module jobs/jobs.command
 * `eventsuite jobs list|run|retry|cancel`: the queue from the command line (`--json` for scripts).
 */
import type { CommandExtension } from '../cli-commands.js';
import { JOB_STATUSES, type Job, type JobStatus } from './store.js';

const USAGE = 'usage: eventsuite jobs list [--status S] [--kind K] [--limit N] | jobs run [ID] | jobs retry ID | jobs cancel ID';

function line(j: Job): string {
  const error = j.lastError ? `  last error: ${j.lastError.split('\n')[0]}` : '';
  return `#${j.id}  ${j.status.padEnd(9)} ${j.kind}  attempts ${j.attempts}/${j.maxAttempts}  run at ${j.runAt} UTC${error}`;
}

function jobId(raw: string | undefined): number {
  if (!raw || !/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new Error(USAGE);
  return Number(raw);
}

export const jobsCommand: CommandExtension = {
  name: 'jobs',
  usage: `${'jobs list'.padEnd(30)}background jobs, newest first [--status ${JOB_STATUSES.join('|')}] [--kind K] [--limit N]
  ${'jobs run [ID]'.padEnd(30)}run the due jobs now (or job ID, whatever its time), in this process
  ${'jobs retry ID'.padEnd(30)}queue a failed or cancelled job again with fresh attempts
  ${'jobs cancel ID'.padEnd(30)}cancel a queued or failed job [--json]`,
  async run({ args, values, withApp, print }) {
    const [action, id] = args;
    switch (action) {
      case 'list': {
        const status = typeof values.status === 'string' ? values.status : undefined;
        if (status !== undefined && !JOB_STATUSES.includes(status as JobStatus)) throw new Error(`--status must be one of ${JOB_STATUSES.join(', ')}`);
        const limit = typeof values.limit === 'string' ? Number(values.limit) : 50;
        if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new Error('--limit must be 1..500');
        return withApp(async (app) => {
          const jobs = await app.ctx.jobs.list({ ...(status ? { status: status as JobStatus } : {}), ...(typeof values.kind === 'string' ? { kind: values.kind } : {}), limit });
          print({ jobs, counts: await app.ctx.jobs.counts() }, jobs.length ? jobs.map(line).join('\n') : 'no jobs');
          return 0;
        });
      }
      case 'run':
        return withApp(async (app) => {
          const ran = await app.ctx.jobs.runDue(id === undefined ? undefined : jobId(id));
          if (id !== undefined && ran.length === 0) throw new Error(`job ${id} is not queued (or no enabled area runs its kind)`);
          print({ ran }, ran.length ? ran.map(line).join('\n') : 'no job was due');
          return ran.some((j) => j.status !== 'done') ? 1 : 0;
        });
      case 'retry':
      case 'cancel':
        return withApp(async (app) => {
          const n = jobId(id);
          const job = action === 'retry' ? await app.ctx.jobs.retry(n) : await app.ctx.jobs.cancel(n);
          if (!job) {
            const current = await app.ctx.jobs.get(n);
            throw new Error(current ? `job ${n} is ${current.status}; cannot ${action} it` : `no job ${n}`);
          }
          print({ job }, line(job));
          return 0;
        });
      default:
        throw new Error(USAGE);
    }
  },
};
