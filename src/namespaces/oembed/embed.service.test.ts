import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { createTestDb, DIALECTS, type TestDb } from '../../storage/test-db.js';
import { embedDataForUrl, embedSize } from './embed.service.js';
import { fixtureContext, insertPost, insertUser } from './oembed-fixtures.js';

describe('embedSize', () => {
  it.each([
    [600, 600, 338],
    [800, 600, 338],
    [500, 500, 282],
    [400, 400, 225],
    [356, 356, 201],
    [355, 355, 200],
    [300, 300, 200],
    [200, 200, 200],
    [100, 200, 200],
    [0, 200, 200],
    ['abc', 200, 200],
    ['450px', 450, 254],
    ['-450', 450, 254],
    [' 320', 320, 200],
    ['1e3', 600, 338],
  ])('maxwidth %j → %i × %i', (maxwidth, width, height) => {
    expect(embedSize(maxwidth)).toEqual({ width, height });
  });
});

describe.each(DIALECTS)('embedDataForUrl on %s', (engine) => {
  let t: TestDb;
  let ctx: AppContext;

  beforeAll(async () => {
    t = await createTestDb(engine);
    ctx = fixtureContext(t.db);
    await ctx.options.set('blogname', 'Example Events');
    const ada = await insertUser(t.db, { login: 'ada', display_name: 'Ada Lovelace', nicename: 'ada-l' });
    await insertPost(t.db, { slug: 'spring-gala', title: 'Spring Gala', author: ada });
    await insertPost(t.db, { type: 'tribe_venue', slug: 'hall', title: 'Hall', image_url: 'https://cdn.test/hall.jpg' });
    await insertPost(t.db, { type: 'tribe_organizer', slug: 'ghost', title: 'Ghost', author: 999_999 });
  });
  afterAll(() => t.destroy());

  it('answers the fields in order, with the author and the default size', async () => {
    const data = await embedDataForUrl(ctx, 'http://example.test/event/spring-gala/', 600);
    expect(Object.keys(data!)).toEqual(['version', 'provider_name', 'provider_url', 'author_name', 'author_url', 'title', 'type', 'width', 'height', 'html']);
    expect(data).toMatchObject({
      version: '1.0',
      provider_name: 'Example Events',
      provider_url: 'http://example.test',
      author_name: 'Ada Lovelace',
      author_url: 'http://example.test/author/ada-l/',
      title: 'Spring Gala',
      type: 'rich',
      width: 600,
      height: 338,
    });
    expect(data!.html).toMatch(/^<blockquote class="wp-embedded-content" data-secret="([a-zA-Z0-9]{10})"><a href="http:\/\/example.test\/event\/spring-gala\/">Spring Gala<\/a><\/blockquote><iframe sandbox="allow-scripts" security="restricted" src="http:\/\/example.test\/event\/spring-gala\/embed\/#\?secret=\1" width="600" height="338"/);
  });

  it('uses the site name and home without an author, and adds the thumbnail when there is an image', async () => {
    const data = await embedDataForUrl(ctx, 'http://example.test/venue/hall/', 300);
    expect(data).toMatchObject({ author_name: 'Example Events', author_url: 'http://example.test', width: 300, height: 200 });
    expect(Object.keys(data!).slice(-3)).toEqual(['thumbnail_url', 'thumbnail_width', 'thumbnail_height']);
    expect(data).toMatchObject({ thumbnail_url: 'https://cdn.test/hall.jpg', thumbnail_width: 300, thumbnail_height: 200 });
  });

  it('sizes the thumbnail of a library image as the original: its own file fitted to the width, never enlarged', async () => {
    const file = async (url: string, width: number, height: number) => {
      const id = await insertPost(t.db, { type: 'attachment', status: 'inherit', slug: `a-${width}`, title: 'a', image_url: url });
      await t.db.insertInto('media_files').values({ post_id: id, path: url.split('/wp-content/uploads/')[1]!, mime: 'image/jpeg', width, height, filesize: 1, source_url: '', source_key: '', sizes: '', original_file: '' }).execute();
    };
    await file('http://example.test/wp-content/uploads/2030/01/wide.jpg', 1600, 900);
    await file('http://example.test/wp-content/uploads/2030/01/small.jpg', 400, 300);
    await insertPost(t.db, { type: 'tribe_venue', slug: 'wide', title: 'Wide', image_url: 'http://example.test/wp-content/uploads/2030/01/wide.jpg' });
    await insertPost(t.db, { type: 'tribe_venue', slug: 'small', title: 'Small', image_url: 'http://example.test/wp-content/uploads/2030/01/small.jpg' });
    expect(await embedDataForUrl(ctx, 'http://example.test/venue/wide/', 600)).toMatchObject({ thumbnail_url: 'http://example.test/wp-content/uploads/2030/01/wide.jpg', thumbnail_width: 600, thumbnail_height: 338 });
    expect(await embedDataForUrl(ctx, 'http://example.test/venue/wide/', 300)).toMatchObject({ thumbnail_width: 300, thumbnail_height: 169 });
    expect(await embedDataForUrl(ctx, 'http://example.test/venue/small/', 600)).toMatchObject({ thumbnail_width: 400, thumbnail_height: 300 });
  });

  it('treats an author that no longer exists as no author', async () => {
    const data = await embedDataForUrl(ctx, 'http://example.test/organizer/ghost/', 600);
    expect(data).toMatchObject({ author_name: 'Example Events', author_url: 'http://example.test' });
    expect(data).not.toHaveProperty('thumbnail_url');
  });

  it('is undefined for URLs naming nothing embeddable', async () => {
    expect(await embedDataForUrl(ctx, 'http://example.test/event/missing/', 600)).toBeUndefined();
  });
});
