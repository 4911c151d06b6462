/**
 * Launch your store in headless Chromium (Debian's `/usr/bin/chromium` driven by playwright-core):
 * while the store is coming soon a visitor sees the coming-soon page and the owner, signed in, sees
 * the site; the theme chosen through the API changes what visitors see.
 */
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, browserSuiteTitle, launchChromium } from '../../test-support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { createApplicationPassword } from '../../auth/app-passwords.js';
import { createUser } from '../../auth/users.js';
import { loadConfig } from '../../config.js';
import { DIALECTS, createTestDb, type TestDb } from '../../storage/test-db.js';
import { freePort } from '../../test-support/net.js';

const title = browserSuiteTitle('coming soon');

describe.skipIf(!HAS_CHROMIUM).each(DIALECTS)(title, (engine) => {
  let browser: Browser;
  let app: App;
  let testDb: TestDb;
  let base: string;
  let auth: string;
  const shots = path.join(os.tmpdir(), `eventsuite-coming-soon-${process.pid}`);

  const api = (method: string, route: string, json?: unknown) =>
    fetch(`${base}/wp-json${route}`, { method, headers: { authorization: auth, 'content-type': 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json) });

  beforeAll(async () => {
    testDb = await createTestDb(engine);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await buildApp({ config: loadConfig({}, { baseUrl: base, logLevel: 'silent' }), db: testDb.db, logger: pino({ level: 'silent' }) });
    await app.listen({ port, host: '127.0.0.1' });
    const owner = await createUser(app.ctx, { login: 'owner', email: 'owner@example.test', password: 'correct horse battery', roles: ['administrator'] });
    const { password } = await createApplicationPassword(app.ctx, owner.id, { name: 'tests' });
    auth = `Basic ${Buffer.from(`owner:${password}`).toString('base64')}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await testDb?.destroy();
  });

  it('shows visitors the coming-soon page and the signed-in owner the site', async () => {
    expect((await api('POST', '/shop-admin/launch-your-store/initialize-coming-soon')).status).toBe(200);

    const visitor = await browser.newContext();
    const page = await visitor.newPage();
    await page.goto(`${base}/`);
    await expect(page.locator('.coming-soon').textContent()).resolves.toContain('Coming soon');
    await page.screenshot({ path: path.join(shots, 'visitor.png') });
    await visitor.close();

    const ownerContext = await browser.newContext();
    const ownerPage = await ownerContext.newPage();
    await ownerPage.goto(`${base}/wp-admin/wp-login.php`);
    await ownerPage.getByLabel('Username or Email Address').fill('owner');
    await ownerPage.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await ownerPage.getByRole('button', { name: 'Log In' }).click();
    await ownerPage.waitForURL((u) => u.pathname.startsWith('/wp-admin'));
    await ownerPage.goto(`${base}/`);
    await expect(ownerPage.locator('.coming-soon').count()).resolves.toBe(0);
    await expect(ownerPage.getByRole('link', { name: 'REST API' }).count()).resolves.toBe(1);
    await ownerPage.screenshot({ path: path.join(shots, 'owner.png') });
    await ownerContext.close();
  });

  it('shows visitors the theme the owner chose', async () => {
    expect((await api('POST', '/shop-admin/options', { woocommerce_coming_soon: 'no' })).status).toBe(200);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/`);
    const before = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect((await api('POST', '/shop-admin/onboarding/themes/activate', { theme: 'midnight' })).status).toBe(200);
    await page.reload();
    const after = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(before).toBe('rgb(255, 255, 255)');
    expect(after).toBe('rgb(16, 19, 26)');
    await page.screenshot({ path: path.join(shots, 'midnight.png') });
    await context.close();
  });
});
