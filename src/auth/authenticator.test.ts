import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../app.js';
import { loadConfig } from '../config.js';
import { createTestDb, type TestDb } from '../storage/test-db.js';
import { DIALECTS, startTestApp, type TestApp } from '../test-support/harness.js';
import { createApplicationPassword, getApplicationPassword, listApplicationPasswords, verifyApplicationPassword } from './app-passwords.js';
import { REST_NONCE_ACTION } from './authenticator.js';
import { createNonce, verifyNonce } from './nonces.js';
import { signInForTest } from './test-sessions.js';
import { createUser, endAllSessions, getUser } from './users.js';

function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

const ME = '/core/v2/users/me';

describe.each(DIALECTS)('Basic application-password authentication on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  it('accepts the login or the e-mail address, with the password chunked or not', async () => {
    const raw = t.admin.appPassword.replace(/ /g, '');
    for (const [name, pw] of [
      [t.admin.login, t.admin.appPassword],
      [t.admin.login, raw],
      [t.admin.email, t.admin.appPassword],
      [t.admin.email, raw],
      ['ADMIN', raw],
      [t.admin.login, `${raw.slice(0, 4)}-${raw.slice(4)}`],
    ] as const) {
      const res = await t.request('GET', ME, { headers: { authorization: basic(name, pw) } });
      expect(res.status, `${name}:${pw}`).toBe(200);
      expect(res.body.id).toBe(t.admin.id);
    }
  });

  it('matches the scheme case-insensitively', async () => {
    const token = Buffer.from(`${t.admin.login}:${t.admin.appPassword}`).toString('base64');
    for (const scheme of ['basic', 'BASIC', 'Basic']) {
      const res = await t.request('GET', ME, { headers: { authorization: `${scheme} ${token}` } });
      expect(res.status).toBe(200);
    }
  });

  it('answers 401 incorrect_password for a wrong password, even on GET / and unknown routes', async () => {
    const headers = { authorization: basic(t.admin.login, 'abcd efgh ijkl mnop qrst uvwx'), 'x-forwarded-for': '192.0.2.10' };
    for (const path of ['/', '/nothing/here/v1/at-all', ME, '/core/v2']) {
      const res = await t.request('GET', path, { headers });
      expect(res.status, path).toBe(401);
      expect(res.body.code).toBe('incorrect_password');
      expect(res.body.data).toEqual({ status: 401 });
      expect(res.headers['cache-control']).toContain('no-store');
    }
  });

  it('refuses the account password as Basic credentials: 401 incorrect_password, with no WWW-Authenticate challenge', async () => {
    const res = await t.request('GET', ME, { headers: { authorization: basic(t.admin.login, 'admin-password'), 'x-forwarded-for': '192.0.2.13' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'incorrect_password', message: 'The provided password is an invalid application password.', data: { status: 401 } });
    // A challenge would make browsers prompt for credentials the site does not take that way.
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('splits user and password at the first colon; an empty password is checked (and refused)', async () => {
    // The later colon belongs to the password, where, like any non-alphanumeric, it is ignored.
    const raw = t.admin.appPassword.replace(/ /g, '');
    const colon = await t.request('GET', ME, { headers: { authorization: basic(t.admin.login, `${raw.slice(0, 12)}:${raw.slice(12)}`) } });
    expect(colon.status).toBe(200);
    expect(colon.body.id).toBe(t.admin.id);
    const empty = await t.request('GET', ME, { headers: { authorization: basic(t.admin.login, ''), 'x-forwarded-for': '192.0.2.14' } });
    expect(empty.status).toBe(401);
    expect(empty.body.code).toBe('incorrect_password');
  });

  it('answers 401 invalid_username / invalid_email for unknown users, with the HTML prefix', async () => {
    const headers = { 'x-forwarded-for': '192.0.2.11' };
    const user = await t.request('GET', '/', { headers: { ...headers, authorization: basic('nobody', 'x') } });
    expect(user.status).toBe(401);
    expect(user.body.code).toBe('invalid_username');
    expect(user.body.message.startsWith('<strong>Error</strong>: ')).toBe(true);
    const email = await t.request('GET', '/', { headers: { ...headers, authorization: basic('nobody@example.test', 'x') } });
    expect(email.status).toBe(401);
    expect(email.body.code).toBe('invalid_email');
    expect(email.body.message.startsWith('<strong>Error</strong>: ')).toBe(true);
  });

  it('answers 401 invalid_authorization for a garbled Authorization header (no colon, another scheme), never anonymous', async () => {
    for (const authorization of [`Basic ${Buffer.from('justauser').toString('base64')}`, 'Bearer abc', 'Basic', 'garbage']) {
      const res = await t.request('GET', '/eventsuite/events/v1/events', { headers: { authorization, 'x-forwarded-for': '192.0.2.12' } });
      expect(res.status, authorization).toBe(401);
      expect(res.body.code).toBe('invalid_authorization');
    }
  });

  it('spends the same work on an unknown user as on a wrong password (hash and stored-password query)', async () => {
    const counted = (counter: { n: number }) => ({
      ...t.ctx,
      db: new Proxy(t.ctx.db, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver);
          if (prop !== 'selectFrom' || typeof value !== 'function') return value;
          return (table: unknown) => {
            if (table === 'application_passwords') counter.n++;
            return value.call(target, table);
          };
        },
      }),
    });
    const unknown = { n: 0 };
    const wrong = { n: 0 };
    expect((await verifyApplicationPassword(counted(unknown), 'nobody-at-all', 'abcd efgh ijkl mnop qrst uvwx')) instanceof Error).toBe(true);
    expect((await verifyApplicationPassword(counted(wrong), t.admin.login, 'abcd efgh ijkl mnop qrst uvwx')) instanceof Error).toBe(true);
    expect(wrong.n).toBe(1);
    expect(unknown.n).toBe(wrong.n);
  });

  it('reuses a recent verification instead of hashing and querying again', async () => {
    const user = await t.createUser('contributor');
    expect((await t.request('GET', '/', { as: user })).status).toBe(200);
    const spy = vi.spyOn(t.ctx.db, 'selectFrom');
    try {
      for (let i = 0; i < 5; i++) expect((await t.request('GET', '/', { as: user })).status).toBe(200);
      const tables = spy.mock.calls.map((c) => String(c[0]));
      expect(tables.filter((name) => name === 'application_passwords' || name === 'users')).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it('does not send an X-WP-Nonce to application-password clients', async () => {
    const res = await t.request('GET', ME, { as: t.admin });
    expect(res.headers['x-wp-nonce']).toBeUndefined();
  });

  it('verifyApplicationPassword answers application_passwords_disabled when the feature is unavailable', async () => {
    const ctx = { ...t.ctx, config: { ...t.ctx.config, environment: 'production' as const } };
    const result = await verifyApplicationPassword(ctx, t.admin.login, t.admin.appPassword);
    expect(result).toMatchObject({ code: 'application_passwords_disabled', status: 401 });
  });
});

describe.each(DIALECTS)('Basic credentials where application passwords are unavailable (http, not local) on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { environment: 'production', baseUrl: 'http://example.test' });
  });
  afterAll(() => t.close());

  it('ignores them, right or wrong: the request runs anonymously', async () => {
    for (const authorization of [t.admin.authorization, basic(t.admin.login, 'wrong password')]) {
      expect((await t.request('GET', '/', { headers: { authorization } })).status).toBe(200);
      const me = await t.request('GET', ME, { headers: { authorization } });
      expect(me.status).toBe(401);
      expect(me.body.code).toBe('rest_not_logged_in');
    }
  });
});

describe.each(DIALECTS)('Basic credentials before the first application password on %s', (engine) => {
  let testDb: TestDb;
  let app: App;
  beforeAll(async () => {
    testDb = await createTestDb(engine);
    app = await buildApp({ config: loadConfig({}, { baseUrl: 'http://example.test', logLevel: 'silent' }), db: testDb.db, logger: pino({ level: 'silent' }) });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await testDb.destroy();
  });

  const get = (url: string, authorization: string) => app.inject({ method: 'GET', url: `/wp-json${url}`, headers: { authorization, 'x-forwarded-for': '192.0.2.20' } });

  it('ignores them (anonymous) until one exists, then checks them', async () => {
    const user = await createUser(app.ctx, { login: 'first', email: 'first@example.test', roles: ['author'] });
    const wrong = basic('first', 'wrong password');
    expect((await get('/', wrong)).statusCode).toBe(200);
    const me = await get(ME, wrong);
    expect(me.statusCode).toBe(401);
    expect(me.json().code).toBe('rest_not_logged_in');

    const { password } = await createApplicationPassword(app.ctx, user.id, { name: 'first' });
    const after = await get('/', wrong);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('incorrect_password');
    const ok = await get(ME, basic('first', password));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().id).toBe(user.id);
  });
});

describe.each(DIALECTS)('failed sign-in limits, usage tracking and sessions on %s (controlled clock)', (engine) => {
  let t: TestApp;
  let clock = Date.parse('2026-03-01T10:00:00Z');
  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => new Date(clock) });
  });
  afterAll(() => t.close());

  it('counts attempts before verifying: 40 concurrent wrong guesses from one address check at most 10', async () => {
    const victim = await t.createUser('editor');
    const res = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.request('GET', '/', { headers: { authorization: basic(victim.login, `wrong-${i}`), 'x-forwarded-for': '203.0.113.20' } })),
    );
    const checked = res.filter((r) => r.status === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(10);
    expect(res.filter((r) => r.status === 429).length).toBe(40 - checked);
  });

  it('does not lock other users out: failures for one login leave other logins at that address alone', async () => {
    const victim = await t.createUser('editor');
    const colleague = await t.createUser('editor');
    const ip = '203.0.113.30';
    for (let i = 0; i < 10; i++) await t.request('GET', '/', { headers: { authorization: basic(victim.login, `wrong${i}`), 'x-forwarded-for': ip } });
    expect((await t.request('GET', ME, { headers: { authorization: victim.authorization, 'x-forwarded-for': ip } })).status).toBe(429);
    const other = await t.request('GET', ME, { headers: { authorization: colleague.authorization, 'x-forwarded-for': ip } });
    expect(other.status).toBe(200);
    // ...up to a per-address ceiling across logins.
    for (let i = 0; i < 50; i++) await t.request('GET', '/', { headers: { authorization: basic(`someone${i}`, 'x'), 'x-forwarded-for': ip } });
    expect((await t.request('GET', ME, { headers: { authorization: basic(`${colleague.login}`, 'wrong-again'), 'x-forwarded-for': ip } })).status).toBe(429);
  });

  it('refuses an address after 10 failures in 5 minutes with 429 too_many_failed_logins and Retry-After', async () => {
    const victim = await t.createUser('editor');
    const ip = '203.0.113.7';
    for (let i = 0; i < 10; i++) {
      const res = await t.request('GET', '/', { headers: { authorization: basic(victim.login, `wrong${i}`), 'x-forwarded-for': ip } });
      expect(res.status).toBe(401);
      clock += 1000;
    }
    const refused = await t.request('GET', ME, { headers: { authorization: victim.authorization, 'x-forwarded-for': ip } });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('too_many_failed_logins');
    const retry = Number(refused.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(300);
    expect(refused.body.data.retry_after).toBe(retry);

    const elsewhere = await t.request('GET', ME, { headers: { authorization: victim.authorization, 'x-forwarded-for': '203.0.113.8' } });
    expect(elsewhere.status).toBe(200);

    clock += retry * 1000;
    const later = await t.request('GET', ME, { headers: { authorization: victim.authorization, 'x-forwarded-for': ip } });
    expect(later.status).toBe(200);
  });

  it('writes last_used and last_ip at most once per 24 hours', async () => {
    const user = await t.createUser('author');
    const [item] = await listApplicationPasswords(t.ctx, user.id);
    expect(item!.lastUsed).toBeNull();
    const start = clock;
    const at = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

    await t.request('GET', ME, { as: user, headers: { 'x-forwarded-for': '198.51.100.1' } });
    let stored = await getApplicationPassword(t.ctx, user.id, item!.uuid);
    expect(stored).toMatchObject({ lastUsed: at(start), lastIp: '198.51.100.1' });

    clock = start + 60 * 60_000;
    await t.request('GET', ME, { as: user, headers: { 'x-forwarded-for': '198.51.100.2' } });
    clock = start + 23 * 60 * 60_000;
    await t.request('GET', ME, { as: user, headers: { 'x-forwarded-for': '198.51.100.2' } });
    stored = await getApplicationPassword(t.ctx, user.id, item!.uuid);
    expect(stored).toMatchObject({ lastUsed: at(start), lastIp: '198.51.100.1' });

    clock = start + 25 * 60 * 60_000;
    await t.request('GET', ME, { as: user, headers: { 'x-forwarded-for': '198.51.100.3' } });
    stored = await getApplicationPassword(t.ctx, user.id, item!.uuid);
    expect(stored).toMatchObject({ lastUsed: at(clock), lastIp: '198.51.100.3' });

    const listed = await t.request('GET', `/core/v2/users/${user.id}/application-passwords/${item!.uuid}`, { as: t.admin });
    expect(listed.body.last_used).toBe(at(clock).replace(' ', 'T'));
    expect(listed.body.last_ip).toBe('198.51.100.3');
  });

  it('expires cookie sessions after two days', async () => {
    const user = await t.createUser('editor');
    const s = await signInForTest(t.ctx, user.id);
    const headers = { cookie: s.cookie, 'x-wp-nonce': s.nonce };
    expect((await t.request('GET', ME, { headers })).status).toBe(200);
    clock += 2 * 86_400_000 + 1000;
    const res = await t.request('GET', ME, { headers });
    // The session is gone, so the nonce is checked for an anonymous caller and fails.
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('rest_cookie_invalid_nonce');
  });
});

describe.each(DIALECTS)('cookie sessions and nonces on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  it('treats a session cookie without a nonce as anonymous', async () => {
    const s = await signInForTest(t.ctx, t.admin.id);
    const res = await t.request('GET', ME, { headers: { cookie: s.cookie } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_not_logged_in');
    expect(res.headers['x-wp-nonce']).toBeUndefined();
  });

  it('answers 403 rest_cookie_invalid_nonce with no-cache headers for a bad nonce, on any route', async () => {
    const s = await signInForTest(t.ctx, t.admin.id);
    for (const path of ['/', '/no/such/route', ME]) {
      const res = await t.request('GET', path, { headers: { cookie: s.cookie, 'x-wp-nonce': '0123456789' } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('rest_cookie_invalid_nonce');
      expect(res.headers['cache-control']).toContain('no-store');
      expect(res.headers.expires).toBe('Wed, 11 Jan 1984 05:00:00 GMT');
    }
    const empty = await t.request('GET', ME, { headers: { cookie: s.cookie, 'x-wp-nonce': '' } });
    expect(empty.status).toBe(403);
  });

  it('signs the user in with a good nonce (header, query or form) and sends a fresh X-WP-Nonce', async () => {
    const s = await signInForTest(t.ctx, t.admin.id);
    const viaHeader = await t.request('GET', ME, { headers: { cookie: s.cookie, 'x-wp-nonce': s.nonce } });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.id).toBe(t.admin.id);
    const fresh = viaHeader.headers['x-wp-nonce'];
    expect(fresh).toMatch(/^[0-9a-f]{10}$/);
    const subject = { user: (await getUser(t.ctx, t.admin.id))!, auth: { method: 'cookie' as const, sessionToken: s.token } };
    expect(await verifyNonce(t.ctx, subject, REST_NONCE_ACTION, fresh)).toBe(1);

    const viaQuery = await t.request('GET', ME, { headers: { cookie: s.cookie }, query: { _wpnonce: s.nonce } });
    expect(viaQuery.status).toBe(200);
    const viaForm = await t.request('POST', '/core/v2/users/me/application-passwords', { headers: { cookie: s.cookie }, form: { _wpnonce: s.nonce, name: 'from a browser' } });
    expect(viaForm.status).toBe(201);
  });

  it('binds the nonce to the session: another session of the same user is refused', async () => {
    const a = await signInForTest(t.ctx, t.admin.id);
    const b = await signInForTest(t.ctx, t.admin.id);
    const res = await t.request('GET', ME, { headers: { cookie: a.cookie, 'x-wp-nonce': b.nonce } });
    expect(res.status).toBe(403);
  });

  it('prefers the cookie over Basic credentials, as WordPress', async () => {
    const s = await signInForTest(t.ctx, t.admin.id);
    const res = await t.request('GET', ME, { headers: { cookie: s.cookie, authorization: basic('admin', 'wrong') } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_not_logged_in');
  });

  it('ignores forged cookies, and ends sessions on demand', async () => {
    const s = await signInForTest(t.ctx, t.admin.id);
    const [name, value] = s.cookie.split('=') as [string, string];
    const parts = decodeURIComponent(value).split('|');
    const forged = `${name}=${encodeURIComponent([parts[0], String(Number(parts[1]) + 86_400), parts[2], parts[3]].join('|'))}`;
    const forgedRes = await t.request('GET', ME, { headers: { cookie: forged, authorization: t.admin.authorization } });
    expect(forgedRes.status).toBe(200); // no session: Basic credentials apply
    expect(forgedRes.headers['x-wp-nonce']).toBeUndefined();

    const user = await t.createUser('author');
    const mine = await signInForTest(t.ctx, user.id);
    expect((await t.request('GET', ME, { headers: { cookie: mine.cookie, 'x-wp-nonce': mine.nonce } })).status).toBe(200);
    await endAllSessions(t.ctx, user.id);
    expect((await t.request('GET', ME, { headers: { cookie: mine.cookie, 'x-wp-nonce': mine.nonce } })).status).toBe(403);
  });

  it('checks a nonce sent without a session against the anonymous user', async () => {
    const anon = await createNonce(t.ctx, { user: null, auth: { method: 'none' } }, REST_NONCE_ACTION);
    const ok = await t.request('GET', '/', { headers: { 'x-wp-nonce': anon } });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-wp-nonce']).toBe(anon);
    const s = await signInForTest(t.ctx, t.admin.id);
    const stale = await t.request('GET', '/', { headers: { 'x-wp-nonce': s.nonce } });
    expect(stale.status).toBe(403);
    expect(stale.body.code).toBe('rest_cookie_invalid_nonce');
  });
});
