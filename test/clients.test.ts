/**
 * Published WordPress clients, unchanged, against the running server: `wpapi` discovering the API from
 * our document, and `@wordpress/api-fetch` sending a batch the way the block editor does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WPAPI from 'wpapi';
import * as apiFetchModule from '@wordpress/api-fetch';
import type { ApiFetch } from '@wordpress/api-fetch';
import { DIALECTS, startTestApp, type TestApp } from '../src/test-support/harness.js';
import { freePort } from '../src/test-support/net.js';

// The package ships CommonJS types over an ESM build: take the function whichever way it arrives.
const loaded = apiFetchModule.default as unknown as ApiFetch | { default: ApiFetch };
const apiFetch: ApiFetch = 'use' in loaded ? loaded : loaded.default;

// api-fetch keeps its middlewares globally: register them once, pointing at the current server.
let current = { root: '', authorization: '' };
apiFetch.use((options, next) => next({ ...options, url: options.url ?? `${current.root}${String(options.path ?? '').replace(/^\//, '')}`, path: undefined }));
apiFetch.use((options, next) => next({ ...options, headers: { ...options.headers, Authorization: current.authorization } }));

describe.each(DIALECTS)('published clients on %s', (engine) => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp(engine, { baseUrl: base });
    await t.app.listen({ port, host: '127.0.0.1' });
    current = { root: `${base}/wp-json/`, authorization: t.admin.authorization };
  });
  afterAll(() => t.close());

  it('wpapi discovers every namespace from the Link header and the index', async () => {
    const site = await WPAPI.discover(base);
    const index = await (await fetch(`${base}/wp-json/`)).json();
    // wpapi builds handlers from the routes below a namespace's own index route.
    const withRoutes = (index.namespaces as string[]).filter((ns) => Object.values<any>(index.routes).filter((r) => r.namespace === ns).length > 1);
    expect(withRoutes).toEqual(expect.arrayContaining(['oembed/1.0', 'eventsuite/tickets/v1', 'eventsuite/events/v1', 'core/v2']));
    for (const ns of withRoutes) expect(() => site.namespace(ns), ns).not.toThrow();
    expect(typeof site.namespace('eventsuite/events/v1').events).toBe('function');
    const me = await site.auth({ username: t.admin.login, password: t.admin.appPassword }).root('core/v2/users/me').get();
    expect(me).toMatchObject({ id: t.admin.id, slug: 'admin' });
  });

  it('api-fetch reads the batch limit with OPTIONS, then sends a strict batch', async () => {
    const options = (await apiFetch({ path: '/batch/v1', method: 'OPTIONS' })) as any;
    const maxItems = options.endpoints[0].args.requests.maxItems;
    expect(maxItems).toBe(25);

    const requests = Array.from({ length: 3 }, (_, i) => ({
      path: '/eventsuite/events/v1/events',
      method: 'POST',
      body: { title: `Batch ${i}`, start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 12:00:00' },
      headers: {},
    }));
    const result = (await apiFetch({ path: '/batch/v1', method: 'POST', data: { validation: 'require-all-validate', requests } })) as any;
    expect(result.failed).toBeUndefined();
    expect(result.responses.map((r: any) => r.status)).toEqual([201, 201, 201]);
    const ids = result.responses.map((r: any) => r.body.id);
    expect(new Set(ids).size).toBe(3);

    // A strict batch with one invalid item runs nothing.
    const bad = (await apiFetch({
      path: '/batch/v1',
      method: 'POST',
      data: { validation: 'require-all-validate', requests: [requests[0], { path: '/eventsuite/events/v1/events', method: 'POST', body: { title: 'no dates' } }] },
    })) as any;
    expect(bad.failed).toBe('validation');
    expect(bad.responses[0]).toBeNull();
    expect(bad.responses[1].body.code).toBe('rest_missing_callback_param');

    // Updates and deletes go as POST with X-HTTP-Method-Override, as api-fetch sends them.
    const updated = (await apiFetch({ path: `/eventsuite/events/v1/events/${ids[0]}`, method: 'PUT', data: { title: 'Renamed' } })) as any;
    expect(updated.title).toBe('Renamed');
    const listed = (await apiFetch({ path: '/eventsuite/events/v1/events?start_date=2031-01-01&end_date=2031-12-31&per_page=50' })) as any;
    expect(listed.events.map((e: any) => e.title)).toContain('Renamed');
  });
});
