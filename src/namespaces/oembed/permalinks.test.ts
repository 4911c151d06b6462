import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { Areas } from '../../areas.js';
import { loadConfig, siteUrls } from '../../config.js';
import { allAreas } from '../index.js';
import { createTestDb, DIALECTS, type TestDb } from '../../storage/test-db.js';
import { fixtureContext, insertPost } from './oembed-fixtures.js';
import { parsePermalink, permalinkFor, resolvePermalink } from './permalinks.js';

const HOME = 'http://example.test';
const types = new Areas(allAreas()).postTypes;
const ctxUrls = { urls: siteUrls(loadConfig({}, { baseUrl: HOME }), types) } as AppContext;

describe('permalinkFor', () => {
  it('builds <home>/<type-base>/<slug>/ per embeddable type', () => {
    expect(permalinkFor(ctxUrls, { type: 'tribe_events', slug: 'spring-gala', id: 3 })).toBe('http://example.test/event/spring-gala/');
    expect(permalinkFor(ctxUrls, { type: 'tribe_venue', slug: 'hall', id: 4 })).toBe('http://example.test/venue/hall/');
    expect(permalinkFor(ctxUrls, { type: 'tribe_organizer', slug: 'ada', id: 5 })).toBe('http://example.test/organizer/ada/');
  });

  it('falls back to ?p=<id> for other types and empty slugs', () => {
    expect(permalinkFor(ctxUrls, { type: 'ticket', slug: 'x', id: 9 })).toBe('http://example.test/?p=9');
    expect(permalinkFor(ctxUrls, { type: 'tribe_events', slug: '', id: 10 })).toBe('http://example.test/?p=10');
  });

  it('encodes unsafe slug characters but not existing escapes', () => {
    expect(permalinkFor(ctxUrls, { type: 'tribe_events', slug: 'a b/ü', id: 1 })).toBe('http://example.test/event/a%20b%2F%C3%BC/');
    expect(permalinkFor(ctxUrls, { type: 'tribe_events', slug: '%c3%bc', id: 1 })).toBe('http://example.test/event/%c3%bc/');
  });
});

describe('parsePermalink', () => {
  it('reads pretty permalinks, with or without trailing slash or embed/', () => {
    for (const url of ['http://example.test/event/gala/', 'http://example.test/event/gala', 'https://example.test/event/gala/', 'http://www.example.test/event/gala/embed/', 'http://EXAMPLE.test/event/gala/?utm=1#x']) {
      expect(parsePermalink(HOME, types, url), url).toEqual({ kind: 'slug', type: 'tribe_events', slug: 'gala' });
    }
    expect(parsePermalink(HOME, types, 'http://example.test/venue/hall/')).toMatchObject({ type: 'tribe_venue' });
    expect(parsePermalink(HOME, types, 'http://example.test/organizer/ada/')).toMatchObject({ type: 'tribe_organizer' });
  });

  it('reads ?p=<id>, ?page_id=<id> and ?<post_type>=<slug>', () => {
    expect(parsePermalink(HOME, types, 'http://example.test/?p=12')).toEqual({ kind: 'id', id: 12 });
    expect(parsePermalink(HOME, types, 'http://example.test/?page_id=7')).toEqual({ kind: 'id', id: 7 });
    expect(parsePermalink(HOME, types, 'http://example.test/?tribe_venue=hall')).toEqual({ kind: 'slug', type: 'tribe_venue', slug: 'hall' });
  });

  it('looks a percent-encoded slug up as WordPress stores it (lower-case octets)', () => {
    expect(parsePermalink(HOME, types, 'http://example.test/event/%C3%BC/')).toEqual({ kind: 'slug', type: 'tribe_events', slug: '%c3%bc' });
  });

  it('refuses other hosts, schemes, unknown bases and deeper paths', () => {
    for (const url of ['http://other.test/event/gala/', 'http://other.test/?p=5', 'ftp://example.test/event/gala/', 'http://example.test/page/gala/', 'http://example.test/event/gala/extra/', 'not a url']) {
      expect(parsePermalink(HOME, types, url), url).toBeUndefined();
    }
  });

  it('reads the home URL as the front page, whatever its query', () => {
    expect(parsePermalink(HOME, types, 'http://example.test/')).toEqual({ kind: 'front' });
    expect(parsePermalink(HOME, types, 'http://example.test')).toEqual({ kind: 'front' });
    expect(parsePermalink(HOME, types, 'http://example.test/?page=2')).toEqual({ kind: 'front' });
    // url_to_postid drops a query it cannot read as an ID before comparing with the home URL.
    expect(parsePermalink(HOME, types, 'http://example.test/?p=abc')).toEqual({ kind: 'front' });
    expect(parsePermalink(HOME, types, 'http://example.test/?p=0')).toEqual({ kind: 'front' });
  });

  it('honours a home URL with a path', () => {
    expect(parsePermalink('http://example.test/site', types, 'http://example.test/site/event/gala/')).toMatchObject({ slug: 'gala' });
    expect(parsePermalink('http://example.test/site', types, 'http://example.test/event/gala/')).toBeUndefined();
    expect(parsePermalink('http://example.test/site', types, 'http://example.test/sitex/event/gala/')).toBeUndefined();
  });
});

describe.each(DIALECTS)('resolvePermalink on %s', (engine) => {
  let t: TestDb;
  let ctx: AppContext;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestDb(engine);
    ctx = fixtureContext(t.db);
    ids.event = await insertPost(t.db, { slug: 'gala' });
    ids.venue = await insertPost(t.db, { type: 'tribe_venue', slug: 'gala' });
    ids.draft = await insertPost(t.db, { slug: 'draft-one', status: 'draft' });
    ids.locked = await insertPost(t.db, { slug: 'locked', password: 'secret' });
    ids.ticket = await insertPost(t.db, { type: 'ticket', slug: 'ticket-one' });
    ids.unicode = await insertPost(t.db, { slug: '%c3%bcber' });
    ids.post = await insertPost(t.db, { type: 'post', slug: 'hello' });
    ids.page = await insertPost(t.db, { type: 'page', slug: 'about' });
  });
  afterAll(() => t.destroy());

  it('finds published posts by pretty permalink and by id', async () => {
    expect((await resolvePermalink(ctx, 'http://example.test/event/gala/'))?.id).toBe(ids.event);
    expect((await resolvePermalink(ctx, 'http://example.test/venue/gala/'))?.id).toBe(ids.venue);
    expect((await resolvePermalink(ctx, `http://example.test/?p=${ids.venue}`))?.id).toBe(ids.venue);
    expect((await resolvePermalink(ctx, 'http://example.test/event/%C3%BCber/'))?.id).toBe(ids.unicode);
  });

  it('finds the site\'s posts and pages by their ?p= permalink, as the original embeds every public type', async () => {
    expect((await resolvePermalink(ctx, `http://example.test/?p=${ids.post}`))?.id).toBe(ids.post);
    expect((await resolvePermalink(ctx, `http://example.test/?page_id=${ids.page}`))?.id).toBe(ids.page);
  });

  it('resolves the home URL to the static front page only while there is one', async () => {
    expect(await resolvePermalink(ctx, 'http://example.test/')).toBeUndefined();
    await ctx.options.set('page_on_front', ids.page);
    await ctx.options.set('show_on_front', 'page');
    try {
      expect((await resolvePermalink(ctx, 'http://example.test/'))?.id).toBe(ids.page);
      await ctx.options.set('page_on_front', ids.post);
      expect(await resolvePermalink(ctx, 'http://example.test/')).toBeUndefined();
    } finally {
      await ctx.options.set('show_on_front', 'posts');
    }
    expect(await resolvePermalink(ctx, 'http://example.test/')).toBeUndefined();
  });

  it('round-trips permalinkFor', async () => {
    const post = await resolvePermalink(ctx, `http://example.test/?p=${ids.event}`);
    expect(permalinkFor(ctx, post!)).toBe('http://example.test/event/gala/');
  });

  it('resolves password-protected posts, which the original embeds (is_post_publicly_viewable)', async () => {
    expect((await resolvePermalink(ctx, 'http://example.test/event/locked/'))?.id).toBe(ids.locked);
    expect((await resolvePermalink(ctx, `http://example.test/?p=${ids.locked}`))?.id).toBe(ids.locked);
  });

  it('does not resolve drafts, other types or unknown slugs', async () => {
    expect(await resolvePermalink(ctx, 'http://example.test/event/draft-one/')).toBeUndefined();
    expect(await resolvePermalink(ctx, `http://example.test/?p=${ids.draft}`)).toBeUndefined();
    expect(await resolvePermalink(ctx, `http://example.test/?p=${ids.ticket}`)).toBeUndefined();
    expect(await resolvePermalink(ctx, 'http://example.test/event/nope/')).toBeUndefined();
    expect(await resolvePermalink(ctx, 'http://example.test/organizer/gala/')).toBeUndefined();
  });
});
