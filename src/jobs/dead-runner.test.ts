/**
 * A server's runner is killed with SIGKILL in the middle of a long job (held at a test-only crash
 * point), on each engine. While it lives, another runner leaves its claim alone; right after the
 * kill, a runner started next to it queues the job again at its first poll and runs it — long before
 * the claim's 60 s lock would have expired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { DIALECTS } from '../storage/test-db.js';
import { appOn, createFaultSite, startServer, type FaultSite } from '../test-support/server-process.js';
import { parseRunnerId } from './runner-identity.js';
import { insertJob } from './store.js';

describe.each(DIALECTS)('a runner killed during a job on %s', (engine) => {
  let site: FaultSite;
  const apps: App[] = [];
  beforeAll(async () => {
    site = await createFaultSite(engine);
    await site.closeApp();
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await site?.destroy();
  });

  const job = (id: number) => site.db.selectFrom('jobs').select(['status', 'attempts', 'locked_by', 'locked_until_gmt', 'last_error']).where('id', '=', id).executeTakeFirstOrThrow();

  it.skipIf(process.platform !== 'linux')('never loses a live claim; a dead runner\'s job runs again at once', async () => {
    const { job: queued } = await insertJob(site.db, new Date(), 'jobs.prune', {});
    const server = await startServer(site.url, { EVENTSUITE_TEST_CRASH_POINT: 'job.running:60000' });
    try {
      await server.waitFor(/crash point job\.running reached/);
      const held = await job(queued.id);
      expect(held).toMatchObject({ status: 'running', attempts: 1 });
      expect(parseRunnerId(held.locked_by!)?.pid).toBe(server.child.pid);

      // Alive: another runner (a process starting next to it) runs nothing and leaves the claim.
      const other = await appOn(site.db);
      apps.push(other);
      expect(await other.ctx.jobs.runDue()).toEqual([]);
      expect(await job(queued.id)).toEqual(held);

      expect((await server.kill('SIGKILL')).signal).toBe('SIGKILL');
      const killed = Date.now();
      // A server's runner (polling) started next: it queues the job again at its first poll and runs it.
      const next = await appOn(site.db);
      apps.push(next);
      next.ctx.jobs.start();
      while ((await job(queued.id)).status !== 'done' && Date.now() - killed < 20_000) await new Promise((r) => setTimeout(r, 20));
      await next.ctx.jobs.stop();
      expect(Date.now() - killed).toBeLessThan(10_000);
      expect(await job(queued.id)).toEqual({ status: 'done', attempts: 2, locked_by: null, locked_until_gmt: null, last_error: `interrupted: its runner ${held.locked_by} died` });
    } finally {
      await server.kill('SIGKILL');
    }
  }, 120_000);
});
