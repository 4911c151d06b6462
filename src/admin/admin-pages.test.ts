import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApplicationPasswordsEnabled } from '../auth/users.js';
import { DIALECTS, startTestApp, type TestApp } from '../test-support/harness.js';

type Jar = Record<string, string>;

interface PageResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function absorb(jar: Jar, setCookie: string | string[] | undefined): void {
  for (const c of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
    const [pair] = c.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    if (value === '' || /Max-Age=0/i.test(c)) delete jar[name];
    else jar[name] = value;
  }
}

/** A tiny browser: keeps cookies, sends forms. */
function browser(t: TestApp) {
  const jar: Jar = {};
  const send = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>, ip = '127.0.0.1'): Promise<PageResponse> => {
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const headers: Record<string, string> = { 'x-forwarded-for': ip };
    const cookie = Object.entries(jar).map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookie) headers.cookie = cookie;
    let payload: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(form).toString();
    }
    const res = await t.app.inject({ method, url: path, headers, ...(payload !== undefined ? { payload } : {}) });
    absorb(jar, res.headers['set-cookie']);
    return { status: res.statusCode, headers: res.headers as PageResponse['headers'], body: res.body };
  };
  return {
    jar,
    get: (url: string, ip?: string) => send('GET', url, undefined, ip),
    post: (url: string, form: Record<string, string>, ip?: string) => send('POST', url, form, ip),
  };
}

function field(html: string, name: string): string {
  const m = new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html) ?? new RegExp(`value="([^"]*)"[^>]*name="${name}"`).exec(html);
  if (!m) throw new Error(`no field ${name}`);
  return m[1]!.replace(/&#38;/g, '&').replace(/&#34;/g, '"').replace(/&#39;/g, "'").replace(/&#60;/g, '<').replace(/&#62;/g, '>');
}

const LOGIN = '/wp-admin/wp-login.php';
const AUTHORIZE = '/wp-admin/authorize-application.php';

async function signIn(b: ReturnType<typeof browser>, login: string, password: string, ip?: string): Promise<PageResponse> {
  const form = await b.get(LOGIN, ip);
  return b.post(LOGIN, { log: login, pwd: password, _wpnonce: field(form.body, '_wpnonce'), redirect_to: '' }, ip);
}

function basicWorks(t: TestApp, login: string, password: string) {
  return t.request('GET', '/core/v2/users/me', { headers: { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` } });
}

describe.each(DIALECTS)('admin pages on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  describe('wp-login.php', () => {
    it('serves an accessible form with strict headers and a CSRF cookie', async () => {
      const b = browser(t);
      const res = await b.get(LOGIN);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['cache-control']).toContain('no-store');
      expect(res.body).toContain('<label for="user_login">');
      expect(res.body).toContain('<label for="user_pass">');
      expect(b.jar.wordpress_test_cookie).toMatch(/^[\w-]{43}$/);
      expect(String(res.headers['set-cookie'])).toContain('HttpOnly');
    });

    it('signs in by login or e-mail and redirects to a page of this site only', async () => {
      const user = await t.createUser('editor');
      for (const [name, target, expected] of [
        [user.login, '/wp-admin/authorize-application.php?app_name=X', 'http://example.test/wp-admin/authorize-application.php?app_name=X'],
        [user.email, 'https://evil.example/steal', 'http://example.test/wp-admin/'],
        [user.login, '//evil.example/x', 'http://example.test/wp-admin/'],
      ] as const) {
        const b = browser(t);
        const form = await b.get(`${LOGIN}?redirect_to=${encodeURIComponent(target)}`);
        const res = await b.post(LOGIN, { log: name, pwd: `${user.login}-password`, _wpnonce: field(form.body, '_wpnonce'), redirect_to: field(form.body, 'redirect_to') });
        expect(res.status).toBe(302);
        expect(res.headers.location).toBe(expected);
        const cookie = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('wordpress_logged_in_'));
        expect(cookie).toMatch(/HttpOnly; SameSite=Lax/);
        expect(cookie).not.toMatch(/Secure/);
        const dash = await b.get('/wp-admin/');
        expect(dash.status).toBe(200);
        expect(dash.body).toContain(user.login);
      }
    });

    it('refuses wrong passwords, missing cookies and stale forms', async () => {
      const user = await t.createUser('author');
      const b = browser(t);
      const wrong = await signIn(b, user.login, 'nope', '192.0.2.50');
      expect(wrong.status).toBe(200);
      expect(wrong.body).toContain('incorrect password');
      expect(Object.keys(b.jar).some((k) => k.startsWith('wordpress_logged_in_'))).toBe(false);

      const noCookie = await t.app.inject({ method: 'POST', url: LOGIN, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `log=${user.login}&pwd=x` });
      expect(noCookie.statusCode).toBe(400);
      const stale = await b.post(LOGIN, { log: user.login, pwd: `${user.login}-password`, _wpnonce: 'deadbeef00' });
      expect(stale.status).toBe(403);
    });

    it('slows down guessing: 429 with Retry-After after 10 failures from one address', async () => {
      const user = await t.createUser('author');
      const b = browser(t);
      for (let i = 0; i < 10; i++) expect((await signIn(b, user.login, `guess${i}`, '192.0.2.99')).status).toBe(200);
      const refused = await signIn(b, user.login, `${user.login}-password`, '192.0.2.99');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signIn(browser(t), user.login, `${user.login}-password`, '192.0.2.98')).status).toBe(302);
    });

    it('signs out with the nonce link; the old cookie stops working; without the nonce it asks first', async () => {
      const user = await t.createUser('author');
      const b = browser(t);
      await signIn(b, user.login, `${user.login}-password`);
      const old = { ...b.jar };
      const dash = await b.get('/wp-admin/index.php');
      const logoutHref = /href="([^"]*action=logout[^"]*)"/.exec(dash.body)![1]!.replace(/&#38;/g, '&');

      const ask = await b.get('/wp-admin/wp-login.php?action=logout');
      expect(ask.status).toBe(403);
      expect(ask.body).toContain('Do you really want to log out?');

      const out = await b.get(logoutHref);
      expect(out.status).toBe(302);
      expect(out.headers.location).toBe('http://example.test/wp-admin/wp-login.php?loggedout=true');
      expect(Object.keys(b.jar).some((k) => k.startsWith('wordpress_logged_in_'))).toBe(false);
      Object.assign(b.jar, old);
      const again = await b.get('/wp-admin/');
      expect(again.status).toBe(302);
      expect(again.headers.location).toContain('wp-login.php?redirect_to=');
    });
  });

  describe('admin-ajax.php?action=rest-nonce', () => {
    it('gives a signed-in browser a REST nonce that works with its cookie; 0/400 otherwise', async () => {
      const user = await t.createUser('author');
      const b = browser(t);
      expect((await b.get('/wp-admin/admin-ajax.php?action=rest-nonce')).body).toBe('0');
      await signIn(b, user.login, `${user.login}-password`);
      const res = await b.get('/wp-admin/admin-ajax.php?action=rest-nonce');
      expect(res.status).toBe(200);
      expect(res.body).toMatch(/^[0-9a-f]{10}$/);
      const cookie = Object.entries(b.jar).map(([k, v]) => `${k}=${v}`).join('; ');
      const me = await t.request('GET', '/core/v2/users/me', { headers: { cookie, 'x-wp-nonce': res.body } });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(user.id);
      expect((await b.get('/wp-admin/admin-ajax.php?action=other')).status).toBe(400);
    });
  });

  describe('authorize-application.php', () => {
    it('sends signed-out browsers to the sign-in page and back', async () => {
      const b = browser(t);
      const url = `${AUTHORIZE}?app_name=Cal&success_url=${encodeURIComponent('https://app.example/cb')}`;
      const res = await b.get(url);
      expect(res.status).toBe(302);
      const location = new URL(String(res.headers.location));
      expect(location.pathname).toBe(LOGIN);
      expect(location.searchParams.get('redirect_to')).toBe(`http://example.test${url}`);
      expect(location.searchParams.get('reauth')).toBe('1');
    });

    it('shows the request, escaped, with where approve and reject lead', async () => {
      const b = browser(t);
      await signIn(b, 'admin', 'admin-password');
      const res = await b.get(`${AUTHORIZE}?app_name=${encodeURIComponent('<script>x</script>')}&success_url=${encodeURIComponent('https://app.example/cb?a=1')}`);
      expect(res.status).toBe(200);
      expect(res.body).not.toContain('<script>x');
      expect(res.body).toContain('&#60;script&#62;x&#60;/script&#62;');
      expect(res.body).toContain('https://app.example/cb?a=1&#38;site_url=http%3A%2F%2Fexample.test&#38;user_login=admin&#38;password=%5B------%5D');
      expect(res.body).toContain('https://app.example/cb?a=1&#38;success=false');
      expect(res.body).toContain('name="_wpnonce"');
    });

    it('approves: redirects to success_url with site_url, user_login and a working password', async () => {
      const b = browser(t);
      await signIn(b, 'admin', 'admin-password');
      const appId = 'a1b2c3d4-0000-5000-8000-000000000001';
      const page = await b.get(`${AUTHORIZE}?app_name=Phone&app_id=${appId}&success_url=${encodeURIComponent('myapp://callback#frag')}`);
      const res = await b.post(AUTHORIZE, {
        _wpnonce: field(page.body, '_wpnonce'),
        action: 'authorize_application_password',
        app_id: field(page.body, 'app_id'),
        success_url: field(page.body, 'success_url'),
        reject_url: field(page.body, 'reject_url'),
        app_name: 'Phone',
        approve: '1',
      });
      expect(res.status).toBe(302);
      const location = String(res.headers.location);
      expect(location.startsWith('myapp://callback?site_url=http%3A%2F%2Fexample.test&user_login=admin&password=')).toBe(true);
      expect(location.endsWith('#frag')).toBe(true);
      const password = new URL(location).searchParams.get('password')!;
      expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
      expect((await basicWorks(t, 'admin', password)).status).toBe(200);
      const list = await t.request('GET', '/core/v2/users/me/application-passwords', { as: t.admin });
      expect(list.body.find((i: { name: string }) => i.name === 'Phone').app_id).toBe(appId);
    });

    it('approves without success_url: shows the password once on the page', async () => {
      const user = await t.createUser('subscriber');
      const b = browser(t);
      await signIn(b, user.login, `${user.login}-password`);
      const page = await b.get(AUTHORIZE);
      const res = await b.post(AUTHORIZE, { _wpnonce: field(page.body, '_wpnonce'), action: 'authorize_application_password', app_name: 'Manual', approve: '1' });
      expect(res.status).toBe(200);
      const password = /id="new-application-password-value"[^>]*value="([^"]+)"/.exec(res.body)![1]!;
      expect(password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
      expect((await basicWorks(t, user.login, password)).status).toBe(200);
    });

    it('re-shows the form with the error for a duplicate name (409)', async () => {
      const b = browser(t);
      await signIn(b, 'admin', 'admin-password');
      const page = await b.get(AUTHORIZE);
      const res = await b.post(AUTHORIZE, { _wpnonce: field(page.body, '_wpnonce'), action: 'authorize_application_password', app_name: 'TESTS', approve: '1' });
      expect(res.status).toBe(409);
      expect(res.body).toContain('Each application name should be unique.');
    });

    it('rejects: to reject_url as given, else to success_url with success=false, else to the dashboard', async () => {
      const b = browser(t);
      await signIn(b, 'admin', 'admin-password');
      const page = await b.get(AUTHORIZE);
      const nonce = field(page.body, '_wpnonce');
      const base = { _wpnonce: nonce, action: 'authorize_application_password', app_name: 'R', reject: '1' };
      const cases: [Record<string, string>, string][] = [
        [{ success_url: 'https://app.example/ok' }, 'https://app.example/ok?success=false'],
        [{ success_url: 'https://app.example/ok', reject_url: 'https://app.example/no?x=1' }, 'https://app.example/no?x=1'],
        [{ reject_url: 'myapp://declined' }, 'myapp://declined'],
        [{}, 'http://example.test/wp-admin/'],
      ];
      for (const [extra, expected] of cases) {
        const res = await b.post(AUTHORIZE, { ...base, ...extra });
        expect(res.status).toBe(302);
        expect(res.headers.location).toBe(expected);
      }
      const list = await t.request('GET', '/core/v2/users/me/application-passwords', { as: t.admin });
      expect(list.body.some((i: { name: string }) => i.name === 'R')).toBe(false);
    });

    it('refuses a form without a valid nonce: 403, nothing created', async () => {
      const b = browser(t);
      await signIn(b, 'admin', 'admin-password');
      const res = await b.post(AUTHORIZE, { _wpnonce: '0000000000', action: 'authorize_application_password', app_name: 'CSRF', approve: '1' });
      expect(res.status).toBe(403);
      expect(res.body).toContain('The link you followed has expired.');
    });

    it('refuses an invalid app_id with an HTML error page (400)', async () => {
      const b = browser(t);
      await signIn(b, 'admin', 'admin-password');
      for (const appId of ['not-a-uuid', 'A1B2C3D4-0000-5000-8000-000000000001']) {
        const res = await b.get(`${AUTHORIZE}?app_id=${appId}`);
        expect(res.status).toBe(400);
        expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
        expect(res.body).toContain('The Authorize Application request is not allowed. The application ID must be a UUID.');
      }
    });

    it('501 on a site behind HTTP Basic auth (the browser sends Basic credentials), with a Go Back link', async () => {
      const b = browser(t);
      await signIn(b, 'admin', 'admin-password');
      const cookie = Object.entries(b.jar).map(([k, v]) => `${k}=${v}`).join('; ');
      const get = (authorization: string) =>
        t.app.inject({ method: 'GET', url: `${AUTHORIZE}?success_url=${encodeURIComponent('https://app.example/cb')}`, headers: { cookie, authorization } });
      const res = await get(`Basic ${Buffer.from('staging:letmein').toString('base64')}`);
      expect(res.statusCode).toBe(501);
      expect(res.body).toContain('Your website appears to use Basic Authentication, which is not currently compatible with application passwords.');
      expect(res.body).toContain('href="https://app.example/cb?success=false&#38;error=disabled"');
      // Another scheme, or Basic without credentials, is no sign of it.
      for (const other of ['Bearer abc', `Basic ${Buffer.from(':').toString('base64')}`]) expect((await get(other)).statusCode, other).toBe(200);
    });

    it('501 for a user without application passwords, with a Go Back link to reject_url + error=disabled', async () => {
      const user = await t.createUser('author');
      await setApplicationPasswordsEnabled(t.ctx, user.id, false);
      const b = browser(t);
      await signIn(b, user.login, `${user.login}-password`);
      const res = await b.get(`${AUTHORIZE}?success_url=${encodeURIComponent('https://app.example/cb')}`);
      expect(res.status).toBe(501);
      expect(res.body).toContain('not available for your account');
      expect(res.body).toContain('href="https://app.example/cb?success=false&#38;error=disabled"');
      const withReject = await b.get(`${AUTHORIZE}?success_url=${encodeURIComponent('https://app.example/cb')}&reject_url=${encodeURIComponent('https://app.example/no')}`);
      expect(withReject.status).toBe(501);
      expect(withReject.body).toContain('href="https://app.example/no?error=disabled"');
    });
  });
});

describe.each(DIALECTS)('authorize-application.php redirect rules in production on %s', (engine) => {
  let t: TestApp;
  let b: ReturnType<typeof browser>;
  beforeAll(async () => {
    t = await startTestApp(engine, { environment: 'production', baseUrl: 'https://example.test' });
    b = browser(t);
    await signIn(b, 'admin', 'admin-password');
  });
  afterAll(() => t.close());

  it.each([
    ['success_url', 'https://app.example/cb', 200, ''],
    ['success_url', 'myapp://auth/callback', 200, ''],
    ['success_url', 'http://127.0.0.1:3000/cb', 400, 'The URL must be served over a secure connection.'],
    ['success_url', 'http://[::1]:8080/cb', 400, 'The URL must be served over a secure connection.'],
    ['success_url', 'https://app.example@evil.example/capture', 400, 'Credentials are not allowed in the URL.'],
    ['reject_url', 'https://user:pass@evil.example/capture', 400, 'Credentials are not allowed in the URL.'],
    ['success_url', 'http://example.org/cb', 400, 'The URL must be served over a secure connection.'],
    ['reject_url', 'http://localhost/cb', 400, 'The URL must be served over a secure connection.'],
    ['success_url', 'javascript://example.org/%0Aalert(1)', 400, 'Invalid URL format.'],
    ['reject_url', 'data://text/html,test', 400, 'Invalid URL format.'],
    ['success_url', 'not-a-url', 400, 'Invalid URL format.'],
    ['success_url', 'http://', 400, 'Invalid URL format.'],
  ])('%s=%s → %i', async (name, url, status, message) => {
    const res = await b.get(`${AUTHORIZE}?${name}=${encodeURIComponent(url)}`);
    expect(res.status).toBe(status);
    if (message) expect(res.body).toContain(message);
  });

  it('marks the session cookie Secure on https', async () => {
    const fresh = browser(t);
    const form = await fresh.get(LOGIN);
    const res = await fresh.post(LOGIN, { log: 'admin', pwd: 'admin-password', _wpnonce: field(form.body, '_wpnonce') });
    expect([res.headers['set-cookie']].flat().find((c) => String(c).startsWith('wordpress_logged_in_'))).toMatch(/; Secure/);
  });
});

describe.each(DIALECTS)('authorize-application.php when application passwords are unavailable on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { environment: 'development' });
  });
  afterAll(() => t.close());

  it('checks the request first (400), then answers 501 with a Go Back link', async () => {
    const b = browser(t);
    await signIn(b, 'admin', 'admin-password');
    const bad = await b.get(`${AUTHORIZE}?success_url=${encodeURIComponent('http://example.org/cb')}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('The URL must be served over a secure connection.');
    const res = await b.get(`${AUTHORIZE}?reject_url=${encodeURIComponent('https://app.example/no')}`);
    expect(res.status).toBe(501);
    expect(res.body).toContain('Application passwords are not available.');
    expect(res.body).toContain('href="https://app.example/no?error=disabled"');
    const noReject = await b.get(AUTHORIZE);
    expect(noReject.body).toContain('href="http://example.test/wp-admin/"');
  });
});
