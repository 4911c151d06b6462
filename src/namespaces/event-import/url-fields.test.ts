/**
 * iCalendar injection through imported URLs (issue 8): a control character in any URL field of an
 * imported item (the images and websites of the event, its venue and organizers) refuses the item;
 * image URLs are loaded in their normalised form; the feed never writes a control character into a URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { buildIcalFeed } from '../events/ical/ical-feed.js';
import { parseIcs } from '../events/ical/ical-parse.js';
import { parseEventsCsv } from './csv.js';
import { type ImportedItem } from './fields.js';
import { applyItems } from './import.service.js';
import { insertRecord } from './records.repo.js';
import { fromServiceItem } from './service-items.js';
import { checkedUrls } from './url-fields.js';

const FORGE = '\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:forged\r\nSUMMARY:Forged event\r\nDTSTART:20300101T000000Z';

function serviceEvent(n: number, extra: Record<string, unknown> = {}) {
  return {
    global_id: `svc.example?uid=url-${n}`, title: `Talk ${n}`, start_date: '2030-06-01', start_hour: '7', start_minute: '00', start_meridian: 'PM',
    end_date: '2030-06-01', end_hour: '9', end_minute: '00', end_meridian: 'PM', timezone: 'UTC', ...extra,
  };
}

function item(raw: unknown): ImportedItem {
  const parsed = fromServiceItem(raw);
  if (!('fields' in parsed)) throw new Error(parsed.reason);
  return parsed;
}

describe('URLs in the iCalendar parser and feed', () => {
  const opts = { now: new Date('2030-01-01T00:00:00Z'), siteZone: 'UTC', siteTimezone: 'UTC' };
  const ics = (lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:u1', 'SUMMARY:One', 'DTSTART:20300201T100000Z', 'DTEND:20300201T110000Z', ...lines, 'END:VEVENT', 'END:VCALENDAR'].join('\r\n');

  it('refuses an event whose image or URL holds a control character', () => {
    for (const line of ['ATTACH;FMTTYPE=image/png:https://img.example/a\u000b.png', 'URL:https://site.example/\u0007x', 'ATTACH;FMTTYPE=image/png:https://img.example/a\u0085.png']) {
      const parsed = parseIcs(ics([line]), opts);
      expect(parsed.items, line).toEqual([]);
      expect(parsed.skipped, line).toEqual([{ uid: 'u1', reason: expect.stringMatching(/control character/) }]);
    }
    const fine = parseIcs(ics(['ATTACH;FMTTYPE=image/png:https://IMG.example/a b.png']), opts);
    expect(fine.items[0]!.fields.image).toBe('https://img.example/a%20b.png');
  });

  it('normalises the image URLs of the event, its venue and organizers (the form that is loaded)', () => {
    const checked = checkedUrls(item(serviceEvent(5, {
      image: 'https://IMG.example/x/../a b.jpg', venue: { venue: 'Hall', image: 'HTTPS://img.example/v 1.jpg' }, organizer: [{ organizer: 'Org', image: 'https://img.example/./o.jpg' }, { organizer: 'Other' }],
    })));
    expect('fields' in checked && checked.fields).toMatchObject({
      image: 'https://img.example/a%20b.jpg', venue: { venue: 'Hall', image: 'https://img.example/v%201.jpg' }, organizers: [{ organizer: 'Org', image: 'https://img.example/o.jpg' }, { organizer: 'Other' }],
    });
    const plain = item(serviceEvent(6, { image: 'https://img.example/a.jpg', venue: { venue: 'Hall', image: 'https://img.example/v.jpg' } }));
    expect(checkedUrls(plain)).toBe(plain);
  });

  it('never writes a control character into a feed URL', () => {
    const text = buildIcalFeed(
      [
        {
          id: 1, title: 'One', description: '', url: 'https://site.example/event/one/', all_day: false, start_date: '2030-02-01 10:00:00',
          end_date: '2030-02-01 11:00:00', utc_start_date: '2030-02-01 10:00:00', utc_end_date: '2030-02-01 11:00:00', timezone: 'UTC',
          date_utc: '2029-12-01 10:00:00', modified_utc: '2029-12-01 10:00:00', image: { url: `https://img.example/a.jpg${FORGE}` },
          venue: [], organizer: [], categories: [],
        } as never,
      ],
      { name: 'Site', url: 'https://site.example/events/', home: 'https://site.example' } as never,
      new Date('2030-01-01T00:00:00Z'),
    );
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(text).not.toContain('Forged');
  });
});

describe.each(DIALECTS)('URLs of imported items on %s', (engine) => {
  let t: TestApp;
  let record: string;
  beforeAll(async () => {
    t = await startTestApp(engine);
    record = (await insertRecord(t.db, { origin: 'remote', source: '', frequency: 'on_demand', status: 'pending', nextBatchHash: 'x'.repeat(32) }, new Date())).id;
  });
  afterAll(() => t.close());

  it('refuses a service item with a control character in any URL field; the public feed stays whole', async () => {
    const items = [
      item(serviceEvent(1, { image: `https://img.example/a.jpg${FORGE}` })),
      item(serviceEvent(2, { url: 'https://site.example/\u0000x' })),
      item(serviceEvent(3, { venue: { venue: 'Hall', website: 'https://hall.example/\nx' } })),
      item(serviceEvent(4, { organizer: [{ organizer: 'Org', website: 'https://org.example/\u2028x' }] })),
      item(serviceEvent(5, { venue: { venue: 'Hall', image: `https://img.example/v.jpg${FORGE}` } })),
      item(serviceEvent(6, { organizer: [{ organizer: 'Org', image: 'https://img.example/o\u0085.jpg' }] })),
    ];
    const result = await applyItems(t.ctx, record, items);
    expect(result.created).toBe(0);
    expect(result.skipped.map((s) => s.uid)).toEqual(items.map((i) => i.key));
    for (const s of result.skipped) expect(s.reason).toMatch(/control character/);
    const feed = await t.app.inject({ method: 'GET', url: '/events/?ical=1' });
    expect(feed.body).not.toContain('Forged');
  });

  it('refuses a CSV row the same way', async () => {
    const csv = 'Event Name,Event Start Date,Event Featured Image\nRow,2030-07-01,"https://img.example/a.jpg\rX"\n';
    const { items } = parseEventsCsv(csv);
    const result = await applyItems(t.ctx, record, items);
    expect(result.created).toBe(0);
    expect(result.skipped[0]!.reason).toMatch(/control character/);
  });

  it('refuses a control character in a website written through the REST API', async () => {
    const res = await t.request('POST', '/eventsuite/events/v1/events', {
      as: t.admin,
      json: { title: 'W', start_date: '2030-05-01 10:00', end_date: '2030-05-01 11:00', website: 'https://site.example/\r\nX' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
  });
});
