import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from './db.js';
import { refreshPlannerStatistics } from './dialect.js';
import { migrateToLatest } from './migrate.js';
import { createTestDb, DIALECTS, type TestDb } from './test-db.js';

const POST = { type: 'tribe_venue', status: 'publish', title: 'V', content: '', excerpt: '', author: 0, parent: 0, password: '', menu_order: 0, date: '2030-01-01 00:00:00', date_gmt: '2030-01-01 00:00:00', modified: '2030-01-01 00:00:00', modified_gmt: '2030-01-01 00:00:00', image_url: '' };

async function addPosts(db: TestDb['db'], n: number): Promise<void> {
  const rows = Array.from({ length: n }, (_, i) => ({ ...POST, type: i % 10 === 0 ? 'tribe_venue' : 'tribe_events', slug: `p-${i}` }));
  for (let i = 0; i < rows.length; i += 100) await db.insertInto('posts').values(rows.slice(i, i + 100)).execute();
}

describe.each(DIALECTS)('planner statistics on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(engine);
    await addPosts(t.db, 300);
  });
  afterAll(() => t.destroy());

  it('refreshes the statistics of the tables named, or of all (SQLite)', async () => {
    await refreshPlannerStatistics(t.db, ['posts']);
    if (engine === 'postgres') {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stats where schemaname = current_schema() and tablename = 'posts'`.execute(t.db);
      expect(rows[0]!.n).toBeGreaterThan(0);
      return;
    }
    // Every table (not on PostgreSQL: the test database holds every running test's schema).
    await refreshPlannerStatistics(t.db);
    const stat1 = await sql<{ tbl: string }>`select tbl from sqlite_stat1 where tbl = 'posts'`.execute(t.db);
    expect(stat1.rows.length).toBeGreaterThan(0);
    // Samples would make a statement binding a type prepare itself again on every run.
    const stat4 = await sql<{ n: number }>`select count(*) as n from sqlite_stat4`.execute(t.db);
    expect(Number(stat4.rows[0]!.n)).toBe(0);
  });
});

describe.runIf(DIALECTS.includes('sqlite'))('sampled statistics left in a SQLite file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'planner-stats-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('are dropped when the file is opened, and the averages kept', async () => {
    const file = path.join(dir, 'site.sqlite');
    const first = createDb({ url: file });
    await migrateToLatest(first);
    await addPosts(first, 300);
    await first.destroy();
    const byHand = new SQLite(file);
    byHand.exec('ANALYZE');
    const samples = (byHand.prepare('select count(*) as n from sqlite_stat4').get() as { n: number }).n;
    byHand.close();
    expect(samples).toBeGreaterThan(0);

    const db = createDb({ url: file });
    try {
      const stat4 = await sql<{ n: number }>`select count(*) as n from sqlite_stat4`.execute(db);
      expect(Number(stat4.rows[0]!.n)).toBe(0);
      const stat1 = await sql<{ n: number }>`select count(*) as n from sqlite_stat1 where tbl = 'posts'`.execute(db);
      expect(Number(stat1.rows[0]!.n)).toBeGreaterThan(0);
    } finally {
      await db.destroy();
    }
  });
});
