/**
 * Vitest global setup: test files create one PostgreSQL schema each, named after this run
 * (`t_<pid>_<random>`). The run drops only its own schemas, after the whole run (never while workers
 * run: dropping a schema while another worker's migrator introspects the catalogue makes it fail), and,
 * before it starts, those of runs whose process is gone. Two runs on one database leave each other alone.
 * It also compiles `src/` once for the tests that start `eventsuite` in child processes
 * (test-support/cli-build.ts).
 */
import pg from 'pg';
import { alive, buildCli, removeBuild } from '../test-support/cli-build.js';
import { DIALECTS, TEST_PG_URL, testSchemaPrefix } from './test-db.js';


async function dropSchemas(which: (name: string) => boolean): Promise<void> {
  if (!DIALECTS.includes('postgres')) return;
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname ~ '^t_[0-9]+_[0-9a-f]{12}$'");
    for (const { nspname } of rows) if (which(nspname)) await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
  } finally {
    await client.end();
  }
}

export async function setup(): Promise<void> {
  process.env.TEST_RUN_PID = String(process.pid);
  await Promise.all([
    dropSchemas((name) => !alive(Number(name.split('_')[1]))),
    buildCli(process.pid).then((cli) => (process.env.EVENTSUITE_TEST_CLI = cli)),
  ]);
}

export async function teardown(): Promise<void> {
  const mine = testSchemaPrefix(process.pid);
  await dropSchemas((name) => name.startsWith(mine));
  removeBuild(process.pid);
}
