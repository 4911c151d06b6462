import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, DIALECTS, type TestDb } from '../../storage/test-db.js';
import type { Db } from '../../storage/db.js';
import { insertAttendeeDetails, loadAttendeeListings, markCheckedIn } from './attendees.repo.js';
import { insertPost } from './posts.repo.js';
import {
  getTicket,
  insertTicketDetails,
  loadTickets,
  setSharedCapacity,
  type CapacityMode,
} from './tickets.repo.js';
import { releaseSeats, reserveSeats, reserveSeatsAndCommit, settlePendingSeats, SoldOutError } from './seats.repo.js';

const WHEN = { local: '2025-01-01 10:00:00', gmt: '2025-01-01 10:00:00' };

async function ticket(db: Db, postId: number, mode: CapacityMode, capacity: number): Promise<number> {
  const id = await insertPost(db, { type: 'tribe_tpp_tickets', status: 'publish', title: 'T', when: WHEN });
  await insertTicketDetails(db, id, {
    post_id: postId, provider: 'tribe-commerce', type: 'default', price: '1', currency: 'USD', show_description: 1,
    start_local: '', start_gmt: '', end_local: '', end_gmt: '', sku: '', iac: 'none', capacity, capacity_mode: mode,
  });
  return id;
}

/** Seats taken in a transaction of their own, one of the two ways checkout takes them. */
type Reserve = (db: Db, ticketId: number, quantity: number, pending: boolean) => Promise<void>;
const RESERVES: [string, Reserve][] = [
  ['reserveSeats', (db, ticketId, quantity, pending) => db.transaction().execute((trx) => reserveSeats(trx, [{ ticketId, quantity, pending }]))],
  ['reserveSeatsAndCommit', (db, ticketId, quantity, pending) => db.transaction().execute((trx) => reserveSeatsAndCommit(trx, [{ ticketId, quantity, pending }]))],
];

/** `n` concurrent transactions, each reserving one seat; returns how many succeeded and failed. */
async function rush(db: Db, reserve: Reserve, ticketId: number, n: number): Promise<{ ok: number; soldOut: number }> {
  const outcomes = await Promise.allSettled(Array.from({ length: n }, () => reserve(db, ticketId, 1, false)));
  const soldOut = outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof SoldOutError).length;
  return { ok: outcomes.filter((o) => o.status === 'fulfilled').length, soldOut };
}

describe.each(DIALECTS)('tickets.repo seat reservation on %s', (engine) => {
  let tdb: TestDb;
  let db: Db;
  let post: number;

  beforeAll(async () => {
    tdb = await createTestDb(engine, { poolSize: 20 });
    db = tdb.db;
    post = await insertPost(db, { type: 'tribe_events', status: 'publish', title: 'Event', slugFrom: 'event', when: WHEN });
  });
  afterAll(() => tdb.destroy());

  describe.each(RESERVES)('with %s', (_, reserve) => {
    it('takes exactly the capacity when 200 transactions race for 50 seats (one conditional UPDATE)', async () => {
      const id = await ticket(db, post, 'own', 50);
      expect(await rush(db, reserve, id, 200)).toEqual({ ok: 50, soldOut: 150 });
      expect((await getTicket(db, id))!.sold).toBe(50);
    });

    it('takes seats of a ticket without a limit, and counts pending ones', async () => {
      const id = await ticket(db, post, 'own', -1);
      await reserve(db, id, 3, true);
      await reserve(db, id, 2, false);
      const t = (await getTicket(db, id))!;
      expect([t.sold, t.pending]).toEqual([5, 3]);
    });

    it('never lets tickets sharing a capacity sell more than the shared pool', async () => {
      const shared = await insertPost(db, { type: 'tribe_events', status: 'publish', title: 'Shared', slugFrom: 'shared', when: WHEN });
      await setSharedCapacity(db, shared, 30);
      const global = await ticket(db, shared, 'global', -1);
      const capped = await ticket(db, shared, 'capped', 20);
      const [a, b] = await Promise.all([rush(db, reserve, global, 60), rush(db, reserve, capped, 60)]);
      expect(a.ok + b.ok).toBe(30);
      expect(b.ok).toBeLessThanOrEqual(20);
      expect((await getTicket(db, global))!.shared).toEqual({ capacity: 30, sold: 30 });
    });

    it('rolls the ticket back when the shared pool is full, releases and settles pending seats', async () => {
      const shared = await insertPost(db, { type: 'tribe_events', status: 'publish', title: 'Small', slugFrom: 'small', when: WHEN });
      await setSharedCapacity(db, shared, 1);
      const capped = await ticket(db, shared, 'capped', 5);
      await reserve(db, capped, 1, true);
      await expect(reserve(db, capped, 1, false)).rejects.toEqual(new SoldOutError(capped));
      let t = (await getTicket(db, capped))!;
      expect([t.sold, t.pending, t.shared!.sold]).toEqual([1, 1, 1]);
      await settlePendingSeats(db, capped, 1);
      expect((await getTicket(db, capped))!.pending).toBe(0);
      await releaseSeats(db, [{ ticketId: capped, quantity: 1, wasPending: false }]);
      t = (await getTicket(db, capped))!;
      expect([t.sold, t.pending, t.shared!.sold]).toEqual([0, 0, 0]);
    });
  });

  it('reserveSeatsAndCommit: commits every line or none, naming the ticket without room', async () => {
    const roomy = await ticket(db, post, 'own', 10);
    const small = await ticket(db, post, 'own', 2);
    const order = await insertPost(db, { type: 'tribe_tpp_orders', status: 'publish', title: 'Order', when: WHEN });
    const attempt = db.transaction().execute(async (trx) => {
      await trx.updateTable('posts').set({ title: 'Written before the seats' }).where('id', '=', order).execute();
      await reserveSeatsAndCommit(trx, [{ ticketId: roomy, quantity: 3, pending: false }, { ticketId: small, quantity: 3, pending: false }]);
    });
    await expect(attempt).rejects.toEqual(new SoldOutError(small));
    expect([(await getTicket(db, roomy))!.sold, (await getTicket(db, small))!.sold]).toEqual([0, 0]);
    expect((await db.selectFrom('posts').select('title').where('id', '=', order).executeTakeFirstOrThrow()).title).toBe('Order');
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('posts').set({ title: 'Written with the seats' }).where('id', '=', order).execute();
      await reserveSeatsAndCommit(trx, [{ ticketId: roomy, quantity: 3, pending: false }, { ticketId: small, quantity: 2, pending: true }]);
    });
    expect([(await getTicket(db, roomy))!.sold, (await getTicket(db, small))!.sold, (await getTicket(db, small))!.pending]).toEqual([3, 2, 2]);
    expect((await db.selectFrom('posts').select('title').where('id', '=', order).executeTakeFirstOrThrow()).title).toBe('Written with the seats');
  });

  it('locks every ticket before any shared capacity, so orders of tickets sharing one cannot deadlock', async () => {
    // Orders of both tickets against orders of the second alone: taking a ticket's shared row before the
    // next ticket's row let each hold a row the other waited for (PostgreSQL aborts one: 40P01).
    const shared = await insertPost(db, { type: 'tribe_events', status: 'publish', title: 'Pool', slugFrom: 'pool', when: WHEN });
    await setSharedCapacity(db, shared, 10_000);
    const first = await ticket(db, shared, 'global', -1);
    const second = await ticket(db, shared, 'capped', 10_000);
    const both = [{ ticketId: second, quantity: 1, pending: false }, { ticketId: first, quantity: 1, pending: false }];
    const alone = [{ ticketId: second, quantity: 1, pending: false }];
    const orders = Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? both : alone));
    const outcomes = await Promise.allSettled(orders.map((lines, i) =>
      db.transaction().execute((trx) => (i % 4 < 2 ? reserveSeats(trx, lines) : reserveSeatsAndCommit(trx, lines)))));
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
    expect([(await getTicket(db, first))!.sold, (await getTicket(db, second))!.sold, (await getTicket(db, first))!.shared!.sold]).toEqual([60, 120, 180]);
    await db.transaction().execute((trx) => releaseSeats(trx, [{ ticketId: second, quantity: 20, wasPending: false }, { ticketId: first, quantity: 10, wasPending: false }]));
    expect([(await getTicket(db, first))!.sold, (await getTicket(db, second))!.sold, (await getTicket(db, first))!.shared!.sold]).toEqual([50, 100, 150]);
  });

  it('checks an attendee in exactly once under concurrent scans', async () => {
    const id = await ticket(db, post, '', -1);
    const attendee = await insertPost(db, { type: 'tribe_tpp_attendees', status: 'publish', title: 'A', when: WHEN });
    await insertAttendeeDetails(db, [{
      attendee_id: attendee, ticket_id: id, post_id: post, provider: 'tribe-commerce', order_id: null, order_status: 'completed', holder_name: 'A',
      holder_email: 'a@example.test', purchaser_name: 'A', purchaser_email: 'a@example.test', user_id: 0, optout: 0,
      security_code: 'abc', price: 1, currency: 'USD', information: '{}', source: 'test',
    }]);
    const wins = await Promise.all(Array.from({ length: 20 }, () => markCheckedIn(db, attendee, { when: WHEN, source: 'app', author: 0 })));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });
});

describe.each(DIALECTS)('ticket and attendee rows read as lists of values (packed on SQLite) on %s', (engine) => {
  let tdb: TestDb;
  let db: Db;
  afterAll(() => tdb?.destroy());

  it('give back every value as written: text that reads as a number or as JSON stays text, a missing event or shared row as before', async () => {
    tdb = await createTestDb(engine);
    db = tdb.db;
    const tricky = 'Quote " backslash \\ ["json", 1] {"a":1} 007 ünïcødé 🎟 \n line';
    const event = await insertPost(db, { type: 'tribe_events', status: 'publish', title: tricky, content: '<!-- wp:tribe/attendees /-->', when: WHEN });
    const id = await insertPost(db, { type: 'tribe_tpp_tickets', status: 'draft', title: tricky, content: '12.50', when: WHEN, author: 7 });
    await insertTicketDetails(db, id, {
      post_id: event, provider: 'tribe-commerce', type: 'default', price: '012.50', currency: 'EUR', show_description: 0,
      start_local: '2025-01-01 10:00:00', start_gmt: '2025-01-01 09:00:00', end_local: '', end_gmt: '', sku: '007', iac: 'none', capacity: -1, capacity_mode: 'global',
    });
    const orphan = await insertPost(db, { type: 'tribe_tpp_tickets', status: 'publish', title: 'Orphan', when: WHEN });
    await insertTicketDetails(db, orphan, {
      post_id: 2_000_000_000, provider: 'tribe-commerce', type: 'default', price: '1', currency: 'USD', show_description: 1,
      start_local: '', start_gmt: '', end_local: '', end_gmt: '', sku: '', iac: 'none', capacity: 5, capacity_mode: 'own',
    });

    const tickets = await loadTickets(db, [id, orphan]);
    const t = tickets.get(id)!;
    expect({ ...t, post: undefined, parent: undefined }).toEqual({
      id, postId: event, provider: 'tribe-commerce', type: 'default', price: '012.50', currency: 'EUR', showDescription: false,
      startLocal: '2025-01-01 10:00:00', startGmt: '2025-01-01 09:00:00', endLocal: '', endGmt: '', sku: '007', iac: 'none',
      capacity: -1, capacityMode: 'global', sold: 0, pending: 0, shared: { capacity: 0, sold: 0 }, post: undefined, parent: undefined,
    });
    expect(t.post).toMatchObject({ id, type: 'tribe_tpp_tickets', status: 'draft', title: tricky, content: '12.50', excerpt: '', author: 7, parent: 0, password: '', menu_order: 0, date: WHEN.local, date_gmt: WHEN.gmt, image_url: '' });
    expect(t.parent).toMatchObject({ id: event, type: 'tribe_events', title: tricky, content: '<!-- wp:tribe/attendees /-->', author: 0 });
    expect(tickets.get(orphan)!.parent).toBeUndefined();
    expect(tickets.get(orphan)!.shared).toBeNull();

    const attendee = await insertPost(db, { type: 'tribe_tpp_attendees', status: 'publish', title: 'A', when: WHEN, author: 3 });
    await insertAttendeeDetails(db, [{
      attendee_id: attendee, ticket_id: id, post_id: event, provider: 'tribe-commerce', order_id: null, order_status: 'completed', holder_name: tricky,
      holder_email: '007', purchaser_name: '', purchaser_email: 'p@example.test', user_id: 0, optout: 1,
      security_code: 'abc', price: 12.5, currency: 'EUR', information: '{}', source: 'test',
    }]);
    await markCheckedIn(db, attendee, { when: WHEN, source: 'app', author: 9 });
    expect((await loadAttendeeListings(db, [attendee])).get(attendee)).toEqual({
      id: attendee, ticketId: id, postId: event, provider: 'tribe-commerce', orderId: null, orderStatus: 'completed', holderName: tricky,
      holderEmail: '007', purchaserName: '', purchaserEmail: 'p@example.test', optout: true, price: 12.5, currency: 'EUR', checkedIn: true,
      checkinLocal: WHEN.local, checkinSource: 'app', checkinAuthor: 9,
      post: { author: 3, status: 'publish', date: WHEN.local, date_gmt: WHEN.gmt, modified: WHEN.local, modified_gmt: WHEN.gmt },
      orderDate: undefined,
    });
  });
});
