/**
 * SQL statement timing for the in-process profiles (`*-profile.mts`): while a recording runs, every
 * better-sqlite3 statement execution is counted and timed under its SQL text (whitespace folded and cut
 * to 160 characters, or whole with `PROFILE_SQL=1`). On PostgreSQL every query node-postgres sends is
 * counted the same way, timed from the call to its answer: each is a round trip to the server.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';

export interface StatementStat {
  n: number;
  ms: number;
}

let recording: Map<string, StatementStat> | undefined;

const proto = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1'));
for (const method of ['all', 'get', 'run', 'iterate'] as const) {
  const original = proto[method];
  proto[method] = function (this: { source: string }, ...args: unknown[]) {
    if (!recording) return original.apply(this, args);
    const t0 = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      record(this.source, t0);
    }
  };
}

function record(source: string, t0: bigint): void {
  if (!recording) return;
  const key = process.env.PROFILE_SQL ? source : source.replace(/\s+/g, ' ').slice(0, 160);
  const s = recording.get(key) ?? { n: 0, ms: 0 };
  s.n++;
  s.ms += Number(process.hrtime.bigint() - t0) / 1e6;
  recording.set(key, s);
}

const pgQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const result = pgQuery.apply(this, args);
  const first = args[0] as string | { text?: string };
  const text = typeof first === 'string' ? first : first?.text;
  if (!recording || typeof text !== 'string' || !(result instanceof Promise)) return result;
  const t0 = process.hrtime.bigint();
  return result.finally(() => record(text, t0));
} as typeof pg.Client.prototype.query;

/** Starts counting statements (afresh). */
export function startRecording(): void {
  recording = new Map();
}

/** Stops counting; the statements run since {@link startRecording}, by SQL text. */
export function stopRecording(): Map<string, StatementStat> {
  const out = recording ?? new Map<string, StatementStat>();
  recording = undefined;
  return out;
}
