import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { cardImage } from './embed-page.js';
import { insertPost } from './oembed-fixtures.js';

describe.each(DIALECTS)('embed pages on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
    await t.ctx.options.set('blogname', 'Example Events');
  });
  afterAll(() => t.close());

  /** An image of the media library with these sizes recorded (no files); answers its attachment ID. */
  const library = async (name: string, width: number, height: number, sizes: [string, number, number][]) => {
    const url = `http://example.test/wp-content/uploads/2030/01/${name}.jpg`;
    const id = await insertPost(t.db, { type: 'attachment', status: 'inherit', slug: name, title: name, image_url: url });
    const stored = sizes.map(([size, w, h]) => ({ name: size, file: `${name}-${w}x${h}.jpg`, width: w, height: h, filesize: 1 }));
    await t.db.insertInto('media_files').values({ post_id: id, path: `2030/01/${name}.jpg`, mime: 'image/jpeg', width, height, filesize: 1, source_url: '', source_key: '', sizes: JSON.stringify(stored), original_file: '' }).execute();
    return id;
  };

  it('serves the page the oEmbed iframe points at, framable, with its one script allowed by hash', async () => {
    const created = await t.request('POST', '/eventsuite/events/v1/events', {
      as: t.admin,
      json: { title: 'Spring <Gala>', description: 'A night of music and dance.', start_date: '2030-04-01 19:00', end_date: '2030-04-01 23:00' },
    });
    expect(created.status).toBe(201);
    const oembed = await t.request('GET', '/oembed/1.0/embed', { query: { url: created.body.url } });
    const src = /<iframe[^>]*src="([^"#]+)/.exec(oembed.body.html)![1]!;
    expect(src).toBe(`${created.body.url}embed/`);
    const res = await t.app.inject({ method: 'GET', url: new URL(src).pathname });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain('Spring &#60;Gala&#62;');
    expect(res.body).toContain('A night of music and dance.');
    const scripts = [...res.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    const hash = crypto.createHash('sha256').update(scripts[0]!).digest('base64');
    expect(res.headers['content-security-policy']).toContain(`script-src 'sha256-${hash}';`);
  });

  it('answers an ID beyond 32 bits as naming nothing: 404 for the page and for oEmbed', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/?p=3000000000' })).statusCode).toBe(404);
    const oembed = await t.request('GET', '/oembed/1.0/embed', { query: { url: 'http://example.test/?p=3000000000' } });
    expect(oembed.status).toBe(404);
    expect(oembed.body.code).toBe('oembed_invalid_url');
  });

  it('shows the featured image as the embed template picks it: the widest size, above the title when wide, below when not', async () => {
    const wide = await library('wide', 1600, 900, [['medium', 300, 169], ['large', 1024, 576], ['thumbnail', 150, 150], ['medium_large', 768, 432]]);
    const boxy = await library('boxy', 400, 300, [['medium', 300, 225], ['thumbnail', 150, 150]]);
    const card = async (title: string, image: number) => {
      const made = await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: { title, image, start_date: '2030-04-05 19:00', end_date: '2030-04-05 23:00' } });
      expect(made.status).toBe(201);
      return (await t.app.inject({ method: 'GET', url: `${new URL(made.body.url).pathname}embed/` })).body;
    };
    const wideCard = await card('Wide Night', wide);
    expect(wideCard).toContain('<div class="wp-embed-featured-image rectangular"><a href="http://example.test/event/wide-night/" target="_top"><img src="http://example.test/wp-content/uploads/2030/01/wide-1024x576.jpg" width="1024" height="576" alt=""></a></div>');
    expect(wideCard.indexOf('class="wp-embed-featured-image')).toBeLessThan(wideCard.indexOf('class="wp-embed-heading'));
    const boxyCard = await card('Boxy Night', boxy);
    expect(boxyCard).toContain('<div class="wp-embed-featured-image square"><a href="http://example.test/event/boxy-night/" target="_top"><img src="http://example.test/wp-content/uploads/2030/01/boxy-300x225.jpg" width="300" height="225" alt=""></a></div>');
    expect(boxyCard.indexOf('class="wp-embed-featured-image')).toBeGreaterThan(boxyCard.indexOf('class="wp-embed-heading'));
    // No size wider than square: the image itself; outside the library: the URL as it is.
    expect(cardImage('http://example.test/wp-content/uploads/tall.jpg', { mime: 'image/jpeg', width: 300, height: 600, filesize: 1, sizes: [{ name: 'thumbnail', file: 'tall-150x150.jpg', width: 150, height: 150, filesize: 1 }], originalFile: '' }))
      .toEqual({ url: 'http://example.test/wp-content/uploads/tall.jpg', width: 300, height: 600, shape: 'square' });
    expect(cardImage('https://cdn.test/x.jpg', undefined)).toEqual({ url: 'https://cdn.test/x.jpg', shape: 'square' });
  });

  // get_the_title / get_the_excerpt (tests/phpunit/tests/post/getTheExcerpt.php
  // test_the_excerpt_password_protected_post) as the embed template prints them: the post is embedded,
  // its text is not; its featured image is, as theme-compat/embed-content.php shows it unconditionally.
  it('shows a password-protected post as "Protected: …" with the notice for its excerpt, and its featured image', async () => {
    const image = await library('members', 1600, 900, [['large', 1024, 576], ['thumbnail', 150, 150]]);
    const words = Array.from({ length: 60 }, (_, i) => `hush${i}`).join(' ');
    const made = await t.request('POST', '/eventsuite/events/v1/events', {
      as: t.admin,
      json: { title: 'Members <Night>', description: words, excerpt: 'Only for members', image, password: 'pw', start_date: '2030-04-06 19:00', end_date: '2030-04-06 23:00' },
    });
    expect(made.status).toBe(201);
    const res = await t.app.inject({ method: 'GET', url: `${new URL(made.body.url).pathname}embed/` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<p class="wp-embed-heading"><a href="${made.body.url}" target="_top">Protected: Members &#60;Night&#62;</a></p>`);
    expect(res.body).toContain('<div class="wp-embed-excerpt"><p>There is no excerpt because this is a protected post.</p></div>');
    expect(res.body).not.toContain('hush');
    expect(res.body).not.toContain('Only for members');
    expect(res.body).not.toContain('wp-embed-more');
    // The document title is single_post_title's, without the prefix.
    expect(res.body).toContain('<title>Members &#60;Night&#62; – Example Events</title>');
    expect(res.body).toContain('<div class="wp-embed-featured-image rectangular"><a href="' + made.body.url + '" target="_top"><img src="http://example.test/wp-content/uploads/2030/01/members-1024x576.jpg" width="1024" height="576" alt=""></a></div>');
    // The oEmbed object frames this page.
    const oembed = await t.request('GET', '/oembed/1.0/embed', { query: { url: made.body.url } });
    expect(oembed.status).toBe(200);
    expect(oembed.body.html).toContain(`src="${made.body.url}embed/#?secret=`);
  });

  it('answers drafts and unknown slugs with the embed template\'s not-found card and a 404', async () => {
    const draft = await t.request('POST', '/eventsuite/events/v1/events', {
      as: t.admin,
      json: { title: 'Hidden', status: 'draft', start_date: '2030-04-02 19:00', end_date: '2030-04-02 23:00' },
    });
    // An ID beyond a 32-bit post ID names nothing on either engine (PostgreSQL refuses it in a query).
    for (const url of [`/event/${draft.body.slug}/embed/`, '/event/no-such-event/embed/', '/?p=987654&embed=true', '/?p=3000000000&embed=true']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
      expect(res.body).toContain('That embed cannot be found.');
      expect(res.body).toContain('<strong><a href="http://example.test" target="_top">Example Events</a></strong>');
      expect(res.body).not.toContain('Hidden');
    }
  });

  it('serves the embed view of a post at its ?p= permalink with embed=true, where its oEmbed iframe points', async () => {
    const id = await insertPost(t.db, { type: 'post', slug: 'hello-world', title: 'Hello World' });
    const oembed = await t.request('GET', '/oembed/1.0/embed', { query: { url: `http://example.test/?p=${id}` } });
    expect(oembed.status).toBe(200);
    const src = /<iframe[^>]*src="([^"#]+)/.exec(oembed.body.html)![1]!;
    expect(src).toBe(`http://example.test/?p=${id}&amp;embed=true`);
    const res = await t.app.inject({ method: 'GET', url: `/?p=${id}&embed=true` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-wp-embed']).toBe('true');
    expect(res.body).toContain(`<p class="wp-embed-heading"><a href="http://example.test/?p=${id}" target="_top">Hello World</a></p>`);
    expect(res.body).not.toContain('That embed cannot be found.');
    // Without embed, the same URL is the post's own page.
    const own = await t.app.inject({ method: 'GET', url: `/?p=${id}` });
    expect(own.statusCode).toBe(200);
    expect(own.headers['x-wp-embed']).toBeUndefined();
  });

  it('ends a cut excerpt with the "Continue reading" link to the post', async () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const created = await t.request('POST', '/eventsuite/events/v1/events', {
      as: t.admin,
      json: { title: 'Long Read', description: words, start_date: '2030-04-03 19:00', end_date: '2030-04-03 23:00' },
    });
    const res = await t.app.inject({ method: 'GET', url: `${new URL(created.body.url).pathname}embed/` });
    expect(res.body).toContain(
      `word34 &hellip; <a href="${created.body.url}" class="wp-embed-more" target="_top">Continue reading <span class="screen-reader-text">Long Read</span></a>`,
    );
    expect(res.body).not.toContain('word35');
  });
});
