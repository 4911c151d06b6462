import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';

const NS = '/eventsuite/events/v1';
const NOW = new Date('2025-04-01T12:00:00Z');

/** `концерт-в-парке` as WordPress stores it. */
const CONCERT = '%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82-%d0%b2-%d0%bf%d0%b0%d1%80%d0%ba%d0%b5';
const MUSIC = '%d0%bc%d1%83%d0%b7%d1%8b%d0%ba%d0%b0';

describe.each(DIALECTS)('slugs of non-Latin titles on %s', (engine) => {
  let t: TestApp;
  let eventId: number;
  let categoryId: number;

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => NOW });
    const res = await t.request('POST', `${NS}/events`, {
      as: t.admin,
      json: { title: 'Концерт в парке', start_date: '2025-04-10 19:00', end_date: '2025-04-10 21:00', categories: ['Музыка'], venue: { venue: 'Зал Чайковского' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    eventId = res.body.id;
    categoryId = res.body.categories[0].id;
  });
  afterAll(() => t.close());

  it('stores the percent-encoded slug WordPress makes, and numbers a second one', async () => {
    const ev = await t.request('GET', `${NS}/events/${eventId}`);
    expect(ev.body).toMatchObject({ slug: CONCERT, url: `http://example.test/event/${CONCERT}/` });
    expect(ev.body.categories[0]).toMatchObject({ name: 'Музыка', slug: MUSIC });
    expect((await t.request('GET', `${NS}/categories/${categoryId}`)).body.url).toBe(`http://example.test/events/category/${MUSIC}/`);
    expect(ev.body.venue.slug).toBe('%d0%b7%d0%b0%d0%bb-%d1%87%d0%b0%d0%b9%d0%ba%d0%be%d0%b2%d1%81%d0%ba%d0%be%d0%b3%d0%be');
    const again = await t.request('POST', `${NS}/events`, { as: t.admin, json: { title: 'Концерт в парке', start_date: '2025-04-11 19:00', end_date: '2025-04-11 21:00' } });
    expect(again.body.slug).toBe(`${CONCERT}-2`);
    const asked = await t.request('POST', `${NS}/events`, { as: t.admin, json: { title: 'Other', slug: 'Концерт в парке', start_date: '2025-04-12 19:00', end_date: '2025-04-12 21:00' } });
    expect(asked.body.slug).toBe(`${CONCERT}-3`);
  });

  it('finds the event by slug written, as the client percent-encodes it, or as stored', async () => {
    for (const path of [encodeURIComponent('концерт-в-парке'), CONCERT, CONCERT.toUpperCase()]) {
      const res = await t.request('GET', `${NS}/events/by-slug/${path}`);
      expect(res.status, path).toBe(200);
      expect(res.body.id).toBe(eventId);
    }
    const venue = (await t.request('GET', `${NS}/events/${eventId}`)).body.venue;
    const byVenueSlug = await t.request('GET', `${NS}/venues/by-slug/${encodeURIComponent('зал-чайковского')}`);
    expect(byVenueSlug.body.id).toBe(venue.id);
  });

  it('opens the links it hands out', async () => {
    const ev = (await t.request('GET', `${NS}/events/${eventId}`)).body;
    const path = new URL(ev.url).pathname;
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Концерт в парке');
    expect((await t.app.inject({ method: 'GET', url: `${path}embed/` })).statusCode).toBe(200);
    const ical = await t.app.inject({ method: 'GET', url: `${path}?ical=1` });
    expect(ical.statusCode).toBe(200);
    expect(ical.body).toContain('SUMMARY:Концерт в парке');
    const venuePage = await t.app.inject({ method: 'GET', url: new URL(ev.venue.url).pathname });
    expect(venuePage.statusCode).toBe(200);
    expect(venuePage.body).toContain('Зал Чайковского');
    const category = (await t.request('GET', `${NS}/categories/${categoryId}`)).body;
    const archive = await t.app.inject({ method: 'GET', url: new URL(category.url).pathname });
    expect(archive.statusCode).toBe(200);
    expect(archive.body).toContain(`data-event-id="${eventId}"`);
    const oembed = await t.request('GET', '/oembed/1.0/embed', { query: { url: ev.url } });
    expect(oembed.status).toBe(200);
    expect(oembed.body.title).toBe('Концерт в парке');
  });

  it('matches term slugs in filters and lists as get_term_by sanitizes them', async () => {
    const filtered = await t.request('GET', `${NS}/events`, { query: { categories: 'музыка', start_date: '2025-04-01' } });
    expect(filtered.status).toBe(200);
    expect(filtered.body.events.map((e: { id: number }) => e.id)).toEqual([eventId]);
    const terms = await t.request('GET', `${NS}/categories`, { query: { slug: 'Музыка' } });
    expect(terms.body.categories.map((c: { id: number }) => c.id)).toEqual([categoryId]);
    const stored = await t.request('GET', `${NS}/categories`, { query: { slug: MUSIC } });
    expect(stored.body.categories.map((c: { id: number }) => c.id)).toEqual([categoryId]);
  });
});
