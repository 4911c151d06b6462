import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { freePort } from '../../test-support/net.js';
import { addTicket, makePost, startGateway, startMailBox, type FakeGateway, type MailBox } from '../tickets/fixtures.case.js';
import { clearSpecCache } from './remote-specs.js';
import { signInForTest } from '../../auth/test-sessions.js';
import { MARKETPLACE_AUTH_OPTION } from './profile.service.js';

const NS = '/shop-admin';

/** A local stand-in for the extension registry, the marketplace, the suggestion specs and the AI service. */
async function startRemotes(): Promise<{ url: string; calls: { path: string; body: string }[]; close(): Promise<void> }> {
  const calls: { path: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      calls.push({ path: req.url ?? '', body });
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.url === '/extensions/ticket-scanner.json') return json(200, { slug: 'ticket-scanner', name: 'Ticket scanner', version: '1.2.0', description: 'Scans tickets.' });
      if (req.url === '/extensions/broken.json') return json(200, { slug: 'broken', name: 'Broken' });
      if (req.url === '/oauth/request_token') return json(200, { request_token: 'req-123' });
      if (req.url === '/oauth/access_token') return JSON.parse(body).request_token === 'req-123' ? json(200, { access_token: 'acc-456', access_token_secret: 's', site_id: 9 }) : json(403, { error: 'bad token' });
      if (req.url === '/payment-gateway-suggestions.json') return json(200, [{ id: 'remote-pay', title: 'Remote pay' }]);
      if (req.url === '/v1/chat/completions') return json(200, { choices: [{ message: { content: 'Riverside Jazz Club' } }] });
      json(404, { error: 'not found' });
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((r) => server.close(() => r())) };
}

describe.each(DIALECTS)('shop-admin store routes on %s', (engine) => {
  let t: TestApp;
  let manager: TestUser;
  let editor: TestUser;
  let remotes: Awaited<ReturnType<typeof startRemotes>>;
  let mail: MailBox;
  let gateway: FakeGateway;

  beforeAll(async () => {
    remotes = await startRemotes();
    mail = await startMailBox();
    gateway = await startGateway();
    t = await startTestApp(engine, {
      disabledAreas: ['oembed'],
      smtpUrl: `smtp://127.0.0.1:${mail.port}`,
      remotes: { extensions: remotes.url, marketplace: remotes.url, ai: remotes.url, payments: gateway.url },
    });
    manager = await t.createUser('shop_manager');
    editor = await t.createUser('editor');
  });
  afterAll(async () => {
    await t.close();
    await remotes.close();
    await mail.close();
    await gateway.close();
  });

  describe('/shop-admin/options', () => {
    it('answers 400 "must supply" without options, and refuses core or unlisted names for administrators too', async () => {
      expect((await t.request('GET', `${NS}/options`, { as: t.admin })).body.code).toBe('woocommerce_rest_cannot_view');
      const notObject = await t.request('POST', `${NS}/options`, { as: t.admin, form: { woocommerce_allow_tracking: 'yes' } });
      expect(notObject.status).toBe(400);
      expect(notObject.body.code).toBe('woocommerce_rest_cannot_update');
      for (const name of ['blogname', 'date_format', 'stylesheet', 'secret_thing']) {
        const res = await t.request('GET', `${NS}/options`, { as: t.admin, query: { options: name } });
        expect(res.status, name).toBe(403);
        expect(res.body.code, name).toBe('woocommerce_rest_cannot_view');
      }
      expect((await t.request('GET', `${NS}/options`, { query: { options: 'woocommerce_default_country' } })).status).toBe(401);
      expect((await t.request('GET', `${NS}/options`, { as: editor, query: { options: 'woocommerce_default_country' } })).status).toBe(403);
    });

    it('writes allowed options, answering which changed; the shop currency is the ticket currency', async () => {
      const res = await t.request('POST', `${NS}/options`, { as: manager, json: { woocommerce_currency: 'EUR', woocommerce_allow_tracking: 'no' } });
      expect(res.body).toEqual({ woocommerce_currency: true, woocommerce_allow_tracking: true });
      expect((await t.request('POST', `${NS}/options`, { as: manager, json: { woocommerce_allow_tracking: 'no' } })).body).toEqual({ woocommerce_allow_tracking: false });
      const read = await t.request('GET', `${NS}/options`, { as: manager, query: { options: 'woocommerce_currency,woocommerce_calc_taxes' } });
      expect(read.body).toEqual({ woocommerce_currency: 'EUR', woocommerce_calc_taxes: false });
      const event = await makePost(t, { title: 'Euro night' });
      const ticket = await addTicket(t, event, { name: 'Seat', price: '9' });
      expect(ticket.cost_details.currency_symbol).toBe('€');
      const hacked = await t.request('POST', `${NS}/options`, { as: manager, json: { blogname: 'Hacked' } });
      expect(hacked.status).toBe(403);
      expect(hacked.body.code).toBe('woocommerce_rest_cannot_update');
    });
  });

  describe('/shop-admin/experiments/assignment', () => {
    it('needs a shop user (401 signed out) and experiment_name in the query (400 woocommerce_rest_experiment_name_required)', async () => {
      expect((await t.request('GET', `${NS}/experiments/assignment`, { query: { experiment_name: 'test' } })).status).toBe(401);
      const missing = await t.request('GET', `${NS}/experiments/assignment`, { as: t.admin });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ code: 'woocommerce_rest_experiment_name_required', data: { status: 400 } });
      const res = await t.request('GET', `${NS}/experiments/assignment`, { as: t.admin, query: { experiment_name: 'test' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.variations)).toEqual(['test']);
    });
  });

  describe('extensions (plugins)', () => {
    it('lists the optional areas as installed and the enabled ones as active', async () => {
      const installed = (await t.request('GET', `${NS}/plugins/installed`, { as: manager })).body.plugins;
      expect(installed).toEqual(expect.arrayContaining(['oembed', 'events', 'tickets', 'shop-admin']));
      const active = (await t.request('GET', `${NS}/plugins/active`, { as: manager })).body.plugins;
      expect(active).not.toContain('oembed');
    });

    it('activating an area switches it on for real: its routes enter discovery, and it stays on', async () => {
      expect((await t.request('GET', '/')).body.namespaces).not.toContain('oembed/1.0');
      expect((await t.request('POST', `${NS}/plugins/activate`, { as: manager, json: { plugins: 'oembed' } })).status).toBe(403);
      const res = await t.request('POST', `${NS}/plugins/activate`, { as: t.admin, json: { plugins: 'oembed' } });
      expect(res.body).toMatchObject({ success: true, data: { activated: ['oembed'] } });
      expect((await t.request('GET', '/')).body.namespaces).toContain('oembed/1.0');
      expect(await t.ctx.options.get('eventsuite_area_state')).toMatchObject({ oembed: true });
    });

    it('installs a registry package in a background job whose status can be polled', async () => {
      const res = await t.request('POST', `${NS}/plugins/install`, { as: t.admin, json: { plugins: 'ticket-scanner', async: true } });
      expect(res.body.data).toMatchObject({ job_id: expect.stringMatching(/^[a-f0-9]{32}$/), plugins: ['ticket-scanner'] });
      expect((await t.request('GET', `${NS}/plugins/install/status/${res.body.data.job_id}`, { as: t.admin })).body.status).toBe('pending');
      await t.ctx.jobs.runDue();
      const status = (await t.request('GET', `${NS}/plugins/install/status/${res.body.data.job_id}`, { as: t.admin })).body;
      expect(status).toMatchObject({ status: 'complete', plugins: ['ticket-scanner'], errors: {} });
      expect((await t.request('GET', `${NS}/plugins/installed`, { as: manager })).body.plugins).toContain('ticket-scanner');
      expect((await t.request('GET', `${NS}/plugins/install/status`, { as: t.admin })).body[0].job_id).toBe(res.body.data.job_id);
    });

    it('reports per-plugin errors for unknown and invalid packages, and 400 for an empty list', async () => {
      const res = await t.request('POST', `${NS}/plugins/install`, { as: t.admin, json: { plugins: 'broken,nowhere,../etc' } });
      expect(res.body.success).toBe(false);
      expect(Object.keys(res.body.errors.errors).sort()).toEqual(['../etc', 'broken', 'nowhere']);
      expect((await t.request('POST', `${NS}/plugins/install`, { as: t.admin, json: { plugins: '' } })).body.code).toBe('woocommerce_rest_invalid_plugins');
    });

    it('install-and-activate answers the two helper results without an envelope', async () => {
      const res = await t.request('POST', `${NS}/onboarding/plugins/install-and-activate`, { as: t.admin, json: { plugins: ['nowhere'] } });
      expect(res.status).toBe(200);
      expect(res.body.install).toEqual({ installed: [], results: expect.any(Object), errors: { errors: { nowhere: expect.any(Array) }, error_data: {} }, time: {} });
      expect(res.body.activate).toEqual({ activated: [], active: expect.any(Array), errors: { errors: {}, error_data: {} } });
    });

    it('installs and activates asynchronously for onboarding, with a pollable scheduled install', async () => {
      const res = await t.request('POST', `${NS}/onboarding/plugins/install-and-activate-async`, { as: t.admin, json: { plugins: ['ticket-scanner'] } });
      expect(res.body).toMatchObject({ status: 'pending', plugins: { 'ticket-scanner': { status: 'pending', errors: [] } } });
      await t.ctx.jobs.runDue();
      const job = (await t.request('GET', `${NS}/onboarding/plugins/scheduled-installs/${res.body.job_id}`, { as: t.admin })).body;
      expect(job.status).toBe('complete');
      expect(job.plugins['ticket-scanner'].status).toBe('complete');
      expect((await t.request('GET', `${NS}/plugins/active`, { as: manager })).body.plugins).toContain('ticket-scanner');
      const missing = await t.request('GET', `${NS}/onboarding/plugins/scheduled-installs/abc123`, { as: t.admin });
      expect(missing.status).toBe(404);
      expect(missing.text).toBe('');
    });
  });

  describe('marketplace connect', () => {
    it('requests a token, then stores the access token so the profile shows wccom_connected', async () => {
      const start = await t.request('POST', `${NS}/plugins/request-marketplace-connect`, { as: t.admin });
      expect(start.body.connectAction).toBe(`${remotes.url}/oauth/authorize?request_token=req-123&redirect_uri=${encodeURIComponent('http://example.test/wp-admin/admin.php?page=eventsuite-extensions&marketplace-connect=finish')}`);
      expect((await t.request('POST', `${NS}/plugins/finish-marketplace-connect`, { as: t.admin, json: { request_token: 'req-123' } })).body).toEqual({ success: true });
      expect((await t.request('GET', `${NS}/onboarding/profile`, { as: manager })).body.wccom_connected).toBe(true);
      const refused = await t.request('POST', `${NS}/plugins/finish-marketplace-connect`, { as: t.admin, json: { request_token: 'forged' } });
      expect(refused.body.code).toBe('woocommerce_rest_helper_connect');
    });
  });

  describe('store notice', () => {
    it('woocommerce_demo_store shows the notice on every public page; its markup is filtered', async () => {
      const pages = ['/', '/events/list/', '/author/admin/'];
      for (const url of pages) expect((await t.app.inject({ method: 'GET', url })).body, url).not.toContain('woocommerce-store-notice');
      await t.request('POST', `${NS}/options`, { as: manager, json: { woocommerce_demo_store: 'yes', woocommerce_demo_store_notice: 'Opening <strong>soon</strong><script>x()</script>' } });
      for (const url of pages) {
        const html = (await t.app.inject({ method: 'GET', url })).body;
        expect(html, url).toContain('<p class="woocommerce-store-notice demo_store" role="status">Opening <strong>soon</strong>');
        expect(html, url).not.toContain('<script>x()');
      }
      await t.request('POST', `${NS}/options`, { as: manager, json: { woocommerce_demo_store_notice: '' } });
      expect((await t.app.inject({ method: 'GET', url: '/' })).body).toContain('This is a demo store for testing purposes &mdash; no orders shall be fulfilled.');
      await t.request('POST', `${NS}/options`, { as: manager, json: { woocommerce_demo_store: 'no' } });
      expect((await t.app.inject({ method: 'GET', url: '/' })).body).not.toContain('woocommerce-store-notice');
    });
  });

  describe('marketplace connect in the browser', () => {
    it('Connect on the extensions screen goes to the marketplace, which sends the browser back to finish', async () => {
      await t.ctx.options.set(MARKETPLACE_AUTH_OPTION, {});
      const { cookie } = await signInForTest(t.ctx, t.admin.id);
      const screen = (url: string, form?: Record<string, string>) => t.app.inject({
        method: form ? 'POST' : 'GET', url: url.replace('http://example.test', ''),
        headers: { cookie, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
      });
      const nonce = (html: string) => /name="_wpnonce" value="([^"]+)"/.exec(html)![1]!;
      const first = await screen('/wp-admin/admin.php?page=eventsuite-extensions');
      expect(first.body).toContain('Not connected to the marketplace');
      const go = await screen('/wp-admin/admin.php?page=eventsuite-extensions', { _wpnonce: nonce(first.body), do: 'connect' });
      expect(go.statusCode).toBe(302);
      const approve = new URL(String(go.headers.location));
      expect(`${approve.origin}${approve.pathname}`).toBe(`${remotes.url}/oauth/authorize`);
      // The owner approves at the marketplace, which sends the browser back to the redirect URI.
      const back = await screen(approve.searchParams.get('redirect_uri')!);
      expect(back.statusCode).toBe(200);
      expect(back.body).toContain('Finish connecting');
      const done = await screen('/wp-admin/admin.php?page=eventsuite-extensions', { _wpnonce: nonce(back.body), do: 'finish' });
      expect(done.statusCode).toBe(302);
      expect((await screen(String(done.headers.location))).body).toContain('Connected to the marketplace');
      expect((await t.request('GET', `${NS}/onboarding/profile`, { as: manager })).body.wccom_connected).toBe(true);
    });
  });

  describe('themes', () => {
    it('activates a bundled theme that the public pages then use', async () => {
      const res = await t.request('POST', `${NS}/onboarding/themes/activate`, { as: t.admin, json: { theme: 'midnight' } });
      expect(res.body).toEqual({ slug: 'midnight', name: 'Midnight', status: 'success' });
      const css = await t.app.inject({ method: 'GET', url: '/theme.css' });
      expect(css.headers['content-type']).toContain('text/css');
      expect(css.body).toContain('#10131a');
      for (const url of ['/', '/events/list/']) expect((await t.app.inject({ method: 'GET', url })).body, url).toContain('<link rel="stylesheet" href="http://example.test/theme.css">');
      expect((await t.request('POST', `${NS}/onboarding/themes/activate`, { as: t.admin, json: { theme: 'nope' } })).body.code).toBe('woocommerce_rest_invalid_theme');
      const recommended = await t.request('GET', `${NS}/onboarding/themes/recommended`, { as: manager, query: { currency: 'EUR' } });
      expect(recommended.body.themes.find((x: any) => x.slug === 'midnight').is_active).toBe(true);
      expect((await t.request('GET', `${NS}/onboarding/themes/recommended`, { as: manager, query: { currency: 'JPY' } })).status).toBe(400);
    });
  });

  describe('connecting the site connector', () => {
    it('lets a shop manager through the permission check of connector-authorization-url and refuses users without manage_woocommerce', async () => {
      const query = { redirect_url: 'https://example.test/back', from: 'test' };
      const refused = await t.request('GET', `${NS}/onboarding/plugins/connector-authorization-url`, { as: editor, query });
      expect(refused.status).toBe(403);
      const res = await t.request('GET', `${NS}/onboarding/plugins/connector-authorization-url`, { as: manager, query });
      expect(res.status).not.toBe(403);
      expect(res.status).not.toBe(401);
    });

    it('plugins/connect-connector: 401 signed out, a shop manager passes the permission check', async () => {
      expect((await t.request('GET', `${NS}/plugins/connect-connector`)).status).toBe(401);
      expect((await t.request('GET', `${NS}/plugins/connect-connector`, { as: editor })).status).toBe(403);
      const res = await t.request('GET', `${NS}/plugins/connect-connector`, { as: manager });
      expect([401, 403]).not.toContain(res.status);
    });
  });

  describe('theme uploads and installs', () => {
    const upload = (as: TestUser | null, file?: { name: string; data: string }) => {
      const boundary = 'es-theme-boundary';
      const parts = [`--${boundary}\r\nContent-Disposition: form-data; name="context"\r\n\r\nview\r\n`];
      if (file) parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="pluginzip"; filename="${file.name}"\r\nContent-Type: application/zip\r\n\r\n${file.data}\r\n`);
      const payload = `${parts.join('')}--${boundary}--\r\n`;
      const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
      if (as) headers.authorization = as.authorization;
      return t.app.inject({ method: 'POST', url: `${t.ctx.config.apiPath}${NS}/themes`, headers, payload });
    };

    it('refuses users who cannot install themes with woocommerce_rest_cannot_view, and a missing file with woocommerce_rest_invalid_file', async () => {
      expect((await upload(null)).statusCode).toBe(401);
      const refused = await upload(editor);
      expect(refused.statusCode).toBe(403);
      expect(JSON.parse(refused.body).code).toBe('woocommerce_rest_cannot_view');
      const missing = await upload(t.admin);
      expect(missing.statusCode).toBe(400);
      expect(JSON.parse(missing.body).code).toBe('woocommerce_rest_invalid_file');
    });

    it('reports a package that cannot be installed as status error, with a message', async () => {
      const res = await upload(t.admin, { name: 'broken.zip', data: 'not a zip at all' });
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ status: 'error', message: expect.any(String) });
    });

    it('answers woocommerce_rest_theme_install for a theme that cannot be installed, and woocommerce_rest_cannot_update without the capability', async () => {
      const unknown = await t.request('POST', `${NS}/onboarding/themes/install`, { as: t.admin, json: { theme: 'invalid-theme-name' } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.code).toBe('woocommerce_rest_theme_install');
      expect((await t.request('POST', `${NS}/onboarding/themes/install`, { as: t.admin, json: { theme: 'midnight' } })).body).toMatchObject({ slug: 'midnight', status: 'success' });
      expect((await t.request('POST', `${NS}/onboarding/themes/install`)).status).toBe(401);
      for (const route of ['install', 'activate']) {
        const res = await t.request('POST', `${NS}/onboarding/themes/${route}`, { as: editor, json: { theme: 'midnight' } });
        expect(res.status, route).toBe(403);
        expect(res.body.code, route).toBe('woocommerce_rest_cannot_update');
      }
    });
  });

  describe('marketing and suggestions', () => {
    it('paginates campaigns within 1–100 and lists bundled payment suggestions until dismissed', async () => {
      expect((await t.request('GET', `${NS}/marketing/campaigns`, { as: manager, query: { per_page: 101 } })).status).toBe(400);
      const campaigns = await t.request('GET', `${NS}/marketing/campaigns`, { as: manager });
      expect(campaigns.body).toEqual([]);
      expect(campaigns.headers['x-wp-total']).toBe('0');
      clearSpecCache();
      const suggestions = await t.request('GET', `${NS}/payment-gateway-suggestions`, { as: t.admin });
      expect(suggestions.body.map((s: any) => s.id)).toEqual(['eventsuite-remote-payments', 'eventsuite-offline-payments']);
      expect((await t.request('POST', `${NS}/payment-gateway-suggestions/dismiss`, { as: t.admin })).body).toBe(true);
      expect((await t.request('POST', `${NS}/payment-gateway-suggestions/dismiss`, { as: t.admin })).body).toBe(false);
      expect((await t.request('GET', `${NS}/payment-gateway-suggestions`, { as: t.admin })).body).toEqual([]);
      expect((await t.request('GET', `${NS}/payment-gateway-suggestions`, { as: t.admin, query: { force_default_suggestions: 'true' } })).body).toHaveLength(2);
    });
  });

  describe('mobile app magic link', () => {
    it('e-mails a one-time sign-in link that signs the browser in once', async () => {
      const res = await t.request('GET', `${NS}/mobile-app/send-magic-link`, { as: manager });
      expect(res.body).toEqual({ code: 'success' });
      let message: MailBox['messages'][number] | undefined;
      for (let i = 0; i < 100 && !message; i++) {
        message = mail.messages.find((m) => m.to.includes(manager.email));
        if (!message) await new Promise((r) => setTimeout(r, 20));
      }
      const link = /http:\/\/example\.test(\/wp-admin\/magic-link\.php\?token=[\w-]+)/.exec(message!.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))))![1]!;
      const first = await t.app.inject({ method: 'GET', url: link });
      expect(first.statusCode).toBe(302);
      expect(String(first.headers['set-cookie'])).toMatch(/^wordpress_logged_in_/);
      expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: '/wp-admin/magic-link.php?token=forged' })).statusCode).toBe(403);
    });
  });

  describe('AI', () => {
    it('checks the capability and the AI option first, then names the store through the AI service', async () => {
      expect((await t.request('POST', `${NS}/ai/store-title`, { as: manager, json: { business_description: 'Jazz by the river' } })).body.code).toBe('woocommerce_rest_invalid_user');
      expect((await t.request('POST', `${NS}/ai/store-title`, { as: t.admin, json: { business_description: 'Jazz by the river' } })).body.code).toBe('ai_connection_not_allowed');
      await t.request('POST', `${NS}/options`, { as: t.admin, json: { woocommerce_blocks_allow_ai_connection: true } });
      expect((await t.request('POST', `${NS}/ai/store-title`, { as: t.admin, json: { business_description: '' } })).body.code).toBe('invalid_business_description');
      expect((await t.request('POST', `${NS}/ai/store-title`, { as: t.admin, json: { business_description: 'Jazz by the river' } })).body).toEqual({ ai_content_generated: true });
      expect(await t.ctx.options.get('blogname')).toBe('Riverside Jazz Club');
      expect((await t.request('GET', `${NS}/ai/store-info`, { as: t.admin })).body).toEqual({ is_ai_generated: true });
    });

    it('patterns use the stored business description when none is sent, and fill the front page', async () => {
      expect((await t.request('POST', `${NS}/ai/patterns`, { as: t.admin, json: {} })).body.code).toBe('invalid_business_description');
      expect((await t.request('POST', `${NS}/ai/business-description`, { as: t.admin, json: { business_description: 'Jazz by the river' } })).body).toEqual({ ai_content_generated: true });
      const res = await t.request('POST', `${NS}/ai/patterns`, { as: t.admin, json: {} });
      expect(res.body).toMatchObject({ ai_content_generated: true, patterns: { headline: 'Riverside Jazz Club' } });
      expect((await t.app.inject({ method: 'GET', url: '/' })).body).toContain('<section class="site-intro"><h2>Riverside Jazz Club</h2></section>');
      await t.request('DELETE', `${NS}/ai/patterns`, { as: t.admin });
      expect((await t.app.inject({ method: 'GET', url: '/' })).body).not.toContain('site-intro');
    });
  });

  describe('launch your store', () => {
    it('coming soon hides the calendar from visitors; owners and, while the private link is on, the share link still see it', async () => {
      const created = await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: { title: 'Launch party', start_date: '2031-03-01 18:00:00', end_date: '2031-03-01 22:00:00', status: 'publish' } });
      const event = created.body.id;
      expect((await t.request('GET', `/eventsuite/events/v1/events/${event}`)).status).toBe(200);
      expect((await t.request('POST', `${NS}/launch-your-store/initialize-coming-soon`, { as: editor })).status).toBe(403);
      expect((await t.request('POST', `${NS}/launch-your-store/initialize-coming-soon`, { as: manager })).body).toBe(true);
      // A store with published events starts with only the store pages coming soon.
      expect(await t.ctx.options.get('woocommerce_store_pages_only')).toBe('yes');
      expect((await t.request('GET', `/eventsuite/events/v1/events/${event}`)).status).toBe(200);
      expect((await t.request('GET', '/eventsuite/tickets/v1/tickets')).body.code).toBe('shop_coming_soon');
      expect((await t.app.inject({ method: 'GET', url: '/' })).body).not.toContain('Coming soon');

      await t.request('POST', `${NS}/options`, { as: manager, json: { woocommerce_store_pages_only: 'no' } });
      const hidden = await t.request('GET', `/eventsuite/events/v1/events/${event}`);
      expect(hidden.status).toBe(401);
      expect(hidden.body.code).toBe('shop_coming_soon');
      expect((await t.request('GET', `/eventsuite/events/v1/events/${event}`, { as: manager })).status).toBe(200);
      const page = await t.app.inject({ method: 'GET', url: '/' });
      expect(page.body).toContain('Coming soon');

      const key = String(await t.ctx.options.get('woocommerce_share_key'));
      expect(key).toMatch(/^[a-f0-9]{32}$/);
      // The private link is off until the owner turns it on: the share link does nothing.
      expect(await t.ctx.options.get('woocommerce_private_link')).toBe('no');
      const refused = await t.app.inject({ method: 'GET', url: `/?share=${key}` });
      expect(refused.statusCode).toBe(200);
      expect(refused.body).toContain('Coming soon');
      await t.request('POST', `${NS}/options`, { as: manager, json: { woocommerce_private_link: 'yes' } });
      const share = await t.app.inject({ method: 'GET', url: `/?share=${key}` });
      expect(share.statusCode).toBe(302);
      const cookie = String(share.headers['set-cookie']).split(';')[0]!;
      expect((await t.app.inject({ method: 'GET', url: '/', headers: { cookie } })).body).not.toContain('Coming soon');
      expect((await t.request('GET', `/eventsuite/events/v1/events/${event}`, { headers: { cookie } })).status).toBe(200);
      // Turning the private link off again shuts out the visitors who kept its cookie.
      await t.request('POST', `${NS}/options`, { as: manager, json: { woocommerce_private_link: 'no' } });
      expect((await t.request('GET', `/eventsuite/events/v1/events/${event}`, { headers: { cookie } })).status).toBe(401);

      await t.request('POST', `${NS}/options`, { as: manager, json: { woocommerce_coming_soon: 'no' } });
      expect((await t.request('GET', `/eventsuite/events/v1/events/${event}`)).status).toBe(200);
    });

    it('stores the survey answer', async () => {
      expect((await t.request('GET', `${NS}/launch-your-store/survey-completed`, { as: manager })).body).toBe('no');
      expect((await t.request('POST', `${NS}/launch-your-store/update-survey-status`, { as: manager, json: { status: 'maybe' } })).status).toBe(400);
      const res = await t.request('POST', `${NS}/launch-your-store/update-survey-status`, { as: manager, json: { status: 'yes' } });
      // A null answer has an empty body, as WordPress sends it.
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect((await t.request('GET', `${NS}/launch-your-store/survey-completed`, { as: manager })).body).toBe('yes');
    });

    it('counts orders paid in test mode and deletes them, freeing their seats', async () => {
      await t.request('POST', `${NS}/options`, { as: manager, json: { woocommerce_coming_soon: 'no' } });
      await t.ctx.options.set('eventsuite_payments_test_mode', 'yes');
      const event = await makePost(t, { title: 'Dress rehearsal' });
      const ticket = await addTicket(t, event, { name: 'Seat', price: '5', ticket: { mode: 'own', capacity: 10 } });
      gateway.next = { status: 201, body: { status: 'succeeded' } };
      const order = await t.request('POST', '/eventsuite/tickets/v1/orders', {
        json: { tickets: [{ ticket_id: ticket.id, quantity: 2 }], purchaser_name: 'Tess Ter', purchaser_email: 'tess@example.test', gateway: 'remote' },
      });
      expect(order.status).toBe(201);
      await t.ctx.options.set('eventsuite_payments_test_mode', 'no');
      expect((await t.request('GET', `${NS}/launch-your-store/payments/test-orders/count`, { as: manager })).body).toEqual({ count: 1 });
      expect((await t.request('GET', `/eventsuite/tickets/v1/tickets/${ticket.id}`, { as: t.admin })).body.capacity_details.available).toBe(8);
      const del = await t.request('DELETE', `${NS}/launch-your-store/payments/test-orders`, { as: manager });
      expect(del.status).toBe(204);
      expect((await t.request('GET', `${NS}/launch-your-store/payments/test-orders/count`, { as: manager })).body).toEqual({ count: 0 });
      expect((await t.request('GET', `/eventsuite/tickets/v1/tickets/${ticket.id}`, { as: t.admin })).body.capacity_details.available).toBe(10);
      expect((await t.request('GET', `/eventsuite/tickets/v1/orders/${order.body.id}`, { as: t.admin })).status).toBe(404);
    });
  });
});
