/**
 * The route fuzzer for longer than `npm test` gives it (`src/test-support/route-fuzz.ts`): the app in
 * this process on a fresh database, the fuzzer's site seeded, then cases until `FUZZ_SECONDS` are up
 * (or `FUZZ_CASES` are done), then the HTTP-layer pass over a socket. Prints progress, the statuses
 * seen, the slowest cases and every defect with its seed and case number; exits 1 on a defect.
 *
 *   FUZZ_SECONDS=600 npx tsx bench/fuzz.ts                       # ten minutes, a seed of the day
 *   FUZZ_SEED=20261123 FUZZ_FIRST=7661 FUZZ_CASES=1 npx tsx bench/fuzz.ts   # replay one case
 *   FUZZ_ENGINE=postgres FUZZ_SECONDS=300 npx tsx bench/fuzz.ts  # on PostgreSQL (TEST_DATABASE_URL)
 */
import pg from 'pg';
import { startTestApp } from '../src/test-support/harness.js';
import { seedFuzzSite } from '../src/test-support/fuzz-site.js';
import { describeFailures, fuzz, fuzzHttpLayer, fuzzTargets } from '../src/test-support/route-fuzz.js';
import { freePort } from '../src/test-support/net.js';
import { TEST_PG_URL } from '../src/storage/test-db.js';

const engine = process.env.FUZZ_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
const seconds = Number(process.env.FUZZ_SECONDS ?? 300);
const seed = Number(process.env.FUZZ_SEED ?? Number(new Date().toISOString().slice(0, 10).replaceAll('-', '')));
const first = Number(process.env.FUZZ_FIRST ?? 0);
const cases = Number(process.env.FUZZ_CASES ?? Number.MAX_SAFE_INTEGER);
const bodyLimit = 1024 * 1024;

const crashes: string[] = [];
process.on('unhandledRejection', (e) => crashes.push(String((e as Error)?.stack ?? e)));
process.on('uncaughtException', (e) => crashes.push(String(e?.stack ?? e)));

const t = await startTestApp(engine, { bodyLimit });
let failed = false;
try {
  const site = await seedFuzzSite(t);
  const targets = fuzzTargets((await t.request('GET', '/')).body);
  console.log(`fuzzing ${targets.length} route methods on ${engine}, seed ${seed}, from case ${first}, for ${seconds} s`);
  const started = Date.now();
  const run = await fuzz(t, targets, site.pool, {
    seed,
    first,
    cases,
    deadlineMs: seconds * 1000,
    progress: (done, r) => console.log(`  ${done} cases, ${Math.round(done / ((Date.now() - started) / 1000))}/s, ${r.failures.length} defects`),
  });
  const elapsed = (Date.now() - started) / 1000;
  console.log(`${run.cases} cases (${first}…${first + run.cases - 1}) in ${elapsed.toFixed(1)} s, ${(run.cases / elapsed).toFixed(0)}/s`);
  console.log('statuses', JSON.stringify(run.statuses));
  console.log('ms by kind', JSON.stringify(Object.fromEntries(Object.entries(run.msByKind).map(([k, v]) => [k, Math.round(v)]))));
  console.log('slowest', JSON.stringify(run.slowest));
  const port = await freePort();
  await t.app.listen({ port, host: '127.0.0.1' });
  const layer = await fuzzHttpLayer(t, targets, port, bodyLimit);
  const defects = [...describeFailures(run.failures, 100), ...layer, ...crashes.map((c) => `crash: ${c}`)];
  console.log(defects.length === 0 ? 'no defects' : `${run.failures.length + layer.length + crashes.length} defects:\n${defects.join('\n')}`);
  failed = defects.length > 0;
} finally {
  await t.close();
  if (t.testDb.pgSchema) {
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${t.testDb.pgSchema} CASCADE`);
    await admin.end();
  }
}
process.exit(failed ? 1 : 0);
