/**
 * The timing loop of the in-process profiles (`*-profile.mts`): rounds of `n` requests of each load in
 * turn, CPU and wall time per request for every round (the machine is shared: callers keep the least
 * round, or the median), and with `cpuDir` a V8 CPU profile of each load's first round,
 * `cpuDir/<load>.cpuprofile`.
 */
import inspector from 'node:inspector/promises';
import fs from 'node:fs';
import path from 'node:path';

export interface RoundSample {
  cpuMs: number;
  wallMs: number;
  /** CPU ms per request of the database server's processes, when `serverCpuMs` is given. */
  serverCpuMs?: number;
}

export interface RoundOptions {
  rounds: number;
  /** Requests per round. */
  n: number;
  cpuDir?: string;
  /** Runs inside each timed round, after its requests (work they deferred, such as queued jobs). */
  afterRound?: () => Promise<void>;
  /** The database server's CPU time so far, in ms (PostgreSQL: {@link postgresCpuMs}). */
  serverCpuMs?: () => number;
}

/**
 * CPU time, in ms, of the local PostgreSQL server's processes (read from `/proc`; Linux): all of them,
 * or with `database` only the backends connected to that database (their process title names it), as
 * the server also serves other databases on a shared machine; the WAL writer and checkpointer, shared
 * by all, are then left out.
 */
export function postgresCpuMs(database?: string): number {
  const tick = 10; // ms per clock tick (USER_HZ 100)
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (!/^\(postgres\)$/.test(stat.slice(stat.indexOf('('), stat.lastIndexOf(')') + 1))) continue;
      if (database !== undefined) {
        // "postgres: 15/main: <user> <database> <client> <state>"
        const title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').split(/\s+/);
        if (title[3] !== database) continue;
      }
      total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/** Per-request samples of every round, by load name. */
export async function measureRounds(loads: readonly (readonly [string, () => Promise<unknown>])[], options: RoundOptions): Promise<Map<string, RoundSample[]>> {
  const session = options.cpuDir ? new inspector.Session() : undefined;
  session?.connect();
  const samples = new Map<string, RoundSample[]>(loads.map(([name]) => [name, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (const [name, load] of loads) {
      const profiling = session !== undefined && round === 0;
      if (profiling) {
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
      }
      const server0 = options.serverCpuMs?.();
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < options.n; i++) await load();
      await options.afterRound?.();
      const used = process.cpuUsage(cpu0);
      const sample: RoundSample = { cpuMs: (used.user + used.system) / 1000 / options.n, wallMs: Number(process.hrtime.bigint() - t0) / 1e6 / options.n };
      if (server0 !== undefined) sample.serverCpuMs = (options.serverCpuMs!() - server0) / options.n;
      samples.get(name)!.push(sample);
      if (profiling) {
        const { profile } = await session.post('Profiler.stop');
        fs.mkdirSync(options.cpuDir!, { recursive: true });
        fs.writeFileSync(path.join(options.cpuDir!, `${name}.cpuprofile`), JSON.stringify(profile));
      }
    }
  }
  session?.disconnect();
  return samples;
}

/** The sample of least CPU time. */
export function leastCpu(samples: readonly RoundSample[]): RoundSample {
  return samples.reduce((best, s) => (s.cpuMs < best.cpuMs ? s : best));
}
