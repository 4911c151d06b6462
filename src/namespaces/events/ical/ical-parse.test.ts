import { describe, expect, it } from 'vitest';
import { buildIcalFeed } from './ical-feed.js';
import { IcsImportError, parseIcs, zoneForTzid, type ParseOptions } from './ical-parse.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const OPTS: ParseOptions = { now: NOW, siteZone: 'Europe/London', siteTimezone: 'Europe/London' };

/** An iCalendar text from VEVENT bodies (lines joined with CRLF). */
function ics(...events: string[]): string {
  const body = events.map((e) => `BEGIN:VEVENT\n${e.trim()}\nEND:VEVENT`).join('\n');
  return `BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//import//EN\n${body}\nEND:VCALENDAR\n`.replace(/\n/g, '\r\n');
}

const byKey = (parsed: ReturnType<typeof parseIcs>) => new Map(parsed.items.map((i) => [i.key, i.fields]));

describe('parsing iCalendar files', () => {
  it('reads times with a TZID, in UTC, floating and as all-day dates', () => {
    const parsed = parseIcs(
      ics(
        'UID:tz\nDTSTART;TZID=America/New_York:20260610T190000\nDTEND;TZID=America/New_York:20260610T220000\nSUMMARY:Zoned',
        'UID:utc\nDTSTART:20260611T170000Z\nDTEND:20260611T180000Z\nSUMMARY:In UTC',
        'UID:floating\nDTSTART:20260612T090000\nDURATION:PT90M\nSUMMARY:Floating',
        'UID:day\nDTSTART;VALUE=DATE:20260620\nDTEND;VALUE=DATE:20260622\nSUMMARY:Two days',
        'UID:oneday\nDTSTART;VALUE=DATE:20260625\nSUMMARY:One day',
        'UID:moz\nDTSTART;TZID=/mozilla.org/20050126_1/Europe/Berlin:20260613T100000\nSUMMARY:Prefixed zone',
      ),
      OPTS,
    );
    expect(parsed.skipped).toEqual([]);
    const items = byKey(parsed);
    expect(items.get('tz')).toMatchObject({ start_date: '2026-06-10 19:00:00', end_date: '2026-06-10 22:00:00', timezone: 'America/New_York', all_day: false });
    expect(items.get('utc')).toMatchObject({ start_date: '2026-06-11 17:00:00', end_date: '2026-06-11 18:00:00', timezone: 'UTC' });
    expect(items.get('floating')).toMatchObject({ start_date: '2026-06-12 09:00:00', end_date: '2026-06-12 10:30:00', timezone: 'Europe/London' });
    expect(items.get('day')).toMatchObject({ start_date: '2026-06-20 00:00:00', end_date: '2026-06-21 23:59:59', all_day: true, timezone: 'Europe/London' });
    expect(items.get('oneday')).toMatchObject({ start_date: '2026-06-25 00:00:00', end_date: '2026-06-25 23:59:59', all_day: true });
    expect(items.get('moz')).toMatchObject({ start_date: '2026-06-13 10:00:00', end_date: '2026-06-13 10:00:00', timezone: 'Europe/Berlin' });
    expect(zoneForTzid('"Europe/Paris"')).toBe('Europe/Paris');
    expect(zoneForTzid('Pacific Standard Time')).toBeUndefined();
  });

  it('reads floating times in the calendar zone and zones only the file defines', () => {
    const text = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'X-WR-TIMEZONE:Asia/Tokyo',
      'BEGIN:VTIMEZONE', 'TZID:W. Europe Standard Time',
      'BEGIN:STANDARD', 'DTSTART:16011028T030000', 'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'END:STANDARD',
      'BEGIN:DAYLIGHT', 'DTSTART:16010325T020000', 'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'END:DAYLIGHT',
      'END:VTIMEZONE',
      'BEGIN:VEVENT', 'UID:win', 'DTSTART;TZID=W. Europe Standard Time:20260710T180000', 'DTEND;TZID=W. Europe Standard Time:20260710T200000', 'SUMMARY:Windows zone', 'END:VEVENT',
      'BEGIN:VEVENT', 'UID:float', 'DTSTART:20260710T180000', 'SUMMARY:Floating in Tokyo', 'END:VEVENT',
      'END:VCALENDAR',
    ].join('\r\n');
    const items = byKey(parseIcs(text, OPTS));
    // 18:00 at +02:00 is 16:00 UTC, 17:00 in London (BST).
    expect(items.get('win')).toMatchObject({ start_date: '2026-07-10 17:00:00', end_date: '2026-07-10 19:00:00', timezone: 'Europe/London' });
    expect(items.get('float')).toMatchObject({ start_date: '2026-07-10 18:00:00', timezone: 'Asia/Tokyo' });
  });

  it('reads the texts, venue, organizer, categories, website and image', () => {
    const items = byKey(
      parseIcs(
        ics(
          [
            'UID:full', 'DTSTART:20260610T180000Z', 'DTEND:20260610T200000Z', 'SUMMARY:  Choir night  ',
            'DESCRIPTION:Line one\\nLine two\\, with a comma', 'LOCATION:St Mary\\, 1 Church Lane\\, Leeds',
            'X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=St Mary:geo:53.8,-1.5',
            'ORGANIZER;CN="Leeds Choir":mailto:choir@example.org', 'CATEGORIES:Music,Choir', 'CATEGORIES:Music,Community',
            'URL:https://choir.example.org/night', 'ATTACH:https://choir.example.org/files/notes.pdf',
            'ATTACH;FMTTYPE=image/png:https://choir.example.org/poster',
          ].join('\n'),
          'UID:bare\nDTSTART:20260611T180000Z\nSUMMARY:Bare\nORGANIZER:mailto:someone@example.org\nURL:javascript:alert(1)\nLOCATION:Town Hall',
        ),
        OPTS,
      ),
    );
    expect(items.get('full')).toEqual({
      title: 'Choir night',
      description: 'Line one\nLine two, with a comma',
      start_date: '2026-06-10 18:00:00',
      end_date: '2026-06-10 20:00:00',
      timezone: 'UTC',
      all_day: false,
      venue: { venue: 'St Mary', address: '1 Church Lane, Leeds' },
      organizer: { organizer: 'Leeds Choir', email: 'choir@example.org' },
      categories: ['Music', 'Choir', 'Community'],
      website: 'https://choir.example.org/night',
      image: 'https://choir.example.org/poster',
    });
    expect(items.get('bare')).toMatchObject({ venue: { venue: 'Town Hall' }, organizer: { organizer: 'someone@example.org', email: 'someone@example.org' }, website: null, image: null, categories: [] });
  });

  it('expands recurring events with exclusions and moved occurrences', () => {
    const parsed = parseIcs(
      ics(
        'UID:weekly\nDTSTART;TZID=Europe/Berlin:20260601T180000\nDTEND;TZID=Europe/Berlin:20260601T200000\nRRULE:FREQ=WEEKLY;COUNT=5\nEXDATE;TZID=Europe/Berlin:20260608T180000\nSUMMARY:Rehearsal',
        'UID:weekly\nRECURRENCE-ID;TZID=Europe/Berlin:20260615T180000\nDTSTART;TZID=Europe/Berlin:20260616T190000\nDTEND;TZID=Europe/Berlin:20260616T210000\nSUMMARY:Rehearsal (Tuesday)',
        'UID:weekly\nRECURRENCE-ID;TZID=Europe/Berlin:20260622T180000\nDTSTART;TZID=Europe/Berlin:20260622T180000\nSTATUS:CANCELLED\nSUMMARY:Rehearsal',
        'UID:days\nDTSTART;VALUE=DATE:20260701\nRRULE:FREQ=DAILY;COUNT=2\nRDATE;VALUE=DATE:20260710\nSUMMARY:Camp',
        'UID:orphan\nRECURRENCE-ID:20260801T100000Z\nDTSTART:20260801T110000Z\nSUMMARY:Lone occurrence',
      ),
      OPTS,
    );
    const items = byKey(parsed);
    expect([...items.keys()]).toEqual([
      'weekly#20260601T180000', 'weekly#20260615T180000', 'weekly#20260629T180000', 'days#20260701', 'days#20260702', 'days#20260710', 'orphan#20260801T100000Z',
    ]);
    expect(items.get('weekly#20260615T180000')).toMatchObject({ title: 'Rehearsal (Tuesday)', start_date: '2026-06-16 19:00:00', end_date: '2026-06-16 21:00:00', timezone: 'Europe/Berlin' });
    expect(items.get('weekly#20260629T180000')).toMatchObject({ title: 'Rehearsal', start_date: '2026-06-29 18:00:00', end_date: '2026-06-29 20:00:00' });
    expect(items.get('days#20260710')).toMatchObject({ start_date: '2026-07-10 00:00:00', end_date: '2026-07-10 23:59:59', all_day: true });
    expect(items.get('orphan#20260801T100000Z')).toMatchObject({ start_date: '2026-08-01 11:00:00', timezone: 'UTC' });
    expect(parsed.skipped).toEqual([{ uid: 'weekly#20260622T180000', reason: 'cancelled' }]);
  });

  it('bounds a series to a year either side of today and 500 occurrences', () => {
    const parsed = parseIcs(
      ics(
        'UID:forever\nDTSTART:20200101T090000Z\nDTEND:20200101T100000Z\nRRULE:FREQ=DAILY\nSUMMARY:Daily',
        'UID:weekly-forever\nDTSTART:20200106T090000Z\nRRULE:FREQ=WEEKLY\nSUMMARY:Weekly',
        'UID:long-ago\nDTSTART:20200101T090000Z\nRRULE:FREQ=MONTHLY;COUNT=3\nSUMMARY:Old series',
      ),
      OPTS,
    );
    const daily = parsed.items.filter((i) => i.key.startsWith('forever#'));
    expect(daily).toHaveLength(500);
    expect(daily[0]!.fields.start_date).toBe('2025-06-01 09:00:00');
    expect(parsed.skipped).toContainEqual({ uid: 'forever', reason: 'only the first 500 occurrences were imported' });
    const weekly = parsed.items.filter((i) => i.key.startsWith('weekly-forever#'));
    expect(weekly.length).toBeGreaterThanOrEqual(104);
    expect(weekly.length).toBeLessThanOrEqual(106);
    expect(weekly.at(-1)!.fields.start_date <= '2027-06-02 12:00:00').toBe(true);
    expect(parsed.items.some((i) => i.key.startsWith('long-ago'))).toBe(false);
    expect(parsed.skipped.map((s) => s.uid)).toEqual(['forever', 'long-ago']);
  });

  it('reports a series with no occurrence in the window, and takes the window as an option', () => {
    const text = ics('UID:long-ago\nDTSTART:20200101T090000Z\nRRULE:FREQ=MONTHLY;COUNT=3\nSUMMARY:Old series');
    expect(parseIcs(text, OPTS).skipped).toEqual([
      { uid: 'long-ago', reason: 'recurring series with no occurrence between 2025-05-31 and 2027-06-02 (the import window; see --from and --until)' },
    ]);
    const wide = parseIcs(text, { ...OPTS, from: new Date('2019-12-01T00:00:00Z'), until: new Date('2020-02-15T00:00:00Z') });
    expect(wide.items.map((i) => i.key)).toEqual(['long-ago#20200101T090000Z', 'long-ago#20200201T090000Z']);
    expect(wide.skipped).toEqual([]);
  });

  it('skips events it cannot import, with the reason', () => {
    const parsed = parseIcs(
      ics(
        'DTSTART:20260610T180000Z\nSUMMARY:No uid',
        'UID:untitled\nDTSTART:20260610T180000Z',
        'UID:untitled-series\nDTSTART:20260610T180000Z\nRRULE:FREQ=DAILY;COUNT=50',
        'UID:backwards\nDTSTART:20260610T180000Z\nDTEND:20260610T170000Z\nSUMMARY:Backwards',
        'UID:cancelled\nDTSTART:20260610T180000Z\nSTATUS:CANCELLED\nSUMMARY:Called off',
        'UID:nostart\nSUMMARY:No start',
        'UID:badrule\nDTSTART:20260610T180000Z\nRRULE:FREQ=SOMETIMES\nSUMMARY:Bad rule',
        'UID:baddate\nDTSTART:2026-06-10\nSUMMARY:Bad date',
        'UID:ok\nDTSTART:20260610T180000Z\nSUMMARY:Fine',
        'UID:ok\nDTSTART:20260611T180000Z\nSUMMARY:Same UID again',
      ),
      OPTS,
    );
    // A VEVENT without UID is imported under a UID derived from what it says (the same on every run).
    const derived = parsed.items.find((i) => i.fields.title === 'No uid')!;
    expect(derived.key).toMatch(/^derived-[0-9a-f]{16}$/);
    expect(parseIcs(ics('DTSTART:20260610T180000Z\nSUMMARY:No uid'), OPTS).items[0]!.key).toBe(derived.key);
    expect(parsed.items.map((i) => i.key)).toEqual([derived.key, 'ok']);
    const reasons = Object.fromEntries(parsed.skipped.map((s) => [s.uid, s.reason]));
    expect(reasons['']).toBeUndefined();
    expect(reasons.untitled).toBe('no SUMMARY');
    expect(parsed.skipped.filter((s) => s.uid.startsWith('untitled-series'))).toEqual([{ uid: 'untitled-series', reason: 'no SUMMARY' }]);
    expect(reasons.backwards).toBe('DTEND is before DTSTART');
    expect(reasons.cancelled).toBe('cancelled');
    expect(reasons.nostart).toBe('no DTSTART');
    expect(reasons.badrule).toMatch(/invalid frequency/);
    expect(reasons.baddate).toMatch(/invalid/i);
    expect(reasons.ok).toBe('another VEVENT has the same UID');
  });

  it('refuses what is no iCalendar file', () => {
    for (const text of ['', 'hello world', 'BEGIN:VCARD\r\nFN:Ada\r\nEND:VCARD\r\n', 'BEGIN:VCALENDAR\r\nthis is not ical\r\n', '\u0000\u0001binary']) {
      expect(() => parseIcs(text, OPTS), JSON.stringify(text)).toThrow(IcsImportError);
    }
    expect(() => parseIcs('BEGIN:VCALENDAR\r\nthis is not ical\r\n', OPTS)).toThrow(/not a valid iCalendar file/);
    expect(parseIcs('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n', OPTS)).toEqual({ items: [], skipped: [] });
  });

  it('reads back what the feed writes', () => {
    const feed = buildIcalFeed(
      [
        {
          id: 3, title: 'Quiz &amp; Chips', description: '<p>Teams of four.</p>', url: 'https://site.test/event/quiz/', all_day: false,
          start_date: '2026-06-10 19:00:00', end_date: '2026-06-10 21:30:00', utc_start_date: '2026-06-10 23:00:00', utc_end_date: '2026-06-11 01:30:00',
          timezone: 'America/New_York', date_utc: '2026-05-01 10:00:00', modified_utc: '2026-05-01 10:00:00',
          image: { url: 'https://site.test/quiz.jpg', extension: 'jpg' }, venue: { venue: 'The Anchor' }, organizer: [{ organizer: 'Quiz League', email: 'quiz@site.test' }],
          categories: [{ name: 'Pub' }],
        },
        {
          id: 4, title: 'Fair', description: '', url: 'https://site.test/event/fair/', all_day: true, start_date: '2026-06-20 00:00:00', end_date: '2026-06-21 23:59:59',
          utc_start_date: '2026-06-19 23:00:00', utc_end_date: '2026-06-21 22:59:59', timezone: 'Europe/London', date_utc: '2026-05-01 10:00:00',
          modified_utc: '2026-05-01 10:00:00', image: false, venue: [], organizer: [], categories: [],
        },
      ],
      { name: 'Site', url: 'https://site.test/events/', home: 'https://site.test' },
      NOW,
    );
    const [quiz, fair] = parseIcs(feed, OPTS).items;
    expect(quiz!.key).toBe('3@site.test');
    expect(quiz!.fields).toEqual({
      title: 'Quiz & Chips', description: 'Teams of four.', start_date: '2026-06-10 19:00:00', end_date: '2026-06-10 21:30:00', timezone: 'America/New_York',
      all_day: false, venue: { venue: 'The Anchor' }, organizer: { organizer: 'Quiz League', email: 'quiz@site.test' }, categories: ['Pub'],
      website: 'https://site.test/event/quiz/', image: 'https://site.test/quiz.jpg',
    });
    expect(fair!.fields).toMatchObject({ start_date: '2026-06-20 00:00:00', end_date: '2026-06-21 23:59:59', all_day: true });
  });
});
