/**
 * The local list's confirm and unsubscribe pages in headless Chromium (Debian's `/usr/bin/chromium`
 * via playwright-core), against the app listening on 127.0.0.1: the link from the confirmation
 * e-mail confirms, the page's unsubscribe link asks first, and the button ends the subscription.
 */
import { pino } from 'pino';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, browserSuiteTitle, launchChromium } from '../../test-support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { loadConfig } from '../../config.js';
import { DIALECTS, createTestDb, type TestDb } from '../../storage/test-db.js';
import { freePort } from '../../test-support/net.js';
import { linkFor, upsertLocalMember } from './local-list.js';

const title = browserSuiteTitle('mailing-list pages');

describe.skipIf(!HAS_CHROMIUM).each(DIALECTS)(title, (engine) => {
  let browser: Browser;
  let app: App;
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await createTestDb(engine);
    const port = await freePort();
    app = await buildApp({ config: loadConfig({}, { baseUrl: `http://127.0.0.1:${port}`, logLevel: 'silent' }), db: testDb.db, logger: pino({ level: 'silent' }) });
    await app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await testDb?.destroy();
  });

  it('confirms, then unsubscribes after the button', async () => {
    await upsertLocalMember(app.ctx, 'news', 'dora@example.org', 'pending', { EMAIL: 'dora@example.org' });
    const status = async () => (await testDb.db.selectFrom('mailinglist_subscribers').select('status').where('email', '=', 'dora@example.org').executeTakeFirstOrThrow()).status;
    const page = await browser.newPage();
    await page.goto(await linkFor(app.ctx, 'confirm', 'news', 'dora@example.org'));
    expect(await page.textContent('body')).toContain('Thank you, your subscription is confirmed.');
    expect(await status()).toBe('subscribed');
    await page.getByRole('link', { name: 'Unsubscribe' }).click();
    await page.waitForLoadState();
    expect(await page.textContent('body')).toContain('Stop e-mail to dora@example.org?');
    expect(await status()).toBe('subscribed');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.waitForLoadState();
    expect(await page.textContent('body')).toContain('You were successfully unsubscribed.');
    expect(await status()).toBe('unsubscribed');
    const forged = await page.goto((await linkFor(app.ctx, 'confirm', 'news', 'dora@example.org')).replace('dora%40', 'eve%40'));
    expect(forged?.status()).toBe(403);
    await page.close();
  });
});
