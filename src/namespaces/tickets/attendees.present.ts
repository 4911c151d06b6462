/**
 * @module namespaces/tickets/attendees.present
 * An attendee as the original's REST API shows it (ET `Post_Repository::build_attendee_data`): the
 * public part for everyone, names only for those who did not opt out, and e-mail, order, check-in and
 * payment data only with manage access.
 */
import type { AppContext } from '../../app-context.js';
import { dateDetails } from '../../content/posts.js';
import { globalId, ticketsUrl } from './common.js';
import { currencyConfig, currencySymbol, formatNumber, priceValue } from './money.js';
import type { AttendeeListing, AttendeeTicket } from './attendees.repo.js';
import { providerBySlug } from './providers.js';

export interface AttendeeView {
  manage: boolean;
  /** The attendee's ticket (may be gone). */
  ticket: AttendeeTicket | undefined;
  /** Site-local purchase date of the attendee's order, for `payment.date`. */
  purchaseDate?: string;
}

/** A sale bound as the attendee's ticket shows it: the original's RSVP ticket object keeps only the date (the time is kept apart). */
function saleBound(a: AttendeeListing, local: string): string {
  return a.provider === 'rsvp' ? local.slice(0, 10) : local;
}

function ticketSummary(a: AttendeeListing, t: AttendeeTicket | undefined): Record<string, unknown> {
  const raw = t ? t.price : String(a.price);
  const currency = t ? t.currency : a.currency;
  return {
    id: a.ticketId,
    title: t ? t.post.title.trim() : '',
    description: t ? t.post.content : '',
    raw_price: raw,
    formatted_price: formatNumber(priceValue(raw)),
    currency_config: currencyConfig(currency),
    start_sale: t ? saleBound(a, t.startLocal) : '',
    end_sale: t ? saleBound(a, t.endLocal) : '',
  };
}

/** The attendee object of 4.4. */
export function presentAttendee(ctx: Pick<AppContext, 'urls'>, a: AttendeeListing, view: AttendeeView): Record<string, unknown> {
  const gid = globalId(ctx, 'attendee', a.id);
  const data: Record<string, unknown> = {
    id: a.id,
    post_id: a.postId,
    ticket_id: a.ticketId,
    global_id: gid,
    global_id_lineage: [gid],
    author: String(a.post.author),
    status: a.post.status,
    date: a.post.date,
    date_utc: a.post.date_gmt,
    modified: a.post.modified,
    modified_utc: a.post.modified_gmt,
    rest_url: ticketsUrl(ctx, `/attendees/${a.id}`),
    ticket: ticketSummary(a, view.ticket),
  };
  if (!a.optout || view.manage) {
    data.title = a.holderName || a.purchaserName;
    data.optout = a.optout;
  } else {
    data.optout = true;
  }
  if (!view.manage) return data;

  data.provider = a.provider;
  data.order = a.provider === 'rsvp' ? a.id : a.orderId ?? '';
  data.sku = view.ticket?.sku ?? '';
  data.email = a.holderEmail || a.purchaserEmail;
  data.checked_in = a.checkedIn;
  data.checkin_details = a.checkedIn && a.checkinLocal
    ? { date: a.checkinLocal, date_details: dateDetails(a.checkinLocal), source: a.checkinSource, author: a.checkinAuthor }
    : false;
  data.is_subscribed = false;
  data.is_purchaser = true;
  if (a.provider === 'rsvp') {
    data.rsvp_going = a.orderStatus === 'yes';
  } else if (a.orderId !== null && view.purchaseDate) {
    data.payment = {
      provider: providerBySlug(a.provider).orderSlug,
      price: view.ticket ? view.ticket.price : String(a.price),
      currency: currencySymbol(a.currency),
      date: view.purchaseDate,
      date_details: dateDetails(view.purchaseDate),
    };
  }
  return data;
}
