/**
 * @module storage/tables/jobs
 * The background jobs queue and its recurring schedules (migrations 2026-11-22T0000, 2026-11-23T1300).
 */
import type { Generated } from 'kysely';

export interface JobsTable {
  id: Generated<number>;
  /** Which handler runs it: a key of some area's `jobs` declaration (`events.publish-due`, ...). */
  kind: string;
  /** Public identifier (`{job_id}` in URLs). */
  key: string;
  /** `queued` | `running` | `done` | `failed` | `cancelled`. */
  status: string;
  /** The handler's argument, as JSON text. */
  payload: string;
  result: string;
  /** Times claimed so far (the running attempt included). */
  attempts: number;
  max_attempts: Generated<number>;
  last_error: string | null;
  /** The runner holding it while `running`, until `locked_until_gmt`; an expired lock is claimed again. */
  locked_by: string | null;
  locked_until_gmt: string | null;
  /** Enqueueing again with the same key returns the existing job. */
  dedupe_key: string | null;
  /** When it is due (first run, or the next retry). */
  run_after_gmt: string;
  created_gmt: string;
  updated_gmt: string;
  finished_gmt: string | null;
}

export interface JobSchedulesTable {
  name: string;
  kind: string;
  payload: string;
  /** Every N seconds, or ... */
  every_seconds: number | null;
  /** ... daily at `HH:MM` UTC. */
  daily_at: string | null;
  next_run_gmt: string;
  last_run_gmt: string | null;
  created_gmt: string;
  updated_gmt: string;
}

/** Side effects done (migration 2026-11-23T1301): `tickets.order-email:42`. */
export interface JobMarksTable {
  mark: string;
  created_gmt: string;
}

export interface JobTables {
  jobs: JobsTable;
  job_schedules: JobSchedulesTable;
  job_marks: JobMarksTable;
}
