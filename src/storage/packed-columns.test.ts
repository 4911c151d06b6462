import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedColumns, unpackRow } from './dialect.js';
import { createTestDb, DIALECTS, type TestDb } from './test-db.js';

describe.each(DIALECTS)('packed columns on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(engine);
  });
  afterAll(() => t.destroy());

  it('reads text, integers and NULL back as the columns hold them', async () => {
    const texts = ['', 'plain', 'quote " and \\ backslash', 'line\nbreak\ttab\r', 'ünïcödé – “typographic” 🎉', '<p>html &amp; entities</p>', '[1,2]', 'null'];
    const post = { type: 'post', status: 'publish', slug: 'packed', title: texts[0]!, content: '', excerpt: '', author: 0, parent: 0, password: '', menu_order: -1, date: '2030-01-01 00:00:00', date_gmt: '2030-01-01 00:00:00', modified: '2030-01-01 00:00:00', modified_gmt: '2030-01-01 00:00:00', image_url: '' };
    const ids: number[] = [];
    for (const [i, title] of texts.entries()) {
      const row = await t.db.insertInto('posts').values({ ...post, slug: `packed-${i}`, title, content: title, author: 2 ** 31 - 1 - i }).returning('id').executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
    const rows = await t.db
      .selectFrom('posts as p')
      .leftJoin('event_details as e', 'e.post_id', 'p.id')
      .select(['p.id', packedColumns(t.db, ['p.title', 'p.content', 'p.author', 'p.menu_order', 'e.website']).as('packed')])
      .where('p.id', 'in', ids)
      .orderBy('p.id')
      .execute();
    expect(rows.map((r) => unpackRow(r.packed))).toEqual(texts.map((title, i) => [title, title, 2 ** 31 - 1 - i, -1, null]));
  });
});
