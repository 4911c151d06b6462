/**
 * @module namespaces/tickets/attendees.service
 * Attendee rules (ET `Single_Attendee`, `Attendee_Repository`): who may read an attendee, creating
 * attendees by hand (a seat is taken atomically, like a sale), status changes with their seat
 * accounting, and check-in — from the site (update route) or the app (QR route) — exactly once.
 */
import type { AppContext } from '../../app-context.js';
import { getPost } from '../../content/posts.js';
import type { RestError } from '../../rest/errors.js';
import type { Db } from '../../storage/db.js';
import { getAttendee, insertAttendeeDetails, markCheckedIn, clearCheckIn, type AttendeeRecord } from './attendees.repo.js';
import { nowPair, randomHex } from './common.js';
import { TicketErrors } from './errors.js';
import { insertPost, showsAttendeeList, updatePost } from './posts.repo.js';
import { normaliseStatus, providerBySlug, type TicketProvider } from './providers.js';
import { getTicket, type TicketRecord } from './tickets.repo.js';
import { releaseSeats, reserveSeats, settlePendingSeats, SoldOutError } from './seats.repo.js';
import { priceValue } from './money.js';

/** A new per-attendee security code (what the QR code and the check-in app carry). */
export function newSecurityCode(): string {
  return randomHex(5);
}

/** Statuses that hold a seat: a "going" RSVP, a completed or pending order. */
export function holdsSeat(provider: TicketProvider, status: string): boolean {
  return provider.paid ? status === 'completed' || status === 'pending' : status === 'yes';
}

/** True when the attendee's order lets it check in. */
export function mayCheckIn(a: Pick<AttendeeRecord, 'provider' | 'orderStatus'>): boolean {
  return providerBySlug(a.provider).completed.includes(a.orderStatus);
}

/**
 * An attendee the caller may read. Manage access reads any attendee (404 when the ID is not one);
 * others only public attendees (published, not opted out, going or completed) of published,
 * unprotected posts that show their attendee list, else 401.
 */
export async function readableAttendee(db: Db, id: number, manage: boolean): Promise<AttendeeRecord | RestError> {
  const a = await getAttendee(db, id);
  if (manage) return a ?? TicketErrors.attendeeNotFound();
  if (!a || a.post.status !== 'publish' || a.optout || !mayCheckIn(a)) return TicketErrors.attendeeNotAccessible();
  const event = await getPost(db, a.postId);
  if (!event || event.status !== 'publish' || event.password !== '' || !showsAttendeeList(event.content)) {
    return TicketErrors.attendeeNotAccessible();
  }
  return a;
}

export interface ManualAttendee {
  fullName: string;
  email: string;
  /** Validated status (or the provider's default). */
  status: string;
  optout: boolean;
  userId: number;
  checkIn: boolean;
  checkInAuthor: number;
}

/** Creates an attendee by hand (`POST /attendees`, source `rest-api`) and returns its ID. */
export async function createManualAttendee(ctx: AppContext, ticket: TicketRecord, input: ManualAttendee): Promise<number | RestError> {
  const provider = providerBySlug(ticket.provider);
  const now = await nowPair(ctx);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      if (holdsSeat(provider, input.status)) await reserveSeats(trx, [{ ticketId: ticket.id, quantity: 1, pending: input.status === 'pending' }]);
      const id = await insertPost(trx, { type: provider.attendeeType, status: 'publish', title: input.fullName, author: input.userId, when: now });
      await insertAttendeeDetails(trx, [{
        attendee_id: id,
        ticket_id: ticket.id,
        post_id: ticket.postId,
        provider: provider.slug,
        order_id: null,
        order_status: input.status,
        holder_name: input.fullName,
        holder_email: input.email,
        purchaser_name: input.fullName,
        purchaser_email: input.email,
        user_id: input.userId,
        optout: input.optout ? 1 : 0,
        security_code: newSecurityCode(),
        price: provider.paid ? priceValue(ticket.price) : 0,
        currency: ticket.currency,
        information: '{}',
        source: 'rest-api',
      }]);
      if (input.checkIn && provider.completed.includes(input.status)) {
        await markCheckedIn(trx, id, { when: now, source: 'site', author: input.checkInAuthor });
      }
      return id;
    });
  } catch (e) {
    if (e instanceof SoldOutError) return TicketErrors.ticketCapacityNotAvailable(ticket.post.title, ticket.id);
    throw e;
  }
}

export interface AttendeeChanges {
  fullName?: string;
  email?: string;
  status?: string;
  checkIn?: boolean;
}

/**
 * Applies an update: holder name/e-mail, status (attendees without an order only; seats follow) and
 * check-in. `check_in=true` on a checked-in attendee is refused, as is check-in of an attendee whose
 * order is not complete.
 */
export async function updateAttendee(ctx: AppContext, a: AttendeeRecord, changes: AttendeeChanges, author: number): Promise<RestError | undefined> {
  const provider = providerBySlug(a.provider);
  const status = changes.status ?? a.orderStatus;
  if (changes.checkIn === true) {
    if (a.checkedIn || a.qrStatus) return TicketErrors.alreadyCheckedIn();
    if (!provider.completed.includes(status)) return TicketErrors.invalidCheckIn();
  }
  const now = await nowPair(ctx);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      if (changes.status !== undefined && changes.status !== a.orderStatus) {
        const before = holdsSeat(provider, a.orderStatus);
        const after = holdsSeat(provider, changes.status);
        if (before && after && a.orderStatus === 'pending') await settlePendingSeats(trx, a.ticketId, 1);
        else if (before && !after) await releaseSeats(trx, [{ ticketId: a.ticketId, quantity: 1, wasPending: a.orderStatus === 'pending' }]);
        else if (!before && after) await reserveSeats(trx, [{ ticketId: a.ticketId, quantity: 1, pending: changes.status === 'pending' }]);
      }
      const patch: Record<string, string> = {};
      if (changes.fullName !== undefined) patch.holder_name = changes.fullName;
      if (changes.email !== undefined) patch.holder_email = changes.email;
      if (changes.status !== undefined) patch.order_status = changes.status;
      if (Object.keys(patch).length > 0) await trx.updateTable('ticket_attendees').set(patch).where('attendee_id', '=', a.id).execute();
      if (changes.checkIn === true) {
        if (!(await markCheckedIn(trx, a.id, { when: now, source: 'site', author }))) return TicketErrors.alreadyCheckedIn();
      } else if (changes.checkIn === false) {
        await clearCheckIn(trx, a.id);
      }
      await updatePost(trx, a.id, changes.fullName !== undefined ? { title: changes.fullName } : {}, now);
      return undefined;
    });
  } catch (e) {
    if (e instanceof SoldOutError) {
      const ticket = await getTicket(ctx.db, a.ticketId);
      return TicketErrors.ticketCapacityNotAvailable(ticket?.post.title ?? String(a.ticketId), a.ticketId);
    }
    throw e;
  }
}

/** A status a client sent, normalised, or the `invalid-attendee-status` error listing the valid ones. */
export function attendeeStatus(provider: TicketProvider, value: unknown): string | RestError {
  const status = typeof value === 'string' ? normaliseStatus(provider, value) : undefined;
  return status ?? TicketErrors.invalidAttendeeStatus(provider.statuses);
}
