/**
 * The hub's clock (`time_diff`), as the original's `Client::set_time_diff` keeps it: learnt from the
 * `Date` of the hub's answers, used to stamp the calls the site signs and to read the timestamps
 * of the requests the hub signs. The local hub runs two hours ahead of the site and refuses
 * signed calls more than 600 s behind its own clock, as WordPress.com does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { freePort } from '../../test-support/net.js';
import { hubSignedQuery, startHub, type TestHub } from './hub-fixture.case.js';
import { loadTimeDiff } from './state.js';

const NS = '/connector/v4';
const AHEAD_S = 7200;

describe.each(DIALECTS)('the hub clock on %s', (engine) => {
  let hub: TestHub;
  let t: TestApp;
  let base: string;

  /** A request the hub signs with the blog token, stamped with the hub's clock unless told. */
  const hubSigned = (route: string, at = new Date(Date.now() + hub.clockOffsetS * 1000)) =>
    t.request('GET', route, { query: hubSignedQuery({ method: 'GET', url: `${base}/wp-json${route}`, at }) });

  beforeAll(async () => {
    hub = await startHub();
    hub.clockOffsetS = AHEAD_S;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp(engine, { baseUrl: base, remotes: { connector: hub.url } });
    await t.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await hub.close();
  });

  it('a failed registration (5xx) teaches nothing; a registration always sets the offset', async () => {
    hub.registerStatus = 503;
    expect((await t.request('POST', `${NS}/connection/register`, { as: t.admin })).body.code).toBe('wpcom_5??');
    expect(await loadTimeDiff(t.ctx)).toBeUndefined();
    hub.registerStatus = 200;
    expect((await t.request('POST', `${NS}/connection/register`, { as: t.admin })).status).toBe(200);
    expect(Math.abs((await loadTimeDiff(t.ctx))! - AHEAD_S)).toBeLessThanOrEqual(2);
  });

  it('the calls the site signs carry the hub’s time, so the hub takes them', async () => {
    const authorize = new URL((await t.request('GET', `${NS}/connection/authorize_url`, { as: t.admin })).body.authorizeUrl);
    hub.codes.set('code-1', 'ukey1.usecret1');
    hub.profiles.set('ukey1.usecret1', { ID: 77, login: 'hubadmin', email: 'hub@example.test' });
    const body = { secret: authorize.searchParams.get('secret'), state: t.admin.id, redirect_uri: `${base}/wp-admin/`, code: 'code-1' };
    expect((await t.request('POST', `${NS}/remote_authorize`, { json: body })).body).toEqual({ result: 'authorized' });
    const call = hub.calls.find((c) => c.path === '/oauth/token')!;
    expect(call.signed).toBe(true);
    expect(Math.abs(call.timestamp! - (Math.floor(Date.now() / 1000) + AHEAD_S))).toBeLessThanOrEqual(5);
  });

  it('the requests the hub signs are read on its clock: its time passes, this site’s own is two hours stale', async () => {
    expect((await hubSigned(`${NS}/connection/check`)).body).toEqual({ status: 'success' });
    const local = await hubSigned(`${NS}/connection/check`, new Date());
    expect(local.status).toBe(400);
    expect(local.body.code).toBe('rest_invalid_signature');
  });

  it('a later answer moves the offset only when the hub’s clock moved by more than 10 s; the partner nonce check always', async () => {
    const learnt = (await loadTimeDiff(t.ctx))!;
    hub.clockOffsetS = AHEAD_S + 5;
    expect((await t.request('GET', `${NS}/connection/data`, { as: t.admin })).body.currentUser.wpcomUser.login).toBe('hubadmin');
    expect(await loadTimeDiff(t.ctx)).toBe(learnt);
    // The partner nonce check sets it whatever it was (as registration does).
    hub.partnerNonces.add('partner-1');
    const json = { local_user: t.admin.login, nonce: 'partner-1' };
    const at = new Date(Date.now() + hub.clockOffsetS * 1000);
    const query = hubSignedQuery({ method: 'POST', url: `${base}/wp-json${NS}/remote_register`, body: JSON.stringify(json), at });
    expect((await t.request('POST', `${NS}/remote_register`, { query, json })).status).toBe(200);
    expect(Math.abs((await loadTimeDiff(t.ctx))! - (AHEAD_S + 5))).toBeLessThanOrEqual(1);
    hub.clockOffsetS = AHEAD_S + 60;
    await t.request('GET', `${NS}/connection/data`, { as: t.admin });
    expect(Math.abs((await loadTimeDiff(t.ctx))! - (AHEAD_S + 60))).toBeLessThanOrEqual(2);
    expect(hub.calls.filter((c) => c.path === '/me').every((c) => c.signed)).toBe(true);
  });

  it('a disconnect forgets the offset', async () => {
    expect((await t.request('POST', `${NS}/connection`, { json: { isActive: false }, as: t.admin })).body).toEqual({ code: 'success' });
    expect(await loadTimeDiff(t.ctx)).toBeUndefined();
  });
});
