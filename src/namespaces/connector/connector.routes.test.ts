import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { freePort } from '../../test-support/net.js';
import { signInForTest } from '../../auth/test-sessions.js';
import { HUB_SITE_ID, hubSignedQuery, startHub, type TestHub } from './hub-fixture.case.js';
import type { StoredSignatureError } from './state.js';

const NS = '/connector/v4';

describe.each(DIALECTS)('connector/v4 with a local hub on %s', (engine) => {
  let hub: TestHub;
  let t: TestApp;
  let subscriber: TestUser;
  let admin2: TestUser;
  let base: string;

  /** A request signed by the hub with the blog token, as query parameters. */
  function signedQuery(method: string, route: string, body?: unknown, at = new Date(), query?: Record<string, string>): Record<string, string> {
    return hubSignedQuery({ method, url: `${base}/wp-json${route}`, body: body === undefined ? undefined : JSON.stringify(body), at, query });
  }
  const signed = (method: string, route: string, body?: unknown) =>
    t.request(method, route, { query: signedQuery(method, route, body), ...(body !== undefined ? { json: body } : {}) });

  beforeAll(async () => {
    hub = await startHub();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp(engine, { baseUrl: base, remotes: { connector: hub.url } });
    await t.app.listen({ port, host: '127.0.0.1' });
    subscriber = await t.createUser('subscriber');
    admin2 = await t.createUser('administrator');
  });
  afterAll(async () => {
    await t.close();
    await hub.close();
  });

  it('GET /connection: public, unregistered at first', async () => {
    const res = await t.request('GET', `${NS}/connection`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      isActive: false, isStaging: false, isRegistered: false, isUserConnected: false, hasConnectedOwner: false,
      offlineMode: { isActive: false, constant: false, url: false, filter: false, wpLocalConstant: false }, isPublic: true,
    });
  });

  it('POST /connection/register: 401 signed out, 403 for a subscriber (jetpack_connect)', async () => {
    const anon = await t.request('POST', `${NS}/connection/register`);
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('invalid_user_permission_jetpack_connect');
    expect((await t.request('POST', `${NS}/connection/register`, { as: subscriber })).status).toBe(403);
  });

  it('POST /connection/register with a cookie session needs the registration nonce', async () => {
    const session = await signInForTest(t.ctx, t.admin.id);
    const res = await t.request('POST', `${NS}/connection/register`, { headers: { cookie: session.cookie, 'x-wp-nonce': session.nonce } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('invalid_nonce');
    expect(hub.calls.filter((c) => c.path === '/register')).toHaveLength(0);
  });

  it('a hub failure surfaces as the original code and leaves the site unregistered', async () => {
    hub.registerStatus = 503;
    const res = await t.request('POST', `${NS}/connection/register`, { as: t.admin });
    expect(res.body.code).toBe('wpcom_5??');
    hub.registerStatus = 200;
    expect((await t.request('GET', `${NS}/connection`)).body.isRegistered).toBe(false);
  });

  let authorize: URL;
  it('registers: the hub verifies secret_2 through verify_registration, the site stores id and blog token', async () => {
    const res = await t.request('POST', `${NS}/connection/register`, { json: { from: 'tests', redirect_uri: 'admin.php?page=eventsuite' }, as: t.admin });
    expect(res.status).toBe(200);
    authorize = new URL(res.body.authorizeUrl);
    // No alternate URL from the hub: the original still answers the key, empty.
    expect(res.body.alternateAuthorizeUrl).toBe('');
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${hub.url}/authorize/1/`);
    expect(authorize.searchParams.get('client_id')).toBe(String(HUB_SITE_ID));
    expect(authorize.searchParams.get('state')).toBe(String(t.admin.id));
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${base}/wp-admin/admin.php?page=eventsuite`);
    const reg = hub.calls.filter((c) => c.path === '/register').at(-1)!;
    expect(reg.body).toMatchObject({ siteurl: base, state: t.admin.id, from: 'tests' });
    // Nothing secret leaves in the clear except the registration secrets themselves.
    expect(JSON.stringify(reg.body)).not.toContain('blogsecret');
    const status = (await t.request('GET', `${NS}/connection`)).body;
    expect(status).toMatchObject({ isRegistered: true, isActive: false, hasConnectedOwner: false });
  });

  it('remote_authorize: public (no signature needed, as the original); the authorize secret and a code make the admin the owner', async () => {
    const body = { secret: authorize.searchParams.get('secret'), state: t.admin.id, redirect_uri: `${base}/wp-admin/`, code: 'code-1' };
    hub.codes.set('code-1', 'ukey1.usecret1');
    hub.profiles.set('ukey1.usecret1', { ID: 77, login: 'hubadmin', email: 'hub@example.test', display_name: 'Hub Admin' });
    const wrong = await t.request('POST', `${NS}/remote_authorize`, { json: { ...body, secret: 'not-the-secret' } });
    expect(wrong.body.code).toBe('verify_secrets_mismatch');
    expect(hub.calls.some((c) => c.path === '/oauth/token')).toBe(false);
    const res = await t.request('POST', `${NS}/remote_authorize`, { json: body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'authorized' });
    expect(hub.calls.find((c) => c.path === '/oauth/token')).toMatchObject({ signed: true, body: { code: 'code-1', client_id: HUB_SITE_ID } });
    expect((await t.request('GET', `${NS}/connection`)).body).toMatchObject({ isActive: true, hasConnectedOwner: true, isUserConnected: false });
    expect((await t.request('GET', `${NS}/connection`, { as: t.admin })).body.isUserConnected).toBe(true);
  });

  it('a replayed, tampered or stale signed request is refused (400 rest_invalid_signature) and recorded for verify_xmlrpc_error', async () => {
    const query = signedQuery('GET', `${NS}/connection/check`);
    expect((await t.request('GET', `${NS}/connection/check`, { query })).body).toEqual({ status: 'success' });
    const replay = await t.request('GET', `${NS}/connection/check`, { query });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ code: 'rest_invalid_signature', message: 'The request is not signed correctly.', data: { status: 400 } });
    const stale = signedQuery('GET', `${NS}/connection/check`, undefined, new Date(Date.now() - 3600_000));
    expect((await t.request('GET', `${NS}/connection/check`, { query: stale })).body.code).toBe('rest_invalid_signature');
    const tampered = signedQuery('POST', `${NS}/user-token`, { user_token: `a.b.${subscriber.id}` });
    expect((await t.request('POST', `${NS}/user-token`, { query: tampered, json: { user_token: `a.b.${t.admin.id}` } })).body.code).toBe('rest_invalid_signature');
    const errors = await t.ctx.options.get<StoredSignatureError[]>('connector_xmlrpc_errors', []);
    expect(errors.map((e) => e.error_code)).toEqual(expect.arrayContaining(['invalid_nonce', 'invalid_signature', 'invalid_body_hash']));
    const nonce = errors[0]!.nonce;
    expect((await t.request('POST', `${NS}/verify_xmlrpc_error`, { json: { nonce } })).body).toBe(true);
    expect((await t.request('POST', `${NS}/verify_xmlrpc_error`, { json: { nonce } })).body).toBe(false);
  });

  it('GET /connection/data: the owner sees the hub profile; a subscriber may read once an owner exists', async () => {
    const res = await t.request('GET', `${NS}/connection/data`, { as: t.admin });
    expect(res.body.currentUser).toMatchObject({ isConnected: true, isMaster: true, username: 'admin', id: t.admin.id, blogId: HUB_SITE_ID });
    expect(res.body.currentUser.wpcomUser).toMatchObject({ login: 'hubadmin', avatar: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//) });
    expect(res.body.currentUser.permissions).toEqual({ connect: true, connect_user: true, disconnect: true });
    expect(res.body.connectionOwner).toBe('admin');
    const sub = await t.request('GET', `${NS}/connection/data`, { as: subscriber });
    expect(sub.body.currentUser).toMatchObject({ isConnected: false, isMaster: false, wpcomUser: { avatar: false } });
  });

  it('POST /user-token: only the hub; token format and user are checked', async () => {
    expect((await t.request('POST', `${NS}/user-token`, { json: { user_token: `k.s.${admin2.id}` }, as: t.admin })).status).toBe(403);
    expect((await signed('POST', `${NS}/user-token`, { user_token: 'no-dots' })).body.code).toBe('invalid_argument_user_token');
    expect((await signed('POST', `${NS}/user-token`, { user_token: 'k.s.999999' })).body.code).toBe('invalid_argument_user_id');
    const res = await signed('POST', `${NS}/user-token`, { user_token: `ukey2.usecret2.${admin2.id}` });
    expect(res.body).toEqual({ success: true });
    hub.profiles.set('ukey2.usecret2', { ID: 78, login: 'second' });
  });

  it('POST /connection/owner: admin, different and connected; the hub confirms', async () => {
    expect((await t.request('POST', `${NS}/connection/owner`, { json: { owner: subscriber.id }, as: t.admin })).body.code).toBe('new_owner_not_admin');
    expect((await t.request('POST', `${NS}/connection/owner`, { json: { owner: t.admin.id }, as: t.admin })).body.code).toBe('new_owner_is_existing_owner');
    const admin3 = await t.createUser('administrator');
    expect((await t.request('POST', `${NS}/connection/owner`, { json: { owner: admin3.id }, as: t.admin })).body.code).toBe('new_owner_not_connected');
    expect((await t.request('POST', `${NS}/connection/owner`, { json: { owner: admin2.id }, as: subscriber })).status).toBe(403);
    const res = await t.request('POST', `${NS}/connection/owner`, { json: { owner: admin2.id }, as: t.admin });
    expect(res.body).toEqual({ code: 'success' });
    expect(hub.calls.find((c) => c.path === `/sites/${HUB_SITE_ID}/owner`)).toMatchObject({ signed: true, body: { new_owner: admin2.id } });
    expect((await t.request('GET', `${NS}/connection/data`, { as: admin2 })).body.currentUser.isMaster).toBe(true);
  });

  it('GET /heartbeat/data: signed or jetpack_connect; prefixed statistics', async () => {
    const anon = await t.request('GET', `${NS}/heartbeat/data`);
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('invalid_permission_heartbeat_data');
    const sub = await t.request('GET', `${NS}/heartbeat/data`, { as: subscriber });
    expect(sub.status).toBe(403);
    expect(sub.body.code).toBe('invalid_permission_heartbeat_data');
    const res = await t.request('GET', `${NS}/heartbeat/data`, { query: signedQuery('GET', `${NS}/heartbeat/data`, undefined, new Date(), { prefix: 'jp-' }) });
    expect(res.body).toMatchObject({ 'jp-version': '0.1.0', 'jp-is-https': 'http', 'jp-module-connector': 'on' });
  });

  it('GET /connection/plugins lists the modules using the connection (activate_plugins)', async () => {
    expect((await t.request('GET', `${NS}/connection/plugins`, { as: t.admin })).body).toEqual([{ name: 'EventSuite', slug: 'eventsuite' }]);
    expect((await t.request('GET', `${NS}/connection/plugins`, { as: subscriber })).body.code).toBe('invalid_user_permission_activate_plugins');
  });

  it('POST /connection/reconnect: an owned connection is reconnected in full and the user sent to authorize again', async () => {
    expect((await t.request('GET', `${NS}/connection`)).body.hasConnectedOwner).toBe(true);
    const calls = hub.calls.length;
    const res = await t.request('POST', `${NS}/connection/reconnect`, { as: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('in_progress');
    expect(res.body.authorizeUrl).toContain(`${hub.url}/authorize/1/`);
    const made = hub.calls.slice(calls).map((c) => `${c.method} ${c.path}`);
    expect(made).toEqual(expect.arrayContaining([`POST /sites/${HUB_SITE_ID}/disconnect`, 'POST /register']));
    expect((await t.request('GET', `${NS}/connection`)).body).toMatchObject({ isRegistered: true, hasConnectedOwner: false });
  });

  it('POST /connection/reconnect: a site-level connection (no owner) is reconnected and completed', async () => {
    const res = await t.request('POST', `${NS}/connection/reconnect`, { as: t.admin });
    expect(res.body).toEqual({ status: 'completed' });
    expect((await t.request('GET', `${NS}/connection`)).body).toMatchObject({ isRegistered: true, hasConnectedOwner: false });
  });

  it('POST /connection/reconnect: the hub refusing the new registration answers reconnect_failed (500), as the original', async () => {
    hub.registerStatus = 500;
    try {
      const res = await t.request('POST', `${NS}/connection/reconnect`, { as: t.admin });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ code: 'reconnect_failed', message: 'Reconnect failed', data: { status: 500 } });
    } finally {
      hub.registerStatus = 200;
    }
    // The registration is gone with the failure: the next reconnect registers anew.
    expect((await t.request('POST', `${NS}/connection/reconnect`, { as: t.admin })).body.status).toBe('in_progress');
    expect((await t.request('GET', `${NS}/connection`)).body).toMatchObject({ isRegistered: true });
  });

  it('POST /connection: isActive must be false; disconnect tells the hub, forgets the tokens, then 400 disconnect_failed', async () => {
    const bad = await t.request('POST', `${NS}/connection`, { json: { isActive: true }, as: t.admin });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect((await t.request('POST', `${NS}/connection`, { json: { isActive: false }, as: subscriber })).body.code).toBe('invalid_user_permission_jetpack_disconnect');
    const res = await t.request('POST', `${NS}/connection`, { json: { isActive: false }, as: t.admin });
    expect(res.body).toEqual({ code: 'success' });
    expect(hub.calls.filter((c) => c.path === `/sites/${HUB_SITE_ID}/disconnect`).at(-1)?.signed).toBe(true);
    expect((await t.request('GET', `${NS}/connection`)).body).toMatchObject({ isRegistered: false, isActive: false });
    expect(await t.ctx.options.get('connector_private_options', null)).toBeNull();
    const again = await t.request('POST', `${NS}/connection`, { json: { isActive: false }, as: t.admin });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('disconnect_failed');
  });

  it('POST /connection/register passes on the alternate authorize URL the hub sends (only an http(s) URL)', async () => {
    hub.alternateAuthorizeUrl = 'https://hub.example/alternate-authorize?site=1';
    const res = await t.request('POST', `${NS}/connection/register`, { as: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.alternateAuthorizeUrl).toBe('https://hub.example/alternate-authorize?site=1');
    expect(res.body.authorizeUrl.startsWith(`${hub.url}/authorize/1/`)).toBe(true);
    hub.alternateAuthorizeUrl = 'javascript:alert(1)';
    expect((await t.request('POST', `${NS}/connection/register`, { as: t.admin })).body.alternateAuthorizeUrl).toBe('');
    hub.alternateAuthorizeUrl = '';
  });
});

describe.each(DIALECTS)('connector/v4 offline mode on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(engine, { connectorOffline: true, remotes: { connector: 'http://127.0.0.1:9' } }); });
  afterAll(() => t.close());

  it('reports offline mode and refuses to connect even for an administrator', async () => {
    expect((await t.request('GET', `${NS}/connection`)).body.offlineMode).toEqual({ isActive: true, constant: true, url: false, filter: false, wpLocalConstant: false });
    const res = await t.request('POST', `${NS}/connection/register`, { as: t.admin });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('invalid_user_permission_jetpack_connect');
    expect((await t.request('GET', `${NS}/connection/authorize_url`, { as: t.admin })).status).toBe(403);
  });
});
