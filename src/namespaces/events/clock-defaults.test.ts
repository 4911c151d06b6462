import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS, type TestApp } from '../../test-support/harness.js';

const NS = '/eventsuite/events/v1';
/** Far from the real date, so a default taken from the system clock would show. */
const NOW = new Date('2040-06-15T12:00:00Z');
/** The app's clock; a test moves it. */
let clock = NOW;

type Json = Record<string, any>;

describe.each(DIALECTS)('GET /events date defaults follow the app clock on %s', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    // Test files share modules (vitest.config.ts: isolate false) and the namespace index then shows
    // the clock of an app an earlier file built: this file builds its app from fresh modules.
    vi.resetModules();
    const { startTestApp } = await import('../../test-support/harness.js');
    t = await startTestApp(engine, {}, { now: () => clock });
    for (const [title, start] of [['Before the clock', '2030-01-10 10:00'], ['After the clock', '2040-06-20 10:00']] as const) {
      const res = await t.request('POST', `${NS}/events`, { as: t.admin, json: { title, start_date: start, end_date: start.replace('10:00', '11:00') } });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('lists from the day before the app clock’s today when start_date is not given', async () => {
    const res = await t.request('GET', `${NS}/events`);
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: Json) => e.title)).toEqual(['After the clock']);
  });

  it('moves the default window with the local date (computed once per day), also when the clock goes back', async () => {
    const windowAt = async (at: string) => {
      clock = new Date(at);
      try {
        const res = await t.request('GET', `${NS}/events`, { as: t.admin });
        expect(res.status).toBe(200);
        const url = new URL(res.body.rest_url as string);
        return [url.searchParams.get('start_date'), url.searchParams.get('end_date')];
      } finally {
        clock = NOW;
      }
    };
    expect(await windowAt('2040-06-15T12:00:00Z')).toEqual(['2040-06-14 00:00:00', '2042-06-15 23:59:59']);
    expect(await windowAt('2040-06-15T23:59:59Z')).toEqual(['2040-06-14 00:00:00', '2042-06-15 23:59:59']);
    expect(await windowAt('2040-06-16T00:00:00Z')).toEqual(['2040-06-15 00:00:00', '2042-06-16 23:59:59']);
    expect(await windowAt('2040-06-15T00:00:00Z')).toEqual(['2040-06-14 00:00:00', '2042-06-15 23:59:59']);
  });

  it('shows the clock-based defaults in the namespace index and in /doc', async () => {
    const yesterday = DateTime.fromJSDate(NOW).minus({ days: 1 }).set({ hour: 23, minute: 59, second: 0 }).toFormat('yyyy-MM-dd HH:mm:ss');
    const inTwoYears = DateTime.fromJSDate(NOW).plus({ months: 24 }).toFormat('yyyy-MM-dd HH:mm:ss');
    const index = await t.request('GET', NS);
    const args = index.body.routes[`${NS}/events`].endpoints[0].args;
    expect([args.start_date.default, args.end_date.default]).toEqual([yesterday, inTwoYears]);
    const doc = await t.request('GET', `${NS}/doc`);
    const params = doc.body.paths['/events'].get.parameters as Json[];
    expect(params.find((p) => p.name === 'start_date')!.schema.default).toBe(yesterday);
  });
});
