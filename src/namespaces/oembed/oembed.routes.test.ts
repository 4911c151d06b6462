import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { insertPost, insertUser } from './oembed-fixtures.js';

const HOME = 'http://example.test';
const XML_TYPE = 'text/xml; charset=UTF-8';

/** A remote site with a page advertising its oEmbed endpoint, counting requests. */
async function startProvider() {
  const hits: URL[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, base);
    hits.push(url);
    const reply = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    switch (url.pathname) {
      case '/video':
        return reply(200, 'text/html', `<!doctype html><html><head><title>Video</title><link rel="alternate" type="application/json+oembed" href="${base}/oembed?format=json&amp;url=${encodeURIComponent(`${base}/video`)}"><link rel="alternate" type="text/xml+oembed" href="${base}/oembed?format=xml"></head><body></body></html>`);
      case '/broken':
        return reply(200, 'text/html', `<head><link type="application/json+oembed" href="${base}/fail"></head>`);
      case '/garbage':
        return reply(200, 'text/html', `<head><link type="application/json+oembed" href="${base}/not-json"></head>`);
      case '/untrusted':
        return reply(200, 'text/html', `<head><link rel="alternate" type="application/json+oembed" href="${base}/oembed-untrusted"></head>`);
      case '/oembed-untrusted':
        return reply(200, 'application/json', JSON.stringify({ version: '1.0', type: 'rich', provider_name: 'Untrusted', provider_url: base, html: '<b>Filtered</b><a href="">Unfiltered</a>', author_name: 'Someone', title: 'Untrusted Embed' }));
      case '/plain':
        return reply(200, 'text/html', '<html><head><title>No embed</title></head></html>');
      case '/fail':
        return reply(500, 'text/plain', 'boom');
      case '/not-json':
        return reply(200, 'application/json', '{"type": "rich", ');
      case '/oembed':
        if (url.searchParams.get('format') === 'xml') {
          return reply(200, 'text/xml', `<?xml version="1.0"?><oembed><version>1.0</version><type>rich</type><title>XML Video</title><html><![CDATA[<iframe src="${base}/embed/1"></iframe>]]></html></oembed>`);
        }
        return reply(
          200,
          'application/json',
          JSON.stringify({
            version: '1.0',
            type: 'video',
            provider_name: 'Local Tube',
            title: 'A Video',
            width: Number(url.searchParams.get('maxwidth')),
            height: Number(url.searchParams.get('maxheight')),
            html: `<iframe src="${base}/embed/1" width="320" height="180" onload="alert(1)"></iframe><script>alert(2)</script><img src="x" onerror="alert(3)">`,
          }),
        );
      default:
        return reply(404, 'text/plain', 'not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.each(DIALECTS)('oembed/1.0 on %s', (engine) => {
  let t: TestApp;
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let subscriber: TestUser;
  let contributor: TestUser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestApp(engine, { environment: 'local' });
    provider = await startProvider();
    subscriber = await t.createUser('subscriber');
    contributor = await t.createUser('contributor');
    await t.ctx.options.set('blogname', 'Example Events');
    const ada = await insertUser(t.db, { login: 'ada-author', display_name: 'Ada', nicename: 'ada' });
    ids.gala = await insertPost(t.db, { slug: 'spring-gala', title: 'Spring Gala & Ball', author: ada, image_url: 'https://cdn.test/gala.jpg' });
    ids.hall = await insertPost(t.db, { type: 'tribe_venue', slug: 'hall', title: 'Hall' });
    ids.draft = await insertPost(t.db, { slug: 'draft-event', status: 'draft' });
    ids.private = await insertPost(t.db, { slug: 'private-event', status: 'private' });
    ids.locked = await insertPost(t.db, { slug: 'locked-event', title: 'Members <Night>', password: 'pw', author: ada, image_url: 'https://cdn.test/members.jpg' });
    ids.post = await insertPost(t.db, { type: 'post', slug: 'hello-world', title: 'Hello World', author: ada });
    ids.front = await insertPost(t.db, { type: 'page', slug: 'front-page', title: 'Front page' });
  });

  /** Runs `check` while the page `ids.front` is the static front page. */
  async function withStaticFrontPage(check: () => Promise<void>): Promise<void> {
    await t.ctx.options.set('page_on_front', ids.front);
    await t.ctx.options.set('show_on_front', 'page');
    try {
      await check();
    } finally {
      await t.ctx.options.set('show_on_front', 'posts');
    }
  }
  afterAll(async () => {
    await provider?.close();
    await t?.close();
  });

  describe('GET /oembed/1.0/embed', () => {
    it('answers the oEmbed object of a post as JSON', async () => {
      const res = await t.request('GET', '/oembed/1.0/embed', { query: { url: `${HOME}/event/spring-gala/` } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body)).toEqual([
        'version', 'provider_name', 'provider_url', 'author_name', 'author_url', 'title', 'type', 'width', 'height', 'html',
        'thumbnail_url', 'thumbnail_width', 'thumbnail_height',
      ]);
      expect(res.body).toMatchObject({
        version: '1.0',
        provider_name: 'Example Events',
        provider_url: HOME,
        author_name: 'Ada',
        author_url: `${HOME}/author/ada/`,
        title: 'Spring Gala & Ball',
        type: 'rich',
        width: 600,
        height: 338,
        thumbnail_url: 'https://cdn.test/gala.jpg',
      });
      const secret = /data-secret="([a-zA-Z0-9]{10})"/.exec(res.body.html)?.[1];
      expect(res.body.html).toContain(`<a href="${HOME}/event/spring-gala/">Spring Gala &amp; Ball</a></blockquote>`);
      expect(res.body.html).toContain(`src="${HOME}/event/spring-gala/embed/#?secret=${secret}"`);
      expect(res.body.html).toMatch(/<script>[\s\S]+<\/script>\n$/);
    });

    it('resolves ?p=<id> URLs and uses the site as author when there is none', async () => {
      const res = await t.request('GET', '/oembed/1.0/embed', { query: { url: `${HOME}/?p=${ids.hall}` } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: 'Hall', author_name: 'Example Events', author_url: HOME });
      expect(res.body).not.toHaveProperty('thumbnail_url');
    });

    it('embeds the site\'s posts too, at their ?p= permalink', async () => {
      const res = await t.request('GET', '/oembed/1.0/embed', { query: { url: `${HOME}/?p=${ids.post}`, maxwidth: 400 } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: 'Hello World', type: 'rich', author_name: 'Ada', author_url: `${HOME}/author/ada/`, width: 400, height: 225 });
    });

    it('embeds the static front page for the home URL, and nothing for it without one', async () => {
      expect((await t.request('GET', '/oembed/1.0/embed', { query: { url: HOME } })).body.code).toBe('oembed_invalid_url');
      await withStaticFrontPage(async () => {
        const res = await t.request('GET', '/oembed/1.0/embed', { query: { url: HOME, maxwidth: 400 } });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ title: 'Front page', provider_url: HOME, author_name: 'Example Events', author_url: HOME, type: 'rich', width: 400 });
      });
    });

    it.each([
      ['600', 600, 338],
      ['1000', 600, 338],
      ['400', 400, 225],
      ['100', 200, 200],
      ['abc', 200, 200],
      ['-320', 320, 200],
    ])('sizes maxwidth=%s as %i × %i', async (maxwidth, width, height) => {
      const res = await t.request('GET', '/oembed/1.0/embed', { query: { url: `${HOME}/event/spring-gala/`, maxwidth } });
      expect(res.status).toBe(200);
      expect([res.body.width, res.body.height]).toEqual([width, height]);
      expect(res.body.html).toContain(`width="${width}" height="${height}"`);
    });

    it('answers XML with format=xml', async () => {
      const res = await t.request('GET', '/oembed/1.0/embed', { query: { url: `${HOME}/event/spring-gala/`, format: 'xml', maxwidth: 400 } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(XML_TYPE);
      expect(res.text).toMatch(/^<\?xml version="1.0"\?>\n<oembed><version>1.0<\/version><provider_name>Example Events<\/provider_name><provider_url>http:\/\/example.test<\/provider_url>/);
      expect(res.text).toContain('<title>Spring Gala &amp; Ball</title><type>rich</type><width>400</width><height>225</height><html>&lt;blockquote class=&quot;wp-embedded-content&quot;');
      expect(res.text).toContain('<thumbnail_url>https://cdn.test/gala.jpg</thumbnail_url>');
      expect(res.text.trim().endsWith('</oembed>')).toBe(true);
    });

    it('is GET only: a POST is no route, in JSON even with format=xml', async () => {
      const post = await t.request('POST', '/oembed/1.0/embed', { query: { url: `${HOME}/event/spring-gala/`, format: 'xml' } });
      expect(post.status).toBe(404);
      expect(post.headers['content-type']).toMatch(/^application\/json/);
      expect(post.body.code).toBe('rest_no_route');
    });

    it('answers JSON for any format other than exactly xml', async () => {
      for (const format of ['XML', 'html', 'json']) {
        const res = await t.request('GET', '/oembed/1.0/embed', { query: { url: `${HOME}/event/spring-gala/`, format } });
        expect(res.headers['content-type'], format).toMatch(/^application\/json/);
        expect(res.body.type).toBe('rich');
      }
    });

    it('answers 404 oembed_invalid_url for URLs naming nothing, in JSON or XML', async () => {
      const res = await t.request('GET', '/oembed/1.0/embed', { query: { url: `${HOME}/event/nothing/` } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });

      const xml = await t.request('GET', '/oembed/1.0/embed', { query: { url: 'https://elsewhere.test/event/spring-gala/', format: 'xml' } });
      expect(xml.status).toBe(404);
      expect(xml.headers['content-type']).toBe(XML_TYPE);
      expect(xml.text).toBe('<?xml version="1.0"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n');
    });

    it('answers argument errors in XML too when format=xml', async () => {
      const xml = await t.request('GET', '/oembed/1.0/embed', { query: { format: 'xml' } });
      expect(xml.status).toBe(400);
      expect(xml.headers['content-type']).toBe(XML_TYPE);
      expect(xml.text).toContain('<code>rest_missing_callback_param</code>');
      const json = await t.request('GET', '/oembed/1.0/embed', { query: { format: 'html' } });
      expect(json.body.code).toBe('rest_missing_callback_param');
    });

    it('does not embed drafts or private posts', async () => {
      for (const url of [`${HOME}/event/draft-event/`, `${HOME}/?p=${ids.draft}`, `${HOME}/event/private-event/`, `${HOME}/?p=${ids.private}`]) {
        const res = await t.request('GET', '/oembed/1.0/embed', { query: { url } });
        expect(res.status, url).toBe(404);
        expect(res.body.code).toBe('oembed_invalid_url');
      }
    });

    // CASE: get_oembed_response_data asks only that the post be publicly viewable; a password hides
    // its text (get_the_title's "Protected: " prefix), not the post, and not its featured image.
    it('embeds a password-protected post under "Protected: …", with its featured image, in JSON and XML', async () => {
      for (const url of [`${HOME}/event/locked-event/`, `${HOME}/?p=${ids.locked}`]) {
        const res = await t.request('GET', '/oembed/1.0/embed', { query: { url, maxwidth: 400 } });
        expect(res.status, url).toBe(200);
        expect(res.body).toMatchObject({
          title: 'Protected: Members <Night>', author_name: 'Ada', type: 'rich', width: 400, height: 225,
          thumbnail_url: 'https://cdn.test/members.jpg', thumbnail_width: 400, thumbnail_height: 225,
        });
        expect(res.body.html).toContain(`<a href="${HOME}/event/locked-event/">Protected: Members &lt;Night&gt;</a></blockquote>`);
        expect(res.body.html).toContain(' title="&#8220;Protected: Members &lt;Night&gt;&#8221; &#8212; Example Events"');
      }
      const xml = await t.request('GET', '/oembed/1.0/embed', { query: { url: `${HOME}/event/locked-event/`, format: 'xml' } });
      expect(xml.status).toBe(200);
      expect(xml.text).toContain('<title>Protected: Members &lt;Night&gt;</title>');
    });

    it('requires url', async () => {
      const res = await t.request('GET', '/oembed/1.0/embed');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'rest_missing_callback_param', data: { status: 400, params: ['url'] } });
    });

    it('is declared in the namespace index with the original args', async () => {
      const res = await t.request('GET', '/oembed/1.0');
      expect(res.status).toBe(200);
      expect(res.body.routes['/oembed/1.0/embed'].endpoints[0].args).toEqual({
        url: { description: 'The URL of the resource for which to fetch oEmbed data.', type: 'string', format: 'uri', required: true },
        format: { default: 'json', required: false },
        maxwidth: { default: 600, required: false },
      });
      expect(res.body.routes['/oembed/1.0/proxy'].endpoints[0].args).toEqual({
        url: { description: 'The URL of the resource for which to fetch oEmbed data.', type: 'string', format: 'uri', required: true },
        format: { description: 'The oEmbed format to use.', type: 'string', default: 'json', enum: ['json', 'xml'], required: false },
        maxwidth: { description: 'The maximum width of the embed frame in pixels.', type: 'integer', default: 600, required: false },
        maxheight: { description: 'The maximum height of the embed frame in pixels.', type: 'integer', required: false },
        discover: { description: 'Whether to perform an oEmbed discovery request for unsanctioned providers.', type: 'boolean', default: true, required: false },
      });
    });
  });

  describe('GET /oembed/1.0/proxy', () => {
    const proxy = (query: Record<string, string | number>, as: TestUser | null = t.admin) => t.request('GET', '/oembed/1.0/proxy', { query, as });
    const cacheRows = async () => Number((await t.db.selectFrom('oembed_cache').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

    it('refuses anonymous callers with 401 and users without edit_posts with 403', async () => {
      const anon = await proxy({ url: `${HOME}/event/spring-gala/` }, null);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to make proxied oEmbed requests.', data: { status: 401 } });
      const sub = await proxy({ url: `${HOME}/event/spring-gala/` }, subscriber);
      expect(sub.status).toBe(403);
      expect(sub.body.code).toBe('rest_forbidden');
    });

    it('checks its arguments before the permission: an anonymous call without url is a 400', async () => {
      const res = await t.request('GET', '/oembed/1.0/proxy', { query: { type: 'xml' }, as: null });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['url'] } });
    });

    it('validates format and discover before the permission check', async () => {
      const res = await proxy({ url: `${provider.base}/video`, format: 'html' }, null);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, details: { format: { code: 'rest_not_in_enum' } } } });
      const discover = await proxy({ url: `${provider.base}/video`, discover: 'maybe' });
      expect(discover.status).toBe(400);
      expect(Object.keys(discover.body.data.params)).toEqual(['discover']);
    });

    it('answers the site’s own posts with maxwidth as the width, without caching them', async () => {
      const before = provider.hits.length;
      const res = await proxy({ url: `${HOME}/event/spring-gala/`, maxwidth: 300, maxheight: 100 }, contributor);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ version: '1.0', title: 'Spring Gala & Ball', type: 'rich', width: 300, height: 200 });
      expect(provider.hits.length).toBe(before);
      expect(await cacheRows()).toBe(0);
    });

    it('answers the static front page for the home URL', async () => {
      await withStaticFrontPage(async () => {
        const res = await proxy({ url: HOME, maxwidth: 400 });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ version: '1.0', title: 'Front page', author_name: 'Example Events', author_url: HOME, type: 'rich', width: 400 });
      });
    });

    it('discovers a remote provider, forwards the sizes and sanitises its html', async () => {
      provider.hits.length = 0;
      const res = await proxy({ url: `${provider.base}/video`, maxwidth: 320, maxheight: 240 });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(provider.hits.map((u) => u.pathname)).toEqual(['/video', '/oembed']);
      const q = provider.hits[1]!.searchParams;
      expect([q.get('maxwidth'), q.get('maxheight'), q.get('format'), q.get('url')]).toEqual(['320', '240', 'json', `${provider.base}/video`]);
      expect(res.body).toMatchObject({ version: '1.0', type: 'video', provider_name: 'Local Tube', title: 'A Video', width: 320, height: 240 });
      const secret = /data-secret="([a-zA-Z0-9]{10})"/.exec(res.body.html)?.[1];
      expect(res.body.html).toBe(
        `<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" title="A Video" src="${provider.base}/embed/1#?secret=${secret}" data-secret="${secret}" width="320" height="180"></iframe>`,
      );
      expect(res.body.html).not.toMatch(/<script|onload|onerror|alert/);
    });

    it('answers html false for rich markup without a frame, keeping the other fields', async () => {
      const res = await proxy({ url: `${provider.base}/untrusted`, maxwidth: 456, maxheight: 789 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ provider_name: 'Untrusted', provider_url: provider.base, type: 'rich', title: 'Untrusted Embed', html: false });
    });

    it('serves a repeated request from the cache without asking the provider', async () => {
      const first = await proxy({ url: `${provider.base}/video`, maxwidth: 480 });
      expect(first.status).toBe(200);
      const hits = provider.hits.length;
      const second = await proxy({ url: `${provider.base}/video`, maxwidth: 480 });
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(provider.hits.length).toBe(hits);
      const third = await proxy({ url: `${provider.base}/video`, maxwidth: 480, _wpnonce: 'ignored' });
      expect(third.body).toEqual(first.body);
      expect(provider.hits.length).toBe(hits);
      // Other parameters are another entry.
      await proxy({ url: `${provider.base}/video`, maxwidth: 481 });
      expect(provider.hits.length).toBe(hits + 2);
    });

    it('forwards format=xml to the provider but answers JSON', async () => {
      const res = await proxy({ url: `${provider.base}/video`, format: 'xml' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ version: '1.0', type: 'rich', title: 'XML Video' });
      expect(res.body.html).toContain(`src="${provider.base}/embed/1#?secret=`);
    });

    it.each([
      ['a provider error', '/broken'],
      ['a provider answering garbage', '/garbage'],
      ['a page without a provider', '/plain'],
      ['a missing page', '/missing'],
    ])('answers 404 oembed_invalid_url for %s', async (_what, path) => {
      const res = await proxy({ url: `${provider.base}${path}` });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
    });

    it('answers 404 when discovery is off or the host is unreachable', async () => {
      const before = provider.hits.length;
      expect((await proxy({ url: `${provider.base}/video`, discover: 'false' })).status).toBe(404);
      expect(provider.hits.length).toBe(before);
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const res = await proxy({ url: `http://127.0.0.1:${port}/video` });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('oembed_invalid_url');
    });
  });
});
