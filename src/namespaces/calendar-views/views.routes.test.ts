import { switchArea } from '../../area-state.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInForTest } from '../../auth/test-sessions.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';

const VIEWS = '/eventsuite/views/v2/html';

describe.each(DIALECTS)('calendar views on %s', (engine) => {
  let t: TestApp;
  const ids: Record<string, number> = {};
  let venueSlug = '';
  beforeAll(async () => {
    t = await startTestApp(engine);
    const make = async (key: string, body: Record<string, unknown>) => {
      const res = await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: body });
      expect(res.status).toBe(201);
      ids[key] = res.body.id;
      return res.body;
    };
    const jazz = await make('jazz', { title: 'Jazz <night>', start_date: '2026-05-14 20:00:00', end_date: '2026-05-14 23:00:00', venue: { venue: 'Blue Room', city: 'Leeds' }, cost: '10', categories: ['Live Music'], tags: ['Late Night'] });
    venueSlug = new URL(jazz.venue.url).pathname.split('/')[2]!;
    await make('fest', { title: 'Folk festival', start_date: '2026-05-29 10:00:00', end_date: '2026-06-02 18:00:00' });
    await make('market', { title: 'Market day', start_date: '2026-05-14', end_date: '2026-05-14', all_day: true });
    await make('hidden', { title: 'Hidden one', start_date: '2026-05-15 10:00:00', end_date: '2026-05-15 11:00:00', hide_from_listings: true });
    await make('draft', { title: 'Draft one', start_date: '2026-05-16 10:00:00', end_date: '2026-05-16 11:00:00', status: 'draft' });
  });
  afterAll(() => t.close());

  const page = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const noncesOf = (html: string) => JSON.parse(/data-js="tribe-events-view-nonce-data" type="application\/json">([^<]*)</.exec(html)![1]!);
  const viewDataOf = (html: string) => JSON.parse(/data-js="tribe-events-view-data" type="application\/json">([^<]*)</.exec(html)![1]!);

  it('serves the month page with the grid, JSON-LD, the view data, nonces and the discovery headers', async () => {
    const res = await page('/events/month/2026-05/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(res.headers['x-tec-api-version']).toBe('v1');
    expect(res.headers['x-tec-api-root']).toBe('http://example.test/wp-json/eventsuite/events/v1/');
    expect(res.headers['x-tec-api-origin']).toBe('http://example.test');
    expect(res.headers.link).toBe('<http://example.test/wp-json/>; rel="https://api.w.org/"');
    expect(res.body).toContain('data-js="tribe-events-view"');
    expect(res.body).toContain('Jazz &#60;night&#62;');
    expect(res.body).not.toContain('Jazz <night>');
    expect(res.body).not.toContain('Hidden one');
    expect(res.body).not.toContain('Draft one');
    expect(res.body).toContain('"@type":"Event"');
    const data = viewDataOf(res.body);
    expect(data).toMatchObject({ slug: 'month', the_date: '2026-05', next_month: '2026-06', prev_month: '2026-04', rest_method: 'POST', is_initial_load: true });
    expect(data.next_url).toBe('http://example.test/events/month/2026-06/');
    // The URL's date as Y-m-d (a month is its first day); false when the page shows the implicit date.
    expect(data.url_event_date).toBe('2026-05-01');
    expect(viewDataOf((await page('/events/month/')).body).url_event_date).toBe(false);
    // start_of_week 1 (Monday): May 2026 starts on a Friday: the grid runs Monday April 27 … Sunday May 31.
    expect(data.grid_start_date).toBe('2026-04-27');
    expect(Object.keys(data.days)).toHaveLength(35);
    expect(data.days['2026-05-14'].events).toEqual([ids.jazz]);
    expect(data.days['2026-05-14'].multiday_events).toEqual([ids.market]);
    expect(data.days['2026-05-31'].multiday_events).toEqual([ids.fest]);
    expect(data.days['2026-05-29'].found_events).toBe(1);
    // A signed-out visitor: the primary is the signed-out nonce, so the secondary is empty (as the original).
    expect(noncesOf(res.body)).toEqual({ _tec_view_rest_nonce_primary: expect.stringMatching(/^[0-9a-f]{10}$/), _tec_view_rest_nonce_secondary: '' });
  });

  it('the week start setting moves the grid', async () => {
    await t.ctx.options.set('start_of_week', 0);
    const data = viewDataOf((await page('/events/month/2026-05/')).body);
    expect(data.grid_start_date).toBe('2026-04-26');
    expect(Object.keys(data.days)).toHaveLength(42);
    await t.ctx.options.set('start_of_week', 1);
  });

  it('answers the REST route with the container markup as text/html', async () => {
    const nonces = noncesOf((await page('/events/month/2026-05/')).body);
    const res = await t.request('POST', VIEWS, { form: { url: 'http://example.test/events/month/2026-06/', ...nonces, should_manage_url: 'true' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(res.text.startsWith('<div class="tribe-common tribe-events tribe-events-view tribe-events-view--month"')).toBe(true);
    expect(viewDataOf(res.text)).toMatchObject({ slug: 'month', the_date: '2026-06', is_initial_load: false });
    expect(res.text).toContain('Folk festival');

    const get = await t.request('GET', VIEWS, { query: { url: 'http://example.test/events/list/', view: 'day', 'view_data[tribe-bar-date]': '2026-05-14', _tec_view_rest_nonce_secondary: nonces._tec_view_rest_nonce_primary } });
    expect(get.status).toBe(200);
    const day = viewDataOf(get.text);
    expect(day.slug).toBe('day');
    expect(day.events).toEqual([ids.market, ids.jazz]);
  });

  it('refuses calls without a valid nonce, and bad types with 400', async () => {
    const none = await t.request('POST', VIEWS, { form: { url: 'http://example.test/events/' } });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('rest_forbidden');
    const wrong = await t.request('POST', VIEWS, { form: { url: 'http://example.test/events/', _tec_view_rest_nonce_primary: 'abcdef0123' } });
    expect(wrong.status).toBe(401);
    const nonces = noncesOf((await page('/events/list/')).body);
    const missing = await t.request('POST', VIEWS, { form: { ...nonces } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('rest_missing_callback_param');
    const badData = await t.request('POST', VIEWS, { json: { url: 'http://example.test/events/', view_data: 'x', ...nonces } });
    expect(badData.status).toBe(400);
    expect(badData.body.data.params.view_data).toBe('view_data is not of type object.');
    const badUrl = await t.request('POST', VIEWS, { json: { url: ['x'], ...nonces } });
    expect(badUrl.status).toBe(400);
    expect(Object.keys(badUrl.body.data.params)).toEqual(['url']);
    const huge = await t.request('POST', VIEWS, { json: { url: `http://example.test/events/list/?tribe-bar-search=${'a'.repeat(100_000)}`, ...nonces } });
    expect(huge.status).toBe(200);
  });

  it('a browser signed in by cookie: the page gives its own and the signed-out nonce, and the route renders for that user', async () => {
    await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: { title: 'Private rehearsal', start_date: '2026-08-12 18:00:00', end_date: '2026-08-12 19:00:00', status: 'private' } });
    const { cookie } = await signInForTest(t.ctx, t.admin.id);
    const signedInPage = await page('/events/month/2026-08/', { cookie });
    const signedIn = noncesOf(signedInPage.body);
    // What only this user may see is kept out of shared caches; a visitor's page is not marked so.
    expect(signedInPage.headers['cache-control']).toBe('no-cache, must-revalidate, max-age=0, private');
    expect((await page('/events/month/2026-08/')).headers['cache-control']).toBeUndefined();
    expect(signedIn._tec_view_rest_nonce_primary).toMatch(/^[0-9a-f]{10}$/);
    expect(signedIn._tec_view_rest_nonce_secondary).toMatch(/^[0-9a-f]{10}$/);
    expect(signedIn._tec_view_rest_nonce_primary).not.toBe(signedIn._tec_view_rest_nonce_secondary);
    const url = 'http://example.test/events/list/?tribe-bar-date=2026-08-01';
    // The cookie without a REST nonce, and the view nonces: rendered as the signed-in user.
    const mine = await t.request('POST', VIEWS, { form: { url, ...signedIn }, headers: { cookie } });
    expect(mine.status).toBe(200);
    expect(mine.text).toContain('Private rehearsal');
    expect(mine.headers['cache-control']).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
    // The same nonces without the cookie: only the signed-out one verifies, and nothing private shows.
    const anonymous = await t.request('POST', VIEWS, { form: { url, ...signedIn } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).not.toContain('Private rehearsal');
    expect(anonymous.headers['cache-control']).toBeUndefined();
    const userNonceOnly = await t.request('POST', VIEWS, { form: { url, _tec_view_rest_nonce_primary: signedIn._tec_view_rest_nonce_primary } });
    expect(userNonceOnly.status).toBe(401);
  });

  it('list view: upcoming events from the reference date; search narrows; past mode; day and today pages', async () => {
    const list = await page('/events/list/?tribe-bar-date=2026-05-01');
    expect(list.statusCode).toBe(200);
    expect(viewDataOf(list.body).events).toEqual([ids.market, ids.jazz, ids.fest]);
    const search = await page('/events/list/?tribe-bar-date=2026-05-01&tribe-bar-search=jazz');
    expect(viewDataOf(search.body).events).toEqual([ids.jazz]);
    const none = await page('/events/list/?tribe-bar-date=2026-05-01&tribe-bar-search=zzz');
    expect(none.body).toContain('There were no results found for <strong>"zzz"</strong>.');
    const past = await page('/events/list/?eventDisplay=past&tribe-bar-date=2026-07-01');
    expect(viewDataOf(past.body)).toMatchObject({ past: true, events: [ids.market, ids.jazz, ids.fest] });
    const day = await page('/events/2026-05-30/');
    expect(viewDataOf(day.body)).toMatchObject({ slug: 'day', events: [ids.fest], url_event_date: '2026-05-30' });
    expect(viewDataOf(list.body).url_event_date).toBe('2026-05-01');
    expect(viewDataOf((await page('/events/list/')).body).url_event_date).toBe(false);
    expect((await page('/events/today/')).statusCode).toBe(200);
    expect((await page('/events/')).statusCode).toBe(200);
    expect((await page('/events/nothing/here/at/all/')).statusCode).toBe(404);
    expect((await page('/events/month/2026-13/')).statusCode).toBe(404);
  });

  it('an empty month or day says what the original says: a later event, upcoming ones, or none', async () => {
    const clocked = await startTestApp(engine, {}, { now: () => new Date('2026-05-01T12:00:00Z') });
    try {
      const messages = async (path: string) => viewDataOf((await clocked.app.inject({ method: 'GET', url: path })).body).messages;
      expect(await messages('/events/month/2026-05/')).toEqual({ notice: ['There are no upcoming events.'] });
      expect(await messages('/events/2026-05-20/')).toEqual({ notice: ['There are no upcoming events.'] });
      const created = await clocked.request('POST', '/eventsuite/events/v1/events', { as: clocked.admin, json: { title: 'Picnic', start_date: '2026-07-04 12:00:00', end_date: '2026-07-04 15:00:00' } });
      expect(created.status).toBe(201);
      // An event after the view's date: the original's fast-forward message, linking the view of that event's month or day.
      const ff = (url: string) => `Jump to the <a href="${url}" class="tribe-events-c-messages__message-list-item-link tribe-common-anchor-thin-alt" data-js="tribe-events-view-link">next upcoming events</a>.`;
      expect(await messages('/events/month/2026-05/')).toEqual({ notice: [`There were no results found for this view. ${ff('http://example.test/events/month/2026-07/')}`] });
      expect(await messages('/events/2026-05-20/')).toEqual({ notice: [`No events scheduled for May 20, 2026. ${ff('http://example.test/events/2026-07-04/')}`] });
      const ffPage = (await clocked.app.inject({ method: 'GET', url: '/events/month/2026-05/' })).body;
      expect(ffPage).toContain(`role="alert">There were no results found for this view. ${ff('http://example.test/events/month/2026-07/')}</div>`);
      expect((await clocked.app.inject({ method: 'GET', url: '/events/month/2026-07/' })).statusCode).toBe(200);
      // A term archive offers no fast-forward link.
      await clocked.request('POST', '/eventsuite/events/v1/categories', { as: clocked.admin, json: { name: 'Empty' } });
      expect(await messages('/events/category/empty/month/2026-05/')).toEqual({ notice: ['There were no results found.'] });
      // Upcoming events, none after the view's date.
      expect(await messages('/events/month/2026-08/')).toEqual({ notice: ['There were no results found.'] });
      expect(await messages('/events/2026-08-20/')).toEqual({ notice: ['No events scheduled for August 20, 2026.'] });
      // A keyword: the keyword message, the same for day and list.
      expect(await messages('/events/2026-05-20/?tribe-bar-search=zzz')).toEqual({ notice: ['There were no results found for <strong>"zzz"</strong>.'] });
      expect(await messages('/events/month/2026-05/?tribe-bar-search=zzz')).toEqual({ notice: ['There were no results found for <strong>"zzz"</strong> this month.'] });
      // The keyword is escaped in the message's HTML.
      expect(await messages('/events/month/2026-05/?tribe-bar-search=%3Cb%3Ex')).toEqual({ notice: ['There were no results found for <strong>"&#60;b&#62;x"</strong> this month.'] });
    } finally {
      await clocked.close();
    }
  });

  it('category and tag archives: the term URLs the API gives show that term\'s events, and their links stay in the archive', async () => {
    const jazz = (await t.request('GET', `/eventsuite/events/v1/events/${ids.jazz}`)).body;
    const category = (await t.request('GET', `/eventsuite/events/v1/categories/${jazz.categories[0].id}`)).body;
    const tag = (await t.request('GET', `/eventsuite/events/v1/tags/${jazz.tags[0].id}`)).body;
    expect(category.url).toBe(`${t.ctx.urls.home}/events/category/live-music/`);
    expect(tag.url).toBe(`${t.ctx.urls.home}/tag/late-night/`);
    for (const url of [category.url, tag.url]) {
      const archive = await page(`${new URL(url).pathname}?tribe-bar-date=2026-05-01`);
      expect(archive.statusCode, url).toBe(200);
      expect(viewDataOf(archive.body).events, url).toEqual([ids.jazz]);
    }
    const list = viewDataOf((await page('/events/category/live-music/list/?tribe-bar-date=2026-05-01')).body);
    expect(list).toMatchObject({ slug: 'list', events: [ids.jazz] });
    expect(list.url).toBe(`${t.ctx.urls.home}/events/category/live-music/list/?tribe-bar-date=2026-05-01`);
    const month = viewDataOf((await page('/events/category/live-music/month/2026-05/')).body);
    expect(month.events).toEqual([ids.jazz]);
    expect(month.next_url).toBe(`${t.ctx.urls.home}/events/category/live-music/month/2026-06/`);
    expect(month.days['2026-05-14'].day_url).toBe(`${t.ctx.urls.home}/events/category/live-music/day/2026-05-14/`);
    expect(viewDataOf((await page(new URL(month.days['2026-05-14'].day_url).pathname)).body).events).toEqual([ids.jazz]);
    // The keyword carries over to the day links, as the original's "view more" link.
    const searched = viewDataOf((await page('/events/category/live-music/month/2026-05/?tribe-bar-search=jazz')).body);
    expect(searched.days['2026-05-14'].day_url).toBe(`${t.ctx.urls.home}/events/category/live-music/day/2026-05-14/?tribe-bar-search=jazz`);
    expect(viewDataOf((await page('/events/month/2026-05/?tribe-bar-search=jazz')).body).days['2026-05-14'].day_url).toBe(`${t.ctx.urls.home}/events/2026-05-14/?tribe-bar-search=jazz`);
    const tagMonth = viewDataOf((await page('/events/tag/late-night/month/2026-05/')).body);
    expect(tagMonth.events).toEqual([ids.jazz]);
    const nonce = noncesOf((await page('/events/')).body)._tec_view_rest_nonce_primary;
    const rest = await t.request('POST', VIEWS, { form: { url: `${t.ctx.urls.home}/events/category/live-music/month/2026-05/`, _tec_view_rest_nonce_secondary: nonce } });
    expect(rest.status).toBe(200);
    expect(viewDataOf(rest.text).events).toEqual([ids.jazz]);
    // The export link is the view's URL with ical=1 (as the original's): that month's events of the term.
    expect(month.ical.link.url).toBe(`${t.ctx.urls.home}/events/category/live-music/month/2026-05/?ical=1`);
    const ical = await page(`${new URL(month.ical.link.url).pathname}${new URL(month.ical.link.url).search}`);
    expect(ical.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(ical.body.match(/^SUMMARY:.*$/gm)).toEqual(['SUMMARY:Jazz']); // the title's '<night>' is stripped as markup, as the original's feed does
    expect((await page('/events/category/no-such-category/')).statusCode).toBe(404);
    expect((await page('/tag/no-such-tag/')).statusCode).toBe(404);
  });

  it('the discovery root header names what the page shows: the event, the term archive\'s or the venue\'s events', async () => {
    const api = 'http://example.test/wp-json/eventsuite/events/v1/';
    const jazz = (await t.request('GET', `/eventsuite/events/v1/events/${ids.jazz}`)).body;
    const root = async (path: string) => {
      const res = await page(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['x-tec-api-version'], path).toBe('v1');
      return res.headers['x-tec-api-root'];
    };
    expect(await root(new URL(jazz.url).pathname)).toBe(`${api}events/${ids.jazz}`);
    expect(await root('/events/category/live-music/')).toBe(`${api}events/?categories=live-music`);
    expect(await root('/events/category/live-music/month/2026-05/')).toBe(`${api}events/?categories=live-music`);
    expect(await root('/tag/late-night/')).toBe(`${api}events/?tags=late-night`);
    expect(await root(`/venue/${venueSlug}/`)).toBe(`${api}events/?venue=${jazz.venue.id}`);
    expect(await root('/events/list/')).toBe(api);
    // HEAD: the same headers, the page's length, no body.
    const [listGet, listHead] = [await page('/events/list/'), await t.app.inject({ method: 'HEAD', url: '/events/list/' })];
    expect(listHead.statusCode).toBe(200);
    expect(listHead.body).toBe('');
    expect(listHead.headers['content-length']).toBe(String(Buffer.byteLength(listGet.body)));
    expect(listHead.headers['x-tec-api-root']).toBe(api);
    // The site's own pages outside the calendar carry them too (the front page is where clients look).
    expect(await root('/')).toBe(api);
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(head.headers['x-tec-api-version']).toBe('v1');
    expect(head.headers['x-tec-api-origin']).toBe('http://example.test');
  });

  it('the map link of the venue follows show_map_link of the event and of the venue', async () => {
    const withMap = (await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: {
      title: 'Map night', start_date: '2026-07-01 20:00:00', end_date: '2026-07-01 22:00:00', show_map_link: true,
      venue: { venue: 'Corn Exchange', address: '1 Call Lane', city: 'Leeds', country: 'United Kingdom', show_map_link: false },
    } })).body;
    const link = 'href="https://maps.google.com/maps?f=q&#38;source=s_q&#38;hl=en&#38;geocode=&#38;q=1%20Call%20Lane%20Leeds%20United%20Kingdom"';
    const evPage = (await page(new URL(withMap.url).pathname)).body;
    expect(/<dt>Venue<\/dt>.*?<\/dd>/s.exec(evPage)?.[0]).toContain(link);
    expect((await page(new URL(withMap.venue.url).pathname)).body).not.toContain('maps.google.com');
    expect((await t.request('POST', `/eventsuite/events/v1/events/${withMap.id}`, { as: t.admin, json: { show_map_link: false } })).status).toBe(200);
    expect((await t.request('POST', `/eventsuite/events/v1/venues/${withMap.venue.id}`, { as: t.admin, json: { venue: 'Corn Exchange', show_map_link: 'true' } })).status).toBe(200);
    expect((await page(new URL(withMap.url).pathname)).body).not.toContain('maps.google.com');
    expect((await page(new URL(withMap.venue.url).pathname)).body).toContain(link);
  });

  it('event, venue and organizer pages; the feed and embed URLs still answer as before', async () => {
    const single = await t.request('GET', `/eventsuite/events/v1/events/${ids.jazz}`);
    const path = new URL(single.body.url).pathname;
    const ev = await page(path);
    expect(ev.statusCode).toBe(200);
    expect(ev.body).toContain('<h1 class="tribe-events-single-event-title">Jazz &#60;night&#62;</h1>');
    expect(ev.body).toContain('application/ld+json');
    expect(ev.headers['x-tec-api-version']).toBe('v1');
    // The head carries the same discovery as the headers (checked above).
    expect(ev.body).toContain(`<meta name="tec-api-version" content="v1"><meta name="tec-api-origin" content="http://example.test"><link rel="alternate" href="http://example.test/wp-json/eventsuite/events/v1/events/${ids.jazz}" />`);
    const ics = await page(`${path}?ical=1`);
    expect(ics.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect((await page('/events/?ical=1')).headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect((await page(`${path}embed/`)).headers['x-wp-embed']).toBe('true');
    const venue = await page(`/venue/${venueSlug}/`);
    expect(venue.statusCode).toBe(200);
    expect(venue.body).toContain('Blue Room');
    expect((await page('/venue/no-such-venue/')).statusCode).toBe(404);
    const draft = await t.request('GET', `/eventsuite/events/v1/events/${ids.draft}`, { as: t.admin });
    expect((await page(`/event/${draft.body.slug}/`)).statusCode).toBe(404);
  });

  it('pages answer 404 while the area is off', async () => {
    await switchArea(t.ctx, 'calendar-views', false);
    try {
      expect((await page('/events/month/2026-05/')).statusCode).toBe(404);
      expect((await page('/events/')).statusCode).toBe(404);
      expect((await page('/events/?ical=1')).statusCode).toBe(200);
    } finally {
      await switchArea(t.ctx, 'calendar-views', true);
    }
  });
});
