/**
 * Vitest global setup: test files create one PostgreSQL schema each (`t_<random>`); they are all
 * dropped here, before and after the whole run, never while other workers run. (Dropping a schema
 * while another worker's migrator introspects the catalogue makes that worker fail.)
 */
import pg from 'pg';
import { DIALECTS, TEST_PG_URL } from './test-db.js';

async function dropTestSchemas(): Promise<void> {
  if (!DIALECTS.includes('postgres')) return;
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname ~ '^t_[0-9a-f]{12}$'");
    for (const { nspname } of rows) await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
  } finally {
    await client.end();
  }
}

export async function setup(): Promise<void> {
  await dropTestSchemas();
}

export async function teardown(): Promise<void> {
  await dropTestSchemas();
}
