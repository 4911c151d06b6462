/**
 * Multipart bodies (issue 8): one size limit for the whole body (not per file), read only after
 * authentication and only for a route that exists; file parts kept only by routes that take uploads.
 * Over a real socket, so a request whose body never finishes can be observed.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInForTest } from '../auth/test-sessions.js';
import { startTestApp, type TestApp } from '../test-support/harness.js';
import { freePort } from '../test-support/net.js';

const LIMIT = 64 * 1024;
const BOUNDARY = 'mpTEST';

let t: TestApp;
let port: number;

interface Answer {
  status: number;
  body: any;
  /** True when the answer came while the client was still holding the body open. */
  beforeBodyEnd: boolean;
}

function field(name: string, value: string | Buffer): Buffer {
  return Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n')]);
}
function file(name: string, filename: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from('\r\n'),
  ]);
}
const END = Buffer.from(`--${BOUNDARY}--\r\n`);

/**
 * Sends `head` of a multipart body; unless `hold`, then the rest. With `hold`, the body is left open
 * for up to two seconds: an answer in that time came without reading the whole body.
 */
function post(path: string, head: Buffer, headers: Record<string, string> = {}, hold = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let ended = false;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent: false,
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...(hold ? { 'content-length': String(head.length + 1_000_000) } : { 'content-length': String(head.length) }), ...headers },
      },
      (res) => {
        const beforeBodyEnd = !ended;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body, beforeBodyEnd });
        });
      },
    );
    const timer = hold
      ? setTimeout(() => {
          ended = true;
          req.destroy();
          reject(new Error('no answer while the body was held open'));
        }, 2000)
      : undefined;
    req.on('error', (err) => (ended ? undefined : reject(err)));
    req.write(head);
    if (!hold) {
      ended = true;
      req.end();
    }
  });
}

describe('multipart bodies', () => {
  beforeAll(async () => {
    port = await freePort();
    t = await startTestApp('sqlite', { bodyLimit: LIMIT });
    await t.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  const appPasswords = '/wp-json/core/v2/users/me/application-passwords';
  const feedback = '/wp-json/contact-form/v1/contact-forms/1/feedback';

  it('limits the whole body, not each file: three files under the limit that together exceed it → 413', async () => {
    const third = Buffer.alloc(Math.floor(LIMIT / 2.5), 65);
    const body = Buffer.concat([field('_wpcf7_unit_tag', 'wpcf7-f1-p1-o1'), file('a', 'a.txt', third), file('b', 'b.txt', third), file('c', 'c.txt', third), END]);
    const res = await post(feedback, body);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'rest_request_too_large', message: 'The request body is too large.', data: { status: 413, max_bytes: LIMIT } });
  });

  it('limits the whole body of fields too: many fields under the limit that together exceed it → 413', async () => {
    const parts = Array.from({ length: 40 }, (_, i) => field(`f${i}`, 'x'.repeat(4096)));
    const res = await post(appPasswords, Buffer.concat([...parts, field('name', 'many'), END]), { authorization: t.admin.authorization });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('rest_request_too_large');
  });

  it('refuses a declared Content-Length over the limit before reading anything', async () => {
    const res = await post(appPasswords, field('name', 'x'), { authorization: t.admin.authorization, 'content-length': String(LIMIT * 100) }, true);
    expect(res.status).toBe(413);
    expect(res.beforeBodyEnd).toBe(true);
  });

  it('answers wrong credentials before reading the body', async () => {
    const wrong = `Basic ${Buffer.from('admin:wrong-password-here').toString('base64')}`;
    const res = await post(appPasswords, field('name', 'x'), { authorization: wrong }, true);
    expect(res.status).toBe(401);
    expect(res.beforeBodyEnd).toBe(true);
  });

  it('answers an unknown route without reading the body', async () => {
    const res = await post('/wp-json/core/v2/no-such-route', field('name', 'x'), { authorization: t.admin.authorization }, true);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest_no_route');
    expect(res.beforeBodyEnd).toBe(true);
  });

  it('still reads fields on any route, skipping file parts a route does not take', async () => {
    const body = Buffer.concat([file('junk', 'junk.bin', Buffer.alloc(20_000, 1)), field('name', 'after-a-file'), END]);
    const res = await post(appPasswords, body, { authorization: t.admin.authorization });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('after-a-file');
  });

  it('signs a cookie session in with the nonce carried in the multipart body', async () => {
    const session = await signInForTest(t.ctx, t.admin.id);
    const good = await post(appPasswords, Buffer.concat([field('_wpnonce', session.nonce), field('name', 'by-cookie'), END]), { cookie: session.cookie });
    expect(good.status).toBe(201);
    expect(good.body.name).toBe('by-cookie');
    const bad = await post(appPasswords, Buffer.concat([field('_wpnonce', 'nope'), field('name', 'x'), END]), { cookie: session.cookie });
    expect(bad.status).toBe(403);
    expect(bad.body.code).toBe('rest_cookie_invalid_nonce');
    const badQueryGoodBody = await post(`${appPasswords}?_wpnonce=nope`, Buffer.concat([field('_wpnonce', session.nonce), field('name', 'body-wins'), END]), { cookie: session.cookie });
    expect(badQueryGoodBody.status).toBe(201);
  });

  it('keeps a malformed body a 400 in the WordPress shape', async () => {
    const noBoundary = await post(appPasswords, field('name', 'x'), { authorization: t.admin.authorization, 'content-type': 'multipart/form-data' });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body.code).toBe('rest_invalid_body');
  });
});
