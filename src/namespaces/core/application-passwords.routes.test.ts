import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApplicationPasswordsEnabled } from '../../auth/users.js';
import { signInForTest } from '../../auth/test-sessions.js';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';

const BASE = '/core/v2/users/me/application-passwords';
const CHUNKED = /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/;
const GMT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

describe.each(DIALECTS)('core/v2 application passwords on %s', (engine) => {
  let t: TestApp;
  let editor: TestUser;
  let subscriber: TestUser;

  beforeAll(async () => {
    t = await startTestApp(engine);
    editor = await t.createUser('editor');
    subscriber = await t.createUser('subscriber');
  });
  afterAll(() => t.close());

  describe('POST /core/v2/users/{user_id}/application-passwords', () => {
    it('creates: 201, Location, every field, the chunked password once', async () => {
      const res = await t.request('POST', BASE, { as: t.admin, json: { name: 'Calendar sync' } });
      expect(res.status).toBe(201);
      const b = res.body;
      expect(Object.keys(b)).toEqual(['uuid', 'app_id', 'name', 'created', 'last_used', 'last_ip', 'password', '_links']);
      expect(b.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(b.app_id).toBe('');
      expect(b.name).toBe('Calendar sync');
      expect(b.created).toMatch(GMT);
      expect(b.last_used).toBeNull();
      expect(b.last_ip).toBeNull();
      expect(b.password).toMatch(CHUNKED);
      const self = `http://example.test/wp-json/core/v2/users/${t.admin.id}/application-passwords/${b.uuid}`;
      expect(b._links.self[0].href).toBe(self);
      expect(res.headers.location).toBe(self);
    });

    it('gives a password that authenticates, with and without its spaces', async () => {
      const res = await t.request('POST', BASE, { as: editor, json: { name: 'Works' } });
      const chunked: string = res.body.password;
      for (const pw of [chunked, chunked.replace(/ /g, '')]) {
        const me = await t.request('GET', '/core/v2/users/me', { headers: { authorization: basic(editor.login, pw) } });
        expect(me.status).toBe(200);
        expect(me.body.id).toBe(editor.id);
      }
    });

    it('keeps an app_id that is a lower-case UUID', async () => {
      const appId = '2f0b4a1c-8d3e-5f6a-9b7c-0d1e2f3a4b5c';
      const res = await t.request('POST', BASE, { as: t.admin, form: { name: 'With app id', app_id: appId } });
      expect(res.status).toBe(201);
      expect(res.body.app_id).toBe(appId);
    });

    it('refuses an app_id that is not a lower-case UUID: 400 rest_invalid_param', async () => {
      for (const appId of ['not-a-uuid', '2F0B4A1C-8D3E-5F6A-9B7C-0D1E2F3A4B5C']) {
        const res = await t.request('POST', BASE, { as: t.admin, json: { name: `bad ${appId}`, app_id: appId } });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
        expect(Object.keys(res.body.data.params)).toEqual(['app_id']);
      }
    });

    it('requires a name: 400 rest_missing_callback_param, even for anonymous callers', async () => {
      for (const as of [t.admin, null]) {
        const res = await t.request('POST', BASE, { as, json: {} });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('rest_missing_callback_param');
        expect(res.body.data.params).toEqual(['name']);
      }
    });

    it('refuses a blank name by its pattern: 400 rest_invalid_param', async () => {
      const res = await t.request('POST', BASE, { as: t.admin, json: { name: '   ' } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      // the pattern runs with Unicode classes, as PHP's `u` modifier does: no-break spaces are blank too
      const unicodeBlank = await t.request('POST', BASE, { as: t.admin, json: { name: '\u00a0\u3000' } });
      expect(unicodeBlank.status).toBe(400);
      expect(unicodeBlank.body.data.details.name.code).toBe('rest_invalid_pattern');
    });

    it('refuses a name that sanitises to nothing: 400 application_password_empty_name', async () => {
      const res = await t.request('POST', BASE, { as: t.admin, json: { name: '<b></b>' } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('application_password_empty_name');
    });

    it('refuses a name longer than the column: 400 application_password_name_too_long', async () => {
      const res = await t.request('POST', BASE, { as: t.admin, json: { name: 'x'.repeat(201) } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('application_password_name_too_long');
    });

    it('refuses a name used before, case-insensitively: 409 application_password_duplicate_name', async () => {
      const res = await t.request('POST', BASE, { as: t.admin, json: { name: 'CALENDAR sync' } });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('application_password_duplicate_name');
      const other = await t.request('POST', BASE, { as: editor, json: { name: 'Calendar sync' } });
      expect(other.status).toBe(201);
    });

    it('lets an administrator create for another user (edit_users)', async () => {
      const res = await t.request('POST', `/core/v2/users/${subscriber.id}/application-passwords`, { as: t.admin, json: { name: 'By admin' } });
      expect(res.status).toBe(201);
      expect(res.body._links.self[0].href).toContain(`/users/${subscriber.id}/application-passwords/`);
    });

    it('refuses others without edit_users: 403 rest_cannot_create_application_passwords (401 anonymous)', async () => {
      const res = await t.request('POST', `/core/v2/users/${t.admin.id}/application-passwords`, { as: editor, json: { name: 'Nope' } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('rest_cannot_create_application_passwords');
      const anon = await t.request('POST', `/core/v2/users/${t.admin.id}/application-passwords`, { json: { name: 'Nope' } });
      expect(anon.status).toBe(401);
      expect(anon.body.code).toBe('rest_cannot_create_application_passwords');
    });
  });

  describe('GET /core/v2/users/{user_id}/application-passwords', () => {
    it('lists without passwords; embed context keeps uuid, app_id and name', async () => {
      const res = await t.request('GET', BASE, { as: t.admin });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThanOrEqual(3);
      for (const item of res.body) {
        expect(Object.keys(item)).toEqual(['uuid', 'app_id', 'name', 'created', 'last_used', 'last_ip', '_links']);
      }
      const embed = await t.request('GET', BASE, { as: t.admin, query: { context: 'embed' } });
      expect(Object.keys(embed.body[0])).toEqual(['uuid', 'app_id', 'name', '_links']);
    });

    it('answers 401 rest_not_logged_in for me without a user', async () => {
      const res = await t.request('GET', BASE);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('rest_not_logged_in');
    });

    it('answers 404 rest_user_invalid_id for unknown users and for 0', async () => {
      for (const id of ['999999', '0']) {
        const res = await t.request('GET', `/core/v2/users/${id}/application-passwords`, { as: t.admin });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('rest_user_invalid_id');
      }
    });

    it('refuses another user’s list: 403 rest_cannot_list_application_passwords, 401 anonymous', async () => {
      const res = await t.request('GET', `/core/v2/users/${t.admin.id}/application-passwords`, { as: subscriber });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('rest_cannot_list_application_passwords');
      const anon = await t.request('GET', `/core/v2/users/${t.admin.id}/application-passwords`);
      expect(anon.status).toBe(401);
      expect(anon.body.code).toBe('rest_cannot_list_application_passwords');
    });

    it('lets a subscriber list their own', async () => {
      const res = await t.request('GET', `/core/v2/users/${subscriber.id}/application-passwords`, { as: subscriber });
      expect(res.status).toBe(200);
      expect(res.body.map((i: { name: string }) => i.name).sort()).toEqual(['By admin', 'tests']);
    });
  });

  describe('/core/v2/users/{user_id}/application-passwords/{uuid}', () => {
    let uuid: string;
    let password: string;
    beforeAll(async () => {
      const res = await t.request('POST', BASE, { as: editor, json: { name: 'Item' } });
      uuid = res.body.uuid;
      password = res.body.password;
    });

    it('GET reads one', async () => {
      const res = await t.request('GET', `${BASE}/${uuid}`, { as: editor });
      expect(res.status).toBe(200);
      expect(res.body.uuid).toBe(uuid);
      expect(res.body.name).toBe('Item');
      expect(res.body).not.toHaveProperty('password');
    });

    it('GET answers 404 rest_application_password_not_found for an unknown UUID', async () => {
      const res = await t.request('GET', `${BASE}/00000000-0000-4000-8000-000000000000`, { as: editor });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('rest_application_password_not_found');
    });

    it('GET refuses others: 403 rest_cannot_read_application_password', async () => {
      const res = await t.request('GET', `/core/v2/users/${editor.id}/application-passwords/${uuid}`, { as: subscriber });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('rest_cannot_read_application_password');
    });

    it('POST, PUT and PATCH rename; app_id is ignored', async () => {
      for (const [method, name] of [['POST', 'Renamed 1'], ['PUT', 'Renamed 2'], ['PATCH', 'Renamed 3']] as const) {
        const res = await t.request(method, `${BASE}/${uuid}`, { as: editor, json: { name, app_id: '2f0b4a1c-8d3e-5f6a-9b7c-0d1e2f3a4b5c' } });
        expect(res.status).toBe(200);
        expect(res.body.name).toBe(name);
        expect(res.body.app_id).toBe('');
        expect(res.body).not.toHaveProperty('password');
      }
    });

    it('renaming onto another password’s name answers 409 application_password_duplicate_name', async () => {
      const res = await t.request('POST', `${BASE}/${uuid}`, { as: editor, json: { name: 'works' } });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('application_password_duplicate_name');
    });

    it('renaming refuses others: 403 rest_cannot_edit_application_password; unknown UUID → 404', async () => {
      const res = await t.request('POST', `/core/v2/users/${editor.id}/application-passwords/${uuid}`, { as: subscriber, json: { name: 'x' } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('rest_cannot_edit_application_password');
      const missing = await t.request('PUT', `${BASE}/nope`, { as: editor, json: { name: 'x' } });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('rest_application_password_not_found');
    });

    it('DELETE refuses others: 403 rest_cannot_delete_application_password', async () => {
      const res = await t.request('DELETE', `/core/v2/users/${editor.id}/application-passwords/${uuid}`, { as: subscriber });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('rest_cannot_delete_application_password');
    });

    it('DELETE removes it, answers the previous item, and the password stops working at once', async () => {
      const before = await t.request('GET', '/core/v2/users/me', { headers: { authorization: basic(editor.login, password) } });
      expect(before.status).toBe(200);
      const res = await t.request('DELETE', `${BASE}/${uuid}`, { as: editor });
      expect(res.status).toBe(200);
      expect(res.body.deleted).toBe(true);
      expect(res.body.previous.uuid).toBe(uuid);
      expect(res.body.previous.name).toBe('Renamed 3');
      expect((await t.request('GET', `${BASE}/${uuid}`, { as: editor })).status).toBe(404);
      const after = await t.request('GET', '/core/v2/users/me', { headers: { authorization: basic(editor.login, password) } });
      expect(after.status).toBe(401);
      expect(after.body.code).toBe('incorrect_password');
      expect((await t.request('DELETE', `${BASE}/${uuid}`, { as: editor })).body.code).toBe('rest_application_password_not_found');
    });
  });

  describe('GET /core/v2/users/{user_id}/application-passwords/introspect', () => {
    it('answers the password that authenticated the request', async () => {
      const res = await t.request('GET', `${BASE}/introspect`, { as: t.admin });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('tests');
      const list = await t.request('GET', BASE, { as: t.admin });
      expect(list.body.find((i: { name: string }) => i.name === 'tests').uuid).toBe(res.body.uuid);
      const numeric = await t.request('GET', `/core/v2/users/${t.admin.id}/application-passwords/introspect`, { as: t.admin });
      expect(numeric.body.uuid).toBe(res.body.uuid);
    });

    it('answers 404 rest_no_authenticated_app_password for a cookie session', async () => {
      const s = await signInForTest(t.ctx, t.admin.id);
      const res = await t.request('GET', `${BASE}/introspect`, { headers: { cookie: s.cookie, 'x-wp-nonce': s.nonce } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('rest_no_authenticated_app_password');
    });

    it('refuses other users, even for administrators: rest_cannot_introspect_app_password_for_non_authenticated_user', async () => {
      const res = await t.request('GET', `/core/v2/users/${editor.id}/application-passwords/introspect`, { as: t.admin });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('rest_cannot_introspect_app_password_for_non_authenticated_user');
      const anon = await t.request('GET', `/core/v2/users/${editor.id}/application-passwords/introspect`);
      expect(anon.status).toBe(401);
      expect(anon.body.code).toBe('rest_cannot_introspect_app_password_for_non_authenticated_user');
      const me = await t.request('GET', `${BASE}/introspect`);
      expect(me.body.code).toBe('rest_not_logged_in');
    });
  });

  describe('DELETE /core/v2/users/{user_id}/application-passwords', () => {
    it('refuses others: 403 rest_cannot_delete_application_passwords', async () => {
      const res = await t.request('DELETE', `/core/v2/users/${t.admin.id}/application-passwords`, { as: editor });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('rest_cannot_delete_application_passwords');
    });

    it('deletes all and counts them', async () => {
      const user = await t.createUser('author');
      await t.request('POST', BASE, { as: user, json: { name: 'second' } });
      const res = await t.request('DELETE', `/core/v2/users/${user.id}/application-passwords`, { as: t.admin });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: true, count: 2 });
      const again = await t.request('GET', '/core/v2/users/me', { as: user });
      expect(again.status).toBe(401);
      expect(again.body.code).toBe('incorrect_password');
    });
  });

  describe('per-user switch', () => {
    it('answers 501 application_passwords_disabled_for_user, and Basic credentials of that user fail with 401', async () => {
      const user = await t.createUser('author');
      await setApplicationPasswordsEnabled(t.ctx, user.id, false);
      const s = await signInForTest(t.ctx, user.id);
      const res = await t.request('GET', BASE, { headers: { cookie: s.cookie, 'x-wp-nonce': s.nonce } });
      expect(res.status).toBe(501);
      expect(res.body.code).toBe('application_passwords_disabled_for_user');
      const basicRes = await t.request('GET', '/', { as: user });
      expect(basicRes.status).toBe(401);
      expect(basicRes.body.code).toBe('application_passwords_disabled_for_user');
    });
  });

  describe('discovery and batch', () => {
    it('lists the routes under their original patterns', async () => {
      const res = await t.request('GET', '/core/v2');
      const keys = Object.keys(res.body.routes);
      expect(keys).toContain('/core/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords');
      expect(keys).toContain('/core/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/introspect');
      expect(keys).toContain('/core/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/(?P<uuid>[\\w\\-]+)');
      expect(keys).toContain('/core/v2/users/me');
    });

    it('is not batchable', async () => {
      const res = await t.request('POST', '/batch/v1', { as: t.admin, json: { requests: [{ path: BASE, body: { name: 'batched' } }] } });
      expect(res.status).toBe(207);
      expect(res.body.responses[0].body.code).toBe('rest_batch_not_allowed');
    });
  });
});

describe.each(DIALECTS)('core/v2 application passwords when unavailable on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { environment: 'production' });
  });
  afterAll(() => t.close());

  it('answers 501 application_passwords_disabled on every route, before anything else', async () => {
    for (const [method, path] of [
      ['GET', BASE],
      ['DELETE', BASE],
      ['GET', `${BASE}/introspect`],
      ['GET', `/core/v2/users/1/application-passwords/abc`],
    ] as const) {
      const res = await t.request(method, path);
      expect(res.status).toBe(501);
      expect(res.body.code).toBe('application_passwords_disabled');
    }
  });

  it('advertises no authentication scheme and ignores Basic credentials', async () => {
    const index = await t.request('GET', '/');
    expect(index.body.authentication).toEqual([]);
    const res = await t.request('GET', '/core/v2/users/me', { as: t.admin });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_not_logged_in');
  });
});
