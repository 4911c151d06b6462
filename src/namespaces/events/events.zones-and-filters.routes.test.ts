import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { insertAttachment } from './fixtures.case.js';

const NS = '/eventsuite/events/v1';
const NOW = new Date('2025-04-01T12:00:00Z');

type Json = Record<string, any>;

describe.each(DIALECTS)('event IDs, images, category filter and time zones on %s', (engine) => {
  let t: TestApp;
  const create = (body: Json) => t.request('POST', `${NS}/events`, { as: t.admin, json: body });

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => NOW });
  });
  afterAll(() => t.close());

  it('answers 404 rest-event-not-found for /events/0 and for IDs past what the table holds', async () => {
    for (const id of ['0', '2147483648', '99999999999999999999']) {
      const res = await t.request('GET', `${NS}/events/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.code).toBe('rest-event-not-found');
    }
  });

  it('takes an image URL only when it is one of this site’s media; any other URL is 400', async () => {
    const url = 'http://example.test/wp-content/uploads/2025/06/fair.jpg';
    const id = await insertAttachment(t, url);
    const ok = await create({ title: 'Pictured', start_date: '2025-06-01 10:00', end_date: '2025-06-01 11:00', image: url });
    expect(ok.status).toBe(201);
    expect(ok.body.image).toMatchObject({ url, id });
    const foreign = await create({ title: 'Hotlinked', start_date: '2025-06-01 10:00', end_date: '2025-06-01 11:00', image: 'https://cdn.example.org/2025/fair.jpg' });
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.data.params)).toEqual(['image']);
  });

  it('includes events of child categories in a categories filter', async () => {
    const parent = await t.request('POST', `${NS}/categories`, { as: t.admin, json: { name: 'Arts' } });
    const child = await t.request('POST', `${NS}/categories`, { as: t.admin, json: { name: 'Painting', parent: parent.body.id } });
    const grandchild = await t.request('POST', `${NS}/categories`, { as: t.admin, json: { name: 'Watercolour', parent: child.body.id } });
    await create({ title: 'Art Fair', start_date: '2025-06-02 10:00', end_date: '2025-06-02 11:00', categories: [parent.body.id] });
    await create({ title: 'Paint Class', start_date: '2025-06-03 10:00', end_date: '2025-06-03 11:00', categories: [child.body.id] });
    await create({ title: 'Wet Paper', start_date: '2025-06-04 10:00', end_date: '2025-06-04 11:00', categories: [grandchild.body.id] });
    const titles = async (categories: string) =>
      (await t.request('GET', `${NS}/events`, { query: { categories, start_date: '2025-06-01', end_date: '2025-06-30' } })).body.events.map((e: Json) => e.title);
    expect(await titles('arts')).toEqual(['Art Fair', 'Paint Class', 'Wet Paper']);
    expect(await titles(String(child.body.id))).toEqual(['Paint Class', 'Wet Paper']);
  });

  it.each([
    ['Europe/Berlin', '2025-07-01 10:00', 'CEST'],
    ['Asia/Kolkata', '2025-07-01 10:00', 'IST'],
    ['America/New_York', '2025-07-01 10:00', 'EDT'],
    ['Europe/London', '2025-01-10 10:00', 'GMT'],
  ])('gives the abbreviation of %s as timezone_abbr', async (timezone, start, abbr) => {
    const res = await create({ title: `Zone ${timezone}`, start_date: start, end_date: start.replace('10:00', '11:00'), timezone });
    expect(res.status).toBe(201);
    expect(res.body.timezone_abbr).toBe(abbr);
  });

  it('resolves a local time of the repeated autumn hour to its first occurrence, as PHP does', async () => {
    const berlin = await create({ title: 'Night Walk', start_date: '2025-10-26 02:30', end_date: '2025-10-26 03:30', timezone: 'Europe/Berlin' });
    expect(berlin.body).toMatchObject({ start_date: '2025-10-26 02:30:00', utc_start_date: '2025-10-26 00:30:00', timezone_abbr: 'CEST' });
    const ny = await create({ title: 'Late Show', start_date: '2025-11-02 01:30', end_date: '2025-11-02 03:00', timezone: 'America/New_York' });
    expect(ny.body).toMatchObject({ utc_start_date: '2025-11-02 05:30:00', utc_end_date: '2025-11-02 08:00:00' });
  });
});
