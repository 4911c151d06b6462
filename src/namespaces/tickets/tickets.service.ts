/**
 * @module namespaces/tickets/tickets.service
 * Ticket rules: who may read a ticket (ET `Tickets_Handler::is_ticket_readable`), creating, updating
 * and deleting tickets from the block editor's fields (ET `Editor/REST/V1/Endpoints/Single_Ticket`),
 * capacity modes (own, shared across a post's tickets, capped, unlimited) and the sale window.
 */
import type { AppContext } from '../../app-context.js';
import { parseDateTime, siteTimeZone, toDbDate, type PostRecord } from '../../content/posts.js';
import { sanitizeTextField } from '../../rest/wp-sanitize.js';
import type { RestError } from '../../rest/errors.js';
import { isPhpNumeric, phpString } from '../../rest/php-query.js';
import type { RestUser } from '../../rest/route.js';
import type { Db } from '../../storage/db.js';
import { canReadUnpublished } from './access.js';
import { MAX_POST_ID, nowPair } from './common.js';
import { TICKET_MESSAGES, TicketErrors } from './errors.js';
import { CURRENCY_OPTION, DEFAULT_CURRENCY, CURRENCY_CODES } from './money.js';
import { deletePost, insertPost, updatePost } from './posts.repo.js';
import type { TicketProvider } from './providers.js';
import {
  adjustSharedSold,
  getSharedCapacity,
  getTicket,
  insertTicketDetails,
  setSharedCapacity,
  SHARED_MODES,
  updateTicketDetails,
  type CapacityMode,
  type TicketDetailsValues,
  type TicketRecord,
} from './tickets.repo.js';

/** The block editor's ticket fields, as sent (strings), already limited to those the client sent. */
export interface TicketFields {
  name?: unknown;
  description?: unknown;
  price?: unknown;
  show_description?: unknown;
  start_date?: unknown;
  start_time?: unknown;
  end_date?: unknown;
  end_time?: unknown;
  sku?: unknown;
  iac?: unknown;
  menu_order?: unknown;
  /** Provider extras: `capacity`, `mode`, `event_capacity`. */
  ticket?: unknown;
}

/** Why a ticket cannot be read, or the ticket and its post. */
export type Readable = { ticket: TicketRecord; parent: PostRecord } | RestError;

/** `is_ticket_readable`: 404 when there is no such ticket, 401 when it or its post may not be read. */
export async function readableTicket(db: Db, user: RestUser | null, id: number): Promise<Readable> {
  // IDs past what the posts table holds name nothing (and must not reach a 32-bit column).
  const ticket = id <= MAX_POST_ID ? await getTicket(db, id) : undefined;
  if (!ticket) return TicketErrors.ticketNotFound();
  if (ticket.post.status !== 'publish' && !canReadUnpublished(user, ticket.post)) return TicketErrors.ticketNotAccessible();
  const parent = ticket.parent;
  if (!parent) return TicketErrors.ticketNotAccessible();
  if (parent.status !== 'publish' && !canReadUnpublished(user, parent)) return TicketErrors.ticketNotAccessible();
  return { ticket, parent };
}

/** True when the ticket's sale window includes `nowGmt`. */
export function isOnSale(t: Pick<TicketRecord, 'startGmt' | 'endGmt'>, nowGmtText: string): boolean {
  return (t.startGmt === '' || t.startGmt <= nowGmtText) && (t.endGmt === '' || t.endGmt >= nowGmtText);
}

// ---------------------------------------------------------------------------------------------
// Field parsing
// ---------------------------------------------------------------------------------------------

function text(value: unknown): string {
  return sanitizeTextField(value);
}

interface CapacityPlan {
  mode: CapacityMode;
  /** Own limit (-1 none). */
  capacity: number;
  /** New shared capacity of the post, when sent. */
  sharedCapacity?: number;
}

function capacityNumber(value: unknown): number | '' | undefined {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return undefined;
}

/** The capacity configuration the `ticket` extras describe. */
async function capacityPlan(db: Db, postId: number, extras: unknown): Promise<CapacityPlan | RestError> {
  const t = extras && typeof extras === 'object' && !Array.isArray(extras) ? (extras as Record<string, unknown>) : {};
  const capacity = capacityNumber(t.capacity);
  const shared = capacityNumber(t.event_capacity);
  if (capacity === undefined || shared === undefined) return TicketErrors.badRequest(TICKET_MESSAGES.invalidCapacity);
  const requested = typeof t.mode === 'string' ? t.mode.trim().toLowerCase() : '';
  const sharedCapacity = shared === '' ? undefined : shared;
  const plan = (mode: CapacityMode, own: number): CapacityPlan => ({ mode, capacity: own, ...(sharedCapacity !== undefined ? { sharedCapacity } : {}) });

  if (requested === 'global' || requested === 'capped') {
    const pool = sharedCapacity ?? (await getSharedCapacity(db, postId))?.capacity;
    if (pool === undefined) return TicketErrors.badRequest(TICKET_MESSAGES.invalidCapacity);
    if (requested === 'global') return plan('global', -1);
    if (capacity === '') return TicketErrors.badRequest(TICKET_MESSAGES.invalidCapacity);
    if (capacity > pool) return TicketErrors.badRequest(TICKET_MESSAGES.cappedAboveShared);
    return plan('capped', capacity);
  }
  if (requested === '' || requested === 'own' || requested === 'unlimited') {
    if (requested === 'unlimited' || capacity === '') return plan('', -1);
    return plan('own', capacity);
  }
  return TicketErrors.badRequest(TICKET_MESSAGES.invalidCapacity);
}

interface SaleWindow {
  start_local: string;
  start_gmt: string;
  end_local: string;
  end_gmt: string;
}

function combine(date: string, time: string, fallbackTime: string): string {
  return `${date} ${time || fallbackTime}`;
}

/**
 * The sale window from the date and time fields (site time zone). A missing start means "from now"
 * on create; an end without a time lasts to the end of that day. An end before the start is refused.
 */
async function saleWindow(ctx: AppContext, f: TicketFields, current: TicketRecord | undefined): Promise<SaleWindow | RestError> {
  const zone = await siteTimeZone(ctx.options);
  const parse = (date: string, time: string, fallback: string) => {
    const dt = parseDateTime(combine(date, time, fallback), zone, ctx.now());
    return dt ? { local: toDbDate(dt.setZone(zone)), gmt: toDbDate(dt.toUTC()) } : undefined;
  };
  const out: SaleWindow = current
    ? { start_local: current.startLocal, start_gmt: current.startGmt, end_local: current.endLocal, end_gmt: current.endGmt }
    : { start_local: '', start_gmt: '', end_local: '', end_gmt: '' };
  if (f.start_date !== undefined || f.start_time !== undefined || !current) {
    const date = text(f.start_date ?? (current ? current.startLocal.slice(0, 10) : ''));
    const time = text(f.start_time ?? (current ? current.startLocal.slice(11) : ''));
    if (date === '') {
      const now = await nowPair(ctx);
      out.start_local = current ? '' : now.local;
      out.start_gmt = current ? '' : now.gmt;
    } else {
      const when = parse(date, time, '00:00:00');
      if (!when) return TicketErrors.badRequest(TICKET_MESSAGES.invalidStartDate(`${date} ${time}`.trim()));
      out.start_local = when.local;
      out.start_gmt = when.gmt;
    }
  }
  if (f.end_date !== undefined || f.end_time !== undefined) {
    const date = text(f.end_date ?? (current ? current.endLocal.slice(0, 10) : ''));
    const time = text(f.end_time ?? (current ? current.endLocal.slice(11) : ''));
    if (date === '') {
      out.end_local = '';
      out.end_gmt = '';
    } else {
      const when = parse(date, time, '23:59:59');
      if (!when) return TicketErrors.badRequest(TICKET_MESSAGES.invalidEndDate(`${date} ${time}`.trim()));
      out.end_local = when.local;
      out.end_gmt = when.gmt;
    }
  }
  if (out.start_gmt !== '' && out.end_gmt !== '' && out.end_gmt < out.start_gmt) {
    return TicketErrors.badRequest(TICKET_MESSAGES.saleEndsBeforeStart);
  }
  return out;
}

/**
 * The price to store, or an error for a paid provider's missing, non-numeric or negative price. A
 * blank price sent as text makes a free ticket (`"0"`), as in the original's editor route.
 */
function priceFor(provider: TicketProvider, value: unknown): string | RestError {
  if (!provider.paid) return '0';
  if (typeof value === 'string' && value.trim() === '') return '0';
  const raw = phpString(value).trim();
  if (raw === '' || !isPhpNumeric(raw) || Number(raw) < 0) return TicketErrors.invalidPrice();
  return raw;
}

// ---------------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------------

/** Creates a ticket for `post` and returns its ID. */
export async function createTicket(ctx: AppContext, author: number, post: PostRecord, provider: TicketProvider, f: TicketFields): Promise<number | RestError> {
  const price = priceFor(provider, f.price);
  if (typeof price !== 'string') return price;
  const window = await saleWindow(ctx, f, undefined);
  if ('code' in window) return window as RestError;
  const currencySetting = String(await ctx.options.get(CURRENCY_OPTION, DEFAULT_CURRENCY)).toUpperCase();
  const currency = CURRENCY_CODES.includes(currencySetting) ? currencySetting : DEFAULT_CURRENCY;
  const now = await nowPair(ctx);

  return ctx.db.transaction().execute(async (trx) => {
    const plan = await capacityPlan(trx, post.id, f.ticket);
    if ('code' in plan) return plan as RestError;
    if (plan.sharedCapacity !== undefined) await setSharedCapacity(trx, post.id, plan.sharedCapacity);
    const title = text(f.name ?? '');
    const id = await insertPost(trx, {
      type: provider.ticketType,
      status: 'publish',
      title,
      content: text(f.description ?? ''),
      author,
      menuOrder: Number.parseInt(phpString(f.menu_order ?? '0'), 10) || 0,
      slugFrom: title || provider.ticketType,
      when: now,
    });
    const values: TicketDetailsValues = {
      post_id: post.id,
      provider: provider.slug,
      type: 'default',
      price,
      currency,
      show_description: text(f.show_description ?? 'yes') === 'yes' ? 1 : 0,
      ...window,
      sku: text(f.sku ?? ''),
      iac: text(f.iac ?? '') || 'none',
      capacity: plan.capacity,
      capacity_mode: plan.mode,
    };
    await insertTicketDetails(trx, id, values);
    return id;
  });
}

/** Changes the fields the client sent; fields not sent keep their values. */
export async function updateTicket(ctx: AppContext, ticket: TicketRecord, provider: TicketProvider, f: TicketFields): Promise<RestError | undefined> {
  const patch: Partial<TicketDetailsValues> = {};
  if (f.price !== undefined) {
    const price = priceFor(provider, f.price);
    if (typeof price !== 'string') return price;
    patch.price = price;
  }
  const touchesWindow = [f.start_date, f.start_time, f.end_date, f.end_time].some((v) => v !== undefined);
  if (touchesWindow) {
    const window = await saleWindow(ctx, f, ticket);
    if ('code' in window) return window as RestError;
    Object.assign(patch, window);
  }
  if (f.show_description !== undefined) patch.show_description = text(f.show_description) === 'yes' ? 1 : 0;
  if (f.sku !== undefined) patch.sku = text(f.sku);
  if (f.iac !== undefined) patch.iac = text(f.iac) || 'none';
  const now = await nowPair(ctx);

  return ctx.db.transaction().execute(async (trx) => {
    if (f.ticket !== undefined) {
      // Extras not sent keep their current values (mode and own capacity).
      const sent = f.ticket && typeof f.ticket === 'object' && !Array.isArray(f.ticket) ? (f.ticket as Record<string, unknown>) : {};
      const current = { mode: ticket.capacityMode === '' ? 'unlimited' : ticket.capacityMode, capacity: ticket.capacity < 0 ? '' : ticket.capacity };
      const plan = await capacityPlan(trx, ticket.postId, { ...current, ...sent });
      if ('code' in plan) return plan as RestError;
      if (plan.sharedCapacity !== undefined) await setSharedCapacity(trx, ticket.postId, plan.sharedCapacity);
      const before = SHARED_MODES.includes(ticket.capacityMode);
      const after = SHARED_MODES.includes(plan.mode);
      // Seats already sold follow the ticket into (or out of) the shared pool.
      if (before !== after) await adjustSharedSold(trx, ticket.postId, after ? ticket.sold : -ticket.sold);
      patch.capacity = plan.capacity;
      patch.capacity_mode = plan.mode;
    }
    await updateTicketDetails(trx, ticket.id, patch);
    const postPatch: { title?: string; content?: string; menu_order?: number } = {};
    if (f.name !== undefined) postPatch.title = text(f.name);
    if (f.description !== undefined) postPatch.content = text(f.description);
    if (f.menu_order !== undefined) postPatch.menu_order = Number.parseInt(phpString(f.menu_order), 10) || 0;
    await updatePost(trx, ticket.id, postPatch, now);
    return undefined;
  });
}

/**
 * Deletes a ticket. A ticket with attendees is moved to the trash instead, so its attendees keep
 * their ticket (and can still check in); its seats leave the post's shared pool either way.
 */
export async function deleteTicket(ctx: AppContext, ticket: TicketRecord): Promise<boolean> {
  const now = await nowPair(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    if (SHARED_MODES.includes(ticket.capacityMode) && ticket.sold > 0) await adjustSharedSold(trx, ticket.postId, -ticket.sold);
    const hasAttendees = await trx.selectFrom('ticket_attendees').select('attendee_id').where('ticket_id', '=', ticket.id).limit(1).executeTakeFirst();
    if (hasAttendees) {
      await updatePost(trx, ticket.id, { status: 'trash' }, now);
      await updateTicketDetails(trx, ticket.id, { capacity_mode: ticket.capacityMode === '' ? '' : 'own', capacity: ticket.capacityMode === '' ? -1 : 0 });
    } else {
      await deletePost(trx, ticket.id);
    }
  });
  return true;
}
