/**
 * Graceful shutdown of `serve` on SIGTERM, on each engine. A request and a job still running when the
 * signal arrives (held a moment at test-only crash points) are finished: the request gets its answer,
 * the job is done, the process exits 0. A job running past the grace period (`SHUTDOWN_GRACE_SECONDS`)
 * is handed back to the queue, due at once and with its attempt not counted, and the next runner
 * retries it (at least once) instead of waiting for its claim to expire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from './app.js';
import { insertJob } from './jobs/store.js';
import { DIALECTS } from './storage/test-db.js';
import { appOn, createFaultSite, startServer, type FaultSite } from './test-support/server-process.js';

describe.each(DIALECTS)('SIGTERM on %s', (engine) => {
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

  const job = (id: number) => site.db.selectFrom('jobs').select(['status', 'attempts', 'locked_by', 'last_error']).where('id', '=', id).executeTakeFirstOrThrow();

  it('lets the request and the job under way finish, then exits 0', async () => {
    const { job: queued } = await insertJob(site.db, new Date(), 'jobs.prune', {});
    const server = await startServer(site.url, { EVENTSUITE_TEST_CRASH_POINT: 'event.linked-written:2500,job.running:2500', SHUTDOWN_GRACE_SECONDS: '8' });
    const answer = fetch(`${server.base}/wp-json/eventsuite/events/v1/events`, {
      method: 'POST',
      headers: { authorization: site.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Drained', start_date: '2027-04-01 10:00', end_date: '2027-04-01 11:00', status: 'publish', venue: { venue: 'Drain hall' } }),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
    await server.waitFor(/crash point job\.running reached/);
    await server.waitFor(/crash point event\.linked-written reached/);
    const exit = server.kill('SIGTERM');
    const res = await answer;
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Drained');
    expect(await exit, server.output()).toEqual({ code: 0, signal: null });
    expect(await job(queued.id)).toMatchObject({ status: 'done', attempts: 1, locked_by: null });
    expect(await site.db.selectFrom('posts').select('title').where('title', '=', 'Drained').execute()).toHaveLength(1);
  }, 180_000);

  it('hands a job running past the grace period back to the queue; the next runner runs it', async () => {
    const { job: queued } = await insertJob(site.db, new Date(), 'jobs.prune', {});
    const server = await startServer(site.url, { EVENTSUITE_TEST_CRASH_POINT: 'job.running:60000', SHUTDOWN_GRACE_SECONDS: '1' });
    await server.waitFor(/crash point job\.running reached/);
    expect(await job(queued.id)).toMatchObject({ status: 'running', attempts: 1 });
    const stopped = Date.now();
    expect(await server.kill('SIGTERM'), server.output()).toEqual({ code: 0, signal: null });
    expect(Date.now() - stopped).toBeLessThan(20_000);
    expect(await job(queued.id)).toEqual({ status: 'queued', attempts: 0, locked_by: null, last_error: 'interrupted: the server stopped before it finished' });

    again = await appOn(site.db);
    const ran = await again.ctx.jobs.runDue();
    expect(ran.map((j) => [j.id, j.status])).toContainEqual([queued.id, 'done']);
    expect(await job(queued.id)).toMatchObject({ status: 'done', attempts: 1 });
  }, 180_000);
});
