import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from './db.js';
import { compiledShapes, MAX_COMPILED_SHAPES, runCompiled } from './compiled-queries.js';

describe('runCompiled', () => {
  const db = createDb({ url: ':memory:' });
  afterAll(() => db.destroy());

  it('keeps at most its bound of shapes per database, however many are asked for', async () => {
    await sql`create table posts (id integer primary key)`.execute(db);
    await sql`insert into posts (id) values (1), (2), (3)`.execute(db);
    for (let i = 0; i < 5_000; i++) {
      const ids = [1 + (i % 3)];
      const rows = await runCompiled(db, `shape${i}`, () => db.selectFrom('posts').select('id').where('id', 'in', ids), ids);
      expect(rows).toEqual([{ id: ids[0] }]);
    }
    expect(compiledShapes(db)).toBe(MAX_COMPILED_SHAPES);
  });

  it('keeps the most recently used shapes', async () => {
    const ids = [2];
    const hot = () => db.selectFrom('posts').select('id').where('id', 'in', ids);
    await runCompiled(db, 'hot', hot, ids);
    let built = 0;
    for (let i = 0; i < 3 * MAX_COMPILED_SHAPES; i++) {
      await runCompiled(db, `cold${i}`, () => db.selectFrom('posts').select('id').where('id', 'in', ids), ids);
      await runCompiled(db, 'hot', () => (built++, hot()), ids);
    }
    expect(built).toBe(0);
  });
});
