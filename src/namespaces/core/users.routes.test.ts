import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInForTest } from '../../auth/test-sessions.js';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';

describe.each(DIALECTS)('core/v2 users on %s', (engine) => {
  let t: TestApp;
  let editor: TestUser;
  let subscriber: TestUser;
  beforeAll(async () => {
    t = await startTestApp(engine);
    editor = await t.createUser('editor');
    subscriber = await t.createUser('subscriber');
  });
  afterAll(() => t.close());

  describe('GET /core/v2/users/me', () => {
    it('answers 401 rest_not_logged_in without credentials', async () => {
      const res = await t.request('GET', '/core/v2/users/me');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } });
    });

    it('answers the minimal user object', async () => {
      const res = await t.request('GET', '/core/v2/users/me', { as: editor });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', '_links']);
      expect(res.body).toMatchObject({ id: editor.id, name: editor.login, slug: editor.login, link: `http://example.test/author/${editor.login}/` });
      expect(Object.keys(res.body.avatar_urls)).toEqual(['24', '48', '96']);
      expect(res.body.avatar_urls['96']).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{64}\?s=96&d=mm&r=g$/);
      expect(res.body._links.self[0].href).toBe(`http://example.test/wp-json/core/v2/users/${editor.id}`);
    });

    it('adds the account fields with context=edit', async () => {
      const res = await t.request('GET', '/core/v2/users/me', { as: t.admin, query: { context: 'edit' } });
      expect(res.body).toMatchObject({ username: 'admin', email: 'admin@example.test', roles: ['administrator'], extra_capabilities: { administrator: true } });
      expect(res.body.capabilities.manage_options).toBe(true);
      expect(res.body.registered_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    });

    it('works for cookie sessions with a nonce', async () => {
      const s = await signInForTest(t.ctx, subscriber.id);
      const res = await t.request('GET', '/core/v2/users/me', { headers: { cookie: s.cookie, 'x-wp-nonce': s.nonce } });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(subscriber.id);
    });
  });

  describe('GET /core/v2/users/{id}', () => {
    it('shows a user to themselves and to list_users holders', async () => {
      expect((await t.request('GET', `/core/v2/users/${subscriber.id}`, { as: subscriber })).status).toBe(200);
      expect((await t.request('GET', `/core/v2/users/${subscriber.id}`, { as: t.admin, query: { context: 'edit' } })).body.username).toBe(subscriber.login);
    });

    it('hides users without published content: 401/403 rest_user_cannot_view', async () => {
      const anon = await t.request('GET', `/core/v2/users/${subscriber.id}`);
      expect(anon.status).toBe(401);
      expect(anon.body.code).toBe('rest_user_cannot_view');
      const other = await t.request('GET', `/core/v2/users/${subscriber.id}`, { as: editor });
      expect(other.status).toBe(403);
    });

    it('shows authors of published content to everyone, but their edit context only to list_users', async () => {
      const now = '2026-01-01 10:00:00';
      await t.db
        .insertInto('posts')
        .values({ type: 'tribe_events', status: 'publish', slug: `by-${editor.id}`, title: 'x', content: '', excerpt: '', author: editor.id, parent: 0, password: '', menu_order: 0, date: now, date_gmt: now, modified: now, modified_gmt: now, image_url: '' })
        .execute();
      const anon = await t.request('GET', `/core/v2/users/${editor.id}`);
      expect(anon.status).toBe(200);
      expect(anon.body).not.toHaveProperty('email');
      const edit = await t.request('GET', `/core/v2/users/${editor.id}`, { as: subscriber, query: { context: 'edit' } });
      expect(edit.status).toBe(403);
      expect(edit.body.code).toBe('rest_user_cannot_view');
    });

    it('answers 404 rest_user_invalid_id for unknown users', async () => {
      const res = await t.request('GET', '/core/v2/users/987654', { as: t.admin });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('rest_user_invalid_id');
    });
  });
});
