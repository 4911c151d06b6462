/**
 * The embed protocol end to end in headless Chromium: a page of another site shows one of our events
 * from its oEmbed `html`; the framed card reports its height (the embedding page sizes the frame and
 * hides the fallback quote) and a click on its title opens the event on the embedding page, which the
 * frame's sandbox keeps it from doing itself.
 */
import http from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, browserSuiteTitle, launchChromium } from '../../test-support/browser.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { freePort } from '../../test-support/net.js';

describe.skipIf(!HAS_CHROMIUM).each(DIALECTS)(browserSuiteTitle('oEmbed'), (engine) => {
  let t: TestApp;
  let browser: Browser;
  let other: http.Server;
  let otherOrigin: string;
  let embedHtml = '';

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp(engine, { baseUrl: `http://127.0.0.1:${port}` });
    await t.app.listen({ port, host: '127.0.0.1' });
    const otherPort = await freePort();
    // Another site (another origin: `localhost`, not `127.0.0.1`) that pastes the oEmbed html into its page.
    other = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body><h1>Elsewhere</h1>${embedHtml}</body></html>`));
    await new Promise<void>((resolve) => other.listen(otherPort, '127.0.0.1', resolve));
    otherOrigin = `http://localhost:${otherPort}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => other?.close(() => resolve()));
    await t?.close();
  });

  it('sizes the frame to the card, hides the fallback, and opens a clicked link on the embedding page', async () => {
    const event = await t.request('POST', '/eventsuite/events/v1/events', {
      as: t.admin,
      json: { title: 'Harbour Lights', description: 'Lanterns along the quay.', start_date: '2030-06-01 20:00', end_date: '2030-06-01 23:00' },
    });
    expect(event.status).toBe(201);
    embedHtml = (await t.request('GET', '/oembed/1.0/embed', { query: { url: event.body.url } })).body.html;

    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${otherOrigin}/`);
    const frame = page.locator('iframe.wp-embedded-content');
    // The card's height arrives: the frame leaves the height the oEmbed html gave it for the card's.
    await expect.poll(async () => Number(await frame.getAttribute('height')), { timeout: 10_000 }).not.toBe(Number(/height="(\d+)"/.exec(embedHtml)![1]));
    const height = Number(await frame.getAttribute('height'));
    expect(height).toBeGreaterThanOrEqual(200);
    expect(height).toBeLessThanOrEqual(1000);
    expect(await page.locator('blockquote.wp-embedded-content').isVisible()).toBe(false);
    // The sandboxed frame asks the embedding page to open the link.
    await frame.focus();
    await page.frameLocator('iframe.wp-embedded-content').locator('.wp-embed-heading a').click();
    await page.waitForURL(event.body.url, { timeout: 10_000 });
    expect(errors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);
    await context.close();
  }, 60_000);
});
