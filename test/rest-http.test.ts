/**
 * Whole-interface checks of the HTTP conventions WordPress clients rely on: headers, URL forms, method
 * override, HEAD/OPTIONS, envelopes, field filtering, errors. Runs on every engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../src/test-support/harness.js';

describe.each(DIALECTS)('REST over HTTP on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { bodyLimit: 64 * 1024 });
  });
  afterAll(() => t.close());

  it('sends the fixed REST headers and the API-root Link on every response', async () => {
    const res = await t.request('GET', '/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(res.headers.link).toBe('<http://example.test/wp-json/>; rel="https://api.w.org/"');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-expose-headers']).toBe('X-WP-Total, X-WP-TotalPages, Link');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type');
    expect(res.headers.vary).toBe('Origin');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const missing = await t.request('GET', '/nope/v9/thing');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('rest_no_route');
    expect(missing.headers.link).toContain('rel="https://api.w.org/"');
    expect(missing.headers.allow).toBeUndefined();
  });

  it('echoes any Origin with credentials allowed', async () => {
    const res = await t.request('GET', '/', { headers: { origin: 'https://app.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toBe('OPTIONS, GET, POST, PUT, PATCH, DELETE');
  });

  it('sends no-cache headers to signed-in users', async () => {
    const res = await t.request('GET', '/', { as: t.admin });
    expect(res.headers['cache-control']).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
    expect(res.headers.expires).toBe('Wed, 11 Jan 1984 05:00:00 GMT');
  });

  it('serves the plain-permalink form ?rest_route=', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/?rest_route=/core/v2' });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).namespace).toBe('core/v2');
    const viaIndex = await t.app.inject({ method: 'GET', url: '/index.php?rest_route=/' });
    expect(JSON.parse(viaIndex.body).namespaces).toContain('core/v2');
  });

  it('lets a rest_route query parameter win over the /wp-json/ path, as WordPress query vars do', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/wp-json/core/v2?rest_route=/oembed/1.0&_fields=namespace' });
    expect(JSON.parse(res.body)).toEqual({ namespace: 'oembed/1.0' });
  });

  it('accepts a trailing slash at the top level and the /index.php prefix', async () => {
    expect((await t.request('GET', '/core/v2/')).status).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/index.php/wp-json/core/v2' });
    expect(res.statusCode).toBe(200);
  });

  it('honours _method and X-HTTP-Method-Override (query wins)', async () => {
    // the index only answers GET: a POST overridden to GET reaches it
    expect((await t.app.inject({ method: 'POST', url: '/wp-json/core/v2?_method=GET' })).statusCode).toBe(200);
    expect((await t.request('POST', '/core/v2', { headers: { 'x-http-method-override': 'GET' } })).status).toBe(200);
    const both = await t.app.inject({ method: 'POST', url: '/wp-json/core/v2?_method=DELETE', headers: { 'x-http-method-override': 'GET' } });
    expect(both.statusCode).toBe(404);
    expect(JSON.parse(both.body).code).toBe('rest_no_route');
    // a 4xx after a header override is not cacheable
    const missing = await t.request('POST', '/core/v2', { headers: { 'x-http-method-override': 'DELETE' } });
    expect(missing.headers['cache-control']).toContain('no-store');
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/wp-json/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers.link).toContain('api.w.org');
  });

  it('answers OPTIONS with the route data and Allow, without running permission callbacks', async () => {
    const res = await t.request('OPTIONS', '/batch/v1');
    expect(res.status).toBe(200);
    expect(res.headers.allow).toBe('POST');
    expect(res.body.endpoints[0].args.requests.maxItems).toBe(25);
    expect(res.body.endpoints[0].args.validation).toEqual({ type: 'string', enum: ['require-all-validate', 'normal'], default: 'normal', required: false });
    const none = await t.request('OPTIONS', '/nothing/here');
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    expect(none.headers.allow).toBeUndefined();
    // an empty answer is still shaped like any other (rest_handle_options_request returns an empty response)
    const enveloped = await t.app.inject({ method: 'OPTIONS', url: '/wp-json/nothing/here?_envelope' });
    expect(JSON.parse(enveloped.body)).toEqual({ body: [], status: 200, headers: [] });
  });

  it('wraps the response in _envelope with status 200', async () => {
    const res = await t.request('GET', '/nope', { query: { _envelope: '1' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 404, body: { code: 'rest_no_route' } });
  });

  it('filters fields with _fields, dot paths included', async () => {
    const res = await t.request('GET', '/', { query: { _fields: 'name,authentication.application-passwords' } });
    expect(Object.keys(res.body)).toEqual(['name', 'authentication']);
    // the index keeps its links for _fields=_embedded, as for _links (and drops them otherwise)
    for (const f of ['_links', '_embedded']) expect((await t.request('GET', '/', { query: { _fields: f } })).body, f).toEqual({ _links: { help: [expect.any(Object)] } });
    expect((await t.request('GET', '/', { query: { _fields: 'name' } })).body._links).toBeUndefined();
    const ns = await t.request('GET', '/core/v2', { query: { _fields: 'namespace' } });
    expect(ns.body).toEqual({ namespace: 'core/v2' });
  });

  it('supports _jsonp and refuses bad callbacks', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/wp-json/core/v2?_jsonp=cb.x&_fields=namespace' });
    expect(ok.headers['content-type']).toBe('application/javascript; charset=UTF-8');
    expect(ok.body).toBe('/**/cb.x({"namespace":"core/v2"})');
    const bad = await t.app.inject({ method: 'GET', url: '/wp-json/?_jsonp=alert(1)' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ code: 'rest_callback_invalid', message: expect.any(String) });
  });

  it('treats an empty or "0" _jsonp as no callback, and refuses bad ones as JavaScript', async () => {
    for (const cb of ['', '0']) {
      const res = await t.app.inject({ method: 'GET', url: `/wp-json/core/v2?_jsonp=${cb}&_fields=namespace` });
      expect(res.statusCode, cb).toBe(200);
      expect(res.headers['content-type'], cb).toBe('application/json; charset=UTF-8');
      expect(res.body, cb).toBe('{"namespace":"core/v2"}');
    }
    const bad = await t.app.inject({ method: 'GET', url: '/wp-json/?_jsonp=a-b' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toBe('application/javascript; charset=UTF-8');
  });

  it('shapes authentication errors and unknown verbs like any answer (_envelope, _jsonp)', async () => {
    const badCredentials = { authorization: `Basic ${Buffer.from('nobody:wrong').toString('base64')}` };
    const enveloped = await t.app.inject({ method: 'GET', url: '/wp-json/?_envelope', headers: badCredentials });
    expect(enveloped.statusCode).toBe(200);
    expect(JSON.parse(enveloped.body)).toMatchObject({ status: 401, body: { code: 'invalid_username' }, headers: [] });
    const jsonp = await t.app.inject({ method: 'GET', url: '/wp-json/?_jsonp=cb', headers: badCredentials });
    expect(jsonp.statusCode).toBe(401);
    expect(jsonp.body).toMatch(/^\/\*\*\/cb\(\{"code":"invalid_username"/);
    const verb = await t.app.inject({ method: 'GET', url: '/wp-json/core/v2?_method=FOO&_envelope=1' });
    expect(verb.statusCode).toBe(200);
    expect(JSON.parse(verb.body)).toMatchObject({ status: 404, body: { code: 'rest_no_route' } });
  });

  it('answers rest_invalid_json for a malformed JSON body on a matched route', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, payload: '{"requests": [' });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'rest_invalid_json', data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' } });
    // PHP's json_last_error for a raw control character inside a string
    const ctrl = await t.app.inject({ method: 'POST', url: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, payload: '{"requests": "\u0001"}' });
    expect(JSON.parse(ctrl.body).data).toEqual({ status: 400, json_error_code: 3, json_error_message: 'Control character error, possibly incorrectly encoded' });
  });

  it('parses PHP-style form bodies for every verb', async () => {
    const res = await t.request('POST', '/batch/v1', { form: 'requests[0][path]=/nope&requests[0][method]=DELETE' });
    expect(res.status).toBe(207);
    expect(res.body.responses[0].body.code).toBe('rest_no_route');
  });

  it('refuses a body over the limit with 413 and a REST error', async () => {
    const res = await t.request('POST', '/batch/v1', { json: { requests: [], pad: 'x'.repeat(70 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'rest_request_too_large', data: { status: 413 } });
  });

  it('never answers 500 for hostile query strings', async () => {
    for (const qs of ['a[=1', '%E0%A4%A', '__proto__[x]=1', 'a[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]=1', '_fields[x]=1', '_embed[]=a']) {
      const res = await t.app.inject({ method: 'GET', url: `/wp-json/core/v2?${qs}` });
      expect(res.statusCode, qs).toBeLessThan(500);
    }
  });
});
