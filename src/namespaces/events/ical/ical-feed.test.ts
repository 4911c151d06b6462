import ICAL from 'ical.js';
import { switchArea } from '../../../area-state.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../../test-support/harness.js';
import { insertAttachment } from '../fixtures.case.js';
import { seedEvents } from '../index.js';
import { buildIcalFeed, buildVtimezone, decodeEntities, foldLines, offsetTransitions, plainText, type FeedEvent } from './ical-feed.js';

const NS = '/eventsuite/events/v1';
const NOW = new Date('2026-06-01T12:00:00Z');

type Json = Record<string, any>;

function parse(text: string): ICAL.Component {
  return new ICAL.Component(ICAL.parse(text));
}

function vevents(cal: ICAL.Component): ICAL.Component[] {
  return cal.getAllSubcomponents('vevent');
}

function summaries(cal: ICAL.Component): string[] {
  return vevents(cal).map((e) => String(e.getFirstPropertyValue('summary')));
}

function epoch(utc: string): number {
  return Date.parse(`${utc.replace(' ', 'T')}Z`) / 1000;
}

const BASE_EVENT: FeedEvent = {
  id: 7,
  title: 'Film &amp; Friends',
  description: '<p>First line<br />\nsecond line</p>\n<p>Tickets &pound;5 &#8211; cash only</p>',
  url: 'https://example.test/event/film/',
  all_day: false,
  start_date: '2026-01-15 19:30:00',
  end_date: '2026-01-15 21:00:00',
  utc_start_date: '2026-01-16 00:30:00',
  utc_end_date: '2026-01-16 02:00:00',
  timezone: 'America/New_York',
  date_utc: '2025-12-01 08:00:00',
  modified_utc: '2025-12-02 09:30:00',
  image: false,
  venue: [],
  organizer: [],
  categories: [],
};

describe('iCalendar building', () => {
  it('turns rendered HTML into the plain text of DESCRIPTION', () => {
    expect(plainText(BASE_EVENT.description)).toBe('First line\nsecond line\n\nTickets £5 – cash only');
    expect(plainText('<ul><li>One</li><li>Two &amp; three</li></ul>')).toBe('One\n\nTwo & three');
    expect(decodeEntities('&lt;b&gt; &#x41;&#66; &unknown; &#0;')).toBe('<b> AB &unknown; &#0;');
  });

  it('finds the real offset transitions of a zone', () => {
    const from = Date.UTC(2026, 0, 1);
    const to = Date.UTC(2027, 0, 1);
    expect(offsetTransitions('America/New_York', from, to).map((ms) => new Date(ms).toISOString())).toEqual(['2026-03-08T07:00:00.000Z', '2026-11-01T06:00:00.000Z']);
    expect(offsetTransitions('Asia/Tokyo', from, to)).toEqual([]);
  });

  it('writes VTIMEZONEs that give the right offsets when read back', () => {
    const vtz = buildVtimezone('Europe/Berlin', Date.UTC(2026, 2, 1), Date.UTC(2026, 11, 1))!;
    expect(vtz.getFirstPropertyValue('tzid')).toBe('Europe/Berlin');
    expect(vtz.getAllSubcomponents().map((c) => `${c.name} ${String(c.getFirstPropertyValue('tzname'))}`)).toEqual(['standard CET', 'daylight CEST', 'standard CET']);
    const zone = new ICAL.Timezone({ component: vtz, tzid: 'Europe/Berlin' });
    const at = (s: string) => zone.utcOffset(ICAL.Time.fromDateTimeString(s));
    expect(at('2026-01-10T12:00:00')).toBe(3600);
    expect(at('2026-07-10T12:00:00')).toBe(7200);
    expect(at('2026-12-10T12:00:00')).toBe(3600);
    const fixed = buildVtimezone('UTC+5:30', Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 1))!;
    expect(fixed.getAllSubcomponents()).toHaveLength(1);
    expect(new ICAL.Timezone({ component: fixed, tzid: 'UTC+5:30' }).utcOffset(ICAL.Time.fromDateTimeString('2026-01-10T12:00:00'))).toBe(19800);
    expect(buildVtimezone('Not/AZone', 0, 1)).toBeUndefined();
  });

  it('builds a calendar ical.js reads back field by field', () => {
    const text = buildIcalFeed(
      [
        {
          ...BASE_EVENT,
          venue: [{ venue: 'Arts Centre', address: '2 Mill St', city: 'Springfield', stateprovince: 'MA', zip: '01101', country: 'United States', geo_lat: 42.1, geo_lng: -72.59 }],
          organizer: [{ organizer: 'Film Society', url: 'https://example.test/organizer/film-society/' }],
          categories: [{ name: 'Film' }, { name: 'Food &amp; Drink' }],
          image: { url: 'https://example.test/uploads/poster.png?v=2' },
        },
        { ...BASE_EVENT, id: 8, title: 'Zoneless', timezone: 'Mars/Base', utc_start_date: '2026-02-01 10:00:00', utc_end_date: '2026-02-01 11:00:00' },
      ],
      { name: 'Town &amp; Gown', url: 'https://example.test/events/', home: 'https://example.test' },
      new Date('2026-01-01T10:20:30.456Z'),
    );
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);

    const cal = parse(text);
    expect(cal.getFirstPropertyValue('prodid')).toBe('-//Town & Gown - eventsuite//NONSGML v1.0//EN');
    expect(cal.getFirstPropertyValue('x-wr-calname')).toBe('Town & Gown');
    expect(cal.getFirstPropertyValue('x-wr-caldesc')).toBe('Events for Town & Gown');
    expect(cal.getFirstPropertyValue('x-original-url')).toBe('https://example.test/events/');
    expect(cal.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'))).toEqual(['America/New_York']);

    const [film, zoneless] = vevents(cal) as [ICAL.Component, ICAL.Component];
    const dtstart = film.getFirstProperty('dtstart')!;
    expect(dtstart.getParameter('tzid')).toBe('America/New_York');
    expect(String(dtstart.getFirstValue())).toBe('2026-01-15T19:30:00');
    const ev = new ICAL.Event(film);
    expect(ev.startDate.toUnixTime()).toBe(epoch('2026-01-16 00:30:00'));
    expect(ev.endDate.toUnixTime()).toBe(epoch('2026-01-16 02:00:00'));
    expect(ev.uid).toBe('7@example.test');
    expect(ev.summary).toBe('Film & Friends');
    expect(ev.description).toBe('First line\nsecond line\n\nTickets £5 – cash only');
    expect(film.getFirstPropertyValue('url')).toBe('https://example.test/event/film/');
    expect(ev.location).toBe('Arts Centre, 2 Mill St, Springfield, MA, 01101, United States');
    expect(film.getFirstPropertyValue('geo')).toEqual([42.1, -72.59]);
    const organizer = film.getFirstProperty('organizer')!;
    expect(organizer.getParameter('cn')).toBe('Film Society');
    expect(organizer.getFirstValue()).toBe('https://example.test/organizer/film-society/');
    expect(film.getFirstProperty('categories')!.getValues()).toEqual(['Film', 'Food & Drink']);
    const attach = film.getFirstProperty('attach')!;
    expect(attach.getParameter('fmttype')).toBe('image/png');
    expect(attach.getFirstValue()).toBe('https://example.test/uploads/poster.png?v=2');
    expect(String(film.getFirstPropertyValue('dtstamp'))).toBe('2026-01-01T10:20:30Z');
    expect(String(film.getFirstPropertyValue('created'))).toBe('2025-12-01T08:00:00Z');
    expect(String(film.getFirstPropertyValue('last-modified'))).toBe('2025-12-02T09:30:00Z');

    // A zone that is no zone: the UTC instants are written instead.
    expect(zoneless.getFirstProperty('dtstart')!.getParameter('tzid')).toBeUndefined();
    expect(String(zoneless.getFirstPropertyValue('dtstart'))).toBe('2026-02-01T10:00:00Z');
    expect(zoneless.hasProperty('location')).toBe(false);
    expect(zoneless.hasProperty('attach')).toBe(false);
  });
});

describe('iCalendar text', () => {
  const CAL = { name: 'Site', url: 'https://example.test/events/', home: 'https://example.test' };
  const physicalLines = (text: string) => text.split('\r\n').slice(0, -1);

  it('folds lines at 75 octets, the continuation space included, never inside a character', () => {
    const title = `Ünïcödé ${'日本語'.repeat(20)} ${'€'.repeat(40)} ${'😀'.repeat(30)}`;
    const text = buildIcalFeed([{ ...BASE_EVENT, title, description: `<p>${'x'.repeat(300)}</p>` }], CAL, NOW);
    const lines = physicalLines(text);
    expect(lines.every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    expect(lines.some((line) => Buffer.byteLength(line) === 75)).toBe(true);
    expect(lines.every((line) => !line.includes('\uFFFD'))).toBe(true);
    expect(new ICAL.Event(vevents(parse(text))[0]!).summary).toBe(title);
    expect(foldLines(`A:${'b'.repeat(73)}\r\n`)).toBe(`A:${'b'.repeat(73)}\r\n`);
    expect(foldLines(`A:${'b'.repeat(74)}\r\n`)).toBe(`A:${'b'.repeat(73)}\r\n b\r\n`);
  });

  it('escapes commas, semicolons, backslashes and line breaks, and drops control characters', () => {
    const text = buildIcalFeed([{
      ...BASE_EVENT, title: 'Bell\u0007 a,b; c\\d', description: 'one\r\ntwo\u0000',
      categories: [{ name: 'Food, Drink' }, { name: 'x;y' }], organizer: [{ organizer: 'The "Best"; Org: x,y', email: 'org@example.test' }],
    }], CAL, NOW);
    expect(text).toContain('SUMMARY:Bell a\\,b\\; c\\\\d\r\n');
    expect(text).toContain('DESCRIPTION:one\\ntwo\r\n');
    expect(text).toContain('CATEGORIES:Food\\, Drink,x\\;y\r\n');
    // No double quote inside a quoted parameter value: the original turns it into a single quote.
    expect(text).toContain('ORGANIZER;CN="The \'Best\'; Org: x,y":mailto:org@example.test\r\n');
    expect(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)).toBe(false);
    const ev = vevents(parse(text))[0]!;
    expect(ev.getFirstPropertyValue('summary')).toBe('Bell a,b; c\\d');
    expect(ev.getFirstProperty('categories')!.getValues()).toEqual(['Food, Drink', 'x;y']);
  });

  it('says the content of a password-protected event is protected and leaves its image out', () => {
    const text = buildIcalFeed([{ ...BASE_EVENT, description: '', protected: true, image: { url: 'https://example.test/a.png' } }], CAL, NOW);
    const ev = vevents(parse(text))[0]!;
    expect(ev.getFirstPropertyValue('description')).toBe('Content is protected.');
    expect(ev.hasProperty('attach')).toBe(false);
  });

  it('leaves X-WR-CALNAME out of the Outlook export', () => {
    expect(parse(buildIcalFeed([BASE_EVENT], CAL, NOW)).getFirstPropertyValue('x-wr-calname')).toBe('Site');
    expect(parse(buildIcalFeed([BASE_EVENT], { ...CAL, outlook: true }, NOW)).hasProperty('x-wr-calname')).toBe(false);
  });
});

describe.each(DIALECTS)('iCalendar feed pages on %s', (engine) => {
  let t: TestApp;
  const ids: Record<string, number> = {};
  const slugs: Record<string, string> = {};
  const events: Record<string, Json> = {};

  const feed = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    return { status: res.statusCode, headers: res.headers, text: res.body };
  };
  const feedTitles = async (query: string, headers: Record<string, string> = {}) => {
    const res = await feed(`/events/?ical=1${query}`, headers);
    expect(res.status, res.text).toBe(200);
    return summaries(parse(res.text));
  };

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => NOW });
    await t.ctx.options.set('blogname', 'Leeds Events');
    await t.ctx.options.set('timezone_string', 'Europe/London');
    await insertAttachment(t, 'https://example.test/img/jazz.jpg');
    const fixture: [string, Json][] = [
      ['jazz', {
        title: 'Jazz & Blues Night', description: '<p>Bring <strong>friends</strong> &amp; family.</p>', timezone: 'America/New_York',
        start_date: '2026-06-10 19:00', end_date: '2026-06-10 22:00', categories: ['Music'], featured: true,
        venue: { venue: 'Blue Room', address: '1 High St', city: 'Leeds', country: 'United Kingdom' },
        organizer: [{ organizer: 'Jazz Society', email: 'jazz@example.org' }], image: 'https://example.test/img/jazz.jpg',
      }],
      ['fair', { title: 'Summer Fair', all_day: true, start_date: '2026-06-20', end_date: '2026-06-21', categories: ['Family'] }],
      ['talk', { title: 'Tokyo Talk', description: 'All about robotics.', timezone: 'Asia/Tokyo', start_date: '2026-07-01 10:00', end_date: '2026-07-01 11:00' }],
      ['offset', { title: 'Offset Meetup', timezone: 'UTC+5:30', start_date: '2026-07-05 18:00', end_date: '2026-07-05 20:00' }],
      ['draft', { title: 'Draft Concert', status: 'draft', start_date: '2026-06-15 19:00', end_date: '2026-06-15 21:00' }],
      ['private', { title: 'Private Rehearsal', status: 'private', start_date: '2026-06-16 19:00', end_date: '2026-06-16 21:00' }],
      ['past', { title: 'Old Market', start_date: '2026-03-01 09:00', end_date: '2026-03-01 12:00' }],
    ];
    for (const [key, body] of fixture) {
      const res = await t.request('POST', `${NS}/events`, { as: t.admin, json: body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids[key] = res.body.id;
      slugs[key] = res.body.slug;
      events[key] = res.body;
    }
  });
  afterAll(() => t.close());

  it('serves the events page feed as an iCalendar attachment', async () => {
    const res = await feed('/events/?ical=1');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="leeds-events-events.ics"');
    const cal = parse(res.text);
    expect(cal.getFirstPropertyValue('x-wr-calname')).toBe('Leeds Events');
    expect(cal.getFirstPropertyValue('x-original-url')).toBe('http://example.test/events/');
    // Anonymous callers: published events of the default window, in start order; no drafts, private or past events.
    expect(summaries(cal)).toEqual(['Jazz & Blues Night', 'Summer Fair', 'Tokyo Talk', 'Offset Meetup']);
    expect(cal.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid')).sort()).toEqual(['America/New_York', 'Asia/Tokyo', 'UTC+5:30']);
    expect((await feed('/events?ical=1')).status).toBe(200);
  });

  it('writes each event with its zone, UID, texts, venue, organizer, categories and image', async () => {
    const cal = parse((await feed('/events/?ical=1')).text);
    const jazz = vevents(cal).find((e) => e.getFirstPropertyValue('summary') === 'Jazz & Blues Night')!;
    const ev = new ICAL.Event(jazz);
    const j = events.jazz!;
    expect(jazz.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('America/New_York');
    expect(String(ev.startDate)).toBe('2026-06-10T19:00:00');
    expect(ev.startDate.toUnixTime()).toBe(epoch(j.utc_start_date));
    expect(ev.endDate.toUnixTime()).toBe(epoch(j.utc_end_date));
    expect(ev.uid).toBe(`${ids.jazz}@example.test`);
    expect(ev.description).toBe('Bring friends & family.');
    expect(jazz.getFirstPropertyValue('url')).toBe(`http://example.test/event/${slugs.jazz}/`);
    expect(ev.location).toBe('Blue Room, 1 High St, Leeds, United Kingdom');
    expect(jazz.getFirstProperty('organizer')!.getParameter('cn')).toBe('Jazz Society');
    expect(jazz.getFirstPropertyValue('organizer')).toBe('mailto:jazz@example.org');
    expect(jazz.getFirstProperty('categories')!.getValues()).toEqual(['Music']);
    expect(jazz.getFirstProperty('attach')!.getParameter('fmttype')).toBe('image/jpeg');
    expect(jazz.getFirstPropertyValue('attach')).toBe('https://example.test/img/jazz.jpg');
    expect(String(jazz.getFirstPropertyValue('dtstamp'))).toBe('2026-06-01T12:00:00Z');
    expect(String(jazz.getFirstPropertyValue('created'))).toBe(`${j.date_utc.replace(' ', 'T')}Z`);
    expect(String(jazz.getFirstPropertyValue('last-modified'))).toBe(`${j.modified_utc.replace(' ', 'T')}Z`);

    const offset = new ICAL.Event(vevents(cal).find((e) => e.getFirstPropertyValue('summary') === 'Offset Meetup')!);
    expect(offset.startDate.toUnixTime()).toBe(epoch(events.offset!.utc_start_date));
    const talk = new ICAL.Event(vevents(cal).find((e) => e.getFirstPropertyValue('summary') === 'Tokyo Talk')!);
    expect(talk.startDate.toUnixTime()).toBe(epoch('2026-07-01 01:00:00'));
  });

  it('writes all-day events as dates with an exclusive DTEND', async () => {
    const cal = parse((await feed('/events/?ical=1')).text);
    const fair = vevents(cal).find((e) => e.getFirstPropertyValue('summary') === 'Summer Fair')!;
    const start = fair.getFirstProperty('dtstart')!;
    const end = fair.getFirstProperty('dtend')!;
    expect(start.type).toBe('date');
    expect(end.type).toBe('date');
    expect(String(start.getFirstValue())).toBe('2026-06-20');
    expect(String(end.getFirstValue())).toBe('2026-06-22');
    expect(fair.toString()).toContain('DTSTART;VALUE=DATE:20260620');
  });

  it('applies the events list filters', async () => {
    expect(await feedTitles('&categories=music')).toEqual(['Jazz & Blues Night']);
    expect(await feedTitles(`&categories[]=${events.fair!.categories[0].id}`)).toEqual(['Summer Fair']);
    expect(await feedTitles('&search=robotics')).toEqual(['Tokyo Talk']);
    expect(await feedTitles('&start_date=2026-06-15&end_date=2026-06-30')).toEqual(['Summer Fair']);
    expect(await feedTitles('&featured=1')).toEqual(['Jazz & Blues Night']);
    expect(await feedTitles(`&venue=${events.jazz!.venue.id}`)).toEqual(['Jazz & Blues Night']);
    expect(await feedTitles(`&organizer=${events.jazz!.organizer[0].id}`)).toEqual(['Jazz & Blues Night']);
    expect(await feedTitles('&start_date=2026-01-01&end_date=2026-03-31')).toEqual(['Old Market']);
    expect(await feedTitles('&per_page=2')).toEqual(['Jazz & Blues Night', 'Summer Fair']);
  });

  it('refuses bad filters with the REST errors', async () => {
    const perPage = await feed('/events/?ical=1&per_page=0');
    expect(perPage.status).toBe(400);
    expect(JSON.parse(perPage.text)).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { per_page: expect.any(String) } } });
    const date = await feed('/events/?ical=1&start_date=not-a-date');
    expect(date.status).toBe(400);
    expect(JSON.parse(date.text)).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
    // Anonymous callers may not ask for drafts.
    expect((await feed('/events/?ical=1&status=draft')).status).toBe(400);
  });

  it('lists private events to their readers, never drafts', async () => {
    const titles = await feedTitles('', { authorization: t.admin.authorization });
    expect(titles).toContain('Private Rehearsal');
    expect(titles).not.toContain('Draft Concert');
    const subscriber = await t.createUser('subscriber');
    expect(await feedTitles('', { authorization: subscriber.authorization })).not.toContain('Private Rehearsal');
    expect((await feed('/events/?ical=1', { authorization: 'Basic bm9ib2R5Ondyb25n' })).status).toBe(401);
  });

  it('exports a password-protected event with its dates and no content, its day as all-day', async () => {
    const created = await t.request('POST', `${NS}/events`, { as: t.admin, json: { title: 'Secret Gala', description: 'The secret menu.', all_day: true, start_date: '2026-06-25', end_date: '2026-06-25', image: 'https://example.test/img/jazz.jpg' } });
    await t.db.updateTable('posts').set({ password: 'pw' }).where('id', '=', created.body.id).execute();
    try {
      const text = (await feed('/events/?ical=1')).text;
      expect(text).not.toContain('secret menu');
      const gala = vevents(parse(text)).find((e) => e.getFirstPropertyValue('summary') === 'Secret Gala')!;
      expect(gala.getFirstPropertyValue('description')).toBe('Content is protected.');
      expect(gala.hasProperty('attach')).toBe(false);
      expect(gala.getFirstProperty('dtstart')!.type).toBe('date');
      expect(String(gala.getFirstPropertyValue('dtstart'))).toBe('2026-06-25');
      expect(String(gala.getFirstPropertyValue('dtend'))).toBe('2026-06-26');
      // With its password, the single event's feed has the content.
      const unlocked = vevents(parse((await feed(`/event/${created.body.slug}/?ical=1&password=pw`)).text))[0]!;
      expect(unlocked.getFirstPropertyValue('description')).toBe('The secret menu.');
      expect(vevents(parse((await feed(`/event/${created.body.slug}/?ical=1&password=nope`)).text))[0]!.getFirstPropertyValue('description')).toBe('Content is protected.');
    } finally {
      await t.request('DELETE', `${NS}/events/${created.body.id}`, { as: t.admin, query: { force: true } });
    }
  });

  it('exports the events event_ids names, those the caller may read only', async () => {
    expect((await feedTitles(`&event_ids=${ids.talk},${ids.past},${ids.draft},${ids.private}`)).sort()).toEqual(['Old Market', 'Tokyo Talk']);
  });

  it('serves the Outlook export at outlook-ical, without X-WR-CALNAME', async () => {
    const res = await feed('/events/?outlook-ical=1');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="leeds-events-events-outlook.ics"');
    const cal = parse(res.text);
    expect(cal.hasProperty('x-wr-calname')).toBe(false);
    expect(summaries(cal)).toEqual(['Jazz & Blues Night', 'Summer Fair', 'Tokyo Talk', 'Offset Meetup']);
    expect(summaries(parse((await feed(`/event/${slugs.jazz}/?outlook-ical=1`)).text))).toEqual(['Jazz & Blues Night']);
  });

  it('keeps the UID of an event when it is rescheduled', async () => {
    const created = await t.request('POST', `${NS}/events`, { as: t.admin, json: { title: 'Movable Feast', start_date: '2026-08-01 10:00', end_date: '2026-08-01 12:00' } });
    const uid = async () => new ICAL.Event(vevents(parse((await feed(`/event/${created.body.slug}/?ical=1`)).text))[0]!).uid;
    const before = await uid();
    const moved = await t.request('PATCH', `${NS}/events/${created.body.id}`, { as: t.admin, json: { start_date: '2026-08-03 14:00', end_date: '2026-08-03 16:00' } });
    expect(moved.body.start_date).toBe('2026-08-03 14:00:00');
    expect(await uid()).toBe(before);
    await t.request('DELETE', `${NS}/events/${created.body.id}`, { as: t.admin });
  });

  it('serves one event at its permalink', async () => {
    const res = await feed(`/event/${slugs.jazz}/?ical=1`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="leeds-events-${slugs.jazz}.ics"`);
    const cal = parse(res.text);
    expect(summaries(cal)).toEqual(['Jazz & Blues Night']);
    expect(cal.getFirstPropertyValue('x-original-url')).toBe(`http://example.test/event/${slugs.jazz}/`);
    expect(cal.getAllSubcomponents('vtimezone')).toHaveLength(1);
    // Past events have their own feed too.
    expect(summaries(parse((await feed(`/event/${slugs.past}/?ical=1`)).text))).toEqual(['Old Market']);
  });

  it('answers 404 for events the caller may not read and for the pages without ical', async () => {
    expect((await feed(`/event/${slugs.draft}/?ical=1`)).status).toBe(404);
    expect((await feed(`/event/${slugs.draft}/?ical=1`, { authorization: t.admin.authorization })).status).toBe(200);
    expect((await feed('/event/no-such-event/?ical=1')).status).toBe(404);
    // Without ical these URLs are the calendar's HTML pages (calendar views area), 404 while that area is off.
    expect((await feed('/events/')).headers['content-type']).toBe('text/html; charset=UTF-8');
    expect((await feed(`/event/${slugs.jazz}/`)).headers['content-type']).toBe('text/html; charset=UTF-8');
    await switchArea(t.ctx, 'calendar-views', false);
    try {
      expect((await feed('/events/')).status).toBe(404);
      expect((await feed(`/event/${slugs.jazz}/`)).status).toBe(404);
    } finally {
      await switchArea(t.ctx, 'calendar-views', true);
    }
  });
});

describe.each(DIALECTS)('iCalendar feed of many events on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => NOW });
    await seedEvents(t.ctx, { events: 220, batchSize: 100 });
  });
  afterAll(() => t.close());

  it('reads the archive page after page up to per_page, at most 1000', async () => {
    const total = Number((await t.request('GET', `${NS}/events`, { query: { per_page: 1 } })).headers['x-wp-total']);
    expect(total).toBeGreaterThan(120);
    const some = parse((await t.app.inject({ method: 'GET', url: '/events/?ical=1&per_page=120' })).body);
    expect(vevents(some)).toHaveLength(120);
    const all = parse((await t.app.inject({ method: 'GET', url: '/events/?ical=1&per_page=5000' })).body);
    const uids = vevents(all).map((e) => String(e.getFirstPropertyValue('uid')));
    expect(uids).toHaveLength(total);
    expect(new Set(uids).size).toBe(total);
    const starts = vevents(all).map((e) => new ICAL.Event(e).startDate).filter((d) => !d.isDate).map((d) => d.toUnixTime());
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const byDefault = parse((await t.app.inject({ method: 'GET', url: '/events/?ical=1' })).body);
    expect(vevents(byDefault)).toHaveLength(30);
  });
});
