import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../test-support/harness.js';

describe.each(DIALECTS)('author archive and /?p= pages on %s', (engine) => {
  let t: TestApp;
  let author: TestUser;
  const ids: Record<string, number> = {};

  const insert = async (type: string, status: string, title: string, by: number, password = '') =>
    Number((await t.db.insertInto('posts').values({
      type, status, slug: title.toLowerCase().replace(/\W+/g, '-'), title, content: `${title} text`, excerpt: '', author: by, parent: 0, password,
      menu_order: 0, date: '2030-01-01 00:00:00', date_gmt: '2030-01-01 00:00:00', modified: '2030-01-01 00:00:00', modified_gmt: '2030-01-01 00:00:00', image_url: '',
    }).returning('id').executeTakeFirstOrThrow()).id);

  beforeAll(async () => {
    t = await startTestApp(engine);
    author = await t.createUser('author');
    ids.event = (await t.request('POST', '/eventsuite/events/v1/events', { as: author, json: { title: 'Author Gala', start_date: '2030-02-01 19:00', end_date: '2030-02-01 21:00' } })).body.id;
    ids.page = await insert('page', 'publish', 'About Us', author.id);
    ids.draft = await insert('page', 'draft', 'Secret Draft', author.id);
    ids.locked = await insert('page', 'publish', 'Members', author.id, 'pw');
  });
  afterAll(() => t.close());

  it('the user link opens the author archive with their published posts only', async () => {
    const me = await t.request('GET', '/core/v2/users/me', { as: author });
    const res = await t.app.inject({ method: 'GET', url: new URL(me.body.link).pathname });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Author Gala');
    expect(res.body).toContain('About Us');
    expect(res.body).not.toContain('Secret Draft');
    expect(res.body).not.toContain('Members');
    expect((await t.app.inject({ method: 'GET', url: '/author/nobody-here/' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${new URL(me.body.link).pathname}page/2/` })).statusCode).toBe(404);
  });

  it('/?p= shows a published page, redirects a post with a URL base to it, and 404s the rest', async () => {
    const page = await t.app.inject({ method: 'GET', url: `/?page_id=${ids.page}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>About Us</h1>');
    const ev = await t.app.inject({ method: 'GET', url: `/?p=${ids.event}` });
    expect(ev.statusCode).toBe(301);
    expect(ev.headers.location).toBe('http://example.test/event/author-gala/');
    expect((await t.app.inject({ method: 'GET', url: `/?p=${ids.draft}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/?p=abc' })).statusCode).toBe(404);
    const locked = await t.app.inject({ method: 'GET', url: `/?p=${ids.locked}` });
    expect(locked.body).not.toContain('Members text');
    expect((await t.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
  });
});
