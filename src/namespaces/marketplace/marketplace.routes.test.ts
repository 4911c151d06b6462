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
    { product_key: 'key-analytics', product_name: 'Shop analytics', product_type: 'plugin', zip_slug: 'shop-analytics', connections: [42], expires: 1767225600, product_keys_all: ['key-analytics'] },
    { product_key: 'key-remote', product_name: 'Remote only', product_type: 'plugin', zip_slug: 'not-here', connections: [], expires: 1767225600, product_keys_all: ['key-remote'] },
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
      if (url.endsWith('/activate')) return send(404, { code: 'invalid_product_key', message: 'Invalid product key.' });
      if (url === '/subscriptions/key-remote/install-url') return send(200, { url: 'https://market.example/install/remote' });
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

  it('featured: fetched once and cached a day; a failure answers 200 {success:false}', async () => {
    const first = await t.request('GET', `${NS}/featured`, as());
    expect(first.body).toEqual([{ title: 'Featured', items: [] }]);
    await t.request('GET', `${NS}/featured`, as());
    expect(market.calls.filter((c) => c.path.startsWith('/featured'))).toHaveLength(1);
    market.fail = true;
    const fr = await t.request('GET', `${NS}/featured`, { ...as(), headers: { 'accept-language': 'de-DE' } });
    expect(fr.status).toBe(200);
    expect(fr.body).toEqual({ success: false, data: { message: 'down' } });
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
    const analytics = res.body.find((s: any) => s.zip_slug === 'shop-analytics');
    expect(analytics).toMatchObject({ product_key: 'key-analytics', active: true, local: { installed: true } });
    expect(res.body.find((s: any) => s.product_key === 'key-remote').local).toEqual({ installed: false, active: false, version: null, type: null, slug: null, path: null });
    expect(res.body.filter((s: any) => s.zip_slug === 'shop-analytics')).toHaveLength(1);
    const n = market.calls.length;
    await t.request('GET', `${NS}/subscriptions`, as());
    expect(market.calls.length).toBe(n); // cached
  });

  it('connect/disconnect: success envelope, maxed_out and invalid_product_key failures (400), unreachable', async () => {
    expect((await t.request('POST', `${NS}/subscriptions/connect`, { json: { product_key: 'key-analytics' }, ...as() })).body).toEqual({ success: true, data: { message: 'Shop analytics successfully connected.' } });
    expect((await t.request('POST', `${NS}/subscriptions/disconnect`, { json: { product_key: 'key-analytics' }, ...as() })).body.success).toBe(true);
    const maxed = await t.request('POST', `${NS}/subscriptions/connect`, { json: { product_key: 'maxed' }, ...as() });
    expect(maxed.status).toBe(400);
    expect(maxed.body).toEqual({ success: false, data: { message: 'This subscription is maxed out.', code: 'maxed_out', data: { sites_list: ['a.example'], total_domains: 3 } } });
    expect((await t.request('POST', `${NS}/subscriptions/connect`, { json: { product_key: 'bad' }, ...as() })).body.data.code).toBe('invalid_product_key');
    expect((await t.request('POST', `${NS}/subscriptions/connect`, as())).body.code).toBe('rest_missing_callback_param');
    const dead = await startTestApp(engine, { remotes: { marketplace: `http://127.0.0.1:${await freePort()}` } });
    await dead.ctx.options.set(HELPER_OPTION, { auth: { access_token: 'x' } });
    const unreachable = await dead.request('POST', `${NS}/subscriptions/connect`, { json: { product_key: 'k' }, as: dead.admin });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.data.code).toBe('unreachable');
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
    expect(on.body.success).toBe(true);
    expect((await t.request('GET', '/shop-analytics/customers', as())).status).toBe(200);
    expect((await t.request('POST', `${NS}/subscriptions/activate`, { json: { product_key: 'key-analytics' }, ...as() })).body.data.message).toMatch(/already active/);
  });

  it('install-url: installed → message; otherwise the marketplace URL', async () => {
    expect((await t.request('GET', `${NS}/subscriptions/install-url`, { query: { product_key: 'key-analytics' }, ...as() })).body.data.message).toMatch(/already installed/);
    expect((await t.request('GET', `${NS}/subscriptions/install-url`, { query: { product_key: 'key-remote' }, ...as() })).body).toEqual({ success: true, data: { url: 'https://market.example/install/remote' } });
  });

  it('create-order: JSON integer product_id only, install_plugins, the marketplace answer relayed', async () => {
    const str = await t.request('POST', `${NS}/create-order`, { json: { product_id: '5' }, ...as() });
    expect(str.status).toBe(400);
    expect(str.body.code).toBe('rest_invalid_param');
    const res = await t.request('POST', `${NS}/create-order`, { json: { product_id: 5 }, ...as() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ order_id: 77, product_id: 5 });
    const mgr = await t.request('POST', `${NS}/create-order`, { json: { product_id: 5 }, as: manager });
    expect(mgr.status).toBe(403);
    expect(mgr.body).toEqual({ message: 'You do not have permission to install plugins.' });
  });

  it('needs manage_woocommerce: 401 signed out, 403 for a customer', async () => {
    expect((await t.request('GET', `${NS}/subscriptions`)).status).toBe(401);
    const c = await t.request('GET', `${NS}/subscriptions`, { as: customer });
    expect(c.status).toBe(403);
    expect(c.body.code).toBe('rest_forbidden');
  });
});
