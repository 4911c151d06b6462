import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';

const NS = '/eventsuite/events/v1';
// Wednesday 10 June 2026, 13:00 in London.
const NOW = new Date('2026-06-10T12:00:00Z');

type Json = Record<string, any>;

function summaries(text: string): string[] {
  const cal = new ICAL.Component(ICAL.parse(text));
  return cal.getAllSubcomponents('vevent').map((e) => String(e.getFirstPropertyValue('summary')));
}

describe.each(DIALECTS)('a view URL with ?ical=1 exports the view\'s events, on %s', (engine) => {
  let t: TestApp;
  const made: Record<string, Json> = {};

  const feed = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    return { status: res.statusCode, headers: res.headers, text: res.body };
  };
  const titles = async (url: string, headers: Record<string, string> = {}) => {
    const res = await feed(url, headers);
    expect(res.status, `${url}: ${res.text.slice(0, 200)}`).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    return summaries(res.text);
  };
  const viewDataOf = (html: string) => JSON.parse(/data-js="tribe-events-view-data" type="application\/json">([^<]*)</.exec(html)![1]!);

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => NOW });
    await t.ctx.options.set('blogname', 'Leeds Events');
    await t.ctx.options.set('timezone_string', 'Europe/London');
    const fixture: [string, Json][] = [
      ['earlyJune', { title: 'Early June', start_date: '2026-06-02 19:00', end_date: '2026-06-02 21:00' }],
      ['running', { title: 'Running Show', start_date: '2026-06-08 10:00', end_date: '2026-06-11 18:00', categories: ['Music'] }],
      ['jazz', { title: 'Jazz Night', start_date: '2026-06-12 20:00', end_date: '2026-06-12 23:00', categories: ['Music'], tags: ['Late'], venue: { venue: 'Blue Room', city: 'Leeds' }, organizer: [{ organizer: 'Jazz Society', email: 'jazz@example.org' }] }],
      ['fair', { title: 'Summer Fair', all_day: true, start_date: '2026-06-12', end_date: '2026-06-12' }],
      ['lateJune', { title: 'Late June', start_date: '2026-06-30 22:00', end_date: '2026-06-30 23:00' }],
      ['july', { title: 'July Picnic', start_date: '2026-07-04 12:00', end_date: '2026-07-04 15:00', categories: ['Music'] }],
      ['may', { title: 'May Market', start_date: '2026-05-20 09:00', end_date: '2026-05-20 12:00' }],
      ['draft', { title: 'Draft Gig', status: 'draft', start_date: '2026-06-12 18:00', end_date: '2026-06-12 19:00' }],
      ['private', { title: 'Private Gig', status: 'private', start_date: '2026-06-12 17:00', end_date: '2026-06-12 18:00' }],
    ];
    for (const [key, body] of fixture) {
      const res = await t.request('POST', `${NS}/events`, { as: t.admin, json: body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made[key] = res.body;
    }
  });
  afterAll(() => t.close());

  it('month: the current month from today on (events still running today included), another month from its 1st', async () => {
    const current = ['Running Show', 'Summer Fair', 'Jazz Night', 'Late June'];
    expect((await titles('/events/month/?ical=1')).sort()).toEqual([...current].sort());
    expect((await titles('/events/month/2026-06/?ical=1')).sort()).toEqual([...current].sort());
    expect(await titles('/events/month/2026-07/?ical=1')).toEqual(['July Picnic']);
    expect(await titles('/events/2026-05/?ical=1')).toEqual(['May Market']);
    // The default view (month unless set) of a term archive.
    expect(await titles('/events/category/music/?ical=1')).toEqual(['Running Show', 'Jazz Night']);
  });

  it('list: the upcoming events, the past ones in the past list, the keyword and the list date applied', async () => {
    expect(await titles('/events/list/?ical=1')).toEqual(['Running Show', 'Summer Fair', 'Jazz Night', 'Late June', 'July Picnic']);
    expect(await titles('/events/list/?ical=1&per_page=2')).toEqual(['Running Show', 'Summer Fair']);
    expect(await titles('/events/list/?tribe-bar-search=jazz&ical=1')).toEqual(['Jazz Night']);
    expect(await titles('/events/list/?tribe-bar-date=2026-06-20&ical=1')).toEqual(['Late June', 'July Picnic']);
    expect(await titles('/events/list/?eventDisplay=past&ical=1')).toEqual(['May Market', 'Early June']);
    // The latest past events when there are more than the feed holds.
    expect(await titles('/events/list/?eventDisplay=past&ical=1&per_page=1')).toEqual(['Early June']);
    expect(await titles('/tag/late/?ical=1')).toEqual(['Jazz Night']);
    expect(await titles('/events/tag/late/list/?ical=1')).toEqual(['Jazz Night']);
  });

  it('day: the events overlapping the day', async () => {
    expect((await titles('/events/2026-06-12/?ical=1')).sort()).toEqual(['Jazz Night', 'Summer Fair']);
    expect(await titles('/events/today/?ical=1')).toEqual(['Running Show']);
    expect(await titles('/events/category/music/day/2026-06-11/?ical=1')).toEqual(['Running Show']);
  });

  it('venue and organizer pages export their upcoming events', async () => {
    const venue = new URL(made.jazz!.venue.url).pathname;
    const organizer = new URL(made.jazz!.organizer[0].url).pathname;
    expect(await titles(`${venue}?ical=1`)).toEqual(['Jazz Night']);
    expect(await titles(`${organizer}?ical=1`)).toEqual(['Jazz Night']);
    // "Upcoming" is in the site's zone: a set that ended at 12:30 in London (11:30 UTC) has ended at 13:00 there.
    const ended = await t.request('POST', `${NS}/events`, { as: t.admin, json: { title: 'Lunch Set', start_date: '2026-06-10 11:00', end_date: '2026-06-10 12:30', venue: made.jazz!.venue.id } });
    expect(ended.status).toBe(201);
    expect(await titles(`${venue}?ical=1`)).toEqual(['Jazz Night']);
    const page = (await t.app.inject({ method: 'GET', url: venue })).body;
    expect(page).not.toContain('Lunch Set');
    await t.request('DELETE', `${NS}/events/${ended.body.id}`, { as: t.admin, query: { force: true } });
  });

  it('never exports drafts; private events only to their readers', async () => {
    for (const url of ['/events/2026-06-12/?ical=1', '/events/month/?ical=1', '/events/list/?ical=1']) {
      const anonymous = await titles(url);
      expect(anonymous).not.toContain('Private Gig');
      expect(anonymous).not.toContain('Draft Gig');
    }
    const admin = await titles('/events/2026-06-12/?ical=1', { authorization: t.admin.authorization });
    expect(admin).toContain('Private Gig');
    expect(admin).not.toContain('Draft Gig');
    expect((await feed('/events/list/?ical=1', { authorization: 'Basic bm9ib2R5Ondyb25n' })).status).toBe(401);
  });

  it('the Export Events link of each view is its URL with ical=1, and exports what the view shows', async () => {
    for (const path of ['/events/month/', '/events/list/', '/events/2026-06-12/', '/events/category/music/month/2026-06/', '/events/list/?tribe-bar-search=jazz']) {
      const html = (await feed(path)).text;
      const data = viewDataOf(html);
      const link = new URL(data.ical.link.url);
      expect(link.searchParams.get('ical')).toBe('1');
      expect(`${link.origin}${link.pathname}`).toBe(new URL(data.url).origin + new URL(data.url).pathname);
      expect(html).toContain(`class="tribe-events-c-ical__link" href="${data.ical.link.url.replace(/&/g, '&#38;')}"`);
      const shown = (data.events as number[]).map((id) => Object.values(made).find((e) => e.id === id)!.title).sort();
      const exported = (await titles(`${link.pathname}${link.search}`)).sort();
      // CASE: the month grid shows the month's past days too; its export starts today (the original's).
      if (data.slug === 'month') expect(shown).toEqual(expect.arrayContaining(exported));
      else expect(exported, path).toEqual(shown);
    }
  });

  it('names the file and the page; 404 for no view or an unknown term; 400 for a bad count', async () => {
    const res = await feed('/events/category/music/month/2026-07/?ical=1');
    expect(res.headers['content-disposition']).toBe('attachment; filename="leeds-events-music-month-2026-07.ics"');
    expect(new ICAL.Component(ICAL.parse(res.text)).getFirstPropertyValue('x-original-url')).toBe('http://example.test/events/category/music/month/2026-07/');
    expect((await feed('/events/month/?outlook-ical=1')).headers['content-disposition']).toBe('attachment; filename="leeds-events-month-outlook.ics"');
    expect((await feed('/events/category/no-such-term/?ical=1')).status).toBe(404);
    expect((await feed('/events/not-a-view/?ical=1')).status).toBe(404);
    expect((await feed('/venue/no-such-venue/?ical=1')).status).toBe(404);
    expect((await feed('/events/list/?ical=1&per_page=-3')).status).toBe(400);
  });
});
