import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, PG_PREPARED_PER_CONNECTION, type Db } from './db.js';
import { plannedForValues } from './dialect.js';
import { DIALECTS, TEST_PG_URL } from './test-db.js';

describe.skipIf(!DIALECTS.includes('postgres'))('PostgreSQL named prepared statements', () => {
  let db: Db | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });
  // One connection, so every query and the look at pg_prepared_statements share a session.
  const open = (preparedStatements?: boolean) => (db = createDb({ url: TEST_PG_URL, poolSize: 1, preparedStatements }));
  // This look is a read, so it is prepared too: it leaves itself out.
  const prepared = async (d: Db) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements where statement not like '%pg_prepared_statements%'`.execute(d)).rows.map((r) => r.statement);
  const double = (d: Db, n: number) => sql<{ v: number }>`select ${n}::int * 2 as v`.execute(d).then((r) => r.rows[0]!.v);

  it('prepares a parameterised query once per connection and reuses it', async () => {
    const d = open();
    for (let n = 1; n <= 5; n++) expect(await double(d, n)).toBe(2 * n);
    expect(await prepared(d)).toEqual(['select $1::int * 2 as v']);
  });

  it('prepares a read without parameters too, and runs other statements without parameters unnamed', async () => {
    const d = open();
    await sql`create temporary table prepared_probe (n int)`.execute(d);
    await sql.raw('insert into prepared_probe values (1); insert into prepared_probe values (2)').execute(d);
    for (let i = 0; i < 3; i++) expect((await sql<{ n: number }>`select sum(n)::int as n from prepared_probe`.execute(d)).rows[0]!.n).toBe(3);
    await d.transaction().execute(async (tx) => {
      expect((await sql<{ n: number }>`with t as (select n from prepared_probe) select count(*)::int as n from t`.execute(tx)).rows[0]!.n).toBe(2);
    });
    expect((await prepared(d)).sort()).toEqual(['select sum(n)::int as n from prepared_probe', 'with t as (select n from prepared_probe) select count(*)::int as n from t']);
  });

  it('connects with JIT compilation and parallel workers off, and lets PostgreSQL keep generic plans', async () => {
    const d = open();
    const show = async (name: string) => Object.values((await sql<Record<string, string>>`show ${sql.raw(name)}`.execute(d)).rows[0]!)[0];
    expect(await show('jit')).toBe('off');
    expect(await show('max_parallel_workers_per_gather')).toBe('0');
    expect(await show('plan_cache_mode')).toBe('auto');
  });

  it('keeps working after a statement failed and after a rollback', async () => {
    const d = open();
    const divide = (n: number) => sql<{ v: number }>`select 10 / ${n}::int as v`.execute(d);
    await expect(divide(0)).rejects.toThrow(/division by zero/);
    expect((await divide(5)).rows[0]!.v).toBe(2);
    await expect(d.transaction().execute(async (tx) => {
      expect(await double(tx, 4)).toBe(8);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect(await double(d, 21)).toBe(42);
    expect((await prepared(d)).sort()).toEqual(['select $1::int * 2 as v', 'select 10 / $1::int as v']);
  });

  it('runs a query marked as planned for its values unnamed, every time', async () => {
    const d = open();
    await sql`create temporary table planned_probe (t text)`.execute(d);
    await sql`insert into planned_probe values ('jazz night'), ('folk club')`.execute(d);
    const anyDb = d as unknown as Kysely<any>;
    const query = (pattern: string) => plannedForValues(anyDb, anyDb.selectFrom('planned_probe').select((eb) => eb.fn.countAll<number>().as('n')).where('t', 'like', pattern));
    expect(query('%x%').compile().sql).toMatch(/^select \/\* planned for its values \*\/ count/);
    for (const [pattern, n] of [['%jazz%', 1], ['% %', 2], ['%quokka%', 0], ['%a%', 1], ['%c%', 1], ['%n%', 1]] as const) {
      expect(Number((await query(pattern).executeTakeFirstOrThrow()).n)).toBe(n);
    }
    expect(await prepared(d)).toEqual([]);
    // The same query unmarked is prepared.
    await anyDb.selectFrom('planned_probe').select((eb) => eb.fn.countAll<number>().as('n')).where('t', 'like', '%z%').execute();
    expect(await prepared(d)).toEqual(['select count(*) as "n" from "planned_probe" where "t" like $1']);
  });

  it('runs queries unnamed when switched off', async () => {
    const d = open(false);
    expect(await double(d, 3)).toBe(6);
    expect(await prepared(d)).toEqual([]);
  });

  it('prepares at most its bound of shapes per connection; further shapes still run', async () => {
    const d = open();
    const shapes = PG_PREPARED_PER_CONNECTION + 50;
    for (let i = 0; i < shapes; i++) {
      const r = await sql<{ v: number }>`select ${i}::int + ${sql.lit(i)} as v`.execute(d);
      expect(r.rows[0]!.v).toBe(2 * i);
    }
    expect((await prepared(d)).length).toBe(PG_PREPARED_PER_CONNECTION);
  });
});
