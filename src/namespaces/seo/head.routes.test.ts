import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { insertAttachment } from '../events/fixtures.case.js';
import { addTicket } from '../tickets/fixtures.case.js';
import { eventProblems } from './head/event-schema.case.js';
import { seoService } from './index.js';
import { setSeoOption } from './store.js';

const NS = '/seo/v1';
const EV = '/eventsuite/events/v1';
const HOME = 'http://example.test';

describe.each(DIALECTS)('GET /seo/v1/get_head on %s', (engine) => {
  let t: TestApp;
  let event: any;
  let soldOutEvent: any;

  beforeAll(async () => {
    t = await startTestApp(engine);
    await t.ctx.options.set('blogname', 'Harbour Nights');
    await t.ctx.options.set('blogdescription', 'Music by the sea');
    await setSeoOption(t.ctx, 'company_name', 'Harbour Trust');
    await setSeoOption(t.ctx, 'company_logo', `${HOME}/wp-content/uploads/logo.png`);
    await setSeoOption(t.ctx, 'twitter_site', 'harbournights');
    await insertAttachment(t, `${HOME}/wp-content/uploads/pier.jpg`);
    const res = await t.request('POST', `${EV}/events`, {
      as: t.admin,
      json: {
        title: 'Jazz on the Pier', description: '<p>Three bands, one pier. Doors at seven.</p>', start_date: '2026-07-10 19:00', end_date: '2026-07-10 23:00',
        venue: { venue: 'North Pier', address: '1 Quay Street', city: 'Porto', country: 'Portugal' }, organizer: [{ organizer: 'Blue Seas Club', email: 'crew@example.org' }],
        categories: ['Music'], image: `${HOME}/wp-content/uploads/pier.jpg`,
      },
    });
    expect(res.status).toBe(201);
    event = res.body;
    await addTicket(t, event.id, { name: 'Standing', price: '15' });
    await addTicket(t, event.id, { name: 'VIP', price: '40' });
    await seoService.setPostFields(t.ctx, event.id, { metaDescription: 'Three jazz bands on the North Pier in Porto.' });
    soldOutEvent = (await t.request('POST', `${EV}/events`, { as: t.admin, json: { title: 'Sold out gig', start_date: '2026-08-01 20:00', end_date: '2026-08-01 22:00', venue: event.venue.id } })).body;
    await addTicket(t, soldOutEvent.id, { name: 'Only', price: '5', ticket: { mode: 'own', capacity: '0' } });
  });
  afterAll(() => t.close());

  const head = (url: string) => t.request('GET', `${NS}/get_head`, { query: { url } });
  const graphOf = (body: any) => body.json.schema['@graph'] as any[];

  it('an event page: title, description, canonical, robots, OG/Twitter and the HTML head', async () => {
    const res = await head(event.url);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
    expect(res.body.json).toMatchObject({
      title: 'Jazz on the Pier - Harbour Nights',
      description: 'Three jazz bands on the North Pier in Porto.',
      canonical: event.url,
      robots: { index: 'index', follow: 'follow', 'max-snippet': 'max-snippet:-1', 'max-image-preview': 'max-image-preview:large', 'max-video-preview': 'max-video-preview:-1' },
      og_type: 'article', og_title: 'Jazz on the Pier - Harbour Nights', og_url: event.url, og_site_name: 'Harbour Nights',
      og_image: [{ url: `${HOME}/wp-content/uploads/pier.jpg` }], twitter_card: 'summary_large_image', twitter_site: '@harbournights',
    });
    expect(res.body.html).toContain('<title>Jazz on the Pier - Harbour Nights</title>');
    expect(res.body.html).toContain(`<link rel="canonical" href="${event.url}" />`);
    expect(res.body.html).toContain('<meta property="og:type" content="article" />');
    const script = /<script type="application\/ld\+json" class="yoast-schema-graph">(.*)<\/script>/.exec(res.body.html)![1]!;
    expect(JSON.parse(script)).toEqual(res.body.json.schema);
  });

  it('the Event JSON-LD meets schema.org Event requirements, with offers from the tickets', async () => {
    const graph = graphOf((await head(event.url)).body);
    expect(graph.map((n) => n['@type'])).toEqual(['WebPage', 'BreadcrumbList', 'WebSite', 'Organization', 'Event']);
    const ev = graph.find((n) => n['@type'] === 'Event');
    expect(eventProblems(ev)).toEqual([]);
    expect(ev).toMatchObject({
      name: 'Jazz on the Pier',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: 'North Pier', address: { addressLocality: 'Porto', streetAddress: '1 Quay Street' } },
      organizer: { name: 'Blue Seas Club' },
    });
    expect(ev.offers.map((o: any) => [o.name, o.price, o.priceCurrency, o.availability])).toEqual([
      ['Standing', '15', 'USD', 'https://schema.org/InStock'],
      ['VIP', '40', 'USD', 'https://schema.org/InStock'],
    ]);
    const crumbs = graph.find((n) => n['@type'] === 'BreadcrumbList').itemListElement;
    expect(crumbs.map((c: any) => c.name)).toEqual(['Home', 'Events', 'Jazz on the Pier']);
    expect(crumbs[2].item).toBeUndefined();
    expect(graph.find((n) => n['@type'] === 'Organization')).toMatchObject({ name: 'Harbour Trust', sameAs: ['https://x.com/harbournights'], logo: { url: `${HOME}/wp-content/uploads/logo.png` } });
  });

  it('a sold-out ticket is offered as SoldOut', async () => {
    const ev = graphOf((await head(soldOutEvent.url)).body).find((n) => n['@type'] === 'Event');
    expect(eventProblems(ev)).toEqual([]);
    expect(ev.offers.availability).toBe('https://schema.org/SoldOut');
  });

  it('the eventProblems check catches a broken event', () => {
    expect(eventProblems({ '@type': 'Event', name: 'x', startDate: 'tomorrow', offers: { '@type': 'Offer', price: 'free', priceCurrency: '€', availability: 'yes' } })).toEqual(expect.arrayContaining([
      'startDate missing or not ISO 8601', 'location missing', 'offer price missing or not numeric', 'offer priceCurrency not an ISO 4217 code',
    ]));
  });

  it('venue and organizer pages carry Place and Organization/Person', async () => {
    const venue = graphOf((await head(event.venue.url)).body);
    expect(venue.at(-1)).toMatchObject({ '@type': 'Place', name: 'North Pier' });
    const organizer = graphOf((await head(event.organizer[0].url)).body);
    expect(['Organization', 'Person']).toContain(organizer.at(-1)['@type']);
    expect(organizer.at(-1).name).toBe('Blue Seas Club');
  });

  it('the front page and the calendar pages', async () => {
    const front = (await head(`${HOME}/`)).body.json;
    expect(front).toMatchObject({ title: 'Harbour Nights - Music by the sea', og_type: 'website', canonical: `${HOME}/` });
    expect(front.schema['@graph'].map((n: any) => n['@type'])).toEqual(['CollectionPage', 'WebSite', 'Organization']);
    expect(front.schema['@graph'][1].potentialAction[0]['@type']).toBe('SearchAction');
    expect((await head(`${HOME}/events/`)).body.json.title).toBe('Events Archive - Harbour Nights');
    expect((await head(`${HOME}/events/month/`)).body.json.canonical).toBe(`${HOME}/events/month/`);
    const category = (await head(`${HOME}/events/category/music/`)).body.json;
    expect(category.title).toBe('Music Archives - Harbour Nights');
  });

  it('the site representation\'s website name names the WebSite in the schema; titles keep the blog name', async () => {
    const saved = await t.request('POST', `${NS}/configuration/site_representation`, { json: { company_or_person: 'company', website_name: 'Harbour Nights Festival' }, as: t.admin });
    expect(saved.status).toBe(200);
    const front = (await head(`${HOME}/`)).body.json;
    expect(front.schema['@graph'].find((n: any) => n['@type'] === 'WebSite').name).toBe('Harbour Nights Festival');
    expect(front.og_site_name).toBe('Harbour Nights');
    await t.request('POST', `${NS}/configuration/site_representation`, { json: { company_or_person: 'company', website_name: '' }, as: t.admin });
    expect((await head(`${HOME}/`)).body.json.schema['@graph'].find((n: any) => n['@type'] === 'WebSite').name).toBe('Harbour Nights');
  });

  it('unknown URLs, other hosts and drafts get the 404 head with HTTP 404', async () => {
    for (const url of [`${HOME}/event/no-such-event/`, 'https://elsewhere.example/', `${HOME}/?p=999999`]) {
      const res = await head(url);
      expect(res.status).toBe(404);
      expect(res.body.status).toBe(404);
      expect(res.body.json).toMatchObject({ title: 'Page not found - Harbour Nights', robots: { index: 'noindex', follow: 'follow' } });
    }
  });

  it('noindex posts and a private site say noindex', async () => {
    await seoService.setPostFields(t.ctx, soldOutEvent.id, { noindex: true });
    expect((await head(soldOutEvent.url)).body.json.robots.index).toBe('noindex');
  });

  it('escapes markup in titles and keeps </script> out of the JSON-LD', async () => {
    const ev = (await t.request('POST', `${EV}/events`, { as: t.admin, json: { title: 'Rock </script><b>"night"', start_date: '2026-09-01 20:00', end_date: '2026-09-01 22:00' } })).body;
    const html = (await head(ev.url)).body.html as string;
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain('<b>');
  });

  it('refuses a url that is not a URL (400) and needs url', async () => {
    expect((await t.request('GET', `${NS}/get_head`, { query: { url: 'not a url' } })).body.code).toBe('rest_invalid_param');
    expect((await t.request('GET', `${NS}/get_head`)).body.code).toBe('rest_missing_callback_param');
  });

  it('the public service gives public pages the same head', async () => {
    const fromService = await seoService.headFor(t.ctx, event.url);
    expect(fromService.json).toEqual((await head(event.url)).body.json);
  });
});
