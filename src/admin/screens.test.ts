import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInForTest } from '../auth/test-sessions.js';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../test-support/harness.js';

const EVENTS = '/eventsuite/events/v1';

describe.each(DIALECTS)('admin screens on %s', (engine) => {
  let t: TestApp;
  let contributor: TestUser;
  let subscriber: TestUser;
  const cookies: Record<string, string> = {};

  const page = (url: string, as: string | null, form?: Record<string, string>) =>
    t.app.inject({
      method: form ? 'POST' : 'GET',
      url: `${t.ctx.config.adminPath}/${url}`,
      headers: { ...(as ? { cookie: cookies[as]! } : {}), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
  const listedIds = (html: string) => [...html.matchAll(/post\.php\?post=(\d+)/g)].map((m) => Number(m[1]));
  const nonceOf = (html: string) => /name="_wpnonce" value="([^"]+)"/.exec(html)![1]!;

  beforeAll(async () => {
    t = await startTestApp(engine);
    [contributor, subscriber] = await Promise.all([t.createUser('contributor'), t.createUser('subscriber')]);
    for (const [name, id] of [['admin', t.admin.id], ['contributor', contributor.id], ['subscriber', subscriber.id]] as const) cookies[name] = (await signInForTest(t.ctx, id)).cookie;
  });
  afterAll(() => t.close());

  describe('admin.php', () => {
    it('sends visitors to sign in, and answers an unknown page or a missing capability with 403', async () => {
      const out = await page('admin.php?page=wc-admin', null);
      expect(out.statusCode).toBe(302);
      expect(out.headers.location).toContain('wp-login.php?redirect_to=');
      for (const [url, who] of [['admin.php?page=no-such-screen', 'admin'], ['admin.php', 'admin'], ['admin.php?page=wpseo_integrations', 'subscriber'], ['admin.php?page=eventsuite-extensions', 'contributor']] as const) {
        const res = await page(url, who);
        expect(res.statusCode, `${url} as ${who}`).toBe(403);
        expect(res.body).toContain('Sorry, you are not allowed to access this page.');
      }
      expect((await page('admin.php?page=wpseo_integrations', 'admin')).statusCode).toBe(200);
    });

    it('the dashboard links the screens the user may open', async () => {
      const admin = await page('index.php', 'admin');
      for (const href of ['edit.php?post_type=tribe_events', 'edit.php?post_type=page', 'admin.php?page=wc-admin', 'admin.php?page=wpseo_integrations', 'admin.php?page=eventsuite-extensions']) {
        expect(admin.body, href).toContain(`href="http://example.test/wp-admin/${href.replace(/&/g, '&#38;')}"`);
      }
      const sub = await page('index.php', 'subscriber');
      expect(sub.body).not.toContain('edit.php');
      expect(sub.body).not.toContain('admin.php?page=');
    });

    it('refuses a form without the screen nonce', async () => {
      const res = await page('admin.php?page=eventsuite-extensions', 'admin', { do: 'connect', _wpnonce: 'forged' });
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('The link you followed has expired.');
    });
  });

  describe('edit.php and post.php', () => {
    let mine: number;
    let theirs: number;
    let published: number;
    let homepage: number;

    beforeAll(async () => {
      const event = async (as: TestUser, title: string, status: string, categories: string[] = []) =>
        (await t.request('POST', `${EVENTS}/events`, { as, json: { title, status, categories, start_date: '2030-01-01 10:00', end_date: '2030-01-01 11:00' } })).body.id as number;
      published = await event(t.admin, 'Open Air Concert', 'publish', ['Music']);
      theirs = await event(t.admin, 'Admin Draft', 'draft');
      mine = await event(contributor, 'Contributor Draft', 'draft');
      homepage = Number((await t.db.insertInto('posts').values({
        type: 'page', status: 'publish', slug: 'home', title: 'Home', content: '<p>Welcome</p>', excerpt: '', author: t.admin.id, parent: 0, password: '',
        menu_order: 0, date: '2030-01-01 00:00:00', date_gmt: '2030-01-01 00:00:00', modified: '2030-01-01 00:00:00', modified_gmt: '2030-01-01 00:00:00', image_url: '',
      }).returning('id').executeTakeFirstOrThrow()).id);
    });

    it('lists the posts of a type by status and category; contributors see their own drafts but not others\'', async () => {
      const all = await page('edit.php?post_type=tribe_events', 'admin');
      expect(all.statusCode).toBe(200);
      expect(listedIds(all.body).sort()).toEqual([published, theirs, mine].sort());
      expect(all.body).toContain(`href="http://example.test/event/open-air-concert/"`);
      expect(listedIds((await page('edit.php?post_type=tribe_events&post_status=draft', 'admin')).body).sort()).toEqual([theirs, mine].sort());
      expect(listedIds((await page('edit.php?post_type=tribe_events&tribe_events_cat=music', 'admin')).body)).toEqual([published]);
      expect(listedIds((await page('edit.php?post_type=tribe_events', 'contributor')).body).sort()).toEqual([published, mine].sort());
    });

    it('answers an unknown type with 400 and a user without the type\'s edit capability with 403', async () => {
      expect((await page('edit.php?post_type=nope', 'admin')).statusCode).toBe(400);
      // Types without screens of their own: attendees' titles are buyers' names.
      for (const type of ['tribe_rsvp_attendees', 'tribe_rsvp_tickets', 'wpcf7_contact_form']) {
        expect(t.ctx.areas.postTypes.get(type), type).toBeDefined();
        expect((await page(`edit.php?post_type=${type}`, 'admin')).statusCode, type).toBe(403);
        expect((await page(`edit.php?post_type=${type}`, 'contributor')).statusCode, type).toBe(403);
      }
      expect((await page('edit.php?post_type=tribe_events', 'subscriber')).statusCode).toBe(403);
      expect((await page('edit.php?post_type=tribe_events', null)).statusCode).toBe(302);
    });

    it('edits a page (the link the homepage task hands out), with its nonce', async () => {
      const url = `post.php?post=${homepage}&action=edit`;
      const form = await page(url, 'admin');
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('&#60;p&#62;Welcome&#60;/p&#62;');
      expect((await page(url, 'admin', { _wpnonce: 'forged', post_title: 'X', content: '', status: 'publish' })).statusCode).toBe(403);
      const saved = await page(url, 'admin', { _wpnonce: nonceOf(form.body), post_title: 'Welcome home', content: '<p>Hello</p>', status: 'publish' });
      expect(saved.statusCode).toBe(302);
      const row = await t.db.selectFrom('posts').select(['title', 'content', 'status']).where('id', '=', homepage).executeTakeFirstOrThrow();
      expect(row).toEqual({ title: 'Welcome home', content: '<p>Hello</p>', status: 'publish' });
      expect((await page(url, 'contributor')).statusCode).toBe(403);
    });

    it('filters the markup of users without unfiltered_html, and holds back what they may not publish', async () => {
      const author = await t.createUser('author');
      cookies.author = (await signInForTest(t.ctx, author.id)).cookie;
      const own = Number((await t.db.insertInto('posts').values({
        type: 'post', status: 'draft', slug: 'note', title: 'Note', content: '', excerpt: '', author: author.id, parent: 0, password: '',
        menu_order: 0, date: '2030-01-01 00:00:00', date_gmt: '2030-01-01 00:00:00', modified: '2030-01-01 00:00:00', modified_gmt: '2030-01-01 00:00:00', image_url: '',
      }).returning('id').executeTakeFirstOrThrow()).id);
      const url = `post.php?post=${own}&action=edit`;
      const form = await page(url, 'author');
      expect(form.statusCode).toBe(200);
      await page(url, 'author', { _wpnonce: nonceOf(form.body), post_title: 'Note<script>x()</script>', content: '<p onclick="x()">Hi</p><script>steal()</script>', status: 'publish' });
      const row = await t.db.selectFrom('posts').select(['title', 'content', 'status']).where('id', '=', own).executeTakeFirstOrThrow();
      expect(row.content).not.toContain('<script');
      expect(row.content).not.toContain('onclick');
      expect(row.title).not.toContain('<script');
      expect(row.status).toBe('publish');
      expect((await page(`post.php?post=${homepage}&action=edit`, 'author')).statusCode).toBe(403);
      const contributorPost = Number((await t.db.insertInto('posts').values({
        type: 'post', status: 'draft', slug: 'c-note', title: 'C', content: '', excerpt: '', author: contributor.id, parent: 0, password: '',
        menu_order: 0, date: '2030-01-01 00:00:00', date_gmt: '2030-01-01 00:00:00', modified: '2030-01-01 00:00:00', modified_gmt: '2030-01-01 00:00:00', image_url: '',
      }).returning('id').executeTakeFirstOrThrow()).id);
      const cform = await page(`post.php?post=${contributorPost}&action=edit`, 'contributor');
      await page(`post.php?post=${contributorPost}&action=edit`, 'contributor', { _wpnonce: nonceOf(cform.body), post_title: 'C', content: '', status: 'publish' });
      expect((await t.db.selectFrom('posts').select('status').where('id', '=', contributorPost).executeTakeFirstOrThrow()).status).toBe('pending');
    });

    it('never opens a post of a type without screens (an attendee\'s name is private)', async () => {
      const attendee = Number((await t.db.insertInto('posts').values({
        type: 'tribe_rsvp_attendees', status: 'publish', slug: 'a-1', title: 'Private Buyer Name', content: '', excerpt: '', author: contributor.id, parent: 0, password: '',
        menu_order: 0, date: '2030-01-01 00:00:00', date_gmt: '2030-01-01 00:00:00', modified: '2030-01-01 00:00:00', modified_gmt: '2030-01-01 00:00:00', image_url: '',
      }).returning('id').executeTakeFirstOrThrow()).id);
      for (const who of ['admin', 'contributor']) {
        const res = await page(`post.php?post=${attendee}&action=edit`, who);
        expect(res.statusCode, who).toBe(404);
        expect(res.body).not.toContain('Private Buyer Name');
      }
    });

    it('shows an area\'s post without a form, refuses a POST to it, and 404s what does not exist', async () => {
      const ev = await page(`post.php?post=${published}&action=edit`, 'admin');
      expect(ev.statusCode).toBe(200);
      expect(ev.body).toContain('Open Air Concert');
      expect(ev.body).not.toContain('<form');
      expect((await page(`post.php?post=${published}&action=edit`, 'admin', { post_title: 'x' })).statusCode).toBe(405);
      expect((await page(`post.php?post=${mine}&action=edit`, 'contributor')).statusCode).toBe(200);
      expect((await page(`post.php?post=${theirs}&action=edit`, 'contributor')).statusCode).toBe(403);
      expect((await page('post.php?post=999999&action=edit', 'admin')).statusCode).toBe(404);
      expect((await page('post.php?post=abc', 'admin')).statusCode).toBe(404);
    });
  });
});
