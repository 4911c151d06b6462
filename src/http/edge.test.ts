/**
 * The HTTP edge answers like the API: every error the server itself raises (bad URL, header overflow,
 * unparsable body, unknown page, body too large, crash) has WordPress's `{code, message, data:{status}}`.
 * Some of these happen before Fastify sees a request, so they go over a real loopback socket.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test-support/harness.js';
import { freePort } from '../test-support/net.js';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

let t: TestApp;
let port: number;

function raw(method: string, path: string, headers: Record<string, string> = {}, payload?: string | Buffer): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const length = payload === undefined ? {} : { 'content-length': String(Buffer.byteLength(payload)) };
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { ...length, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

function expectWordPressShape(res: Raw, status: number, code?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.body)).toEqual(expect.arrayContaining(['code', 'message', 'data']));
  expect(typeof res.body.code).toBe('string');
  expect(typeof res.body.message).toBe('string');
  expect(res.body.data.status).toBe(status);
  expect(res.body).not.toHaveProperty('statusCode');
  expect(res.body).not.toHaveProperty('error');
  if (code) expect(res.body.code).toBe(code);
}

// One engine: nothing here touches the database beyond sign-in.
describe('HTTP edge errors', () => {
  beforeAll(async () => {
    port = await freePort();
    t = await startTestApp('sqlite', { bodyLimit: 64 * 1024 });
    await t.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  const WRITES: [string, string][] = [
    ['POST', '/wp-json/eventsuite/events/v1/events'],
    ['PUT', '/wp-json/eventsuite/events/v1/events/1'],
    ['POST', '/wp-json/eventsuite/events/v1/venues'],
    ['POST', '/wp-json/eventsuite/tickets/v1/tickets'],
    ['POST', '/wp-json/core/v2/users/me/application-passwords'],
    ['DELETE', '/wp-json/eventsuite/events/v1/categories/1'],
    ['POST', '/wp-json/batch/v1'],
  ];

  it.each(WRITES)('answers multipart/form-data without a boundary with a 400 on %s %s', async (method, path) => {
    for (const as of [undefined, t.admin.authorization]) {
      const res = await raw(method, path, { 'content-type': 'multipart/form-data', ...(as ? { authorization: as } : {}) }, 'title=x');
      expectWordPressShape(res, 400, 'rest_invalid_body');
    }
  });

  it('still reads a well-formed multipart body', async () => {
    const boundary = 'XyZ';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nedge-test\r\n--${boundary}--\r\n`;
    const res = await raw('POST', '/wp-json/core/v2/users/me/application-passwords', { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: t.admin.authorization }, body);
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('edge-test');
  });

  it('answers a malformed percent-encoding in the path with a WordPress-shaped 400', async () => {
    for (const path of ['/wp-json/eventsuite/%zz', '/wp-json/eventsuite/events/v1/events/by-slug/%E0%A4%A', '/wp-json/%']) {
      expectWordPressShape(await raw('GET', path), 400, 'rest_invalid_url');
    }
  });

  it('answers a URL over the header limit (thousands of parameters) with a WordPress-shaped 431', async () => {
    const query = Array.from({ length: 5000 }, (_, i) => `p${i}=1`).join('&');
    expectWordPressShape(await raw('GET', `/wp-json/eventsuite/events/v1/events?${query}`), 431, 'rest_headers_too_large');
  });

  it('routes a long path segment like any other (no 414 from the router)', async () => {
    const res = await raw('GET', `/wp-json/eventsuite/events/v1/events/by-slug/${'a'.repeat(500)}`);
    expectWordPressShape(res, 400, 'rest_invalid_param');
  });

  it('answers an unknown page, an unknown method and a body too large in the WordPress shape', async () => {
    expectWordPressShape(await raw('GET', '/no-such-page'), 404, 'rest_no_route');
    expectWordPressShape(await raw('PROPFIND', '/wp-json/'), 404, 'rest_no_route');
    const big = await raw('POST', '/wp-json/eventsuite/events/v1/events', { 'content-type': 'application/json' }, JSON.stringify({ title: 'x'.repeat(70 * 1024) }));
    expectWordPressShape(big, 413, 'rest_request_too_large');
  });
});
