/**
 * `kill -9` of the server in the middle of a `/batch/v1` request, on each engine: eight event
 * creations (each with a new venue and a category); the process dies inside the fourth one's
 * transaction (test-only crash point: its post, details and venue written, its category not yet).
 * After it: the three done are whole, nothing of the fourth or later exists. Sending the rest again
 * to the reopened site completes the set, each event once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { DIALECTS } from '../storage/test-db.js';
import { appOn, createFaultSite, expectWholeEvents, startServer, type FaultSite } from '../test-support/server-process.js';

const requests = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => ({
    method: 'POST',
    path: '/eventsuite/events/v1/events',
    body: { title: `Batch ${from + k}`, start_date: '2027-02-01 18:00', end_date: '2027-02-01 20:00', status: 'publish', venue: { venue: `Batch hall ${from + k}` }, categories: ['Batch'] },
  }));

describe.each(DIALECTS)('kill -9 during a batch request on %s', (engine) => {
  let site: FaultSite;
  let again: App | undefined;
  beforeAll(async () => {
    site = await createFaultSite(engine);
    await site.closeApp();
  });
  afterAll(async () => {
    await again?.close();
    await site?.destroy();
  });

  it('keeps the items done whole, nothing of the one under way, and nothing twice when the rest is sent again', async () => {
    const server = await startServer(site.url, { EVENTSUITE_TEST_CRASH_POINT: 'event.linked-written', EVENTSUITE_TEST_CRASH_SKIP: '3' });
    const sent = fetch(`${server.base}/wp-json/batch/v1`, {
      method: 'POST',
      headers: { authorization: site.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ requests: requests(0, 8) }),
    }).then((r) => r.status, (e: Error) => e.message);
    await server.waitFor(/crash point event\.linked-written reached/);
    await server.kill('SIGKILL');
    expect(typeof (await sent)).toBe('string'); // the connection died with the process

    expect((await expectWholeEvents(site.db)).sort()).toEqual(['Batch 0', 'Batch 1', 'Batch 2']);
    const halls = await site.db.selectFrom('posts').select('title').where('type', '=', 'tribe_venue').execute();
    expect(halls.map((h) => h.title).sort()).toEqual(['Batch hall 0', 'Batch hall 1', 'Batch hall 2']);

    // The client sends what was not acknowledged again.
    again = await appOn(site.db);
    const res = await again.inject({
      method: 'POST', url: '/wp-json/batch/v1', headers: { authorization: site.authorization, 'content-type': 'application/json' },
      payload: JSON.stringify({ requests: requests(3, 8) }),
    });
    expect(res.statusCode).toBe(207);
    expect(JSON.parse(res.body).responses.map((r: { status: number }) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const titles = await expectWholeEvents(site.db);
    expect(titles.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `Batch ${i}`).sort());
  }, 180_000);
});
