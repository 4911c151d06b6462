import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, runAndCommit, type Db } from './db.js';
import { capabilities } from './dialect.js';
import { DIALECTS, TEST_PG_URL } from './test-db.js';

describe.skipIf(!DIALECTS.includes('postgres'))('runAndCommit on PostgreSQL', () => {
  /** What each query sent the server (the texts pg was given): a round trip each. */
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  let db: Db;
  beforeAll(() => {
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string };
      sent.push(typeof first === 'string' ? first : String(first?.text));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });
  afterAll(() => {
    pg.Client.prototype.query = query;
  });
  // One connection: the temporary table and every statement share a session.
  beforeEach(async () => {
    db = createDb({ url: TEST_PG_URL, poolSize: 1 });
    await sql`create temporary table one_trip (n int primary key)`.execute(db);
    sent.length = 0;
  });
  afterEach(() => db.destroy());
  const rows = async () => (await sql<{ n: number }>`select n from one_trip order by n`.execute(db)).rows.map((r) => r.n);

  it('sends the last statements with the COMMIT, and no COMMIT after them', async () => {
    expect(capabilities(db).oneTripCommit).toBe(true);
    await db.transaction().execute(async (trx) => {
      await sql`insert into one_trip values (${1})`.execute(trx);
      await runAndCommit(trx, 'insert into one_trip values (2); insert into one_trip values (3)');
    });
    expect(sent).toEqual(['begin', 'insert into one_trip values ($1)', '/* commits */ insert into one_trip values (2); insert into one_trip values (3); COMMIT']);
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it('commits nothing when one of the statements fails, and the connection goes on', async () => {
    const attempt = db.transaction().execute(async (trx) => {
      await sql`insert into one_trip values (${1})`.execute(trx);
      await runAndCommit(trx, 'insert into one_trip values (2); insert into one_trip values (1); insert into one_trip values (3)');
    });
    await expect(attempt).rejects.toThrow(/duplicate key/);
    expect(sent.at(-1)).toBe('rollback');
    expect(await rows()).toEqual([]);
    await db.transaction().execute((trx) => runAndCommit(trx, 'insert into one_trip values (4)'));
    expect(await rows()).toEqual([4]);
  });

  it('refuses a statement after it in the transaction (it would run outside), keeping what it committed', async () => {
    const attempt = db.transaction().execute(async (trx) => {
      await runAndCommit(trx, 'insert into one_trip values (5)');
      await sql`insert into one_trip values (${6})`.execute(trx);
    });
    await expect(attempt).rejects.toThrow(/after runAndCommit/);
    expect(sent.filter((s) => /^(begin|commit|rollback)$/.test(s))).toEqual(['begin']);
    expect(await rows()).toEqual([5]);
  });

  it('runs only in a transaction', async () => {
    await expect(runAndCommit(db, 'insert into one_trip values (7)')).rejects.toThrow(/only in a PostgreSQL transaction/);
    expect(await rows()).toEqual([]);
  });
});
