/**
 * The exact bytes (status, headers, body) of the events area's read routes on a fixed, varied site
 * with a fixed clock. Optimisations of the read path must leave every one of them unchanged; both
 * engines must answer the same bytes (one snapshot file for both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { insertAttachment } from './fixtures.case.js';

const NS = '/eventsuite/events/v1';
const NOW = new Date('2025-04-01T12:00:00Z');

type Json = Record<string, any>;

/** Headers that describe the response bytes (not the transport). */
function stableHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(headers).sort()) {
    if (key === 'date' || key === 'connection' || key === 'keep-alive') continue;
    out[key] = headers[key]!;
  }
  return out;
}

describe.each(DIALECTS)('events responses on %s', (engine) => {
  let t: TestApp;
  let editor: TestUser;
  let firstId = 0;
  const ids: number[] = [];
  let music = 0;
  let jazz = 0;
  const answers: string[] = [];

  const create = async (body: Json) => {
    const res = await t.request('POST', `${NS}/events`, { as: t.admin, json: body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Json;
  };

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => NOW });
    editor = await t.createUser('editor');
    const image = await insertAttachment(t, 'http://example.test/wp-content/uploads/2025/03/poster.jpg');
    const hall = { venue: 'Town Hall', address: '1 Market Square', city: 'Leeds', country: 'United Kingdom', zip: 'LS1 1AA', phone: '0113 000', website: 'https://hall.example', description: 'A grand hall.\n\nWith two rooms.' };
    const fixture: Json[] = [
      { title: 'Jazz Night', description: 'Smooth tunes.\n\nSecond paragraph with <strong>bold</strong>\nand a line break.', excerpt: 'Jazz, live.', start_date: '2025-04-10 19:00', end_date: '2025-04-10 22:00', categories: ['Music'], tags: ['jazz', 'live'], venue: hall, organizer: [{ organizer: 'Jazz Society', email: 'jazz@example.test', phone: '123', website: 'https://jazz.example' }], featured: true, cost: '$10', image },
      { title: 'Pottery Workshop', description: '<div>Block content</div>\n\nLearn to throw clay', start_date: '2025-04-12 10:00', end_date: '2025-04-12 12:00', categories: ['Workshops'], venue: { venue: 'Clay Studio', city: 'York' }, organizer: [{ organizer: 'Makers Guild' }, { organizer: 'Clay Club', description: 'We love clay.' }], cost: '5 - 15' },
      { title: 'Spring Fair', description: '<ul>\n<li>Stalls</li>\n<li>Music</li>\n</ul>\n<pre>keep\n\nthis</pre>', start_date: '2025-04-05', end_date: '2025-04-06', all_day: true, categories: ['Fairs'], tags: ['family'], website: 'https://fair.example' },
      { title: 'Multi Day Camp', description: 'Three days\noutdoors.', start_date: '2025-04-05 09:00', end_date: '2025-04-07 17:00', categories: ['Music', 'Outdoors'], timezone: 'Europe/Paris', sticky: true },
      { title: 'Hidden Gathering', start_date: '2025-04-15 09:00', end_date: '2025-04-15 10:00', hide_from_listings: true, show_map: true, show_map_link: false },
      { title: 'Draft Concert', start_date: '2025-04-20 09:00', end_date: '2025-04-20 10:00', status: 'draft', categories: ['Music'] },
      { title: 'Secret Supper', description: 'Only for guests.', excerpt: 'Hush.', start_date: '2025-04-18 19:00', end_date: '2025-04-18 23:00', password: 'open sesame', categories: ['Food'] },
      { title: 'Old Market', start_date: '2025-03-01 09:00', end_date: '2025-03-01 12:00' },
      { title: 'Far Future Fest', start_date: '2028-01-01 09:00', end_date: '2028-01-01 12:00', cost: ['20', '30'] },
    ];
    for (const body of fixture) {
      const ev = await create(body);
      ids.push(ev.id);
      if (firstId === 0) {
        firstId = ev.id;
        music = ev.categories[0].id;
        jazz = ev.tags[0].id;
      }
    }
    // Enough more to fill a page of 50 and a second one, sharing the first venue and organizer.
    const first = (await t.request('GET', `${NS}/events/${firstId}`, { as: t.admin })).body as Json;
    for (let i = 0; i < 52; i++) {
      const day = String(2 + (i % 27)).padStart(2, '0');
      await create({
        title: `Series talk ${i}`, description: i % 3 === 0 ? `Talk number ${i}.\n\nQuestions after.` : '', start_date: `2025-05-${day} 18:${String(i % 60).padStart(2, '0')}`,
        end_date: `2025-05-${day} 20:00`, categories: i % 2 === 0 ? [music] : ['Talks'], tags: i % 5 === 0 ? [jazz] : [], venue: i % 4 === 0 ? first.venue.id : [],
        organizer: i % 3 === 0 ? [first.organizer[0].id] : [], cost: i % 7 === 0 ? 'Free' : '',
      });
    }
    const ticket = await t.request('POST', '/eventsuite/tickets/v1/tickets', { as: t.admin, json: { post_id: firstId, provider: 'rsvp', name: 'Free seat' } });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(202);
    // Sixty-odd writes: slow on a busy machine.
  }, 300_000);
  afterAll(() => t.close());

  const reads: [string, string, Json, 'admin' | 'editor' | 'anon'][] = [
    ['list, default, signed out', '/events', {}, 'anon'],
    ['list, default, signed in', '/events', {}, 'admin'],
    ['list, per_page=50', '/events', { per_page: 50 }, 'admin'],
    ['list, page 2 of 50', '/events', { per_page: 50, page: 2 }, 'admin'],
    ['list, by category and start date', '/events', { categories: 'music', start_date: '2025-04-06' }, 'admin'],
    ['list, by tag, page 2 of 3', '/events', { tags: 'jazz', per_page: 3, page: 2, start_date: '2025-01-01' }, 'editor'],
    ['list, featured, strict dates', '/events', { featured: 'true', start_date: '2025-04-10 18:00', strict_dates: 'true' }, 'anon'],
    ['list, venue and organizer', '/events', { venue: 'VENUE', organizer: 'ORGANIZER', per_page: 5 }, 'admin'],
    ['list, ticketed', '/events', { ticketed: 'true' }, 'anon'],
    ['list, drafts', '/events', { status: 'draft' }, 'admin'],
    ['single', '/events/FIRST', {}, 'admin'],
    ['single, signed out', '/events/FIRST', {}, 'anon'],
    ['single, all-day', '/events/THIRD', {}, 'admin'],
    ['single, password-protected with password', '/events/SEVENTH', { password: 'open sesame' }, 'anon'],
    ['single, by slug', '/events/by-slug/multi-day-camp', {}, 'editor'],
    ['venues', '/venues', {}, 'admin'],
    ['organizers', '/organizers', { per_page: 50 }, 'admin'],
    ['categories', '/categories', {}, 'anon'],
  ];

  it.each(reads)('%s', async (name, route, query, who) => {
    const first = (await t.request('GET', `${NS}/events/${firstId}`, { as: t.admin })).body as Json;
    const path = route.replace('FIRST', String(firstId)).replace('THIRD', String(ids[2])).replace('SEVENTH', String(ids[6]));
    const q: Json = { ...query };
    if (q.venue === 'VENUE') q.venue = first.venue.id;
    if (q.organizer === 'ORGANIZER') q.organizer = first.organizer[0].id;
    const as = who === 'admin' ? t.admin : who === 'editor' ? editor : null;
    const res = await t.request('GET', `${NS}${path}`, { as, query: q });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    answers.push(`### ${name}: GET ${path.replace(String(firstId), '{first}')} ${JSON.stringify(q)}\n${JSON.stringify(stableHeaders(res.headers), null, 1)}\n${res.text}\n`);
  });

  it('answers the same bytes as before the read path was optimised', async () => {
    expect(answers).toHaveLength(reads.length);
    await expect(answers.join('\n')).toMatchFileSnapshot('__snapshots__/events-responses.txt');
  });
});
