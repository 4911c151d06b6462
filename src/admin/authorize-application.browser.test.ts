/**
 * The authorize-application flow in headless Chromium (Debian's `/usr/bin/chromium`, driven by
 * playwright-core; no browser download), against the app listening on 127.0.0.1, with a local server
 * standing in for the application's callback URL.
 */
import http from 'node:http';
import net from 'node:net';
import { pino } from 'pino';
import type { Browser, BrowserContext } from 'playwright-core';
import { HAS_CHROMIUM, browserSuiteTitle, launchChromium } from '../test-support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { createUser } from '../auth/users.js';
import { loadConfig, type Config } from '../config.js';
import { DIALECTS, createTestDb, type TestDb } from '../storage/test-db.js';
import { freePort } from '../test-support/net.js';


/** The site under test, listening on a random local port with `baseUrl` set to it. */
async function startSite(engine: TestDb['engine'], overrides: Partial<Config> = {}): Promise<{ app: App; testDb: TestDb; base: string }> {
  const testDb = await createTestDb(engine);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({}, { baseUrl: base, logLevel: 'silent', ...overrides });
  const app = await buildApp({ config, db: testDb.db, logger: pino({ level: 'silent' }) });
  await app.listen({ port, host: '127.0.0.1' });
  await createUser(app.ctx, { login: 'admin', email: 'admin@example.test', password: 'correct horse battery', roles: ['administrator'] });
  return { app, testDb, base };
}

/** The application's side: records every callback it receives. */
async function startCallbackServer(): Promise<{ base: string; hits: URL[]; last(path: string): URL | undefined; close(): Promise<void> }> {
  const hits: URL[] = [];
  const server = http.createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!DOCTYPE html><title>callback</title><p>received</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    // The browser also asks for /favicon.ico, so look requests up by path.
    last: (path) => hits.filter((h) => h.pathname === path).at(-1),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const title = browserSuiteTitle('authorize-application.php');

describe.skipIf(!HAS_CHROMIUM).each(DIALECTS)(title, (engine) => {
  let browser: Browser;
  let context: BrowserContext;
  let site: Awaited<ReturnType<typeof startSite>>;
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;

  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext();
    site = await startSite(engine);
    callback = await startCallbackServer();
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await site?.app.close();
    await site?.testDb.destroy();
    await callback?.close();
  });

  const authorizeUrl = (params: Record<string, string>) => `${site.base}/wp-admin/authorize-application.php?${new URLSearchParams(params).toString()}`;

  it('redirects to sign-in, comes back, approves, and the password works as Basic credentials', async () => {
    const page = await context.newPage();
    const appId = '6b0f3a52-1c7d-5e2a-9f4b-8c3d2e1f0a9b';
    const successUrl = `${callback.base}/connected?state=xyz`;
    await page.goto(authorizeUrl({ app_name: 'Calendar App', app_id: appId, success_url: successUrl }));

    // ---- Signed out: the sign-in page, which knows where to return
    expect(new URL(page.url()).pathname).toBe('/wp-admin/wp-login.php');
    expect(new URL(page.url()).searchParams.get('redirect_to')).toContain('/wp-admin/authorize-application.php?app_name=Calendar+App');
    await page.getByLabel('Username or Email Address').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Log In' }).click();

    // ---- Back on the authorize page
    await page.waitForURL((u) => u.pathname === '/wp-admin/authorize-application.php');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Authorize Application');
    await expect(page.getByLabel('New Application Password Name').inputValue()).resolves.toBe('Calendar App');
    await expect(page.locator('#approve_help').textContent()).resolves.toContain(`${callback.base}/connected?state=xyz&site_url=`);

    // ---- Approve → the application's callback
    await page.getByRole('button', { name: 'Yes, I approve of this connection' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${callback.base}/connected`));
    const hit = callback.last('/connected')!;
    expect(hit.searchParams.get('state')).toBe('xyz');
    expect(hit.searchParams.get('site_url')).toBe(site.base);
    expect(hit.searchParams.get('user_login')).toBe('admin');
    const password = hit.searchParams.get('password')!;
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);

    // ---- The application uses it
    const me = await fetch(`${site.base}/wp-json/core/v2/users/me`, { headers: { Authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { slug: string }).slug).toBe('admin');
    const introspect = await fetch(`${site.base}/wp-json/core/v2/users/me/application-passwords/introspect`, {
      headers: { Authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` },
    });
    expect(((await introspect.json()) as { name: string; app_id: string })).toMatchObject({ name: 'Calendar App', app_id: appId });
    await page.close();
  }, 60_000);

  it('rejects: the browser goes to reject_url as given (else success_url with success=false) and nothing is created', async () => {
    const page = await context.newPage();
    await page.goto(authorizeUrl({ app_name: 'Declined App', success_url: `${callback.base}/ok`, reject_url: `${callback.base}/declined?state=s1` }));
    await page.getByRole('button', { name: 'No, I do not approve of this connection' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${callback.base}/declined`));
    expect(callback.last('/declined')!.search).toBe('?state=s1');

    await page.goto(authorizeUrl({ app_name: 'Declined App', success_url: `${callback.base}/ok?state=s2` }));
    await page.getByRole('button', { name: 'No, I do not approve of this connection' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${callback.base}/ok`));
    expect(callback.last('/ok')!.search).toBe('?state=s2&success=false');
    const names = (await site.app.ctx.db.selectFrom('application_passwords').select('name').execute()).map((r) => r.name);
    expect(names).not.toContain('Declined App');
    await page.close();
  }, 60_000);

  it('without success_url shows the new password once, on the page', async () => {
    const page = await context.newPage();
    await page.goto(authorizeUrl({}));
    await page.getByLabel('New Application Password Name').fill('Manual entry');
    await page.getByRole('button', { name: 'Yes, I approve of this connection' }).click();
    await page.waitForSelector('#new-application-password-value');
    const shown = await page.locator('#new-application-password-value').inputValue();
    expect(shown).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    const me = await fetch(`${site.base}/wp-json/core/v2/users/me`, { headers: { Authorization: `Basic ${Buffer.from(`admin:${shown}`).toString('base64')}` } });
    expect(me.status).toBe(200);
    await page.close();
  }, 60_000);

  it('refuses an invalid app_id with an HTML error page', async () => {
    const page = await context.newPage();
    const res = await page.goto(authorizeUrl({ app_id: 'not-a-uuid', success_url: `${callback.base}/ok` }));
    expect(res?.status()).toBe(400);
    await expect(page.locator('body').textContent()).resolves.toContain('The Authorize Application request is not allowed. The application ID must be a UUID.');
    await page.close();
  }, 60_000);

  it('refuses a plain-http success_url outside a local environment, on a loopback address too', async () => {
    const prod = await startSite(engine, { environment: 'production' });
    const ctx2 = await browser.newContext();
    try {
      const page = await ctx2.newPage();
      await page.goto(`${prod.base}/wp-admin/wp-login.php`);
      await page.getByLabel('Username or Email Address').fill('admin@example.test');
      await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.waitForURL((u) => u.pathname === '/wp-admin/');

      const refused = await page.goto(`${prod.base}/wp-admin/authorize-application.php?success_url=${encodeURIComponent('http://example.org/cb')}`);
      expect(refused?.status()).toBe(400);
      await expect(page.locator('body').textContent()).resolves.toContain('The URL must be served over a secure connection.');

      const loopback = await page.goto(`${prod.base}/wp-admin/authorize-application.php?success_url=${encodeURIComponent(`${callback.base}/cb`)}`);
      expect(loopback?.status()).toBe(400);
      await expect(page.locator('body').textContent()).resolves.toContain('The URL must be served over a secure connection.');

      // An https callback passes the URL rules; this http site in production then has no
      // application passwords to give (501, with a way back to the application).
      const unavailable = await page.goto(`${prod.base}/wp-admin/authorize-application.php?success_url=${encodeURIComponent('https://app.example/cb')}`);
      expect(unavailable?.status()).toBe(501);
      await expect(page.getByRole('link', { name: 'Go Back' }).getAttribute('href')).resolves.toBe('https://app.example/cb?success=false&error=disabled');
    } finally {
      await ctx2.close();
      await prod.app.close();
      await prod.testDb.destroy();
    }
  }, 60_000);
});
