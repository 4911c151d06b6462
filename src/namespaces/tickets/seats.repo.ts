/**
 * @module namespaces/tickets/seats.repo
 * Seat reservation and release: one conditional UPDATE per row, so concurrent buyers can never
 * oversell, with every ticket row locked before any shared-capacity row so that they cannot deadlock.
 */
import { sql } from 'kysely';
import { runAndCommit, type Db } from '../../storage/db.js';
import { capabilities } from '../../storage/dialect.js';
import { runCompiled } from '../../storage/compiled-queries.js';
import { SHARED_MODES, type CapacityMode } from './tickets.repo.js';

/** Thrown inside a transaction when a seat reservation finds no room; the transaction rolls back. */
export class SoldOutError extends Error {
  constructor(readonly ticketId: number) {
    super(`ticket ${ticketId} has no room`);
  }
}

/**
 * Takes the seats of `reservations`. Each row changes by one conditional UPDATE, so the check and the
 * increment are atomic on both engines: first every ticket's own limit (ascending ticket ID), then,
 * for the shared modes, the post's shared capacity (ascending post ID, then ticket ID). Rows are thus
 * always locked in one order, every ticket row before any shared row: two checkouts of tickets that
 * share a capacity cannot each hold a row the other waits for (taking a ticket's shared row before the
 * next ticket's row could deadlock on PostgreSQL). Throws {@link SoldOutError} (naming the ticket whose
 * seats found no room) when a row has no room; run it inside a transaction, which then rolls back.
 */
export async function reserveSeats(db: Db, reservations: readonly SeatReservation[]): Promise<void> {
  const shared: { postId: number; ticketId: number; quantity: number }[] = [];
  for (const { ticketId, quantity, pending } of [...reservations].sort((a, b) => a.ticketId - b.ticketId)) {
    const [row] = await runCompiled(db, `reserveSeats:${pending}`, () =>
      db
        .updateTable('ticket_details')
        .set((eb) => ({
          sold: eb('sold', '+', quantity),
          pending: pending ? eb('pending', '+', quantity) : eb.ref('pending'),
        }))
        .where('ticket_id', '=', ticketId)
        .where((eb) => eb.or([eb('capacity', '<', 0), eb(eb('sold', '+', quantity), '<=', eb.ref('capacity'))]))
        .returning(['post_id', 'capacity_mode']), pending ? [quantity, quantity, ticketId, 0, quantity] : [quantity, ticketId, 0, quantity]);
    if (!row) throw new SoldOutError(ticketId);
    if (SHARED_MODES.includes(row.capacity_mode as CapacityMode)) shared.push({ postId: Number(row.post_id), ticketId, quantity });
  }
  for (const { postId, ticketId, quantity } of shared.sort((a, b) => a.postId - b.postId || a.ticketId - b.ticketId)) {
    const [row] = await runCompiled(db, 'reserveSharedSeats', () =>
      db
        .updateTable('ticket_shared_capacity')
        .set((eb) => ({ sold: eb('sold', '+', quantity) }))
        .where('post_id', '=', postId)
        .where((eb) => eb(eb('sold', '+', quantity), '<=', eb.ref('capacity')))
        .returning('sold'), [quantity, postId, quantity]);
    if (!row) throw new SoldOutError(ticketId);
  }
}

/** Seats one checkout line takes ({@link reserveSeats}). */
export interface SeatReservation {
  ticketId: number;
  quantity: number;
  pending: boolean;
}

/** SQLSTATE `ticket_reserve_seats` raises when a ticket has no room (its ID is the detail). */
const NO_ROOM = 'ES409';

function integerLiteral(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a count or an ID: ${n}`);
  return String(n);
}

/**
 * {@link reserveSeats} of `reservations` (in the same order of rows) as the last writes of the
 * transaction `trx`, which commits with them. Where `capabilities(trx).oneTripCommit` (PostgreSQL)
 * they are sent with the COMMIT in one round trip (`runAndCommit`), one call of the migration's
 * `ticket_reserve_seats`, so each ticket's row lock is held for that round trip alone and
 * the checkouts of one ticket wait for no more than that; nothing may run in `trx` afterwards. Elsewhere
 * they run as {@link reserveSeats} and the transaction commits as usual. Throws {@link SoldOutError}
 * when a ticket has no room (nothing is committed then).
 */
export async function reserveSeatsAndCommit(trx: Db, reservations: readonly SeatReservation[]): Promise<void> {
  if (!capabilities(trx).oneTripCommit || reservations.length === 0) return reserveSeats(trx, reservations);
  const sorted = [...reservations].sort((a, b) => a.ticketId - b.ticketId);
  const array = (values: string[], type: string) => `ARRAY[${values.join(', ')}]::${type}[]`;
  const call = `SELECT ticket_reserve_seats(${array(sorted.map((r) => integerLiteral(r.ticketId)), 'integer')}, ${array(sorted.map((r) => integerLiteral(r.quantity)), 'integer')}, ${array(sorted.map((r) => (r.pending ? 'true' : 'false')), 'boolean')})`;
  try {
    await runAndCommit(trx, call);
  } catch (e) {
    const err = e as { code?: unknown; detail?: unknown };
    if (err.code === NO_ROOM) throw new SoldOutError(Number(err.detail));
    throw e;
  }
}

/** Seats one order line or attendee gives back ({@link releaseSeats}). */
export interface SeatRelease {
  ticketId: number;
  quantity: number;
  /** The seats were pending (their order not yet paid). */
  wasPending: boolean;
}

/**
 * Gives back seats (cancelled or refunded orders, RSVPs changed to "not going"), rows in the order
 * {@link reserveSeats} locks them: every ticket, then the shared capacities by post.
 */
export async function releaseSeats(db: Db, releases: readonly SeatRelease[]): Promise<void> {
  const shared = new Map<number, number>();
  for (const { ticketId, quantity, wasPending } of [...releases].sort((a, b) => a.ticketId - b.ticketId)) {
    const row = await db
      .updateTable('ticket_details')
      .set((eb) => ({
        sold: sql<number>`CASE WHEN ${eb.ref('sold')} >= ${quantity} THEN ${eb.ref('sold')} - ${quantity} ELSE 0 END`,
        pending: wasPending ? sql<number>`CASE WHEN ${eb.ref('pending')} >= ${quantity} THEN ${eb.ref('pending')} - ${quantity} ELSE 0 END` : eb.ref('pending'),
      }))
      .where('ticket_id', '=', ticketId)
      .returning(['post_id', 'capacity_mode'])
      .executeTakeFirst();
    if (row && SHARED_MODES.includes(row.capacity_mode as CapacityMode)) shared.set(Number(row.post_id), (shared.get(Number(row.post_id)) ?? 0) + quantity);
  }
  for (const [postId, quantity] of [...shared].sort((a, b) => a[0] - b[0])) {
    await db
      .updateTable('ticket_shared_capacity')
      .set((eb) => ({ sold: sql<number>`CASE WHEN ${eb.ref('sold')} >= ${quantity} THEN ${eb.ref('sold')} - ${quantity} ELSE 0 END` }))
      .where('post_id', '=', postId)
      .execute();
  }
}

/** Pending seats became completed sales. */
export async function settlePendingSeats(db: Db, ticketId: number, quantity: number): Promise<void> {
  await db
    .updateTable('ticket_details')
    .set((eb) => ({ pending: sql<number>`CASE WHEN ${eb.ref('pending')} >= ${quantity} THEN ${eb.ref('pending')} - ${quantity} ELSE 0 END` }))
    .where('ticket_id', '=', ticketId)
    .execute();
}
