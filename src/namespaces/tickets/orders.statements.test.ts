import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { StatementCounter } from '../../test-support/statement-counter.js';
import { addTicket, makePost, NS } from './fixtures.case.js';
import { compiledShapes } from '../../storage/compiled-queries.js';
import { capabilities } from '../../storage/dialect.js';
import { checkout, type CheckoutLine } from './orders.service.js';
import { providerBySlug } from './providers.js';
import { MAX_PER_LINE_OPTION, MAX_PER_ORDER_OPTION, OFFLINE_PAYMENTS_OPTION } from './settings.js';
import { getTicket } from './tickets.repo.js';

describe.each(DIALECTS)('checkout statements on %s', (engine) => {
  let t: TestApp;
  let event: number;
  let front: number;
  let back: number;

  beforeAll(async () => {
    t = await startTestApp(engine);
    event = await makePost(t, { title: 'Recital' });
    front = (await addTicket(t, event, { name: 'Front', price: '20', ticket: { mode: 'own', capacity: 1000 } })).id;
    back = (await addTicket(t, event, { name: 'Back', price: '10', ticket: { mode: 'own', capacity: 2000 } })).id;
    await t.ctx.options.set(OFFLINE_PAYMENTS_OPTION, true);
  });
  afterAll(() => t.close());

  async function statementsOf(lines: { ticket: number; quantity: number; names?: string[] }[]): Promise<number> {
    const counter = new StatementCounter();
    const checkoutLines: CheckoutLine[] = [];
    for (const l of lines) {
      checkoutLines.push({ ticket: (await getTicket(t.db, l.ticket))!, quantity: l.quantity, optout: false, meta: (l.names ?? []).map((full_name) => ({ full_name })) });
    }
    const result = await checkout({ ...t.ctx, db: t.db.withPlugin(counter) }, {
      provider: providerBySlug('tribe-commerce'),
      lines: checkoutLines,
      customer: { name: 'Pat Buyer', email: 'pat@example.test', userId: 0 },
      gateway: 'offline',
      rsvpGoing: true,
      cartKey: '',
      returnUrl: '',
    });
    expect(result).toHaveProperty('id');
    return counter.executed;
  }

  it('writes the posts and attendees of an order of many seats in a few statements of a few shapes', async () => {
    const one = await statementsOf([{ ticket: front, quantity: 1 }]);
    // The posts; the order, its items and its attendees (one statement where a WITH may hold writes,
    // three elsewhere); the analytics queue; the seats (with the COMMIT where that is one round trip).
    const { writesInWith, oneTripCommit } = capabilities(t.db);
    expect(one).toBe(writesInWith ? 4 : 6);
    // 2 lines, 7 seats: 8 posts in one statement, 7 attendees in three (4 + 2 + 1), a reservation per
    // line (both in the one sent with the COMMIT where it can be).
    expect(await statementsOf([{ ticket: front, quantity: 4 }, { ticket: back, quantity: 3 }])).toBe(one + (oneTripCommit ? 2 : 3));
    // Any number of seats compiles at most one statement per power of two, not one per count.
    const shapes = compiledShapes(t.db);
    for (let seats = 1; seats <= 40; seats++) await statementsOf([{ ticket: back, quantity: seats }]);
    expect(compiledShapes(t.db) - shapes).toBeLessThanOrEqual(12);
  });

  it('gives each attendee of a multi-seat order its own post, holder and ticket, in the order bought', async () => {
    const res = await t.request('POST', `${NS}/orders`, {
      json: {
        purchaser_name: 'Pat Buyer',
        purchaser_email: 'pat@example.test',
        gateway: 'offline',
        tickets: [{ ticket_id: back, quantity: 2 }, { ticket_id: front, quantity: 2 }],
        meta: [
          { ticket_id: front, items: [{ full_name: 'Ann Front', email: 'ann@example.test' }, { full_name: 'Bob Front', email: 'bob@example.test' }] },
          { ticket_id: back, items: [{ full_name: 'Cy Back', email: 'cy@example.test' }] },
        ],
      },
    });
    expect(res.status).toBe(201);
    const read = await t.request('GET', `${NS}/orders/${res.body.id}`, { as: t.admin });
    const attendees = read.body.attendees as any[];
    expect(attendees.map((a) => [a.title, a.email, a.ticket_id])).toEqual([
      ['Ann Front', 'ann@example.test', front],
      ['Bob Front', 'bob@example.test', front],
      ['Cy Back', 'cy@example.test', back],
      ['Pat Buyer', 'pat@example.test', back],
    ]);
    expect(res.body.attendees.map((a: any) => a.id)).toEqual(attendees.map((a) => a.id));
    const ids = attendees.map((a) => a.id);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toBeGreaterThan(res.body.id);
    for (const a of attendees) {
      const post = await t.db.selectFrom('posts').select(['type', 'title']).where('id', '=', a.id).executeTakeFirstOrThrow();
      expect(post).toEqual({ type: 'tribe_tpp_attendees', title: a.title });
    }
  });

  it('writes an order of more seats than one insert statement holds', async () => {
    await t.ctx.options.set(MAX_PER_LINE_OPTION, 1000);
    await t.ctx.options.set(MAX_PER_ORDER_OPTION, 1000);
    const res = await t.request('POST', `${NS}/orders`, {
      json: { purchaser_name: 'Big Group', purchaser_email: 'group@example.test', gateway: 'offline', tickets: [{ ticket_id: back, quantity: 620 }] },
    });
    expect(res.status).toBe(201);
    const rows = await t.db.selectFrom('ticket_attendees').select(['attendee_id', 'ticket_id']).where('order_id', '=', res.body.id).execute();
    expect(rows).toHaveLength(620);
    const posts = await t.db.selectFrom('posts').select('id').where('id', 'in', rows.map((r) => Number(r.attendee_id))).where('type', '=', 'tribe_tpp_attendees').execute();
    expect(posts).toHaveLength(620);
    expect((await t.request('GET', `${NS}/tickets/${back}`, { as: t.admin })).body.capacity_details).toMatchObject({ pending: 3 + 40 * 41 / 2 + 2 + 620 }); // held by this file's offline orders
  });
});
