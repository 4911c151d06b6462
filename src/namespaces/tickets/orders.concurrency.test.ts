import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { addTicket, makePost, NS } from './fixtures.case.js';
import { OFFLINE_PAYMENTS_OPTION } from './settings.js';

// Every seat is taken by one conditional UPDATE (per ticket, then per shared-capacity row), so
// concurrent checkouts can never oversell. The PostgreSQL pool has 10 connections.
describe.each(DIALECTS)('checkout concurrency on %s', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(engine);
    await t.ctx.options.set(OFFLINE_PAYMENTS_OPTION, true);
  });
  /** Offline orders stay pending until a manager marks them paid. */
  const markPaid = async (orders: { status: number; body: any }[]) => {
    for (const o of orders) await t.request('POST', `${NS}/orders/${o.body.id}`, { json: { status: 'completed' }, as: t.admin });
  };
  afterAll(() => t.close());

  it('sells exactly 50 of 200 concurrent checkouts of a 50-seat ticket; the rest get clear sold-out errors', async () => {
    const post = await makePost(t, { title: 'Rush' });
    const rush = await addTicket(t, post, { name: 'Rush seat', price: '5', ticket: { mode: 'own', capacity: 50 } });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.request('POST', `${NS}/orders`, {
          json: { tickets: [{ ticket_id: rush.id, quantity: 1 }], purchaser_name: `Buyer ${i}`, purchaser_email: `b${i}@example.test`, gateway: 'offline' },
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 201);
    const soldOut = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(50);
    expect(soldOut).toHaveLength(150);
    for (const r of soldOut) {
      expect(r.body).toEqual({
        code: 'ticket-capacity-not-available',
        message: 'The ticket "Rush seat" does not have that many available for purchase.',
        data: { status: 409, ticket_id: rush.id },
      });
    }
    const attendees = await t.db.selectFrom('ticket_attendees').select((eb) => eb.fn.countAll<number>().as('n')).where('ticket_id', '=', rush.id).executeTakeFirstOrThrow();
    expect(Number(attendees.n)).toBe(50);
    const row = await t.db.selectFrom('ticket_details').select(['sold', 'pending']).where('ticket_id', '=', rush.id).executeTakeFirstOrThrow();
    // Offline orders hold their seats (counted in `sold`) as pending until paid at the door.
    expect(Number(row.sold)).toBe(50);
    expect(Number(row.pending)).toBe(50);
  });

  it('never oversells capacity shared by several tickets of a post', async () => {
    const post = await makePost(t, { title: 'Shared' });
    const a = await addTicket(t, post, { name: 'A', price: '1', ticket: { mode: 'global', event_capacity: 10 } });
    const b = await addTicket(t, post, { name: 'B', price: '1', ticket: { mode: 'capped', capacity: 6 } });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.request('POST', `${NS}/orders`, {
          json: { tickets: [{ ticket_id: i % 2 ? a.id : b.id, quantity: 1 }], purchaser_name: `S${i}`, purchaser_email: `s${i}@example.test`, gateway: 'offline' },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    await markPaid(results.filter((r) => r.status === 201));
    expect(results.filter((r) => r.status !== 201).every((r) => r.status === 409)).toBe(true);
    const shared = await t.db.selectFrom('ticket_shared_capacity').select('sold').where('post_id', '=', post).executeTakeFirstOrThrow();
    expect(Number(shared.sold)).toBe(10);
    const counts = await t.db.selectFrom('ticket_attendees').select('ticket_id').where('post_id', '=', post).execute();
    expect(counts.filter((c) => Number(c.ticket_id) === b.id).length).toBeLessThanOrEqual(6);
  });
});
