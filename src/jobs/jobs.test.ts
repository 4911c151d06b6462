import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../app-context.js';
import { defineArea, type JobRun } from '../area.js';
import { Areas } from '../areas.js';
import { allAreas } from '../namespaces/index.js';
import { DIALECTS, startTestApp, type TestApp } from '../test-support/harness.js';
import { Jobs } from './runner.js';
import { claimJobs, finishDone } from './store.js';
import { gmt, nextRun, parseEvery } from './schedule.js';

/** Handlers of a test area record what they ran; `fail` makes a kind throw. */
function testArea() {
  const ran: { payload: unknown; job: JobRun }[] = [];
  const failing = { count: 0 };
  const area = defineArea({
    id: 'jobtest',
    title: 'Job tests',
    description: 'test area',
    namespaces: [],
    jobs: {
      'jobtest.record': async (_ctx, payload, job) => {
        ran.push({ payload, job });
      },
      'jobtest.flaky': async (_ctx, payload, job) => {
        ran.push({ payload, job });
        if (failing.count-- > 0) throw new Error(`boom ${job.attempt}`);
      },
      'jobtest.slow': async (_ctx, payload, job) => {
        await new Promise((r) => setTimeout(r, 150));
        ran.push({ payload, job });
      },
    },
  });
  return { area, ran, failing };
}

describe.each(DIALECTS)('jobs runner on %s', (engine) => {
  let t: TestApp;
  let ctx: AppContext;
  let clock: Date;
  let area: ReturnType<typeof testArea>;
  const advance = (s: number) => (clock = new Date(clock.getTime() + s * 1000));

  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.deleteFrom('jobs').execute();
    await t.db.deleteFrom('job_schedules').execute();
    clock = new Date('2026-11-23T10:00:00Z');
    area = testArea();
    const areas = new Areas([...allAreas(), area.area]);
    ctx = { ...t.ctx, areas, now: () => clock, jobs: new Jobs(() => ctx, { backoffBaseMs: 10_000, pollMs: 20 }) };
  });

  it('runs an enqueued job once with its payload', async () => {
    const job = await ctx.jobs.enqueue('jobtest.record', { order: 7 });
    expect(job).toMatchObject({ kind: 'jobtest.record', status: 'queued', attempts: 0, payload: { order: 7 } });
    const ran = await ctx.jobs.runDue();
    expect(ran.map((j) => j.status)).toEqual(['done']);
    expect(area.ran).toEqual([{ payload: { order: 7 }, job: { id: job.id, key: job.key, kind: 'jobtest.record', attempt: 1, dedupeKey: null } }]);
    expect(await ctx.jobs.runDue()).toEqual([]);
    expect(await ctx.jobs.get(job.id)).toMatchObject({ status: 'done', attempts: 1, finished: gmt(clock), lockedBy: null });
  });

  it('is idempotent by dedupe key', async () => {
    const a = await ctx.jobs.enqueue('jobtest.record', { n: 1 }, { dedupeKey: 'mail:order:1' });
    const b = await ctx.jobs.enqueue('jobtest.record', { n: 2 }, { dedupeKey: 'mail:order:1' });
    expect(b.id).toBe(a.id);
    await ctx.jobs.runDue();
    const c = await ctx.jobs.enqueue('jobtest.record', { n: 3 }, { dedupeKey: 'mail:order:1' });
    expect(c).toMatchObject({ id: a.id, status: 'done' });
    await ctx.jobs.runDue();
    expect(area.ran.map((r) => r.payload)).toEqual([{ n: 1 }]);
  });

  it('waits for runAt', async () => {
    await ctx.jobs.enqueue('jobtest.record', {}, { runAt: new Date(clock.getTime() + 60_000) });
    expect(await ctx.jobs.runDue()).toHaveLength(0);
    advance(59);
    expect(await ctx.jobs.runDue()).toHaveLength(0);
    advance(1);
    expect(await ctx.jobs.runDue()).toHaveLength(1);
  });

  it('retries with exponential backoff, then fails for good', async () => {
    area.failing.count = 10;
    const job = await ctx.jobs.enqueue('jobtest.flaky', {}, { maxAttempts: 3 });
    await ctx.jobs.runDue();
    expect(await ctx.jobs.get(job.id)).toMatchObject({ status: 'queued', attempts: 1, lastError: 'boom 1', runAt: gmt(new Date(clock.getTime() + 10_000)) });
    advance(9);
    expect(await ctx.jobs.runDue()).toHaveLength(0);
    advance(1);
    await ctx.jobs.runDue();
    expect(await ctx.jobs.get(job.id)).toMatchObject({ status: 'queued', attempts: 2, lastError: 'boom 2', runAt: gmt(new Date(clock.getTime() + 20_000)) });
    advance(20);
    await ctx.jobs.runDue();
    expect(await ctx.jobs.get(job.id)).toMatchObject({ status: 'failed', attempts: 3, lastError: 'boom 3', finished: gmt(clock) });
    advance(3600);
    expect(await ctx.jobs.runDue()).toHaveLength(0);
    expect(area.ran).toHaveLength(3);
  });

  it('a failure followed by success ends done', async () => {
    area.failing.count = 1;
    const job = await ctx.jobs.enqueue('jobtest.flaky', {});
    await ctx.jobs.runDue();
    advance(10);
    await ctx.jobs.runDue();
    expect(await ctx.jobs.get(job.id)).toMatchObject({ status: 'done', attempts: 2, lastError: 'boom 1' });
  });

  it('picks up a job whose runner died once its claim expires; the dead runner cannot finish it', async () => {
    const job = await ctx.jobs.enqueue('jobtest.record', { x: 1 });
    const [claimed] = await claimJobs(ctx.db, clock, new Date(clock.getTime() + 60_000), 'dead-runner', ['jobtest.record'], 1);
    expect(claimed).toMatchObject({ id: job.id, status: 'running', locked_by: 'dead-runner', attempts: 1 });
    expect(await ctx.jobs.runDue()).toHaveLength(0);
    advance(61);
    const ran = await ctx.jobs.runDue();
    expect(ran).toMatchObject([{ id: job.id, status: 'done', attempts: 2 }]);
    expect(area.ran).toHaveLength(1);
    expect(await finishDone(ctx.db, claimed!, clock)).toBe(false);
  });

  it('fails a job whose runner died during its last attempt without running it again', async () => {
    const job = await ctx.jobs.enqueue('jobtest.record', {}, { maxAttempts: 1 });
    await claimJobs(ctx.db, clock, new Date(clock.getTime() + 60_000), 'dead-runner', ['jobtest.record'], 1);
    advance(61);
    await ctx.jobs.runDue();
    expect(await ctx.jobs.get(job.id)).toMatchObject({ status: 'failed', attempts: 2 });
    expect(area.ran).toHaveLength(0);
  });

  it('fires stored schedules once per slot', async () => {
    await ctx.jobs.schedule('jobtest.every', 'jobtest.record', '30s', { tick: true });
    expect(await ctx.jobs.schedules()).toContainEqual({ name: 'jobtest.every', kind: 'jobtest.record', payload: { tick: true }, every: '30s', nextRun: '2026-11-23 10:00:30', lastRun: null });
    await ctx.jobs.runDue();
    expect(area.ran).toHaveLength(0);
    advance(30);
    await ctx.jobs.runDue();
    await ctx.jobs.runDue();
    expect(area.ran).toHaveLength(1);
    // A runner down for 10 minutes catches up once, not twenty times.
    advance(600);
    await ctx.jobs.runDue();
    expect(area.ran).toHaveLength(2);
    // A second runner (another process) sharing the table does not fire the same slot again.
    const other = new Jobs(() => ctx);
    advance(30);
    await Promise.all([ctx.jobs.runDue(), other.runDue()]);
    expect(area.ran).toHaveLength(3);
    // Scheduling the same again keeps the slot; changing it moves it.
    const before = (await ctx.jobs.schedules()).find((s) => s.name === 'jobtest.every')!.nextRun;
    await ctx.jobs.schedule('jobtest.every', 'jobtest.record', '30s', { tick: true });
    expect((await ctx.jobs.schedules()).find((s) => s.name === 'jobtest.every')!.nextRun).toBe(before);
    await ctx.jobs.schedule('jobtest.every', 'jobtest.record', 'daily 02:00', { tick: true });
    expect((await ctx.jobs.schedules()).find((s) => s.name === 'jobtest.every')).toMatchObject({ every: 'daily 02:00', nextRun: '2026-11-24 02:00:00' });
    expect(await ctx.jobs.unschedule('jobtest.every')).toBe(true);
  });

  it('stores the built-in schedules when it first runs', async () => {
    await ctx.jobs.runDue();
    expect((await ctx.jobs.schedules()).map((s) => s.name)).toContain('jobs.prune');
  });

  it('refuses kinds no area declares', async () => {
    await expect(ctx.jobs.enqueue('nobody.knows', {})).rejects.toThrow(/no area declares/);
    await expect(ctx.jobs.schedule('x', 'nobody.knows', '1m')).rejects.toThrow(/no area declares/);
  });

  it("leaves a switched-off area's jobs queued", async () => {
    const job = await ctx.jobs.enqueue('jobtest.record', {});
    ctx.areas.setEnabled('jobtest', false);
    expect(await ctx.jobs.runDue()).toHaveLength(0);
    ctx.areas.setEnabled('jobtest', true);
    expect(await ctx.jobs.runDue()).toMatchObject([{ id: job.id, status: 'done' }]);
  });

  it('cancels and retries', async () => {
    const job = await ctx.jobs.enqueue('jobtest.record', {}, { runAt: new Date(clock.getTime() + 3600_000) });
    expect(await ctx.jobs.cancel(job.id)).toMatchObject({ status: 'cancelled' });
    expect(await ctx.jobs.cancel(job.id)).toBeUndefined();
    advance(3600);
    expect(await ctx.jobs.runDue()).toHaveLength(0);
    expect(await ctx.jobs.retry(job.id)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await ctx.jobs.runDue()).toMatchObject([{ status: 'done' }]);
    expect(await ctx.jobs.retry(job.id)).toBeUndefined();
    expect(await ctx.jobs.counts()).toMatchObject({ done: 1, queued: 0 });
  });

  it('runs one job on demand whatever its time', async () => {
    const later = await ctx.jobs.enqueue('jobtest.record', { later: true }, { runAt: new Date(clock.getTime() + 3600_000) });
    await ctx.jobs.enqueue('jobtest.record', { now: true });
    expect(await ctx.jobs.runDue(later.id)).toMatchObject([{ id: later.id, status: 'done' }]);
    expect(area.ran.map((r) => r.payload)).toEqual([{ later: true }]);
  });

  it('polls when started and drains running jobs on stop', async () => {
    clock = new Date();
    ctx = { ...ctx, now: () => new Date() };
    const jobs = new Jobs(() => ctx, { pollMs: 20 });
    jobs.start();
    const a = await ctx.jobs.enqueue('jobtest.record', { a: 1 });
    for (let i = 0; i < 100 && (await jobs.get(a.id))?.status !== 'done'; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await jobs.get(a.id))?.status).toBe('done');
    const slow = await ctx.jobs.enqueue('jobtest.slow', {});
    for (let i = 0; i < 100 && jobs.running === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(jobs.running).toBe(1);
    await jobs.stop();
    expect((await jobs.get(slow.id))?.status).toBe('done');
    const after = await ctx.jobs.enqueue('jobtest.record', { b: 1 });
    await new Promise((r) => setTimeout(r, 100));
    expect((await jobs.get(after.id))?.status).toBe('queued');
  });
});

describe('schedule specs', () => {
  it('parses and steps', () => {
    expect(parseEvery('45s')).toEqual({ everySeconds: 45, dailyAt: null });
    expect(parseEvery('5m')).toEqual({ everySeconds: 300, dailyAt: null });
    expect(parseEvery('2h')).toEqual({ everySeconds: 7200, dailyAt: null });
    expect(parseEvery({ seconds: 10 })).toEqual({ everySeconds: 10, dailyAt: null });
    expect(parseEvery('daily 03:30')).toEqual({ everySeconds: null, dailyAt: '03:30' });
    expect(parseEvery({ dailyAt: '23:59' })).toEqual({ everySeconds: null, dailyAt: '23:59' });
    for (const bad of ['', '0s', '5d', 'daily 24:00', 'daily 3:30', 'every 5m']) expect(() => parseEvery(bad)).toThrow();
    const at = new Date('2026-11-23T03:30:00Z');
    expect(nextRun(parseEvery('daily 03:30'), at).toISOString()).toBe('2026-11-24T03:30:00.000Z');
    expect(nextRun(parseEvery('daily 03:31'), at).toISOString()).toBe('2026-11-23T03:31:00.000Z');
    expect(nextRun(parseEvery('90s'), new Date('2026-11-23T03:30:00.700Z')).toISOString()).toBe('2026-11-23T03:31:30.000Z');
  });
});
