/**
 * @module namespaces/tickets/views
 * Builds ticket and attendee objects for a whole page at once: a fixed number of queries (tickets,
 * posts, attendees, statistics, order dates), never one per item.
 */
import type { AppContext } from '../../app-context.js';
import { getPostsByIds, type PostRecord } from '../../content/posts.js';
import type { RestRequest } from '../../rest/route.js';
import { canEditTicketsOf, hasManageAccess } from './access.js';
import { attendeeIdsOfTickets, loadAttendees, type AttendeeRecord } from './attendees.repo.js';
import { presentAttendee } from './attendees.present.js';
import { showsAttendeeList } from './posts.repo.js';
import { issueTicketNonces } from './ticket-nonces.js';
import { presentTicket } from './tickets.present.js';
import { loadTickets, ticketStats, type TicketRecord } from './tickets.repo.js';

/** Attendee objects for `ids`, in that order (missing IDs skipped). */
export async function attendeeObjects(ctx: AppContext, ids: readonly number[], manage: boolean, preloaded?: Map<number, AttendeeRecord>): Promise<Record<string, unknown>[]> {
  const attendees = preloaded ?? (await loadAttendees(ctx.db, ids));
  const list = ids.map((id) => attendees.get(id)).filter((a): a is AttendeeRecord => a !== undefined);
  const tickets = await loadTickets(ctx.db, list.map((a) => a.ticketId));
  const orderIds = list.map((a) => a.orderId).filter((id): id is number => id !== null);
  const orders = manage ? await getPostsByIds(ctx.db, orderIds) : new Map<number, PostRecord>();
  return list.map((a) =>
    presentAttendee(ctx, a, {
      manage,
      ticket: tickets.get(a.ticketId),
      ...(a.orderId !== null && orders.has(a.orderId) ? { purchaseDate: orders.get(a.orderId)!.date } : {}),
    }),
  );
}

export interface TicketObjectOptions {
  /** Single GET: adds the editor layer for those who may edit the ticket's post. */
  single?: boolean;
  /** Tickets already loaded (by ID). */
  preloaded?: Map<number, TicketRecord>;
}

/** Ticket objects for `ids`, in that order, as the caller may see them. */
export async function ticketObjects(ctx: AppContext, req: RestRequest, ids: readonly number[], options: TicketObjectOptions = {}): Promise<Record<string, unknown>[]> {
  const manage = await hasManageAccess(req, ctx);
  const tickets = options.preloaded ?? (await loadTickets(ctx.db, ids));
  const list = ids.map((id) => tickets.get(id)).filter((t): t is TicketRecord => t !== undefined);
  const parents = await getPostsByIds(ctx.db, list.map((t) => t.postId));

  // Attendees: everyone for manage access; otherwise the public ones of posts showing their list,
  // unless the post is password-protected (then only its editors see them).
  const listed = (parent: PostRecord | undefined) =>
    parent !== undefined && showsAttendeeList(parent.content) && (parent.password === '' || canEditTicketsOf(req.user, parent));
  const showing = list.filter((t) => manage || listed(parents.get(t.postId)));
  const attendeeIds = await attendeeIdsOfTickets(ctx.db, showing.map((t) => t.id), !manage);
  const attendees = await loadAttendees(ctx.db, attendeeIds);
  const objects = await attendeeObjects(ctx, attendeeIds, manage, attendees);
  const byTicket = new Map<number, Record<string, unknown>[]>();
  for (const o of objects) {
    const tid = o.ticket_id as number;
    byTicket.set(tid, [...(byTicket.get(tid) ?? []), o]);
  }
  const stats = manage ? await ticketStats(ctx.db, list.map((t) => t.id)) : undefined;

  const out: Record<string, unknown>[] = [];
  for (const t of list) {
    const parent = parents.get(t.postId);
    const editable = options.single === true && parent !== undefined && canEditTicketsOf(req.user, parent);
    // Anonymous callers see a ticket of a protected or vanished post with every value replaced.
    const redact = req.user === null && !manage && (parent === undefined || parent.password !== '');
    out.push(
      presentTicket(ctx, t, {
        manage,
        attendees: byTicket.get(t.id) ?? [],
        ...(stats ? { stats: stats.get(t.id) ?? { attendees: 0, checkedIn: 0, going: 0, notGoing: 0 } } : {}),
        ...(editable ? { editor: { nonces: await issueTicketNonces(ctx, req, t.id) } } : {}),
        redact,
      }),
    );
  }
  return out;
}
