import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { oembedDiscoveryLinks, oembedEndpointUrl, phpUrlencode } from './discovery-links.js';
import { insertPost } from './oembed-fixtures.js';

const HOME = 'http://example.test';
const urls = { urls: { apiRoot: `${HOME}/wp-json/` } } as AppContext;

/** The two tags the original prints for a permalink, built by hand. */
function expectedLinks(permalink: string): string {
  const endpoint = `${HOME}/wp-json/oembed/1.0/embed?url=${encodeURIComponent(permalink)}`;
  return (
    `<link rel="alternate" type="application/json+oembed" href="${endpoint}" />\n` +
    `<link rel="alternate" type="text/xml+oembed" href="${endpoint}&#038;format=xml" />\n`
  );
}

describe('oembedEndpointUrl', () => {
  it('is the embed route with the urlencoded permalink, and format only when it is not json', () => {
    expect(oembedEndpointUrl(urls, `${HOME}/event/gala/`)).toBe(`${HOME}/wp-json/oembed/1.0/embed?url=http%3A%2F%2Fexample.test%2Fevent%2Fgala%2F`);
    expect(oembedEndpointUrl(urls, `${HOME}/event/gala/`, 'json')).not.toContain('format');
    expect(oembedEndpointUrl(urls, `${HOME}/?p=5`, 'xml')).toBe(`${HOME}/wp-json/oembed/1.0/embed?url=http%3A%2F%2Fexample.test%2F%3Fp%3D5&format=xml`);
  });

  it('encodes as PHP urlencode does', () => {
    expect(phpUrlencode("a b~!*'()-_.")).toBe('a+b%7E%21%2A%27%28%29-_.');
  });
});

describe('oembedDiscoveryLinks', () => {
  it('prints the JSON link, then the XML one with an escaped ampersand', () => {
    expect(oembedDiscoveryLinks(urls, `${HOME}/event/gala/`)).toBe(expectedLinks(`${HOME}/event/gala/`));
  });
});

describe.each(DIALECTS)('oEmbed discovery links in pages on %s', (engine) => {
  let t: TestApp;
  let postId: number;
  let pageId: number;

  beforeAll(async () => {
    t = await startTestApp(engine);
    postId = await insertPost(t.db, { type: 'post', slug: 'hello', title: 'Hello World' });
    pageId = await insertPost(t.db, { type: 'page', slug: 'front', title: 'Front page' });
  });
  afterAll(() => t.close());

  const page = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    return res.body;
  };

  it('are in the head of an event, a venue and an organizer page, and lead to their oEmbed data', async () => {
    const created = await t.request('POST', '/eventsuite/events/v1/events', {
      as: t.admin,
      json: { title: 'Gala', start_date: '2030-04-01 19:00', end_date: '2030-04-01 23:00', venue: { venue: 'Hall' }, organizer: [{ organizer: 'Ada' }] },
    });
    expect(created.status).toBe(201);
    for (const permalink of [created.body.url, created.body.venue.url, created.body.organizer[0].url]) {
      const html = await page(new URL(permalink).pathname);
      expect(html.slice(0, html.indexOf('</head>')), permalink).toContain(expectedLinks(permalink));
      const href = /type="application\/json\+oembed" href="([^"]+)"/.exec(html)![1]!;
      const data = await t.app.inject({ method: 'GET', url: new URL(href.replace(/&#038;/g, '&')).pathname + new URL(href).search });
      expect(data.statusCode).toBe(200);
      expect(JSON.parse(data.body).type).toBe('rich');
    }
  });

  it('are in the head of a post shown at /?p=<id>', async () => {
    const html = await page(`/?p=${postId}`);
    expect(html).toContain(expectedLinks(`${HOME}/?p=${postId}`));
  });

  it('are not on the front page listing posts, and are on a static front page, for the home URL', async () => {
    expect(await page('/')).not.toContain('+oembed');
    await t.ctx.options.set('page_on_front', pageId);
    await t.ctx.options.set('show_on_front', 'page');
    try {
      expect(await page('/')).toContain(expectedLinks(`${HOME}/`));
    } finally {
      await t.ctx.options.set('show_on_front', 'posts');
    }
  });
});
