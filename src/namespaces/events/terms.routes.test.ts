import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';

const NS = '/eventsuite/events/v1';
const NOW = new Date('2025-04-01T12:00:00Z');

type Json = Record<string, any>;

describe.each(DIALECTS)('category and tag routes on %s', (engine) => {
  let t: TestApp;
  let subscriber: TestUser;
  let contributor: TestUser;
  let editor: TestUser;

  const post = (path: string, json: Json, as: TestUser | null = t.admin) => t.request('POST', `${NS}${path}`, { as, json });

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => NOW });
    [subscriber, contributor, editor] = await Promise.all([t.createUser('subscriber'), t.createUser('contributor'), t.createUser('editor')]);
  });
  afterAll(() => t.close());

  it('creates categories in the terms controller shape, with term_exists on duplicates', async () => {
    const res = await post('/categories', { name: 'Music', description: 'Loud things' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`${t.ctx.urls.apiRoot}eventsuite/events/v1/categories/${res.body.id}`);
    expect(res.body).toEqual({
      id: res.body.id, count: 0, description: 'Loud things', url: 'http://example.test/events/category/music/', name: 'Music', slug: 'music',
      taxonomy: 'tribe_events_cat', parent: 0, meta: [],
      urls: { self: `${t.ctx.urls.apiRoot}eventsuite/events/v1/categories/${res.body.id}`, collection: `${t.ctx.urls.apiRoot}eventsuite/events/v1/categories` },
    });
    const dup = await post('/categories', { name: 'Music' });
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ code: 'term_exists', data: { status: 400, term_id: res.body.id } });
    const child = await post('/categories', { name: 'Jazz', parent: res.body.id, slug: 'music' });
    expect(child.body).toMatchObject({ parent: res.body.id, slug: 'music-2' });
    expect(child.body.urls.up).toBe(res.body.urls.self);
    expect((await post('/categories', { name: 'Orphan', parent: 999999 })).body.code).toBe('rest_term_invalid');
    expect((await post('/categories', {})).body.code).toBe('rest_missing_callback_param');
  });

  it('creates tags without parents', async () => {
    const res = await post('/tags', { name: 'Outdoor Fun' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ taxonomy: 'post_tag', slug: 'outdoor-fun', url: 'http://example.test/tag/outdoor-fun/' });
    expect('parent' in res.body).toBe(false);
    expect((await post('/tags', { name: 'Child', parent: res.body.id })).body.code).toBe('rest_taxonomy_not_hierarchical');
    expect((await t.request('PATCH', `${NS}/tags/${res.body.id}`, { as: t.admin, json: { parent: 1 } })).body.code).toBe('rest_taxonomy_not_hierarchical');
    const renamed = await t.request('PUT', `${NS}/tags/${res.body.id}`, { as: t.admin, json: { name: 'Outdoors' } });
    expect(renamed.body).toMatchObject({ name: 'Outdoors', slug: 'outdoor-fun' });
    const del = await t.request('DELETE', `${NS}/tags/${res.body.id}`, { as: t.admin });
    expect(del.body).toMatchObject({ id: res.body.id, taxonomy: 'post_tag' });
    expect((await t.request('GET', `${NS}/tags/${res.body.id}`)).status).toBe(400);
  });

  it('needs the taxonomy manage/edit/delete terms capability (editors and up): 403 for contributors', async () => {
    expect((await post('/tags', { name: 'Anon' }, null)).status).toBe(401);
    expect((await post('/tags', { name: 'Sub' }, subscriber)).status).toBe(403);
    const refused = await post('/tags', { name: 'Contrib' }, contributor);
    expect(refused.status).toBe(403);
    expect((await post('/categories', { name: 'Contrib' }, contributor)).status).toBe(403);
    const made = await post('/categories', { name: 'Editorial' }, editor);
    expect(made.status).toBe(201);
    expect((await t.request('PATCH', `${NS}/categories/${made.body.id}`, { as: contributor, json: { name: 'X' } })).status).toBe(403);
    expect((await t.request('DELETE', `${NS}/categories/${made.body.id}`, { as: contributor })).status).toBe(403);
    expect((await t.request('PATCH', `${NS}/categories/${made.body.id}`, { as: editor, json: { name: 'Editorial 2' } })).status).toBe(200);
    expect((await t.request('DELETE', `${NS}/categories/${made.body.id}`, { as: editor })).status).toBe(200);
  });

  it('refuses an empty description or slug on create, and an unknown parent or empty slug filter on the list', async () => {
    for (const extra of [{ description: '' }, { slug: '' }]) {
      const res = await post('/categories', { name: 'Blank', ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual(Object.keys(extra));
    }
    const parent = await t.request('GET', `${NS}/categories`, { query: { parent: 999999 } });
    expect(parent.status).toBe(400);
    expect(Object.keys(parent.body.data.params)).toEqual(['parent']);
    expect((await t.request('GET', `${NS}/categories`, { query: { parent: 0 } })).status).toBe(200);
    const slug = await t.request('GET', `${NS}/tags`, { query: { slug: '' } });
    expect(slug.status).toBe(400);
    expect(Object.keys(slug.body.data.params)).toEqual(['slug']);
  });

  it('orders names case-insensitively', async () => {
    for (const name of ['Banana split', 'apple pie', 'cherry tart']) await post('/tags', { name });
    const res = await t.request('GET', `${NS}/tags`, { query: { hide_empty: 'false', search: ' ', orderby: 'name', per_page: 50 } });
    const names = res.body.tags.map((x: Json) => x.name).filter((n: string) => ['Banana split', 'apple pie', 'cherry tart'].includes(n));
    expect(names).toEqual(['apple pie', 'Banana split', 'cherry tart']);
  });

  it('reads, updates and hard-deletes terms', async () => {
    const res = await post('/categories', { name: 'Theatre' });
    const id = res.body.id;
    expect((await t.request('GET', `${NS}/categories/${id}`)).body.name).toBe('Theatre');
    expect((await t.request('GET', `${NS}/categories/999999`)).body.code).toBe('rest_invalid_param');
    expect((await t.request('GET', `${NS}/tags/${id}`)).body.code).toBe('rest_invalid_param');
    const upd = await t.request('PATCH', `${NS}/categories/${id}`, { as: t.admin, json: { description: 'Plays' } });
    expect(upd.body).toMatchObject({ name: 'Theatre', description: 'Plays', slug: 'theatre' });
    const renamed = await t.request('PUT', `${NS}/categories/${id}`, { as: t.admin, form: { name: 'Drama', slug: 'music' } });
    expect(renamed.body).toMatchObject({ name: 'Drama', slug: 'music-3' });
    expect((await t.request('PATCH', `${NS}/categories/${id}`, { as: t.admin, json: { name: 'Music' } })).body.code).toBe('term_exists');
    expect((await t.request('PATCH', `${NS}/categories/${id}`, { as: t.admin, json: { parent: 999999 } })).body.code).toBe('rest_term_invalid');
    expect((await t.request('DELETE', `${NS}/categories/${id}`, { as: subscriber })).status).toBe(403);
    const del = await t.request('DELETE', `${NS}/categories/${id}`, { as: t.admin });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id, name: 'Drama' });
    expect((await t.request('GET', `${NS}/categories/${id}`)).status).toBe(400);
  });

  it('lists with hide_empty by default, counts of published events and the archive envelope', async () => {
    const film = await post('/categories', { name: 'Film' });
    await post('/categories', { name: 'Empty One' });
    const ev = await post('/events', { title: 'Screening', start_date: '2025-05-01 20:00', end_date: '2025-05-01 22:00', categories: [film.body.id], tags: ['cinema'] });
    await post('/events', { title: 'Draft Screening', start_date: '2025-05-02 20:00', end_date: '2025-05-02 22:00', categories: [film.body.id], status: 'draft' });
    const res = await t.request('GET', `${NS}/categories`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories']);
    expect(res.body.rest_url).toBe(`${t.ctx.urls.apiRoot}eventsuite/events/v1/categories/`);
    expect(res.body.categories.map((c: Json) => [c.name, c.count])).toEqual([['Film', 1]]);
    const all = await t.request('GET', `${NS}/categories`, { query: { hide_empty: 'false', orderby: 'name', order: 'desc' } });
    expect(all.body.categories.map((c: Json) => c.name)).toEqual(['Music', 'Jazz', 'Film', 'Empty One']);
    expect(all.headers['x-wp-total']).toBe('4');
    // Empty id lists filter nothing, as get_terms ignores them (PostgreSQL answered 500 to `IN ()`).
    const emptyLists = await t.request('GET', `${NS}/categories`, { query: { hide_empty: 'false', orderby: 'name', order: 'desc', include: '', exclude: '' } });
    expect(emptyLists.status).toBe(200);
    expect(emptyLists.body.categories.map((c: Json) => c.name)).toEqual(['Music', 'Jazz', 'Film', 'Empty One']);
    const byEvent = await t.request('GET', `${NS}/tags`, { query: { event: ev.body.id } });
    expect(byEvent.body.tags.map((c: Json) => c.name)).toEqual(['cinema']);
    expect((await t.request('GET', `${NS}/tags`, { query: { event: 999999 } })).status).toBe(400);
    expect((await t.request('GET', `${NS}/categories`, { query: { include: '999999' } })).status).toBe(400);
    expect((await t.request('GET', `${NS}/categories`, { query: { order: 'sideways' } })).status).toBe(400);
    const search = await t.request('GET', `${NS}/categories`, { query: { search: 'mus', hide_empty: 'false' } });
    expect(search.body.categories.map((c: Json) => c.name)).toEqual(['Jazz', 'Music']);
    const paged = await t.request('GET', `${NS}/categories`, { query: { hide_empty: 'false', per_page: 3 } });
    expect(paged.body.next_rest_url).toBe(`${t.ctx.urls.apiRoot}eventsuite/events/v1/categories/?page=2`);
    const past = await t.request('GET', `${NS}/categories`, { query: { hide_empty: 'false', per_page: 3, page: 5 } });
    expect(past.status).toBe(200);
    expect(past.body.categories).toEqual([]);
    expect(past.body.previous_rest_url).toContain('page=4');
    // The page before the second is the collection URL itself, without a page argument (Archive_Base).
    const second = await t.request('GET', `${NS}/categories`, { query: { hide_empty: 'false', per_page: 3, page: 2 } });
    expect(second.body.previous_rest_url).toBe(`${t.ctx.urls.apiRoot}eventsuite/events/v1/categories/`);
    // Trashing the published event brings the count back to 0.
    await t.request('DELETE', `${NS}/events/${ev.body.id}`, { as: t.admin });
    expect((await t.request('GET', `${NS}/categories/${film.body.id}`)).body.count).toBe(0);
  });
});
