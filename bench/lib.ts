/**
 * Shared benchmark plumbing: servers run in child processes (so the load generator does not steal
 * their CPU), autocannon drives them, and every figure is printed next to a baseline measured in the
 * same run, because the machine is shared and absolute numbers drift.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

export interface Server {
  url: string;
  /** Everything the server printed up to `LISTENING`. */
  output: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `bench/<script>` with tsx; it must print `LISTENING <url>` once ready. */
export function startServer(script: string, env: Record<string, string> = {}): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(BENCH_DIR, script)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 600_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const m = /LISTENING (\S+)/.exec(buffer);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          output: buffer,
          child,
          stop: () => new Promise((r) => {
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

export interface Load {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  connections?: number;
  seconds?: number;
}

export interface Result {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Runs one load and returns requests per second and p99 latency (ms). */
export async function measure(load: Load): Promise<Result> {
  const r = await autocannon({
    url: load.url,
    method: load.method ?? 'GET',
    body: load.body,
    headers: load.headers,
    connections: load.connections ?? 10,
    duration: load.seconds ?? Number(process.env.BENCH_SECONDS ?? 5),
  });
  return { name: load.name, rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/** Prints results as a table with the ratio to the baseline row. */
export function report(title: string, baseline: Result, rows: Result[], goals: Record<string, number> = {}): void {
  const lines = [`\n## ${title}`, '', '| load | req/s | p99 ms | vs baseline | goal | non-2xx | errors |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const r of [baseline, ...rows]) {
    const ratio = r === baseline ? 1 : r.rps / baseline.rps;
    const goal = goals[r.name];
    const verdict = goal === undefined ? '' : `${Math.round(goal * 100)}% ${ratio >= goal ? 'met' : 'MISSED'}`;
    lines.push(`| ${r.name} | ${Math.round(r.rps)} | ${r.p99} | ${(ratio * 100).toFixed(0)}% | ${verdict} | ${r.non2xx} | ${r.errors} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
