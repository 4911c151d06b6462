/**
 * The calendar setup wizard in headless Chromium (Debian's `/usr/bin/chromium`, driven by playwright-core):
 * an administrator follows the dashboard's notice and goes through the six tabs as in the original
 * wizard (a view is required, the organizer needs a name and a web address with its protocol, the venue's
 * country is picked from the list), and what was chosen shows on the calendar. Screenshots go to the
 * test's temp folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.js';
import { switchArea } from '../../area-state.js';
import { createApplicationPassword } from '../../auth/app-passwords.js';
import { createUser } from '../../auth/users.js';
import { loadConfig } from '../../config.js';
import { DIALECTS, createTestDb, type TestDb } from '../../storage/test-db.js';
import { HAS_CHROMIUM, browserSuiteTitle, launchChromium } from '../../test-support/browser.js';
import { freePort } from '../../test-support/net.js';

const title = browserSuiteTitle('calendar setup wizard');

describe.skipIf(!HAS_CHROMIUM).each(DIALECTS)(title, (engine) => {
  let app: App;
  let testDb: TestDb;
  let base = '';
  let auth = '';
  let browser: Browser;
  let page: Page;
  const shots = mkdtempSync(path.join(os.tmpdir(), 'wizard-browser-'));
  const api = async (method: string, route: string, json?: unknown) => {
    const res = await fetch(`${base}/wp-json${route}`, { method, headers: { authorization: auth, 'content-type': 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json) });
    return { status: res.status, body: await res.json() as any };
  };
  const heading = () => page.locator('h1').textContent();

  beforeAll(async () => {
    testDb = await createTestDb(engine);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await buildApp({ config: loadConfig({}, { baseUrl: base, logLevel: 'silent' }), db: testDb.db, logger: pino({ level: 'silent' }) });
    await app.listen({ port, host: '127.0.0.1' });
    const admin = await createUser(app.ctx, { login: 'admin', email: 'admin@example.test', password: 'correct horse battery', roles: ['administrator'] });
    const { password } = await createApplicationPassword(app.ctx, admin.id, { name: 'browser test' });
    auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
    await switchArea(app.ctx, 'tickets', false);
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await testDb?.destroy();
    rmSync(shots, { recursive: true, force: true });
  });

  it('walks an administrator through the six tabs and the calendar follows the answers', async () => {
    await page.goto(`${base}/wp-admin/wp-login.php`);
    await page.getByLabel('Username or Email Address').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/wp-admin'));
    await page.goto(`${base}/wp-admin/`);
    await page.getByRole('link', { name: 'set up the calendar' }).click();

    // Welcome.
    expect(await heading()).toBe('Calendar setup: Welcome');
    await page.getByLabel(/share basic information/).check();
    await page.getByRole('button', { name: 'Set up my calendar' }).click();

    // Display: no view is no answer.
    expect(await heading()).toBe('Calendar setup: Display');
    for (const view of ['List', 'Month', 'Day']) await page.getByLabel(view, { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Please select at least one view to continue.').waitFor();
    for (const view of ['List', 'Month', 'Day']) expect(await page.getByLabel(view, { exact: true }).isChecked()).toBe(false);
    await page.getByLabel('Month', { exact: true }).check();
    await page.getByLabel('Day', { exact: true }).check();
    await page.screenshot({ path: path.join(shots, 'display.png') });
    await page.getByRole('button', { name: 'Continue' }).click();

    // Settings.
    expect(await heading()).toBe('Calendar setup: Settings');
    await page.getByLabel('Currency symbol').selectOption('euro');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByLabel('Date format').selectOption('d/m/Y');
    await page.getByLabel('Your week starts on').selectOption('Monday');
    await page.screenshot({ path: path.join(shots, 'settings.png') });
    await page.getByRole('button', { name: 'Continue' }).click();

    // Organizer: the browser keeps the form until it has a name and a web address with its protocol.
    expect(await heading()).toBe('Calendar setup: Organizer');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.getByLabel('Organizer name').evaluate((el) => (el as HTMLInputElement).validity.valueMissing)).toBe(true);
    await page.getByLabel('Organizer name').fill('Browser Org');
    await page.getByLabel('Website').fill('org.example');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await heading()).toBe('Calendar setup: Organizer');
    await page.getByLabel('Website').fill('https://org.example');
    await page.getByLabel('Email').fill('hello@org.example');
    await page.getByRole('button', { name: 'Continue' }).click();

    // Venue.
    expect(await heading()).toBe('Calendar setup: Venue');
    expect(await page.getByLabel('Country').inputValue()).toBe('US');
    await page.getByLabel('Venue name').fill('Browser Hall');
    await page.getByLabel('Address').fill('Domplatz 1');
    await page.getByLabel('City').fill('Berlin');
    await page.getByLabel('Zip / postal code').fill('10178');
    await page.getByLabel('Country').selectOption('DE');
    await page.getByRole('button', { name: 'Continue' }).click();

    // Tickets: offered and ticked, as in the original.
    expect(await heading()).toBe('Calendar setup: Tickets');
    expect(await page.getByLabel(/switch on tickets/).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await heading()).toBe('Calendar setup: Finished');
    for (const note of ['Organizer created.', 'Venue created.', 'Event Tickets plugin installed and activated.']) await page.getByText(note).waitFor();
    await page.screenshot({ path: path.join(shots, 'finished.png') });
    expect(app.ctx.areas.isEnabled('tickets')).toBe(true);
    expect(await app.ctx.options.get('opt-in-status')).toBe(true);
    await page.goto(`${base}/wp-admin/`);
    expect(await page.getByText('The calendar is not set up yet').count()).toBe(0);

    // The calendar: its views, its date format, the venue's country, the currency of costs.
    const venues = await api('GET', '/eventsuite/events/v1/venues');
    expect(venues.body.venues[0]).toMatchObject({ venue: 'Browser Hall', city: 'Berlin', country: 'Germany' });
    const ev = await api('POST', '/eventsuite/events/v1/events', { title: 'Opening night', cost: '15', start_date: '2026-05-14 20:00:00', end_date: '2026-05-14 22:00:00', venue: [venues.body.venues[0].id] });
    expect(ev.body).toMatchObject({ timezone: 'Europe/Berlin', cost: '€15' });
    await page.goto(`${base}/events/month/2026-05/`);
    await page.locator('.tribe-events-calendar-month').getByText('Opening night').waitFor();
    expect(await page.locator('table.tribe-events-calendar-month thead th').first().textContent()).toBe('Mon');
    // Only the views chosen are offered.
    expect(await page.locator('.tribe-events-c-view-selector a').allTextContents()).toEqual(['Month', 'Day']);
    await page.goto(`${base}/event/${ev.body.slug}/`);
    await page.getByText('14/05/2026').first().waitFor();
    await page.screenshot({ path: path.join(shots, 'event.png') });
  }, 90_000);
});
