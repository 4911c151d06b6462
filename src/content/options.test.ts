import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../storage/db.js';
import { MAX_CACHED_OPTIONS, Options } from './options.js';

describe('Options', () => {
  const db = createDb({ url: ':memory:' });
  afterAll(() => db.destroy());

  it('caches at most its bound of names, however many are read', async () => {
    await sql`create table options (name text primary key, value text not null)`.execute(db);
    const options = new Options(db);
    await options.set('kept', 'yes');
    for (let i = 0; i < 20_000; i++) await options.get(`woocommerce_task_list_${i}`, false);
    expect(options.cachedCount).toBe(MAX_CACHED_OPTIONS);
    expect(await options.get('kept')).toBe('yes');
  });
});
