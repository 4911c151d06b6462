/**
 * The route fuzzer (issue 13 §4), driven by the discovery document: every route and method, signed
 * out and as an administrator, with hostile arguments, broken JSON, wrong content types, thousands of
 * parameters and bad percent-encoding (`src/test-support/route-fuzz.ts`). Never a 5xx (502/503 only
 * from a remote service the test site points at nothing), always the WordPress error shape, and the
 * process stays up. A second pass goes over a real socket for what only the HTTP layer sees (431 for
 * an over-long URL, 400 for a bad request line or path encoding, 413, multipart without boundary).
 *
 * Budget: `FUZZ_CASES` (default: every route × method × identity × kind once on SQLite, ~15 s).
 * PostgreSQL runs a third of that: the fuzzer aims at input handling, which is engine-independent,
 * and the engine-dependent part (values the database cannot hold: 64-bit IDs, NUL bytes, over-long
 * names) is reached by every kind within the first third as well, while a full pass takes ~3× longer
 * on PostgreSQL. Longer runs: `bench/fuzz.ts`. A failure prints its seed and case number; replay it
 * with `FUZZ_SEED=… FUZZ_FIRST=… FUZZ_CASES=1 npx tsx bench/fuzz.ts`.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../src/test-support/harness.js';
import { freePort } from '../src/test-support/net.js';
import { seedFuzzSite, type FuzzSite } from '../src/test-support/fuzz-site.js';
import { fuzz, fuzzTargets, KINDS, responseDefect, type FuzzTarget } from '../src/test-support/route-fuzz.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const BODY_LIMIT = 1024 * 1024;

/** Crashes outside a request (an unhandled rejection, an uncaught exception) during the run. */
const crashes: string[] = [];
const onCrash = (err: unknown) => crashes.push(String((err as Error)?.stack ?? err).slice(0, 500));

describe.each(DIALECTS)('route fuzzer on %s', (engine) => {
  let t: TestApp;
  let site: FuzzSite;
  let targets: FuzzTarget[];
  beforeAll(async () => {
    process.on('unhandledRejection', onCrash);
    process.on('uncaughtException', onCrash);
    t = await startTestApp(engine, { bodyLimit: BODY_LIMIT });
    site = await seedFuzzSite(t);
    targets = fuzzTargets((await t.request('GET', '/')).body);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onCrash);
    process.off('uncaughtException', onCrash);
    await t?.close();
  });

  it('never answers 5xx, always answers errors in the WordPress shape, and stays up', async () => {
    // SQLite: every route × method × identity × kind once. PostgreSQL: two kinds per route and identity.
    const cases = Number(process.env.FUZZ_CASES ?? targets.length * 2 * (engine === 'sqlite' ? KINDS.length : 2));
    const run = await fuzz(t, targets, site.pool, { seed: SEED, cases });
    console.log(engine, run.cases, 'cases', JSON.stringify(run.msByKind), JSON.stringify(run.statuses), JSON.stringify(run.slowest));
    expect(run.cases).toBe(cases);
    expect([...run.failures].sort((a, b) => Number(b.response.startsWith('5')) - Number(a.response.startsWith('5'))).slice(0, 25).map((f) => `seed ${f.seed} case ${f.index} [${f.kind}, ${f.as}] ${f.defect}\n  ${f.request}\n  → ${f.response}`)).toEqual([]);
    expect(crashes).toEqual([]);
    expect((await t.request('GET', '/')).status).toBe(200);
  }, 600_000);

  it.runIf(engine === 'sqlite')('answers what only the HTTP layer sees in the WordPress shape, on every route', async () => {
    const port = await freePort();
    await t.app.listen({ port, host: '127.0.0.1' });
    const failures: string[] = [];
    for (const [i, target] of targets.entries()) {
      const path = `/wp-json${target.key.replace(/\(\?P<[^>]+>(?:[^()]|\((?:[^()])*\))+\)/g, '1')}`;
      const auth: Record<string, string> = i % 2 ? { authorization: t.admin.authorization } : {};
      const cases: [string, string, Record<string, string>, string | undefined, number][] = [
        [target.method, `${path}?${Array.from({ length: 5000 }, (_, n) => `p${n}=1`).join('&')}`, auth, undefined, 431],
        [target.method, `${path}/%E0%A4%A`, auth, undefined, 400],
        [target.method, path, { ...auth, 'content-type': 'multipart/form-data' }, 'a=1', 400],
        [target.method, path, { ...auth, 'content-type': 'application/json' }, JSON.stringify({ x: 'y'.repeat(BODY_LIMIT + 10) }), 413],
      ];
      // Fastify reads no body on GET: those get the URL cases only.
      const [method, url, headers, payload, expected] = cases[target.method === 'GET' ? i % 2 : i % cases.length]!;
      const res = await rawRequest(port, method, url, headers, payload);
      const defect = responseDefect(method, res, url.slice('/wp-json'.length).split('?')[0]) ?? (res.status === expected ? undefined : `status ${res.status}, expected ${expected}`);
      if (defect) failures.push(`${method} ${url.slice(0, 120)} ${JSON.stringify(headers)} → ${defect}: ${res.body.slice(0, 200)}`);
    }
    // A request line Node cannot parse at all.
    const garbage = await rawSocket(port, 'GARBAGE\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 [\s\S]*"code":"[a-z_]+"[\s\S]*"status":400/);
    expect(failures).toEqual([]);
    expect((await rawRequest(port, 'GET', '/wp-json/', {})).status).toBe(200);
  }, 120_000);
});

function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, payload?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const length = payload === undefined ? {} : { 'content-length': String(Buffer.byteLength(payload)) };
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { ...length, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

async function rawSocket(port: number, text: string): Promise<string> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (c) => (out += c.toString('utf8')));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}
