/**
 * The archive's calendar fields (internal requests of the calendar views): the same values as the full
 * event objects, only fewer keys, and never served to a client from the signed-out response cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestRequest } from '../../rest/request.js';
import { valueOf } from '../../rest/serve.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';

const NS = '/eventsuite/events/v1';
const CALENDAR_KEYS = ['id', 'url', 'title', 'excerpt', 'image', 'all_day', 'start_date', 'end_date', 'timezone', 'cost', 'sticky', 'featured', 'venue', 'organizer'];

describe.each(DIALECTS)('calendar fields of the archive on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => new Date('2025-04-01T12:00:00Z') });
    const bodies = [
      { title: 'Jazz', excerpt: 'Live\n\nmusic', start_date: '2025-04-10 19:00', end_date: '2025-04-10 22:00', venue: { venue: 'Hall', city: 'Leeds' }, organizer: [{ organizer: 'Society' }], cost: '$10', featured: true },
      { title: 'Fair', start_date: '2025-04-05', end_date: '2025-04-06', all_day: true, sticky: true },
      { title: 'Supper', excerpt: 'Hush', start_date: '2025-04-12 19:00', end_date: '2025-04-12 23:00', password: 'pw', venue: { venue: 'Cellar' } },
    ];
    for (const json of bodies) expect((await t.request('POST', `${NS}/events`, { as: t.admin, json })).status).toBe(201);
  });
  afterAll(() => t.close());

  async function internal(query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    const req = createRestRequest({ method: 'GET', route: `${NS}/events`, query, user: null, auth: { method: 'none' }, ip: '127.0.0.1' });
    req.locals.eventFields = 'calendar';
    const res = await t.app.dispatcher.dispatch(req);
    expect(res.status).toBe(200);
    return (valueOf(res.data) as { events: Record<string, unknown>[] }).events;
  }

  it('answers the full objects’ values of the calendar’s keys, redacted alike', async () => {
    const query = { per_page: 50, strict_dates: 'true', ends_after: '2025-04-01 00:00:00' };
    const slim = await internal(query);
    const full = (await t.request('GET', `${NS}/events`, { query })).body.events as Record<string, unknown>[];
    expect(slim).toHaveLength(3);
    expect(slim.map((e) => e.id)).toEqual(full.map((e) => e.id));
    slim.forEach((e, i) => {
      expect(Object.keys(e)).toEqual(CALENDAR_KEYS);
      for (const key of CALENDAR_KEYS) expect(e[key], `${String(e.title)}.${key}`).toEqual(full[i]![key]);
    });
    expect(slim.find((e) => e.title === 'Supper')).toMatchObject({ excerpt: '', venue: [], cost: '' });
  });

  it('keeps its answers apart from the clients’ in the signed-out cache', async () => {
    const query = { per_page: 50, strict_dates: 'true', ends_after: '2025-04-02 00:00:00' };
    await internal(query);
    const client = await t.request('GET', `${NS}/events`, { query });
    expect(Object.keys(client.body.events[0])).toContain('start_date_details');
    await t.request('GET', `${NS}/events`, { query: { ...query, ends_after: '2025-04-03 00:00:00' } });
    const again = await internal({ ...query, ends_after: '2025-04-03 00:00:00' });
    expect(Object.keys(again[0]!)).toEqual(CALENDAR_KEYS);
  });
});
