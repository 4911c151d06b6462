/**
 * @module storage/test-db
 * Per-engine test databases. `DB_DIALECTS` (default `sqlite,postgres`) names the engines every storage
 * test runs on; each test file gets a fresh in-memory SQLite database or a fresh PostgreSQL schema.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { createDb, type Db, type Engine } from './db.js';
import { migrateToLatest } from './migrate.js';

/** Engines under test. */
export const DIALECTS: Engine[] = (process.env.DB_DIALECTS ?? 'sqlite,postgres')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is Engine => s === 'sqlite' || s === 'postgres');

/** The PostgreSQL database tests create their schemas in. */
export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDb {
  engine: Engine;
  db: Db;
  /** The URL a second connection (or a server process) would use. */
  url: string;
  pgSchema?: string;
  destroy(): Promise<void>;
}

/**
 * Schemas of one test run start with `t_<pid of the run's main process>_`, so a run drops only its own
 * (the global setup sets `TEST_RUN_PID`; a file run outside vitest uses its own pid).
 */
export function testSchemaPrefix(runPid: string | number = process.env.TEST_RUN_PID ?? process.pid): string {
  return `t_${runPid}_`;
}

/** A migrated, empty database on `engine`. */
export async function createTestDb(engine: Engine, options: { poolSize?: number } = {}): Promise<TestDb> {
  if (engine === 'sqlite') {
    const db = createDb({ url: ':memory:' });
    await migrateToLatest(db);
    return { engine, db, url: ':memory:', destroy: () => db.destroy() };
  }
  const schema = `${testSchemaPrefix()}${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = createDb({ url: TEST_PG_URL, pgSchema: schema, poolSize: options.poolSize ?? 10 });
  await migrateToLatest(db, schema);
  return {
    engine,
    db,
    url: TEST_PG_URL,
    pgSchema: schema,
    // The schema itself is dropped by the global teardown (test-global-setup.ts), never mid-run.
    destroy: () => db.destroy(),
  };
}
