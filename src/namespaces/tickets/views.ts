/**
 * @module namespaces/tickets/views
 * Builds ticket and attendee objects for a whole page at once: a fixed number of queries (the tickets
 * with their posts, the attendees with theirs and their order dates), never one per item.
 */
import type { AppContext } from '../../app-context.js';
import type { PostRecord } from '../../content/posts.js';
import type { RestRequest } from '../../rest/route.js';
import { canEditTicketsOf, hasManageAccess } from './access.js';
import { loadAttendeeListings, type AttendeeListing, type AttendeeTicket } from './attendees.repo.js';
import { attendeesOfTickets } from './attendees-list.repo.js';
import { presentAttendee } from './attendees.present.js';
import { showsAttendeeList } from './posts.repo.js';
import { issueTicketNonces } from './ticket-nonces.js';
import { presentTicket } from './tickets.present.js';
import { loadTickets, type TicketRecord, type TicketStats } from './tickets.repo.js';

/** Attendee objects for `ids`, in that order (missing IDs skipped). */
export async function attendeeObjects(ctx: AppContext, ids: readonly number[], manage: boolean, preloaded?: ReadonlyMap<number, AttendeeListing>): Promise<Record<string, unknown>[]> {
  const attendees = preloaded ?? (await loadAttendeeListings(ctx.db, ids));
  return presentAttendees(ctx, ids.map((id) => attendees.get(id)).filter((a): a is AttendeeListing => a !== undefined), manage);
}

/** Attendee objects of loaded attendees; their tickets are loaded unless `tickets` already holds them all. */
export async function presentAttendees(
  ctx: AppContext,
  list: readonly AttendeeListing[],
  manage: boolean,
  tickets?: ReadonlyMap<number, AttendeeTicket>,
): Promise<Record<string, unknown>[]> {
  const known = tickets && list.every((a) => tickets.has(a.ticketId)) ? tickets : await loadTickets(ctx.db, list.map((a) => a.ticketId));
  return list.map((a) =>
    presentAttendee(ctx, a, {
      manage,
      ticket: known.get(a.ticketId),
      ...(a.orderId !== null && a.orderDate !== undefined ? { purchaseDate: a.orderDate } : {}),
    }),
  );
}

export interface TicketObjectOptions {
  /** Single GET: adds the editor layer for those who may edit the ticket's post. */
  single?: boolean;
}

/** Ticket objects for `ids`, in that order, as the caller may see them. */
export async function ticketObjects(ctx: AppContext, req: RestRequest, ids: readonly number[], options: TicketObjectOptions = {}): Promise<Record<string, unknown>[]> {
  const tickets = await loadTickets(ctx.db, ids);
  return presentTickets(ctx, req, ids.map((id) => tickets.get(id)).filter((t): t is TicketRecord => t !== undefined), options);
}

const NO_STATS: TicketStats = Object.freeze({ attendees: 0, checkedIn: 0, going: 0, notGoing: 0 });

/**
 * Ticket objects of loaded tickets, as the caller may see them: one more query for their attendees
 * (whose counts give the manager's statistics, since a manager sees every attendee), however many.
 */
export async function presentTickets(ctx: AppContext, req: RestRequest, list: readonly TicketRecord[], options: TicketObjectOptions = {}): Promise<Record<string, unknown>[]> {
  const manage = await hasManageAccess(req, ctx);

  // Attendees: everyone for manage access; otherwise the public ones of posts showing their list,
  // unless the post is password-protected (then only its editors see them).
  const listed = (parent: PostRecord | undefined) =>
    parent !== undefined && showsAttendeeList(parent.content) && (parent.password === '' || canEditTicketsOf(req.user, parent));
  const showing = list.filter((t) => manage || listed(t.parent));
  const attendees = await attendeesOfTickets(ctx.db, showing.map((t) => t.id), !manage);
  const byId = new Map(list.map((t) => [t.id, t]));
  const objects = await presentAttendees(ctx, attendees, manage, byId);
  const byTicket = new Map<number, Record<string, unknown>[]>();
  const stats = new Map<number, TicketStats>();
  for (let i = 0; i < attendees.length; i++) {
    const a = attendees[i]!;
    const shown = byTicket.get(a.ticketId);
    if (shown) shown.push(objects[i]!);
    else byTicket.set(a.ticketId, [objects[i]!]);
    if (!manage) continue;
    const s = stats.get(a.ticketId) ?? { attendees: 0, checkedIn: 0, going: 0, notGoing: 0 };
    s.attendees++;
    if (a.checkedIn) s.checkedIn++;
    if (a.orderStatus === 'yes') s.going++;
    else s.notGoing++;
    stats.set(a.ticketId, s);
  }

  const out: Record<string, unknown>[] = [];
  for (const t of list) {
    const parent = t.parent;
    const editable = options.single === true && parent !== undefined && canEditTicketsOf(req.user, parent);
    // Anonymous callers see a ticket of a protected or vanished post with every value replaced.
    const redact = req.user === null && !manage && (parent === undefined || parent.password !== '');
    out.push(
      presentTicket(ctx, t, {
        manage,
        attendees: byTicket.get(t.id) ?? [],
        ...(manage ? { stats: stats.get(t.id) ?? NO_STATS } : {}),
        ...(editable ? { editor: { nonces: await issueTicketNonces(ctx, req, t.id) } } : {}),
        redact,
      }),
    );
  }
  return out;
}
