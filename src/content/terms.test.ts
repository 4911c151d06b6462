import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, DIALECTS, type TestDb } from '../storage/test-db.js';
import {
  createTerm, deleteTerm, ensureTermByName, getTerm, getTermByName, recountTerms, resolveTermRefs, setPostTerms, termsOfPosts,
  TermExistsError, updateTerm,
} from './terms.js';

describe.each(DIALECTS)('content/terms on %s', (engine) => {
  let t: TestDb;
  const post = async (status: string, slug: string) => {
    const [r] = await t.db.insertInto('posts').values({ type: 'tribe_events', status, slug, title: slug, content: '', excerpt: '', author: 0, parent: 0, password: '', menu_order: 0, date: '2025-01-01 00:00:00', date_gmt: '2025-01-01 00:00:00', modified: '2025-01-01 00:00:00', modified_gmt: '2025-01-01 00:00:00', image_url: '' }).returning('id').execute();
    return Number(r!.id);
  };
  beforeAll(async () => {
    t = await createTestDb(engine);
  });
  afterAll(() => t.destroy());

  it('creates terms with unique slugs and refuses duplicate names under one parent', async () => {
    const music = await createTerm(t.db, 'cat', { name: 'Music' });
    expect(music).toMatchObject({ name: 'Music', slug: 'music', parent: 0, count: 0 });
    await expect(createTerm(t.db, 'cat', { name: 'music' })).rejects.toBeInstanceOf(TermExistsError);
    const child = await createTerm(t.db, 'cat', { name: 'Music', parent: music.id });
    expect(child.slug).toBe('music-2');
    expect((await createTerm(t.db, 'tag', { name: 'Music' })).slug).toBe('music');
    expect((await getTermByName(t.db, 'cat', 'MUSIC', 0))?.id).toBe(music.id);
    expect((await ensureTermByName(t.db, 'cat', 'Music')).id).toBe(music.id);
    expect((await ensureTermByName(t.db, 'cat', 'Brand New')).slug).toBe('brand-new');
    const resolved = await resolveTermRefs(t.db, 'cat', ['music', String(child.id), 'nope', '999999']);
    expect(resolved).toEqual({ ids: [music.id, child.id], unknown: ['nope', '999999'] });
  });

  it('compares names case-insensitively beyond ASCII, as the originals\' collation does', async () => {
    const term = await createTerm(t.db, 'tag', { name: 'Évènement' });
    await expect(createTerm(t.db, 'tag', { name: 'évènement' })).rejects.toBeInstanceOf(TermExistsError);
    expect((await getTermByName(t.db, 'tag', 'ÉVÈNEMENT', 0))?.id).toBe(term.id);
  });

  it('numbers long slugs again and again (different names, one slug near the longest)', async () => {
    const long = '9'.repeat(195);
    const slugs: string[] = [];
    for (const name of [long, `${long}!`, `${long}?`, `${long}.`]) slugs.push((await createTerm(t.db, 'tag', { name })).slug);
    expect(new Set(slugs).size).toBe(4);
    expect(slugs.slice(1).map((s) => s.slice(-2))).toEqual(['-2', '-3', '-4']);
    // Underscores are literal (the slug's family is a range, not a LIKE pattern).
    const underscored: string[] = [];
    for (const name of ['a_b', 'a_b!', 'a_b?']) underscored.push((await createTerm(t.db, 'tag', { name })).slug);
    expect(underscored).toEqual(['a_b', 'a_b-2', 'a_b-3']);
  });

  it('assigns terms to posts, counts published posts only, and batch-loads terms', async () => {
    const a = await createTerm(t.db, 'cat', { name: 'Alpha' });
    const b = await createTerm(t.db, 'cat', { name: 'Beta' });
    const p1 = await post('publish', 'p1');
    const p2 = await post('draft', 'p2');
    await recountTerms(t.db, await setPostTerms(t.db, p1, 'cat', [a.id, b.id]));
    await recountTerms(t.db, await setPostTerms(t.db, p2, 'cat', [a.id]));
    expect((await getTerm(t.db, 'cat', a.id))?.count).toBe(1);
    const touched = await setPostTerms(t.db, p1, 'cat', [b.id]);
    expect(touched).toEqual([a.id]);
    await recountTerms(t.db, touched);
    expect((await getTerm(t.db, 'cat', a.id))?.count).toBe(0);
    const map = await termsOfPosts(t.db, [p1, p2], ['cat']);
    expect(map.get(p1)?.map((x) => x.name)).toEqual(['Beta']);
    expect(map.get(p2)?.map((x) => x.name)).toEqual(['Alpha']);
  });

  it("orders a post's terms by name as WordPress's collation does: case and accents aside, then by ID", async () => {
    const names = ['Theatre', 'art', 'Ölhafen', 'Music', 'zoo', 'Oboe', 'Éclat'];
    const terms = [];
    for (const name of names) terms.push(await createTerm(t.db, 'genre', { name }));
    const p = await post('publish', 'sorted');
    await setPostTerms(t.db, p, 'genre', terms.map((x) => x.id));
    const map = await termsOfPosts(t.db, [p], ['genre']);
    expect(map.get(p)?.map((x) => x.name)).toEqual(['art', 'Éclat', 'Music', 'Oboe', 'Ölhafen', 'Theatre', 'zoo']);
  });

  it('updates and deletes terms (children move up)', async () => {
    const parent = await createTerm(t.db, 'cat', { name: 'Parent' });
    const kid = await createTerm(t.db, 'cat', { name: 'Kid', parent: parent.id });
    const renamed = await updateTerm(t.db, parent, { name: 'Renamed', slug: 'alpha' });
    expect(renamed).toMatchObject({ name: 'Renamed', slug: 'alpha-2' });
    await expect(updateTerm(t.db, kid, { parent: 0, name: 'Alpha' })).rejects.toBeInstanceOf(TermExistsError);
    await deleteTerm(t.db, renamed);
    expect(await getTerm(t.db, 'cat', parent.id)).toBeUndefined();
    expect((await getTerm(t.db, 'cat', kid.id))?.parent).toBe(0);
  });
});
