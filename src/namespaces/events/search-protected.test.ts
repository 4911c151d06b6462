import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';

const EVENTS = '/eventsuite/events/v1/events';

// Issue 8: a password-protected event is not found by the text its password hides, except by those who may edit it.
describe.each(DIALECTS)('search and password-protected events on %s', (engine) => {
  let t: TestApp;
  let id: number;
  beforeAll(async () => {
    t = await startTestApp(engine);
    const res = await t.request('POST', EVENTS, {
      json: { title: 'Board meeting', description: 'The door code is zebra-4711', start_date: '2031-05-01 18:00:00', end_date: '2031-05-01 20:00:00', status: 'publish' },
      as: t.admin,
    });
    id = res.body.id;
    await t.db.updateTable('posts').set({ password: 'pw' }).where('id', '=', id).execute();
  });
  afterAll(() => t.close());

  const find = async (as?: Awaited<ReturnType<TestApp['createUser']>> | null) =>
    (await t.request('GET', EVENTS, { query: { search: 'zebra-4711', start_date: '2031-01-01', end_date: '2031-12-31' }, as })).body.events.map((e: any) => e.id);

  it('hides it from anonymous and subscriber searches, not from editors', async () => {
    expect(await find()).toEqual([]);
    expect(await find(await t.createUser('subscriber'))).toEqual([]);
    expect(await find(t.admin)).toEqual([id]);
  });
});
