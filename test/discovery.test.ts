/**
 * The discovery document and namespace indexes, as WordPress clients read them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../src/test-support/harness.js';

const NAMESPACES = [
  'oembed/1.0', 'spamfilter/v1', 'contact-form/v1', 'shop/v3', 'seo/v1', 'eventsuite/tickets/v1',
  'eventsuite/event-aggregator/v1', 'eventsuite/events/v1', 'eventsuite/views/v2', 'calendar/v2/onboarding',
  'connector/v4', 'mailinglist/v1', 'shop-admin', 'shop-analytics', 'shop/store', 'shop/store/v1', 'shop/private',
  'shop/v2', 'pagebuilder/v1/documents', 'pagebuilder/v1', 'pagebuilder-ai/v1', 'shop/v1', 'shop-admin-email',
  'shop-telemetry', 'shopmarket-site/v3', 'core/v2', 'core-site-health/v1', 'core-block-editor/v1', 'core-abilities/v1',
];

describe.each(DIALECTS)('discovery on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  it('GET / returns the site fields in order, then namespaces, authentication and routes', async () => {
    await t.ctx.options.set('blogname', 'Example Events');
    await t.ctx.options.set('timezone_string', 'Europe/Berlin');
    const { status, body } = await t.request('GET', '/');
    expect(status).toBe(200);
    expect(Object.keys(body).slice(0, 12)).toEqual([
      'name', 'description', 'url', 'home', 'gmt_offset', 'timezone_string', 'page_for_posts', 'page_on_front',
      'show_on_front', 'namespaces', 'authentication', 'routes',
    ]);
    expect(body).toMatchObject({
      name: 'Example Events',
      description: '',
      url: 'http://example.test',
      home: 'http://example.test',
      gmt_offset: '0',
      timezone_string: 'Europe/Berlin',
      page_for_posts: 0,
      page_on_front: 0,
      show_on_front: 'posts',
      authentication: { 'application-passwords': { endpoints: { authorization: 'http://example.test/wp-admin/authorize-application.php' } } },
    });
    expect(body.namespaces).toEqual(NAMESPACES);
  });

  it('keys routes by regex, with / and /batch/v1 first and the index route before each namespace', async () => {
    const { body } = await t.request('GET', '/');
    const keys = Object.keys(body.routes);
    expect(keys.slice(0, 3)).toEqual(['/', '/batch/v1', '/oembed/1.0']);
    for (const ns of NAMESPACES) expect(keys).toContain(`/${ns}`);
    expect(body.routes['/']).toEqual({
      namespace: '',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
      _links: { self: [{ href: 'http://example.test/wp-json/' }] },
    });
    expect(body.routes['/batch/v1'].namespace).toBe('');
  });

  it('gives every endpoint args, required as the last key, and _links.self only to fixed routes', async () => {
    const { body } = await t.request('GET', '/');
    for (const [key, route] of Object.entries<any>(body.routes)) {
      expect(typeof route.namespace, key).toBe('string');
      expect(route.methods.length, key).toBeGreaterThan(0);
      for (const ep of route.endpoints) {
        expect(ep.args, key).toBeDefined();
        for (const [name, arg] of Object.entries<any>(Array.isArray(ep.args) ? {} : ep.args)) {
          const argKeys = Object.keys(arg);
          expect(argKeys[argKeys.length - 1], `${key} ${name}`).toBe('required');
          expect(typeof arg.required).toBe('boolean');
        }
      }
      if (key.includes('(?P<')) expect(route._links, key).toBeUndefined();
      else expect(route._links.self[0].href, key).toBe(`http://example.test/wp-json${key === '/' ? '/' : key}`);
    }
  });

  it.each(NAMESPACES)('GET /%s answers its index', async (ns) => {
    const { status, body } = await t.request('GET', `/${ns}`);
    expect(status).toBe(200);
    expect(body.namespace).toBe(ns);
    expect(body._links).toEqual({ up: [{ href: 'http://example.test/wp-json/' }] });
    expect(body.routes[`/${ns}`]).toEqual({
      namespace: ns,
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { namespace: { default: ns, required: false }, context: { default: 'view', required: false } } }],
      _links: { self: [{ href: `http://example.test/wp-json/${ns}` }] },
    });
    for (const route of Object.values<any>(body.routes)) expect(route.namespace).toBe(ns);
  });

  it('answers 404 rest_invalid_namespace for an unknown ?namespace=', async () => {
    const res = await t.request('GET', '/core/v2', { query: { namespace: 'nope/v1' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest_invalid_namespace');
  });

  it('reflects a settings change at once', async () => {
    await t.ctx.options.set('blogdescription', 'Live music');
    expect((await t.request('GET', '/')).body.description).toBe('Live music');
  });

  it('advertises the API root on the site front page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.link).toBe('<http://example.test/wp-json/>; rel="https://api.w.org/"');
    expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(res.body).toContain('Example Events');
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(head.headers.link).toContain('api.w.org');
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    // The events calendar's discovery, which calendar clients (another site's event import) read from any page.
    for (const page of [res, head]) {
      expect(page.headers['x-tec-api-version']).toBe('v1');
      expect(page.headers['x-tec-api-root']).toBe('http://example.test/wp-json/eventsuite/events/v1/');
      expect(page.headers['x-tec-api-origin']).toBe('http://example.test');
    }
    expect(res.body).toContain('<meta name="tec-api-version" content="v1"><meta name="tec-api-origin" content="http://example.test"><link rel="alternate" href="http://example.test/wp-json/eventsuite/events/v1/" />');
  });

  it('serves one OpenAPI 3.1 document generated from the same declarations', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = JSON.parse(res.body);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'http://example.test/wp-json' }]);
    const { body: index } = await t.request('GET', '/');
    // every discovery route is a path, every method an operation
    const paths = Object.keys(doc.paths);
    expect(paths).toHaveLength(Object.keys(index.routes).length);
    const single = doc.paths['/eventsuite/events/v1/events/{id}'];
    expect(Object.keys(single).sort()).toEqual(['delete', 'get', 'patch', 'post', 'put']);
    expect(single.get.parameters.find((p: any) => p.name === 'id')).toMatchObject({ in: 'path', required: true });
    expect(doc.paths['/batch/v1'].post.requestBody.content['application/json'].schema.properties.requests.maxItems).toBe(25);
    const ids = Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('offers no application passwords ([]) on plain http outside a local environment', async () => {
    const prod = await startTestApp(engine, { environment: 'production' });
    try {
      expect((await prod.request('GET', '/')).body.authentication).toEqual([]);
    } finally {
      await prod.close();
    }
  });
});
