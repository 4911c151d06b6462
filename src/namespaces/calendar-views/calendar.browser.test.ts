/**
 * The calendar pages in headless Chromium (Debian's `/usr/bin/chromium`, driven by playwright-core):
 * an event created through the API shows in the month view, "next month" swaps the view through the
 * REST route without a page load, search narrows the list, an event page opens. Screenshots go to the
 * test's temp folder.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { Browser, Page } from 'playwright-core';
import { HAS_CHROMIUM, browserSuiteTitle, launchChromium } from '../../test-support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { createApplicationPassword } from '../../auth/app-passwords.js';
import { createUser } from '../../auth/users.js';
import { loadConfig } from '../../config.js';
import { DIALECTS, createTestDb, type TestDb } from '../../storage/test-db.js';
import { freePort } from '../../test-support/net.js';

const title = browserSuiteTitle('calendar pages');

describe.skipIf(!HAS_CHROMIUM).each(DIALECTS)(title, (engine) => {
  let app: App;
  let testDb: TestDb;
  let base = '';
  let browser: Browser;
  let page: Page;
  const shots = mkdtempSync(path.join(os.tmpdir(), 'calendar-browser-'));

  beforeAll(async () => {
    testDb = await createTestDb(engine);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await buildApp({ config: loadConfig({}, { baseUrl: base, logLevel: 'silent' }), db: testDb.db, logger: pino({ level: 'silent' }) });
    await app.listen({ port, host: '127.0.0.1' });
    const admin = await createUser(app.ctx, { login: 'admin', email: 'admin@example.test', password: 'correct horse battery', roles: ['administrator'] });
    const { password } = await createApplicationPassword(app.ctx, admin.id, { name: 'browser test' });
    const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
    for (const [title, start] of [['Spring concert', '2026-05-14 19:00:00'], ['June picnic', '2026-06-10 12:00:00'], ['Jazz brunch', '2026-05-20 11:00:00']] as const) {
      const end = start.replace(/ (\d\d)/, (_, h) => ` ${String(Number(h) + 2).padStart(2, '0')}`);
      const res = await fetch(`${base}/wp-json/eventsuite/events/v1/events`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ title, start_date: start, end_date: end }) });
      expect(res.status).toBe(201);
    }
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await testDb?.destroy();
    rmSync(shots, { recursive: true, force: true });
  });

  it('shows the month, moves to the next month without a page load, searches, opens an event', async () => {
    await page.goto(`${base}/events/month/2026-05/`);
    await page.locator('.tribe-events-calendar-month').getByText('Spring concert').waitFor();
    await page.screenshot({ path: path.join(shots, 'month.png') });

    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const rest = page.waitForResponse((r) => r.url().includes('/wp-json/eventsuite/views/v2/html') && r.status() === 200);
    await page.locator('a.tribe-events-c-top-bar__nav-link--next').click();
    await rest;
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'June 2026');
    await page.getByText('June picnic').waitFor();
    expect(page.url()).toBe(`${base}/events/month/2026-06/`);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await page.screenshot({ path: path.join(shots, 'month-next.png') });

    await page.goto(`${base}/events/list/?tribe-bar-date=2026-05-01`);
    await page.getByText('Spring concert').waitFor();
    await page.fill('#tribe-events-search', 'jazz');
    const searched = page.waitForResponse((r) => r.url().includes('/wp-json/eventsuite/views/v2/html'));
    await page.click('.tribe-events-c-search__button');
    await searched;
    await page.getByRole('link', { name: 'Jazz brunch' }).waitFor();
    expect(await page.getByText('Spring concert').count()).toBe(0);
    expect(page.url()).toContain('tribe-bar-search=jazz');
    await page.screenshot({ path: path.join(shots, 'list-search.png') });

    await page.getByRole('link', { name: 'Jazz brunch' }).click();
    await page.locator('h1.tribe-events-single-event-title', { hasText: 'Jazz brunch' }).waitFor();
    await page.screenshot({ path: path.join(shots, 'event.png') });
    expect(existsSync(path.join(shots, 'event.png'))).toBe(true);
  }, 60_000);
});
