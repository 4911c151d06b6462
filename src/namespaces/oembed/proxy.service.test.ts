import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRestError } from '../../rest/errors.js';
import { createRestRequest } from '../../rest/request.js';
import { createTestDb, DIALECTS, type TestDb } from '../../storage/test-db.js';
import { fixtureContext } from './oembed-fixtures.js';
import { providerHtml, proxyOembed } from './proxy.service.js';

const URL_ = 'https://video.test/watch/1';

describe('providerHtml', () => {
  it('reduces rich and video html to its frame, titled with the object\'s title', () => {
    expect(providerHtml({ type: 'video', title: 'Clip', html: '<b>Watch</b><iframe src="https://video.test/e/1"></iframe><script>x()</script>' }, URL_, 's')).toBe(
      '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" title="Clip" src="https://video.test/e/1#?secret=s" data-secret="s"></iframe>',
    );
  });

  it('is false for rich html without a frame (the original\'s untrusted provider answer)', () => {
    expect(providerHtml({ type: 'rich', html: '<b>Filtered</b><a href="">Unfiltered</a>' }, URL_, 's')).toBe(false);
    expect(providerHtml({ type: 'rich', html: '<p onclick="x()">Hi<script>x()</script></p>' }, URL_, 's')).toBe(false);
  });

  it('builds photo and link markup from the fields, escaped', () => {
    expect(providerHtml({ type: 'photo', url: 'https://img.test/a.jpg', width: 640, height: '480', title: 'A "cat"' }, URL_, 's')).toBe(
      '<a href="https://video.test/watch/1"><img src="https://img.test/a.jpg" alt="A &quot;cat&quot;" width="640" height="480"></a>',
    );
    expect(providerHtml({ type: 'link', title: 'Read <this>' }, URL_, 's')).toBe('<a href="https://video.test/watch/1">Read &lt;this&gt;</a>');
  });

  it('is false when there is nothing safe to show', () => {
    expect(providerHtml({ type: 'rich' }, URL_)).toBe(false);
    expect(providerHtml({ type: 'rich', html: '<script>x()</script>' }, URL_)).toBe(false);
    expect(providerHtml({ type: 'photo', url: 'javascript:x', width: 1, height: 1 }, URL_)).toBe(false);
    expect(providerHtml({ type: 'photo', url: 'https://img.test/a.jpg', width: 'wide', height: 1 }, URL_)).toBe(false);
    expect(providerHtml({ type: 'unknown', html: '<p>x</p>' }, URL_)).toBe(false);
    expect(providerHtml({ html: '<p>x</p>' }, URL_)).toBe(false);
  });
});

describe.each(DIALECTS)('proxyOembed outside the local environment on %s', (engine) => {
  let t: TestDb;
  let server: http.Server;
  let base: string;
  let hits = 0;

  beforeAll(async () => {
    t = await createTestDb(engine);
    server = http.createServer((_req, res) => {
      hits++;
      res.end('<head><link type="application/json+oembed" href="/oembed"></head>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t.destroy();
  });

  it('never contacts private addresses: the answer is 404 oembed_invalid_url', async () => {
    const req = createRestRequest({ method: 'GET', route: '/oembed/1.0/proxy' });
    req.params = { url: `${base}/page`, format: 'json', maxwidth: 600, discover: true };
    const error = await proxyOembed(req, fixtureContext(t.db, 'production')).catch((e: unknown) => e);
    expect(isRestError(error) && [error.code, error.status]).toEqual(['oembed_invalid_url', 404]);
    expect(hits).toBe(0);
  });
});
