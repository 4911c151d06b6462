import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsPattern, ilike, ilikeBinding } from './dialect.js';
import { createTestDb, DIALECTS, type TestDb } from './test-db.js';

/** Longer than SQLite's 50,000-byte limit on LIKE patterns. */
const LONG = 'ab'.repeat(30_000);

describe.each(DIALECTS)('case-insensitive substring search on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(engine);
    const post = { type: 'post', status: 'publish', slug: '', title: '', content: '', excerpt: '', author: 0, parent: 0, password: '', menu_order: 0, date: '2030-01-01 00:00:00', date_gmt: '2030-01-01 00:00:00', modified: '2030-01-01 00:00:00', modified_gmt: '2030-01-01 00:00:00', image_url: '' };
    const contents: Record<string, string> = {
      long: `before ${LONG.toUpperCase()} after`,
      wildcards: `x 100%_\\${LONG} y`,
      shorter: LONG.slice(2),
      plain: 'Jazz night',
      accented: 'Soirée à l’Élysée, ÇAĞ MÜZİK',
    };
    for (const [name, content] of Object.entries(contents)) {
      await t.db.insertInto('posts').values({ ...post, slug: name, content }).execute();
    }
  });
  afterAll(() => t.destroy());

  const found = async (text: string) => {
    const rows = await t.db.selectFrom('posts as p').select('p.slug').where((eb) => ilike(t.db, eb.ref('p.content'), containsPattern(text))).orderBy('p.slug').execute();
    return rows.map((r) => r.slug);
  };

  it('finds short terms as LIKE does, ignoring ASCII case', async () => {
    expect(await found('JAZZ')).toEqual(['plain']);
    expect(await found('%_')).toEqual(['wildcards']);
    expect(await found('ba')).toEqual(['long', 'shorter', 'wildcards']);
  });

  it('ignores the case of letters beyond ASCII too, as PostgreSQL does (not their accents)', async () => {
    expect(await found('élysée')).toEqual(['accented']);
    expect(await found('SOIRÉE')).toEqual(['accented']);
    expect(await found('çağ')).toEqual(['accented']);
    expect(await found('elysee')).toEqual([]);
    expect(await found(`É${LONG}`)).toEqual([]);
    expect(ilikeBinding(t.db, containsPattern('Élysée'))).toEqual(engine === 'sqlite' ? { form: 'folded', value: '%élysée%' } : { form: 'like', value: '%Élysée%' });
  });

  it('finds terms longer than SQLite allows in a LIKE pattern, with the same meaning', async () => {
    expect(await found(LONG)).toEqual(['long', 'wildcards']);
    expect(await found(`100%_\\${LONG}`)).toEqual(['wildcards']);
    expect(await found(`${LONG}z`)).toEqual([]);
    expect(ilikeBinding(t.db, containsPattern(LONG)).form).toBe(engine === 'sqlite' ? 'instr' : 'like');
    expect(ilikeBinding(t.db, containsPattern('jazz'))).toEqual({ form: 'like', value: '%jazz%' });
  });
});
