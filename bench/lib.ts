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

export interface StartOptions {
  /** How long the server may take to print `LISTENING` (default 10 minutes; seeding takes longer). */
  timeoutMs?: number;
}

/** Starts `bench/<script>` with tsx; it must print `LISTENING <url>` once ready. */
export function startServer(script: string, env: Record<string, string> = {}, options: StartOptions = {}): Promise<Server> {
  return new Promise((resolve, reject) => {
    // `--expose-gc`: the app server's `/__bench/memory?gc=1` collects before it measures.
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(BENCH_DIR, script)], {
      // From the project folder, where `tsx` resolves, whatever the caller's working directory.
      cwd: path.join(BENCH_DIR, '..'),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`${script} did not start`));
    }, options.timeoutMs ?? 600_000);
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
            if (child.exitCode !== null || child.signalCode !== null) return r();
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}`));
    });
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
  /**
   * A request sequence each connection walks (autocannon `requests`); a `setupRequest` can give every
   * request its own path or body, e.g. a different attendee per check-in.
   */
  requests?: autocannon.Request[];
}

export interface Result {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Requests completed. */
  total: number;
}

/**
 * Waits until the app server behind `url` has run no query for a quarter of a second (at most a
 * minute): a load stops with requests in flight, and a slow route's backlog must not eat into the
 * next load. Servers without the `/__bench/queries` counter (the baseline) are idle at once.
 */
export async function waitIdle(url: string): Promise<void> {
  const counter = new URL('/__bench/queries', url).href;
  const read = async () => ((await (await fetch(counter)).json()) as { queries?: number }).queries;
  const deadline = Date.now() + 60_000;
  let last = await read();
  while (last !== undefined && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await read();
    if (now === last) return;
    last = now;
  }
}

let previousUrl: string | undefined;

/**
 * Runs one load and returns requests per second and p99 latency (ms). It starts once the previous
 * load's server and this one are idle (they share the machine's cores).
 */
export async function measure(load: Load): Promise<Result> {
  if (previousUrl !== undefined && new URL(previousUrl).origin !== new URL(load.url).origin) await waitIdle(previousUrl).catch(() => undefined);
  previousUrl = load.url;
  await waitIdle(load.url);
  const r = await autocannon({
    url: load.url,
    method: load.method ?? 'GET',
    body: load.body,
    headers: load.headers,
    connections: load.connections ?? 10,
    duration: load.seconds ?? Number(process.env.BENCH_SECONDS ?? 5),
    ...(load.requests ? { requests: load.requests } : {}),
  });
  return { name: load.name, rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx, total: r.requests.total };
}

/** A goal that is not a ratio to the baseline (a ratio between two rows, a query count…). */
export interface Check {
  goal: string;
  measured: string;
  met: boolean;
}

/** One JSON request (setup and checks, not load): throws unless the status is `expect` (default: any 2xx). */
export async function requestJson<T = unknown>(
  url: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string>; expect?: number } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const method = init.method ?? (init.json === undefined ? 'GET' : 'POST');
  const res = await fetch(url, {
    method,
    headers: { ...(init.json === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const text = await res.text();
  const body = (text === '' ? null : JSON.parse(text)) as T;
  const expect = init.expect ?? (res.status >= 200 && res.status < 300 ? res.status : 200);
  if (res.status !== expect) throw new Error(`${method} ${url}: ${res.status} (expected ${expect}): ${text.slice(0, 500)}`);
  return { status: res.status, body, headers: res.headers };
}

/** `Authorization` header for `login:password` (the app server's `ADMIN` line). */
export function basicAuth(credentials: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/**
 * Prints results as a table with the ratio to the baseline row (`goals`: the least ratio per row
 * name), then the other goals' verdicts.
 */
export function report(title: string, baseline: Result, rows: Result[], goals: Record<string, number> = {}, checks: Check[] = []): void {
  const lines = [`\n## ${title}`, '', '| load | req/s | p99 ms | vs baseline | goal | non-2xx | errors |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const r of [baseline, ...rows]) {
    const ratio = r === baseline ? 1 : r.rps / baseline.rps;
    const goal = goals[r.name];
    const verdict = goal === undefined ? '' : `${Math.round(goal * 100)}% ${ratio >= goal ? 'met' : 'MISSED'}`;
    lines.push(`| ${r.name} | ${Math.round(r.rps)} | ${r.p99} | ${(ratio * 100).toFixed(0)}% | ${verdict} | ${r.non2xx} | ${r.errors} |`);
  }
  if (checks.length > 0) {
    lines.push('', '| goal | measured | verdict |', '|---|---|---|');
    for (const c of checks) lines.push(`| ${c.goal} | ${c.measured} | ${c.met ? 'met' : 'MISSED'} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
