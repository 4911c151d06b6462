import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchOembedData, findOembedLinks, parseOembedXml } from './oembed-client.js';
import { isPublicAddress, RemoteRequestError, safeHttpGet } from './http.js';

describe('isPublicAddress', () => {
  it.each([
    ['93.184.215.14', true],
    ['8.8.8.8', true],
    ['2606:4700::1111', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:8.8.8.8', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['2001:db8::1', false],
    ['not-an-ip', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof RemoteRequestError) return err.reason;
    throw err;
  }
  return 'no error';
}

describe('safeHttpGet outside the local environment', () => {
  const prod = { allowPrivateNetwork: false, timeoutMs: 2_000 };

  it('refuses other schemes, credentials and odd ports before connecting', async () => {
    expect(await failure(safeHttpGet('ftp://93.184.215.14/', prod))).toBe('invalid_url');
    expect(await failure(safeHttpGet('file:///etc/passwd', prod))).toBe('invalid_url');
    expect(await failure(safeHttpGet('http://user:pw@93.184.215.14/', prod))).toBe('invalid_url');
    expect(await failure(safeHttpGet('http://93.184.215.14:22/', prod))).toBe('blocked_port');
    expect(await failure(safeHttpGet('not a url', prod))).toBe('invalid_url');
  });

  it('refuses non-public addresses, literal or resolved', async () => {
    expect(await failure(safeHttpGet('http://127.0.0.1/', prod))).toBe('blocked_address');
    expect(await failure(safeHttpGet('http://[::1]:8080/', prod))).toBe('blocked_address');
    expect(await failure(safeHttpGet('http://169.254.169.254/latest/meta-data/', prod))).toBe('blocked_address');
    expect(await failure(safeHttpGet('http://localhost:8080/', prod))).toBe('blocked_address');
  });
});

describe('safeHttpGet against a local server', () => {
  let server: http.Server;
  let base: string;
  let hits: string[];
  const local = { allowPrivateNetwork: true, timeoutMs: 2_000 };

  beforeAll(async () => {
    hits = [];
    server = http.createServer((req, res) => {
      hits.push(req.url!);
      const path = new URL(req.url!, 'http://x').pathname;
      switch (path) {
        case '/hello':
          res.end('hello');
          break;
        case '/gzip':
          res.writeHead(200, { 'content-encoding': 'gzip' });
          res.end(zlib.gzipSync('zipped body'));
          break;
        case '/big':
          res.end('x'.repeat(5000));
          break;
        case '/redirect':
          res.writeHead(302, { location: '/hello' });
          res.end();
          break;
        case '/loop':
          res.writeHead(301, { location: '/loop' });
          res.end();
          break;
        case '/to-file':
          res.writeHead(302, { location: 'file:///etc/passwd' });
          res.end();
          break;
        case '/slow':
          setTimeout(() => res.end('late'), 5_000).unref();
          break;
        default:
          res.writeHead(404);
          res.end('missing');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('gets a body, any status being an answer', async () => {
    expect(await safeHttpGet(`${base}/hello`, local)).toMatchObject({ status: 200, body: 'hello', truncated: false });
    expect(await safeHttpGet(`${base}/nothing`, local)).toMatchObject({ status: 404, body: 'missing' });
  });

  it('decompresses gzip', async () => {
    expect((await safeHttpGet(`${base}/gzip`, local)).body).toBe('zipped body');
  });

  it('follows redirects, re-checking each target, and stops after the limit', async () => {
    expect(await safeHttpGet(`${base}/redirect`, local)).toMatchObject({ status: 200, body: 'hello', url: `${base}/hello` });
    expect(await failure(safeHttpGet(`${base}/loop`, { ...local, maxRedirects: 3 }))).toBe('too_many_redirects');
    expect(await failure(safeHttpGet(`${base}/to-file`, local))).toBe('invalid_url');
  });

  it('caps the body size, failing or truncating', async () => {
    expect(await failure(safeHttpGet(`${base}/big`, { ...local, maxBytes: 1000 }))).toBe('too_large');
    const cut = await safeHttpGet(`${base}/big`, { ...local, maxBytes: 1000, truncate: true });
    expect(cut.body).toHaveLength(1000);
    expect(cut.truncated).toBe(true);
  });

  it('gives up after the timeout', async () => {
    const started = Date.now();
    expect(await failure(safeHttpGet(`${base}/slow`, { ...local, timeoutMs: 200 }))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports a refused connection as a network failure', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await failure(safeHttpGet(`http://127.0.0.1:${port}/`, local))).toBe('network');
  });
});

describe('findOembedLinks', () => {
  it('finds the JSON and XML endpoints in the head, resolving relative hrefs', () => {
    const html = `<html><head><title>x</title>
      <link rel="alternate" type="text/xml+oembed" href="/oembed?format=xml&amp;url=a">
      <LINK REL='alternate' TYPE='application/json+oembed' HREF='https://p.test/oembed?format=json&amp;url=a' />
      </head><body><link type="application/json+oembed" href="https://evil.test/"></body></html>`;
    expect(findOembedLinks(html, 'https://site.test/page')).toEqual({ xml: 'https://site.test/oembed?format=xml&url=a', json: 'https://p.test/oembed?format=json&url=a' });
  });

  it('ignores links in the body, other types and non-http hrefs', () => {
    expect(findOembedLinks('<head><link type="application/json+oembed" href="javascript:x"><link type="text/css" href="a.css"></head><link type="application/json+oembed" href="https://x.test/">', 'https://s.test/')).toEqual({});
  });
});

describe('parseOembedXml', () => {
  it('reads the root element children as strings', () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?>\n<!-- c --><oembed><version>1.0</version><type>rich</type><width>600</width>
      <html><![CDATA[<iframe src="https://v.test/1"></iframe>]]></html><title>A &amp; B &#8212; &lt;C&gt;</title><empty/></oembed>`;
    expect(parseOembedXml(xml)).toEqual({ version: '1.0', type: 'rich', width: '600', html: '<iframe src="https://v.test/1"></iframe>', title: 'A & B — <C>', empty: '' });
  });

  it('refuses DOCTYPEs and documents that are not XML', () => {
    expect(parseOembedXml('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><oembed><t>&e;</t></oembed>')).toBeUndefined();
    expect(parseOembedXml('{"type":"rich"}')).toBeUndefined();
    expect(parseOembedXml('<oembed><type>rich</type>')).toBeUndefined();
  });

  it('copes with nested elements', () => {
    expect(parseOembedXml('<oembed><a><b>x</b>y</a><c>z</c></oembed>')).toEqual({ a: 'xy', c: 'z' });
  });
});

describe('fetchOembedData against a local provider', () => {
  let server: http.Server;
  let base: string;
  let requests: URL[];
  const local = { allowPrivateNetwork: true, timeoutMs: 2_000 };

  beforeAll(async () => {
    requests = [];
    server = http.createServer((req, res) => {
      const url = new URL(req.url!, base);
      requests.push(url);
      const reply = (status: number, type: string, body: string) => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      };
      if (url.pathname === '/page') {
        reply(200, 'text/html', `<html><head><link rel="alternate" type="application/json+oembed" href="${base}/oembed?format=json&amp;url=${encodeURIComponent(`${base}/page`)}"><link rel="alternate" type="text/xml+oembed" href="${base}/oembed?format=xml"></head></html>`);
      } else if (url.pathname === '/xml-only') {
        reply(200, 'text/html', `<head><link type="application/json+oembed" href="${base}/no-json"></head>`);
      } else if (url.pathname === '/no-json') {
        if (url.searchParams.get('format') === 'json') reply(501, 'text/plain', 'unsupported format');
        else reply(200, 'text/xml', '<oembed><type>link</type><title>From XML</title></oembed>');
      } else if (url.pathname === '/oembed') {
        if (url.searchParams.get('format') === 'xml') reply(200, 'text/xml', '<oembed><type>rich</type><html>x</html><got>xml</got></oembed>');
        else reply(200, 'application/json', JSON.stringify({ version: '1.0', type: 'rich', html: '<p>hi</p>', got: 'json' }));
      } else if (url.pathname === '/plain') {
        reply(200, 'text/html', '<html><head></head></html>');
      } else {
        reply(404, 'text/plain', 'nope');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('discovers the JSON endpoint and forwards maxwidth, maxheight, url and format', async () => {
    requests.length = 0;
    const data = await fetchOembedData({ url: `${base}/page`, maxwidth: 320, maxheight: 240, format: 'json', discover: true }, local);
    expect(data).toEqual({ version: '1.0', type: 'rich', html: '<p>hi</p>', got: 'json' });
    expect(requests.map((r) => r.pathname)).toEqual(['/page', '/oembed']);
    const q = requests[1]!.searchParams;
    expect([q.get('maxwidth'), q.get('maxheight'), q.get('url'), q.get('format'), q.get('dnt')]).toEqual(['320', '240', `${base}/page`, 'json', '1']);
  });

  it('prefers the XML endpoint when XML is asked for', async () => {
    expect(await fetchOembedData({ url: `${base}/page`, maxwidth: 600, maxheight: 750, format: 'xml', discover: true }, local)).toEqual({ type: 'rich', html: 'x', got: 'xml' });
  });

  it('falls back to the other format when the provider answers 501', async () => {
    expect(await fetchOembedData({ url: `${base}/xml-only`, maxwidth: 600, maxheight: 750, format: 'json', discover: true }, local)).toEqual({ type: 'link', title: 'From XML' });
  });

  it('finds nothing without discovery, without links, or when the page is missing', async () => {
    requests.length = 0;
    expect(await fetchOembedData({ url: `${base}/page`, maxwidth: 600, maxheight: 750, format: 'json', discover: false }, local)).toBeUndefined();
    expect(requests).toHaveLength(0);
    expect(await fetchOembedData({ url: `${base}/plain`, maxwidth: 600, maxheight: 750, format: 'json', discover: true }, local)).toBeUndefined();
    expect(await fetchOembedData({ url: `${base}/gone`, maxwidth: 600, maxheight: 750, format: 'json', discover: true }, local)).toBeUndefined();
  });

  it('refuses the local provider outside the local environment', async () => {
    expect(await failure(fetchOembedData({ url: `${base}/page`, maxwidth: 600, maxheight: 750, format: 'json', discover: true }, { allowPrivateNetwork: false }))).toMatch(/^blocked_(port|address)$/);
  });
});
