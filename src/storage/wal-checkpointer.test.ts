import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, walCheckpointerOf, type Db } from './db.js';
import { FALLBACK_AUTOCHECKPOINT_PAGES } from './wal-checkpointer.js';

describe('SQLite WAL checkpoints on a background thread', () => {
  const dirs: string[] = [];
  const dbs: Db[] = [];
  const open = (backgroundCheckpoints: boolean) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wal-checkpointer-'));
    dirs.push(dir);
    const file = path.join(dir, 'db.sqlite');
    const db = createDb({ url: file, backgroundCheckpoints });
    dbs.push(db);
    return { db, file };
  };
  afterEach(async () => {
    for (const db of dbs.splice(0)) await db.destroy();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  const fill = async (db: Db) => {
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db);
    // About 600 pages: below the serving connection's own automatic checkpoint.
    for (let batch = 0; batch < 20; batch++) {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < 100; i++) await sql`INSERT INTO t (body) VALUES (${'x'.repeat(1000)})`.execute(trx);
      });
    }
  };

  it('copies committed pages into the database file without the serving connection checkpointing', async () => {
    const { db, file } = open(true);
    expect((await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db)).rows[0]!.wal_autocheckpoint).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
    await fill(db);
    const checkpointer = walCheckpointerOf(db)!;
    const deadline = Date.now() + 10_000;
    while (fs.statSync(file).size < 2_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fs.statSync(file).size).toBeGreaterThan(2_000_000);
    expect(await checkpointer.checkpoints()).toBeGreaterThan(0);
    expect(Number((await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(db)).rows[0]!.n)).toBe(2000);
  });

  it('stops its thread when the database is closed', async () => {
    const { db } = open(true);
    expect(walCheckpointerOf(db)).toBeUndefined();
    await sql`SELECT 1`.execute(db);
    const checkpointer = walCheckpointerOf(db)!;
    expect(await checkpointer.checkpoints()).toBeGreaterThanOrEqual(0);
    await db.destroy();
    dbs.splice(dbs.indexOf(db), 1);
    await expect(checkpointer.checkpoints()).rejects.toThrow(/stopped/);
  });

  it('leaves checkpoints to SQLite when not asked for', async () => {
    const { db, file } = open(false);
    expect(walCheckpointerOf(db)).toBeUndefined();
    await fill(db);
    // Below SQLite's own 1,000 pages nothing reached the database file.
    expect(fs.statSync(file).size).toBeLessThan(100_000);
  });
});
