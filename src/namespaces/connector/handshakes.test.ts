import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { freePort } from '../../test-support/net.js';
import { HUB_BLOG_TOKEN, HUB_SITE_ID, hubSignedQuery, startHub, type TestHub } from './hub-fixture.case.js';

const NS = '/connector/v4';

describe.each(DIALECTS)('connector/v4 hub-initiated handshakes on %s', (engine) => {
  let hub: TestHub;
  let t: TestApp;
  let editor: TestUser;
  let base: string;

  const signed = (method: string, route: string, body: unknown) =>
    t.request(method, route, { query: hubSignedQuery({ method, url: `${base}/wp-json${route}`, body: JSON.stringify(body) }), json: body });

  beforeAll(async () => {
    hub = await startHub();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp(engine, { baseUrl: base, remotes: { connector: hub.url } });
    await t.app.listen({ port, host: '127.0.0.1' });
    editor = await t.createUser('editor');
  });
  afterAll(async () => {
    await t.close();
    await hub.close();
  });

  it('verify_registration refuses missing, malformed and wrong secrets with the original codes', async () => {
    expect((await t.request('POST', `${NS}/verify_registration`, { json: { state: 1 } })).body.code).toBe('verify_secret_1_missing');
    expect((await t.request('POST', `${NS}/verify_registration`, { json: { secret_1: 'x', state: 'abc' } })).body.code).toBe('state_malformed');
    const res = await t.request('POST', `${NS}/verify_registration`, { json: { secret_1: 'x', state: t.admin.id } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'verify_secrets_missing', message: 'Jetpack: [verify_secrets_missing] Verification secrets not found' });
  });

  it('remote_register: needs local_user and a partner nonce the hub vouches for; registers the site', async () => {
    expect((await t.request('POST', `${NS}/remote_register`, { json: {} })).body.code).toBe('local_user_missing');
    expect((await t.request('POST', `${NS}/remote_register`, { json: { local_user: 'admin' } })).body.code).toBe('nonce_missing');
    expect((await t.request('POST', `${NS}/remote_register`, { json: { local_user: 'admin', nonce: 'forged' } })).body.code).toBe('invalid_nonce');
    hub.partnerNonces.add('partner-1');
    const res = await t.request('POST', `${NS}/remote_register`, { json: { local_user: 'admin', nonce: 'partner-1' } });
    expect(res.body).toEqual({ client_id: HUB_SITE_ID });
    expect((await t.request('GET', `${NS}/connection`)).body).toMatchObject({ isRegistered: true, hasConnectedOwner: false });
  });

  it('remote_provision: only signed (or an application-password user who may connect); answers the authorize secret', async () => {
    const unsigned = await t.request('POST', `${NS}/remote_provision`, { json: { local_user: 'admin' } });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.code).toBe('invalid_permission_remote_provision');
    expect((await t.request('POST', `${NS}/remote_provision`, { as: editor })).body.code).toBe('invalid_user_permission_remote_provision');
    const res = await signed('POST', `${NS}/remote_provision`, { local_user: t.admin.email });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: t.admin.id, user_login: 'admin', is_active: false, scope: `administrator:${crypto.createHmac('md5', HUB_BLOG_TOKEN).update(`administrator|${t.admin.id}`).digest('hex')}`, secret: expect.any(String) });
    const byPassword = await t.request('POST', `${NS}/remote_provision`, { as: t.admin });
    expect(byPassword.body.user_id).toBe(t.admin.id);
  });

  it('remote_connect: signed; fetches the user token with the nonce and makes the user the owner', async () => {
    expect((await t.request('POST', `${NS}/remote_connect`, { json: { local_user: 'admin', nonce: 'n1' } })).status).toBe(401);
    expect((await signed('POST', `${NS}/remote_connect`, { local_user: 'admin' })).body.code).toBe('input_error');
    expect((await signed('POST', `${NS}/remote_connect`, { local_user: 'admin', nonce: 'unknown' })).body.code).toBe('token_fetch_failed');
    hub.userTokens.set('n1', 'ukey9.usecret9');
    const res = await signed('POST', `${NS}/remote_connect`, { local_user: 'admin', nonce: 'n1' });
    expect(res.body).toBe(true);
    expect((await t.request('GET', `${NS}/connection`)).body).toMatchObject({ isActive: true, hasConnectedOwner: true });
    expect((await signed('POST', `${NS}/remote_connect`, { local_user: 'admin', nonce: 'n1' })).body.code).toBe('already_connected');
  });

  it('once owned: verify_registration leaves, remote_register needs a signature (already_registered)', async () => {
    expect((await t.request('POST', `${NS}/verify_registration`, { json: { secret_1: 'x', state: 1 } })).status).toBe(404);
    const res = await t.request('POST', `${NS}/remote_register`, { json: { local_user: 'admin', nonce: 'partner-1' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('already_registered');
  });

  it('refuses an oversized user token without storing it', async () => {
    const res = await signed('POST', `${NS}/user-token`, { user_token: `${'k'.repeat(100_000)}.s.${t.admin.id}` });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_argument_user_token');
    const state = await t.ctx.options.get<{ user_tokens: Record<string, string> }>('connector_private_options');
    expect(Object.values(state.user_tokens).every((v) => v.length < 1000)).toBe(true);
  });
});
