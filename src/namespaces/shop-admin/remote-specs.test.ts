import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { freePort } from '../../test-support/net.js';
import { clearSpecCache } from './remote-specs.js';

const NS = '/shop-admin';

describe.each(DIALECTS)('shop-admin remote suggestion specs on %s', (engine) => {
  let t: TestApp;
  let server: http.Server;
  let fetches = 0;

  beforeAll(async () => {
    // A spec service that answers with the number of the fetch, so a re-fetch is visible in the body.
    server = http.createServer((req, res) => {
      if (req.url !== '/payment-gateway-suggestions.json') return res.writeHead(404).end();
      fetches += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ id: `fetch-${fetches}` }]));
    });
    const port = await freePort();
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    t = await startTestApp(engine, { remotes: { suggestions: `http://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('caches payment gateway suggestions per store country: a country change fetches them again', async () => {
    clearSpecCache();
    await t.request('POST', `${NS}/options`, { as: t.admin, json: { woocommerce_default_country: 'US:CA' } });
    const first = await t.request('GET', `${NS}/payment-gateway-suggestions`, { as: t.admin });
    expect(first.body).toEqual([{ id: `fetch-${fetches}` }]);
    const cached = await t.request('GET', `${NS}/payment-gateway-suggestions`, { as: t.admin });
    expect(cached.body).toEqual(first.body);
    await t.request('POST', `${NS}/options`, { as: t.admin, json: { woocommerce_default_country: 'CA:ON' } });
    const refreshed = await t.request('GET', `${NS}/payment-gateway-suggestions`, { as: t.admin });
    expect(refreshed.body).not.toEqual(first.body);
  });
});
