/**
 * Order changes reach the analytics through the sync queue: checkout and status changes queue the
 * order in their own transaction and schedule one batched job; reports sync what is queued before
 * they answer, so they still show every committed order at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { addTicket, makePost, NS as TICKETS } from '../tickets/fixtures.case.js';
import { OFFLINE_PAYMENTS_OPTION } from '../tickets/index.js';
import { SYNC_DELAY_MS, SYNC_JOB } from './sync.service.js';

const NS = '/shop-analytics';

describe.each(DIALECTS)('shop-analytics order sync queue on %s', (engine) => {
  let t: TestApp;
  let seat: { id: number };
  let clock = new Date('2026-04-01T12:00:00Z');
  let buyers = 0;

  const queued = async () => (await t.db.selectFrom('shop_order_sync_queue').select('order_id').orderBy('id').execute()).map((r) => Number(r.order_id));
  const statsRows = async () => Number((await t.db.selectFrom('shop_order_stats').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const syncJobs = (status?: 'queued' | 'done') => t.ctx.jobs.list({ kind: SYNC_JOB, ...(status ? { status } : {}) });
  /** A checkout paid offline: the order stays pending until a manager completes it. */
  const checkout = (quantity: number, n = ++buyers) =>
    t.request('POST', `${TICKETS}/orders`, { json: { gateway: 'offline', tickets: [{ ticket_id: seat.id, quantity }], purchaser_name: `Buyer ${n}`, purchaser_email: `buyer-${n}@example.test` } });
  const buy = async (quantity = 1) => {
    const res = await checkout(quantity);
    expect(res.status).toBe(201);
    return res.body.id as number;
  };

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => clock });
    await t.ctx.options.set(OFFLINE_PAYMENTS_OPTION, true);
    seat = await addTicket(t, await makePost(t, { title: 'Queue gala' }), { price: '10', ticket: { mode: 'own', capacity: 5 } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('checkout queues its order instead of writing analytics rows; a report read syncs it first', async () => {
    const id = await buy(2);
    expect(await queued()).toEqual([id]);
    expect(await statsRows()).toBe(0);
    const res = await t.request('GET', `${NS}/customers`, { as: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.map((c: any) => c.email)).toEqual(['buyer-1@example.test']);
    expect(await queued()).toEqual([]);
    expect(await statsRows()).toBe(1);
  });

  it('a status change queues the order again, and the report shows the new status at once', async () => {
    const id = await buy(1);
    await t.request('GET', `${NS}/customers`, { as: t.admin });
    expect((await t.request('POST', `${TICKETS}/orders/${id}`, { json: { status: 'completed' }, as: t.admin })).status).toBe(200);
    expect(await queued()).toEqual([id]);
    const c = (await t.request('GET', `${NS}/customers`, { as: t.admin })).body.find((x: any) => x.email === 'buyer-2@example.test');
    expect(c).toMatchObject({ orders_count: 1, total_spend: 10 });
  });

  it('a checkout that fails (sold out) queues nothing', async () => {
    expect((await checkout(3)).status).toBe(409);
    expect(await queued()).toEqual([]);
  });

  it('changes within the delay share one scheduled job, which syncs the whole queue when it runs', async () => {
    clock = new Date(clock.getTime() + 10 * SYNC_DELAY_MS);
    const before = new Set((await syncJobs()).map((j) => j.id));
    const a = await buy(1);
    const b = await buy(1);
    const jobs = (await syncJobs()).filter((j) => !before.has(j.id));
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.runAt).toBe(new Date(clock.getTime() + SYNC_DELAY_MS).toISOString().replace('T', ' ').slice(0, 19));
    expect(await queued()).toEqual([a, b]);
    await t.ctx.jobs.runDue(jobs[0]!.id);
    expect((await t.ctx.jobs.get(jobs[0]!.id))!.status).toBe('done');
    expect(await queued()).toEqual([]);
    expect(await statsRows()).toBe(4);
    // Once the delay has passed, the next change schedules a job of its own.
    clock = new Date(clock.getTime() + SYNC_DELAY_MS);
    const seen = new Set((await syncJobs()).map((j) => j.id));
    expect((await t.request('POST', `${TICKETS}/orders/${a}`, { json: { status: 'cancelled' }, as: t.admin })).status).toBe(200);
    expect((await syncJobs('queued')).filter((j) => !seen.has(j.id))).toHaveLength(1);
    expect(await queued()).toEqual([a]);
  });

  it('deleting the report data empties the queue too', async () => {
    expect((await t.request('POST', `${NS}/reports/import/delete`, { as: t.admin })).status).toBe(200);
    expect(await queued()).toEqual([]);
    expect(await statsRows()).toBe(0);
  });
});
