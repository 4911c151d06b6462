import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { createTestDb, DIALECTS, type TestDb } from '../storage/test-db.js';
import {
  dateDetails, nextFreeSlug, normaliseZone, parseDateTime, postDatePair, siteTimeZone, siteTimeZoneSetting,
  uniquePostSlug, wpautop, zoneAbbreviation, renderContent,
} from './posts.js';
import { MAX_SLUG_LENGTH } from './slugs.js';

const NOW = new Date('2025-04-02T15:30:00Z'); // a Wednesday
const fmt = (dt: DateTime | undefined) => dt?.toFormat('yyyy-MM-dd HH:mm:ss');

describe('nextFreeSlug', () => {
  it('appends -2, -3… to taken slugs', () => {
    expect(nextFreeSlug('a', new Set())).toBe('a');
    expect(nextFreeSlug('a', new Set(['a', 'a-2']))).toBe('a-3');
  });
});

describe('time zones and dates', () => {
  it('normalises zone settings', () => {
    expect(normaliseZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(normaliseZone('UTC')).toBe('UTC');
    expect(normaliseZone('UTC+5')).toBe('UTC+5');
    expect(normaliseZone('UTC-3.5')).toBe('UTC-3:30');
    expect(normaliseZone('Mars/Base')).toBeUndefined();
    expect(normaliseZone('')).toBeUndefined();
  });
  it('reads the site zone from timezone_string or gmt_offset', async () => {
    const opts = (o: Record<string, unknown>) => ({ get: async <T>(n: string, f?: T) => (o[n] ?? f) as T });
    expect(await siteTimeZoneSetting(opts({ timezone_string: 'America/New_York' }))).toBe('America/New_York');
    expect(await siteTimeZoneSetting(opts({ timezone_string: '', gmt_offset: '5.5' }))).toBe('UTC+5.5');
    expect(await siteTimeZone(opts({ timezone_string: '', gmt_offset: '-3' }))).toBe('UTC-3');
    expect(await siteTimeZoneSetting(opts({ timezone_string: '', gmt_offset: '0' }))).toBe('UTC');
  });
  it('splits dates into zero-padded details', () => {
    expect(dateDetails('2025-04-07 09:05:00')).toEqual({ year: '2025', month: '04', day: '07', hour: '09', minutes: '05', seconds: '00' });
    expect(dateDetails('')).toEqual({ year: '', month: '', day: '', hour: '', minutes: '', seconds: '' });
  });
  it('gives local and UTC pairs and abbreviations', () => {
    expect(postDatePair(NOW, 'America/New_York')).toEqual({ local: '2025-04-02 11:30:00', gmt: '2025-04-02 15:30:00' });
    expect(zoneAbbreviation(DateTime.fromJSDate(NOW, { zone: 'America/New_York' }))).toBe('EDT');
    expect(zoneAbbreviation(DateTime.fromJSDate(NOW, { zone: 'UTC' }))).toBe('UTC');
    expect(zoneAbbreviation(DateTime.fromJSDate(NOW, { zone: 'UTC+5' }))).toBe('UTC+5');
  });
});

describe('parseDateTime', () => {
  const p = (s: unknown, zone = 'UTC') => fmt(parseDateTime(s, zone, NOW));
  it('parses absolute formats in the given zone', () => {
    expect(p('2025-04-01')).toBe('2025-04-01 00:00:00');
    expect(p('2025-04-01 14:00')).toBe('2025-04-01 14:00:00');
    expect(p('2025-04-01T14:00:05')).toBe('2025-04-01 14:00:05');
    expect(p('2025-04-01T14:00:00Z', 'America/New_York')).toBe('2025-04-01 10:00:00');
    expect(p('2025-04-01 14:00:00+02:00')).toBe('2025-04-01 12:00:00');
    expect(p('04/12/2025')).toBe('2025-04-12 00:00:00');
    expect(p('12-04-2025')).toBe('2025-04-12 00:00:00');
    expect(p('April 12, 2025 9:30 pm')).toBe('2025-04-12 21:30:00');
    expect(p('12 Apr 2025 9am')).toBe('2025-04-12 09:00:00');
    expect(p('1743600000')).toBe('2025-04-02 13:20:00');
    expect(p(1743600000)).toBe('2025-04-02 13:20:00');
  });
  it('parses relative formats', () => {
    expect(p('now')).toBe('2025-04-02 15:30:00');
    expect(p('today')).toBe('2025-04-02 00:00:00');
    expect(p('tomorrow')).toBe('2025-04-03 00:00:00');
    expect(p('yesterday 23:59')).toBe('2025-04-01 23:59:00');
    expect(p('+2 weeks')).toBe('2025-04-16 15:30:00');
    expect(p('3 days ago')).toBe('2025-03-30 15:30:00');
    expect(p('next friday')).toBe('2025-04-04 00:00:00');
    expect(p('next wednesday')).toBe('2025-04-09 00:00:00');
    expect(p('last monday')).toBe('2025-03-31 00:00:00');
    expect(p('friday 18:00')).toBe('2025-04-04 18:00:00');
    expect(p('+24 months')).toBe('2027-04-02 15:30:00');
    expect(p('first day of next month')).toBe('2025-05-01 00:00:00');
    expect(p('noon')).toBe('2025-04-02 12:00:00');
  });
  it('rejects garbage', () => {
    for (const s of ['', 'not a date', '2025-02-30', 'next blursday', '25:00', {}, null, 'April 40 2025']) expect(p(s), String(s)).toBeUndefined();
  });
});

describe('wpautop', () => {
  it('wraps paragraphs and line breaks as WordPress', () => {
    expect(wpautop('Hello')).toBe('<p>Hello</p>\n');
    expect(renderContent('Hello')).toBe('<p>Hello</p>');
    expect(renderContent('One\n\nTwo\nlines')).toBe('<p>One</p>\n<p>Two<br />\nlines</p>');
    expect(renderContent('<div>Block</div>\n\nText')).toBe('<div>Block</div>\n<p>Text</p>');
    expect(renderContent('<ul>\n<li>a</li>\n</ul>')).toBe('<ul>\n<li>a</li>\n</ul>');
    expect(renderContent('<pre>a\n\nb</pre>')).toBe('<pre>a\n\nb</pre>');
    expect(renderContent('')).toBe('');
  });
});

describe.each(DIALECTS)('uniquePostSlug on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(engine);
  });
  afterAll(() => t.destroy());

  it('is unique per type and ignores the post being updated', async () => {
    const row = { status: 'publish', title: 't', content: '', excerpt: '', author: 0, parent: 0, password: '', menu_order: 0, date: '2025-01-01 00:00:00', date_gmt: '2025-01-01 00:00:00', modified: '2025-01-01 00:00:00', modified_gmt: '2025-01-01 00:00:00', image_url: '' };
    const [first] = await t.db.insertInto('posts').values([{ ...row, type: 'tribe_events', slug: 'fair' }, { ...row, type: 'tribe_events', slug: 'fair-2' }, { ...row, type: 'tribe_venue', slug: 'hall' }]).returning('id').execute();
    expect(await uniquePostSlug(t.db, 'tribe_events', 'Fair')).toBe('fair-3');
    expect(await uniquePostSlug(t.db, 'tribe_events', 'Fair', Number(first!.id))).toBe('fair');
    expect(await uniquePostSlug(t.db, 'tribe_events', 'Hall')).toBe('hall');
    expect(await uniquePostSlug(t.db, 'tribe_events', '', undefined, 'event')).toBe('event');
    expect(await uniquePostSlug(t.db, 'tribe_events', '100%_off')).toBe('100_off');
  });

  it('takes underscores literally when looking for numbered slugs', async () => {
    const row = { status: 'publish', title: 't', content: '', excerpt: '', author: 0, parent: 0, password: '', menu_order: 0, date: '2025-01-01 00:00:00', date_gmt: '2025-01-01 00:00:00', modified: '2025-01-01 00:00:00', modified_gmt: '2025-01-01 00:00:00', image_url: '' };
    await t.db.insertInto('posts').values([{ ...row, type: 'tribe_venue', slug: 'a_b' }, { ...row, type: 'tribe_venue', slug: 'a_b-2' }, { ...row, type: 'tribe_venue', slug: 'axb-3' }]).execute();
    expect(await uniquePostSlug(t.db, 'tribe_venue', 'a_b')).toBe('a_b-3');
    expect(await uniquePostSlug(t.db, 'tribe_venue', 'axb')).toBe('axb');
  });

  it('numbers a title too long for a slug again and again (the base is cut to fit the suffix)', async () => {
    const row = { status: 'publish', title: 't', content: '', excerpt: '', author: 0, parent: 0, password: '', menu_order: 0, date: '2025-01-01 00:00:00', date_gmt: '2025-01-01 00:00:00', modified: '2025-01-01 00:00:00', modified_gmt: '2025-01-01 00:00:00', image_url: '' };
    const title = 'Long title '.repeat(25);
    const slugs: string[] = [];
    for (let i = 0; i < 4; i++) {
      const slug = await uniquePostSlug(t.db, 'tribe_organizer', title);
      slugs.push(slug);
      await t.db.insertInto('posts').values({ ...row, type: 'tribe_organizer', slug }).execute();
    }
    expect(new Set(slugs).size).toBe(4);
    expect(slugs.every((s) => s.length <= MAX_SLUG_LENGTH)).toBe(true);
    expect(slugs.slice(1).map((s) => s.slice(-2))).toEqual(['-2', '-3', '-4']);
  });
});
