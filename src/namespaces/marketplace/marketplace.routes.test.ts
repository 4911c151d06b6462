import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test-support/net.js';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { switchArea } from '../../area-state.js';
import { HELPER_OPTION } from './subscriptions.service.js';

const NS = '/shop/v3/marketplace';

interface FakeMarket {
  url: string;
  calls: { method: string; path: string; auth: string | undefined; body: unknown }[];
  fail: boolean;
  close(): Promise<void>;
}

/** A local marketplace speaking the protocol of `remote/marketplace-client.ts`. */
async function startMarket(): Promise<FakeMarket> {
  const m = { calls: [] as FakeMarket['calls'], fail: false };
  const subs = [
    { product_key: 'key-analytics', product_id: 100, product_name: 'Shop analytics', product_type: 'plugin', zip_slug: 'shop-analytics', connections: [42], expires: 1767225600, expired: false, maxed: false, product_keys_all: ['key-analytics', 'key-analytics-2'] },
    { product_key: 'key-analytics-2', product_id: 100, product_name: 'shop Analytics', product_type: 'plugin', zip_slug: 'shop-analytics', connections: [], expires: 1700000000, expired: false, maxed: false, product_keys_all: ['key-analytics', 'key-analytics-2'] },
    { product_key: 'key-remote', product_id: 200, product_name: 'Remote only', product_type: 'plugin', zip_slug: 'not-here', connections: [], expires: 1767225600, expired: false, maxed: false, product_keys_all: ['key-remote', 'key-shared'] },
    { product_key: 'key-eclair', product_id: 300, product_name: 'Éclair extras', product_type: 'plugin', zip_slug: 'eclair', connections: [], expires: 1767225600, expired: true, maxed: false, product_keys_all: ['key-eclair'] },
    { product_key: 'maxed', product_id: 400, product_name: 'Maxed', product_type: 'plugin', zip_slug: 'maxed', connections: [], expires: 1767225600, expired: false, maxed: true, product_keys_all: ['maxed'] },
    { product_key: 'key-invalid', product_id: 500, product_name: 'Invalid', product_type: 'plugin', zip_slug: 'invalid', connections: [], expires: 1767225600, expired: false, maxed: false, product_keys_all: ['key-invalid'] },
    { product_key: 'key-service', product_id: 700, product_name: 'Service', product_type: 'woo-service', zip_slug: 'tickets', connections: [42], expires: 1767225600, expired: false, maxed: false, product_keys_all: ['key-service'] },
    { product_key: 'key-theme', product_id: 800, product_name: 'Theme', product_type: 'theme', zip_slug: 'spamfilter', connections: [42], expires: 1767225600, expired: false, maxed: false, product_keys_all: ['key-theme'] },
    { product_key: 'key-already', product_id: 600, product_name: 'Already', product_type: 'plugin', zip_slug: 'already', connections: [42], expires: 1767225600, expired: false, maxed: false, product_keys_all: ['key-already'] },
  ];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      m.calls.push({ method: req.method!, path: req.url!, auth: req.headers.authorization, body: data ? JSON.parse(data) : undefined });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (m.fail) return send(500, { message: 'down' });
      const url = req.url!;
      if (url.startsWith('/featured')) return send(200, [{ title: 'Featured', items: [] }]);
      if (url === '/subscriptions') return send(200, subs);
      if (url === '/subscriptions/key-analytics/activate' || url === '/subscriptions/key-analytics/deactivate') return send(200, {});
      if (url === '/subscriptions/maxed/activate') return send(403, { code: 'maxed_out', message: 'This subscription is maxed out.', data: { sites_list: ['a.example'], total_domains: 3 } });
      if (url === '/subscriptions/key-already/activate') return send(409, { code: 'already_connected', message: 'Already connected.' });
      if (url === '/subscriptions/key-invalid/deactivate') return send(404, { code: 'invalid_product_key', message: 'Invalid product key.' });
      if (url.endsWith('/activate')) return send(404, { code: 'invalid_product_key', message: 'Invalid product key.' });
      if (url === '/subscriptions/key-remote/install-url') return send(200, { url: 'https://market.example/install/remote' });
      if (url === '/create-order' && (JSON.parse(data) as any).product_id === 13) return send(500, { message: 'order system down' });
      if (url === '/create-order') return send(201, { order_id: 77, product_id: (JSON.parse(data) as any).product_id });
      return send(404, { code: 'not_found', message: 'nope' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return Object.assign(m, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) });
}

describe.each(DIALECTS)('shop/v3 marketplace on %s', (engine) => {
  let t: TestApp;
  let market: FakeMarket;
  let manager: TestUser;
  let customer: TestUser;
  let clock = new Date('2026-06-01T00:00:00Z');
  const as = () => ({ as: t.admin });

  beforeAll(async () => {
    market = await startMarket();
    t = await startTestApp(engine, { remotes: { marketplace: market.url } }, { now: () => clock });
    manager = await t.createUser('shop_manager');
    customer = await t.createUser('customer');
  });
  afterAll(async () => {
    await t.close();
    await market.close();
  });

  it('lists this product’s areas as installed products while no account is connected (no remote call)', async () => {
    const res = await t.request('GET', `${NS}/subscriptions`, as());
    expect(res.status).toBe(200);
    const analytics = res.body.find((s: any) => s.zip_slug === 'shop-analytics');
    expect(analytics).toMatchObject({ product_key: '', expired: true, sites_max: 0, local: { installed: true, active: true, type: 'plugin', slug: 'shop-analytics', path: 'shop-analytics/shop-analytics.php' } });
    expect(market.calls).toEqual([]);
  });

  it('featured: fetched once for the user locale and cached a day; a failure answers 200 {success:false}', async () => {
    const first = await t.request('GET', `${NS}/featured`, { ...as(), query: { locale: 'de_DE' }, headers: { 'accept-language': 'de-DE' } });
    expect(first.body).toEqual([{ title: 'Featured', items: [] }]);
    // CASE: as the original, the locale is the user's (en_US here), not the client's `locale` or its browser's language.
    expect(market.calls.at(-1)!.path).toBe('/featured?locale=en_US&country=US');
    await t.request('GET', `${NS}/featured`, as());
    expect(market.calls.filter((c) => c.path.startsWith('/featured'))).toHaveLength(1);
    market.fail = true;
    clock = new Date(clock.getTime() + 24 * 3600_000 + 1);
    const fr = await t.request('GET', `${NS}/featured`, as());
    expect(fr.status).toBe(200);
    expect(fr.body).toEqual({ success: false, data: { message: 'Our request to the featured API got error code 500.' } });
    market.fail = false;
  });

  it('merges the connected account’s subscriptions (3 h cache, 15 min empty after a failure)', async () => {
    await t.ctx.options.set(HELPER_OPTION, { auth: { access_token: 'tok-1', site_id: 42 } });
    market.fail = true;
    const down = await t.request('POST', `${NS}/refresh`, as());
    expect(down.status).toBe(400);
    expect(down.body).toEqual({ success: false, data: { message: 'down' } });
    market.fail = false;
    const during = await t.request('GET', `${NS}/subscriptions`, as());
    expect(during.body.every((s: any) => s.product_key === '')).toBe(true); // failure cached for 15 minutes
    clock = new Date(clock.getTime() + 16 * 60_000);
    const res = await t.request('GET', `${NS}/subscriptions`, as());
    expect(market.calls.at(-1)).toMatchObject({ path: '/subscriptions', auth: 'Bearer tok-1' });
    const analytics = res.body.find((s: any) => s.product_key === 'key-analytics');
    expect(analytics).toMatchObject({ zip_slug: 'shop-analytics', active: true, local: { installed: true } });
    expect(res.body.find((s: any) => s.product_key === 'key-remote').local).toEqual({ installed: false, active: false, version: null, type: null, slug: null, path: null });
    expect(res.body.filter((s: any) => s.zip_slug === 'shop-analytics' && s.product_key === '')).toEqual([]);
    const n = market.calls.length;
    await t.request('GET', `${NS}/subscriptions`, as());
    expect(market.calls.length).toBe(n); // cached
  });

  it('subscriptions: install flags worked out over the list, no updates, sorted by name case-insensitively then expiry', async () => {
    const res = await t.request('GET', `${NS}/subscriptions`, as());
    const byKey = (k: string) => res.body.find((s: any) => s.product_key === k);
    // The connected subscription stands for the installed copy; the product's other one is neither installed nor available.
    expect(byKey('key-analytics')).toMatchObject({ active: true, has_update: false, subscription_installed: true, subscription_available: false });
    expect(byKey('key-analytics-2')).toMatchObject({ active: false, has_update: false, subscription_installed: false, subscription_available: false });
    expect(byKey('key-remote')).toMatchObject({ subscription_installed: false, subscription_available: true });
    expect(byKey('key-eclair')).toMatchObject({ subscription_available: false }); // expired
    expect(res.body.find((s: any) => s.zip_slug === 'seo')).toMatchObject({ product_key: '', has_update: false, subscription_installed: true, subscription_available: false });
    const names = res.body.map((s: any) => s.product_name);
    expect(names.indexOf('shop Analytics')).toBe(names.indexOf('Shop analytics') - 1); // same name: the earlier expiry first
    expect(names.at(-1)).toBe('Éclair extras'); // by code unit, as strcasecmp: after every ASCII name
    expect((await t.ctx.options.get<any>(HELPER_OPTION, {})).my_subscriptions_tab_loaded).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('connect/disconnect: the original’s sentences, maxed_out failures with their data (400), unknown keys refused before the marketplace', async () => {
    expect((await t.request('POST', `${NS}/subscriptions/connect`, { form: { product_key: 'key-analytics' }, ...as() })).body).toEqual({ success: true, data: { message: 'Your subscription has been connected.' } });
    expect((await t.request('POST', `${NS}/subscriptions/disconnect`, { form: { product_key: 'key-analytics' }, ...as() })).body).toEqual({ success: true, data: { message: 'Your subscription has been disconnected.' } });
    const maxed = await t.request('POST', `${NS}/subscriptions/connect`, { json: { product_key: 'maxed' }, ...as() });
    expect(maxed.status).toBe(400);
    expect(maxed.body).toEqual({ success: false, data: { message: 'This subscription is maxed out.', code: 'maxed_out', data: { sites_list: ['a.example'], total_domains: 3 } } });
    expect((await t.request('POST', `${NS}/subscriptions/connect`, { json: { product_key: 'key-invalid' }, ...as() })).body.data.code).toBe('invalid_product_key');
    // The marketplace saying the key is already connected here is a success.
    expect((await t.request('POST', `${NS}/subscriptions/connect`, { json: { product_key: 'key-already' }, ...as() })).body).toEqual({ success: true, data: { message: 'Your subscription has been connected.' } });
    // Disconnect failures carry the sentence only.
    const badOff = await t.request('POST', `${NS}/subscriptions/disconnect`, { json: { product_key: 'key-invalid' }, ...as() });
    expect(badOff.status).toBe(400);
    expect(badOff.body).toEqual({ success: false, data: { message: 'Invalid product key.' } });
    const before = market.calls.length;
    for (const route of ['connect', 'disconnect']) {
      const unknown = await t.request('POST', `${NS}/subscriptions/${route}`, { json: { product_key: 'bad' }, ...as() });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ success: false, data: { message: 'Subscription not found' } });
    }
    expect(market.calls.slice(before).filter((c) => c.method === 'POST')).toEqual([]);
    expect((await t.request('POST', `${NS}/subscriptions/connect`, as())).body.code).toBe('rest_missing_callback_param');
    expect((await t.request('POST', `${NS}/subscriptions/connect`, { json: { product_key: 5 }, ...as() })).body.code).toBe('rest_invalid_param');
  });

  it('connect switches an installed product that is off back on, for a caller who may activate plugins', async () => {
    await switchArea(t.ctx, 'shop-analytics', false);
    await t.request('POST', `${NS}/subscriptions/connect`, { json: { product_key: 'key-analytics' }, as: manager });
    expect(t.ctx.areas.isEnabled('shop-analytics')).toBe(false);
    await t.request('POST', `${NS}/subscriptions/connect`, { json: { product_key: 'key-analytics' }, ...as() });
    expect(t.ctx.areas.isEnabled('shop-analytics')).toBe(true);
  });

  it('marketplace unreachable: refresh and create-order say why (400, 502); the subscriptions are unknown, as when not connected', async () => {
    const dead = await startTestApp(engine, { remotes: { marketplace: `http://127.0.0.1:${await freePort()}` } });
    await dead.ctx.options.set(HELPER_OPTION, { auth: { access_token: 'x', site_id: 42 } });
    const refreshed = await dead.request('POST', `${NS}/refresh`, { as: dead.admin });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body).toEqual({ success: false, data: { message: expect.stringMatching(/^The marketplace could not be reached/) } });
    const order = await dead.request('POST', `${NS}/create-order`, { json: { product_id: 5 }, as: dead.admin });
    expect(order.status).toBe(502);
    expect(order.body).toMatchObject({ code: 'could-not-install', message: expect.stringMatching(/^Could not start the installation process\. Reason: The marketplace could not be reached/) });
    for (const helper of [{ auth: { access_token: 'x', site_id: 42 } }, {}]) {
      await dead.ctx.options.set(HELPER_OPTION, helper);
      const connect = await dead.request('POST', `${NS}/subscriptions/connect`, { json: { product_key: 'k' }, as: dead.admin });
      expect(connect.status).toBe(400);
      expect(connect.body).toEqual({ success: false, data: { message: 'Subscription not found' } });
    }
    await dead.close();
  });

  it('activate switches an installed area on; refuses callers without activate_plugins and unknown keys', async () => {
    await switchArea(t.ctx, 'shop-analytics', false);
    expect((await t.request('GET', '/shop-analytics/customers', as())).status).toBe(404);
    const noCap = await t.request('POST', `${NS}/subscriptions/activate`, { json: { product_key: 'key-analytics' }, as: manager });
    expect(noCap.status).toBe(400);
    expect(noCap.body.data.message).toMatch(/permission/);
    expect((await t.request('POST', `${NS}/subscriptions/activate`, { json: { product_key: 'nope' }, ...as() })).body.data.message).toMatch(/could not find a subscription/);
    expect((await t.request('POST', `${NS}/subscriptions/activate`, { json: { product_key: 'key-remote' }, ...as() })).status).toBe(400);
    const on = await t.request('POST', `${NS}/subscriptions/activate`, { json: { product_key: 'key-analytics' }, ...as() });
    expect(on.body).toEqual({ success: true, data: { message: 'This product has been activated.' } });
    expect((await t.request('GET', '/shop-analytics/customers', as())).status).toBe(200);
    expect((await t.request('POST', `${NS}/subscriptions/activate`, { json: { product_key: 'key-analytics' }, ...as() })).body).toEqual({ success: true, data: { message: 'This product is already active.' } });
  });

  it('activate: unknown keys and unsupported kinds first, then the capability of the product’s kind', async () => {
    const post = (key: string, who: TestUser) => t.request('POST', `${NS}/subscriptions/activate`, { json: { product_key: key }, as: who });
    expect((await post('nope', manager)).body).toEqual({ success: false, data: { message: 'We could not find a subscription with the provided product key.' } });
    const service = await post('key-service', t.admin);
    expect(service.status).toBe(400);
    expect(service.body).toEqual({ success: false, data: { message: 'This product type is not supported.' } });
    expect((await post('key-theme', manager)).body).toEqual({ success: false, data: { message: 'You do not have permission to switch themes.' } });
    expect((await post('key-analytics', manager)).body).toEqual({ success: false, data: { message: 'You do not have permission to activate plugins.' } });
  });

  it('a key listed under another subscription’s product_keys_all names no subscription', async () => {
    for (const [method, route] of [['POST', 'activate'], ['GET', 'install-url']] as const) {
      const res = await t.request(method, `${NS}/subscriptions/${route}`, method === 'GET' ? { query: { product_key: 'key-shared' }, ...as() } : { json: { product_key: 'key-shared' }, ...as() });
      expect(res.status).toBe(400);
      expect(res.body.data.message).toMatch(/could not find a subscription/);
    }
  });

  it('install-url: installed → message; otherwise the marketplace URL, or the original’s sentence when there is none', async () => {
    expect((await t.request('GET', `${NS}/subscriptions/install-url`, { query: { product_key: 'key-analytics' }, ...as() })).body).toEqual({ success: true, data: { message: 'This product is already installed.' } });
    expect((await t.request('GET', `${NS}/subscriptions/install-url`, { query: { product_key: 'key-remote' }, ...as() })).body).toEqual({ success: true, data: { url: 'https://market.example/install/remote' } });
    const none = await t.request('GET', `${NS}/subscriptions/install-url`, { query: { product_key: 'key-invalid' }, ...as() });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ success: false, data: { message: 'There was an error getting the install URL for this product.' } });
  });

  it('create-order: JSON integer product_id only, install_plugins, the marketplace answer relayed', async () => {
    const str = await t.request('POST', `${NS}/create-order`, { form: { product_id: '5' }, ...as() });
    expect(str.status).toBe(400);
    expect(str.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { product_id: 'Invalid parameter.' } } });
    const res = await t.request('POST', `${NS}/create-order`, { json: { product_id: 5 }, ...as() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ order_id: 77, product_id: 5 });
    const down = await t.request('POST', `${NS}/create-order`, { json: { product_id: 13 }, ...as() });
    expect(down.status).toBe(502);
    expect(down.body).toEqual({ message: 'order system down' });
    const mgr = await t.request('POST', `${NS}/create-order`, { json: { product_id: 5 }, as: manager });
    expect(mgr.status).toBe(403);
    expect(mgr.body).toEqual({ message: 'You do not have permission to install plugins.' });
    const helper = await t.ctx.options.get<Record<string, unknown>>(HELPER_OPTION, {});
    await t.ctx.options.set(HELPER_OPTION, { ...helper, auth: {} });
    const calls = market.calls.length;
    const notConnected = await t.request('POST', `${NS}/create-order`, { json: { product_id: 5 }, ...as() });
    expect(notConnected.status).toBe(400);
    expect(notConnected.body).toMatchObject({ code: 'could-not-install', message: 'Could not start the installation process. Reason: Authentication failed.' });
    expect(market.calls.length).toBe(calls);
    await t.ctx.options.set(HELPER_OPTION, helper);
  });

  it('needs manage_woocommerce: 401 signed out, 403 for a customer', async () => {
    expect((await t.request('GET', `${NS}/subscriptions`)).status).toBe(401);
    const c = await t.request('GET', `${NS}/subscriptions`, { as: customer });
    expect(c.status).toBe(403);
    expect(c.body.code).toBe('rest_forbidden');
  });
});
