/**
 * The route fuzzer (issue 13 §4), driven by the discovery document: every route and method, signed
 * out and as an administrator, with hostile arguments, broken JSON, wrong content types, thousands of
 * parameters and bad percent-encoding (`src/test-support/route-fuzz.ts`). Never a 5xx (502/503 only
 * from a remote service the test site points at nothing), always the WordPress error shape, and the
 * process stays up. A second pass goes over a real socket for what only the HTTP layer sees (431 for
 * an over-long URL, 400 for a bad request line or path encoding, 413, multipart without boundary).
 *
 * Budget: `FUZZ_CASES`, by default every route × method × identity × kind once on SQLite (~8,000
 * requests; about 30 s of CPU for the whole file). PostgreSQL runs two kinds per route and identity
 * (~1,450 requests) and skips the socket pass: the fuzzer aims at input handling and the HTTP layer,
 * the same code on both engines; what only PostgreSQL refuses (NUL bytes, 64-bit IDs, over-long
 * names — it found the first) comes from values every kind sends, and a 23,000-case PostgreSQL run of
 * `bench/fuzz.ts` found nothing more. Longer runs, other seeds and replays: `bench/fuzz.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../src/test-support/harness.js';
import { freePort } from '../src/test-support/net.js';
import { seedFuzzSite, type FuzzSite } from '../src/test-support/fuzz-site.js';
import { describeFailures, fuzz, fuzzHttpLayer, fuzzTargets, KINDS, responseDefect, type FuzzTarget } from '../src/test-support/route-fuzz.js';

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
    expect(run.cases).toBe(cases);
    expect(describeFailures(run.failures, 25)).toEqual([]);
    expect(crashes).toEqual([]);
    expect((await t.request('GET', '/')).status).toBe(200);
  }, 600_000);

  // Each defect the fuzzer found, as the request that found it (the fix is named in the reason).
  const FOUND: { method: string; url: string; headers?: Record<string, string>; json?: unknown; status: number; why: string }[] = [
    { method: 'GET', url: '/eventsuite/events/v1/organizers/by-slug/%00', status: 400, why: 'PostgreSQL refuses a NUL byte (22021): storage/data-errors.ts counts it as a client data error' },
    { method: 'POST', url: '/seo/v1/configuration/site_representation', json: { company_or_person: 'person', description: 'x' }, status: 400, why: 'a client-sent description answered 500 (the original does): seo/configuration.routes.ts answers 400' },
  ];
  it.each(FOUND)('$method $url: $why', async ({ method, url, headers, json, status }) => {
    const admin = await t.createUser('administrator'); // the fuzzer may have revoked t.admin's password
    const res = await t.app.inject({ method: method as never, url: `/wp-json${url}`, headers: { authorization: admin.authorization, ...(json ? { 'content-type': 'application/json' } : {}), ...headers }, ...(json ? { payload: JSON.stringify(json) } : {}) });
    expect(responseDefect(method, { status: res.statusCode, headers: res.headers, body: res.body }, url.split('?')[0])).toBeUndefined();
    expect(res.statusCode).toBe(status);
  });

  it.runIf(engine === 'sqlite')('answers what only the HTTP layer sees in the WordPress shape, on every route', async () => {
    const port = await freePort();
    await t.app.listen({ port, host: '127.0.0.1' });
    expect(await fuzzHttpLayer(t, targets, port, BODY_LIMIT)).toEqual([]);
  }, 120_000);
});
