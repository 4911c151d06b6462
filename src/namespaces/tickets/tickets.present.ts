/**
 * @module namespaces/tickets/tickets.present
 * A ticket as the original's REST API shows it (ET `Post_Repository::get_ticket_data`), with the
 * editor layer single GETs add for those who can edit the ticket, and the anonymous redaction of
 * tickets whose post is password-protected or gone.
 */
import type { AppContext } from '../../app-context.js';
import { dateDetails } from '../../content/posts.js';
import { isPhpNumeric } from '../../rest/php-query.js';
import { globalId, ticketsUrl } from './common.js';
import { costDetails, formatCost, priceValue } from './money.js';
import type { TicketRecord, TicketStats } from './tickets.repo.js';

/** Seats a ticket can still sell (-1 = unlimited) and what its `capacity` field shows. */
export interface TicketStock {
  /** The `capacity` field: -1 unlimited, else the limit in force (the shared one in `global` mode). */
  capacity: number;
  /** Seats left, -1 unlimited. */
  available: number;
}

/** Capacity and stock as the original computes them from the capacity mode. */
export function ticketStock(t: Pick<TicketRecord, 'capacity' | 'capacityMode' | 'sold' | 'shared'>): TicketStock {
  const sharedLeft = t.shared ? Math.max(0, t.shared.capacity - t.shared.sold) : 0;
  switch (t.capacityMode) {
    case 'own':
      return { capacity: t.capacity, available: Math.max(0, t.capacity - t.sold) };
    case 'global':
      return { capacity: t.shared?.capacity ?? 0, available: sharedLeft };
    case 'capped':
      return { capacity: t.capacity, available: Math.min(Math.max(0, t.capacity - t.sold), sharedLeft) };
    default:
      return { capacity: -1, available: -1 };
  }
}

/** `available_percentage`: 100 unlimited, 0 when nothing is left or capacity ≤ 0, else floor(%). */
export function availablePercentage(stock: TicketStock): number {
  if (stock.available === -1) return 100;
  if (stock.capacity <= 0 || stock.available === 0) return 0;
  return Math.floor((stock.available / stock.capacity) * 100);
}

/** `capacity_type` of the editor layer. */
function capacityType(t: TicketRecord): string {
  return t.capacityMode === '' ? 'unlimited' : t.capacityMode;
}

/** The time part of a stored date (`HH:MM:SS`), `''` when unset. */
function timeOf(text: string): string {
  return text ? text.slice(11, 19) : '';
}

export interface TicketView {
  /** Manage access: capacity totals, attendee statistics, all attendees. */
  manage: boolean;
  /** Attendee objects to embed (already filtered to what the caller may see). */
  attendees: readonly unknown[];
  /** Attendee statistics (manage access only). */
  stats?: TicketStats;
  /** Editor layer (single GET by someone who can edit the ticket): raw fields and write nonces. */
  editor?: { nonces: Record<string, string> };
  /** Replace every scalar (anonymous caller, parent password-protected or gone). */
  redact?: boolean;
}

/** The ticket object of 4.1. */
export function presentTicket(ctx: Pick<AppContext, 'urls'>, t: TicketRecord, view: TicketView): Record<string, unknown> {
  const stock = ticketStock(t);
  const percentage = availablePercentage(stock);
  const capacityDetails: Record<string, unknown> = { available_percentage: percentage, available: stock.available };
  if (view.manage) {
    capacityDetails.max = stock.capacity;
    capacityDetails.sold = t.sold - t.pending;
    capacityDetails.pending = t.pending;
    capacityDetails.global_stock_mode = t.capacityMode;
  }
  const price = priceValue(t.price);
  const gid = globalId(ctx, t.provider, t.id);
  const data: Record<string, unknown> = {
    id: t.id,
    post_id: t.postId,
    type: t.type,
    provider: t.provider,
    global_id: gid,
    global_id_lineage: [gid],
    author: String(t.post.author),
    status: t.post.status,
    date: t.post.date,
    date_utc: t.post.date_gmt,
    modified: t.post.modified,
    modified_utc: t.post.modified_gmt,
    title: t.post.title.trim(),
    description: t.post.content,
    image: false,
    available_from: t.startLocal,
    available_from_details: dateDetails(t.startLocal),
    available_until: t.endLocal,
    available_until_details: dateDetails(t.endLocal),
    capacity: stock.capacity,
    capacity_details: capacityDetails,
    is_available: percentage > 0,
    cost: formatCost(price, t.currency),
    cost_details: costDetails(t.price, t.currency),
    sale_price_data: [],
    // Only the WooCommerce provider sets the ticket object's `on_sale`; for the others it stays null.
    on_sale: null,
    iac: t.iac,
    price_suffix: null,
    supports_attendee_information: false,
    attendees: view.attendees,
  };
  if (view.manage && view.stats !== undefined) {
    const s = view.stats;
    if (t.provider === 'rsvp') data.rsvp = { rsvp_going: s.going, rsvp_not_going: s.notGoing };
    const inPct = s.attendees > 0 ? Math.ceil((100 * s.checkedIn) / s.attendees) : 100;
    data.checkin = {
      checked_in: s.checkedIn,
      unchecked_in: s.attendees - s.checkedIn,
      checked_in_percentage: inPct,
      unchecked_in_percentage: 100 - inPct,
    };
  }
  data.rest_url = ticketsUrl(ctx, `/tickets/${t.id}`);
  if (view.editor) {
    data.capacity_type = capacityType(t);
    data.sku = t.sku;
    data.available_from_start_time = timeOf(t.startLocal);
    data.available_from_end_time = timeOf(t.endLocal);
    data.totals = { stock: stock.available, sold: t.sold - t.pending, pending: t.pending };
    Object.assign(data, view.editor.nonces);
  }
  return view.redact ? (redact(data) as Record<string, unknown>) : data;
}

/** The localized "No Access" text of the redaction. */
export const NO_ACCESS = 'No Access';

/**
 * Every value replaced, keys kept (ET `Validator\Base::remove_ticket_data`): numbers and numeric
 * strings → 0, booleans → null, anything else (other strings, null) → "No Access".
 */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v)]));
  }
  if (isPhpNumeric(value)) return 0;
  if (typeof value === 'boolean') return null;
  return NO_ACCESS;
}
