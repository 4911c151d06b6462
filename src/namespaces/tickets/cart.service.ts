/**
 * @module namespaces/tickets/cart.service
 * The visitor's cart (ET `REST/V1/Endpoints/Cart.php`, `Commerce/Cart.php`): identified by the cart
 * cookie of the original's PayPal provider (`event-tickets-tpp-invoice`) — or, for signed-in callers
 * without one, by their user — never by a parameter. A write sets the lines it names (a line is
 * replaced, not added to; quantity 0 or none removes it) and leaves the others; every line is checked
 * against the ticket (exists, readable, on sale, enough seats left) the way the legacy PayPal cart
 * checks it.
 *
 * CASE: the original's RSVP provider has no cart (writes for it do nothing). Here RSVPs are checked
 * out through the cart as well (`POST /orders`), so RSVP lines are kept like the paid provider's.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import type { RestError } from '../../rest/errors.js';
import { absint, phpIntval } from '../../rest/php-query.js';
import type { RestRequest, RestUser } from '../../rest/route.js';
import { canReadPost } from './access.js';
import { cartLines, changeCartLines, CART_TTL_HOURS, type CartLine } from './cart.repo.js';
import { gmtText, nowGmt, positiveInt, ticketsUrl } from './common.js';
import { TicketErrors } from './errors.js';
import type { CheckoutLine } from './orders.service.js';
import { PROVIDERS, resolveProvider, type ProviderSlug, type TicketProvider } from './providers.js';
import { quantityLimits } from './settings.js';
import { ticketStock } from './tickets.present.js';
import { loadTickets, type TicketRecord } from './tickets.repo.js';
import { isOnSale } from './tickets.service.js';

/** The original's cart cookie (legacy PayPal provider's invoice cookie). */
export const CART_COOKIE = 'event-tickets-tpp-invoice';
const KEY_PATTERN = /^[a-f0-9]{32}$/;

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined; // a malformed escape names no cart
    }
  }
  return undefined;
}

/** The caller's cart key: the cart cookie, else `user-<id>` for signed-in callers, else none. */
export function cartKeyOf(req: Pick<RestRequest, 'headers' | 'user'>): string | undefined {
  const cookie = cookieValue(req.headers.cookie, CART_COOKIE);
  if (cookie && KEY_PATTERN.test(cookie)) return cookie;
  return req.user ? `user-${req.user.id}` : undefined;
}

/** A fresh cart key and the `Set-Cookie` header that hands it to the visitor (`Secure` on an https site, as the original). */
export function newCartKey(secure: boolean): { key: string; setCookie: string } {
  const key = crypto.randomBytes(16).toString('hex');
  return { key, setCookie: `${CART_COOKIE}=${key}; Path=/; Max-Age=${CART_TTL_HOURS * 3600}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}` };
}

/**
 * Providers a `GET /cart` `provider` filter selects: names {@link resolveProvider} knows, or a
 * provider's attendee post type (`tribe_tpp_attendees`), which the original's cart also matches.
 * An empty filter selects every provider.
 */
export function cartProviders(names: readonly string[]): ProviderSlug[] | undefined {
  if (names.length === 0) return undefined;
  const out = new Set<ProviderSlug>();
  for (const name of names) {
    const p = resolveProvider(name) ?? PROVIDERS.find((x) => x.attendeeType === name);
    if (p) out.add(p.slug);
  }
  return [...out];
}

/** The body `GET /cart` and `POST /cart` answer with. */
export interface CartBody {
  tickets: { ticket_id: number; quantity: number; post_id: number; optout: number; iac: string; provider: string }[];
  meta: { ticket_id: number; provider: string; items: Record<string, unknown>[] }[];
  cart_url: string;
  checkout_url: string;
}

/** Tickets of `lines` the caller may still buy (published ticket and post), by ID. */
async function purchasable(ctx: AppContext, user: RestUser | null, ids: readonly number[]): Promise<Map<number, TicketRecord>> {
  const tickets = await loadTickets(ctx.db, ids);
  const out = new Map<number, TicketRecord>();
  for (const [id, t] of tickets) {
    const parent = t.parent;
    if (parent && canReadPost(user, t.post) && canReadPost(user, parent) && t.post.status !== 'trash') out.set(id, t);
  }
  return out;
}

/** The lines of a cart (of some providers) with a quantity whose tickets the caller may buy, with those tickets. */
export async function visibleCartLines(
  ctx: AppContext,
  user: RestUser | null,
  key: string | undefined,
  providers: readonly ProviderSlug[] | undefined,
): Promise<{ lines: CartLine[]; readable: Map<number, TicketRecord> }> {
  const all = key ? await cartLines(ctx.db, key) : [];
  const chosen = all.filter((l) => l.quantity >= 1 && (!providers || providers.includes(l.provider)));
  const readable = await purchasable(ctx, user, chosen.map((l) => l.ticketId));
  return { lines: chosen.filter((l) => readable.has(l.ticketId)), readable };
}

/**
 * The cart as the original shows it: lines of readable tickets with a quantity, optionally of some
 * providers. A line shows the ticket's post and individual attendee collection setting as they are
 * now. (The original's `post_id` parameter names the page asking; it does not narrow the lines.)
 */
export async function readCart(ctx: AppContext, user: RestUser | null, key: string | undefined, providers: readonly ProviderSlug[] | undefined): Promise<CartBody> {
  const { lines, readable } = await visibleCartLines(ctx, user, key, providers);
  return {
    tickets: lines.map((l) => {
      const t = readable.get(l.ticketId)!;
      return { ticket_id: l.ticketId, quantity: l.quantity, post_id: t.postId, optout: l.optout ? 1 : 0, iac: t.iac || 'none', provider: l.provider };
    }),
    meta: lines.filter((l) => l.meta.length > 0).map((l) => ({ ticket_id: l.ticketId, provider: l.provider, items: l.meta })),
    cart_url: '',
    // CASE: checkout happens through this namespace's `POST /orders`, the only checkout there is.
    checkout_url: lines.length > 0 ? ticketsUrl(ctx, '/orders') : '',
  };
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  const rec = asRecord(value);
  return rec ? Object.values(rec) : [];
}

function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true' || value === 'yes';
}

/** Registration answers per ticket from a `meta` list (`[{ticket_id, items: [{…}, …]}]`); entries of one ticket add up. */
export function metaByTicket(meta: unknown): Map<number, Record<string, unknown>[]> {
  const out = new Map<number, Record<string, unknown>[]>();
  for (const entry of asList(meta)) {
    const rec = asRecord(entry);
    const id = rec ? positiveInt(rec.ticket_id) : undefined;
    if (!rec || id === undefined) continue;
    const items = asList(rec.items).map(asRecord).filter((x): x is Record<string, unknown> => x !== undefined);
    out.set(id, [...(out.get(id) ?? []), ...items]);
  }
  return out;
}

/**
 * The quantity caps (settings): 400 `tickets-quantity-too-large` when one requested line or all of
 * them together ask for more, checked on the raw request before anything is loaded.
 */
export async function checkQuantities(ctx: AppContext, tickets: unknown): Promise<RestError | undefined> {
  const { perLine, perOrder } = await quantityLimits(ctx);
  let total = 0;
  for (const entry of asList(tickets)) {
    const quantity = phpIntval(asRecord(entry)?.quantity ?? 1);
    if (quantity < 1) continue;
    total += quantity;
    if (quantity > perLine || total > perOrder) return TicketErrors.quantityTooLarge(perLine, perOrder);
  }
  return undefined;
}

/**
 * Checks requested lines (`[{ticket_id, quantity, optout?, iac?, extra?}]`) for `provider`: entries
 * without a ticket ID and tickets of other providers are skipped, quantities below 1 drop the line;
 * an unknown or unreadable ticket is `ticket-does-not-exist`, a ticket outside its sale window or
 * more than the seats left `ticket-capacity-not-available`, more than the quantity caps
 * `tickets-quantity-too-large`.
 */
export async function checkLines(
  ctx: AppContext,
  user: RestUser | null,
  provider: TicketProvider,
  tickets: unknown,
  meta: Map<number, Record<string, unknown>[]>,
): Promise<CheckoutLine[] | RestError> {
  const tooMany = await checkQuantities(ctx, tickets);
  if (tooMany) return tooMany;
  const wanted = new Map<number, { quantity: number; optout: boolean; extra: Record<string, unknown> }>();
  for (const entry of asList(tickets)) {
    const rec = asRecord(entry);
    if (!rec || rec.ticket_id === undefined || rec.ticket_id === null || rec.ticket_id === '') continue;
    const id = positiveInt(rec.ticket_id);
    if (id === undefined) return TicketErrors.ticketDoesNotExist(String(rec.ticket_id));
    wanted.set(id, {
      quantity: phpIntval(rec.quantity ?? 1),
      optout: truthy(rec.optout),
      extra: asRecord(rec.extra) ?? {},
    });
  }
  const found = await purchasable(ctx, user, [...wanted.keys()]);
  const now = nowGmt(ctx);
  const lines: CheckoutLine[] = [];
  for (const [id, w] of wanted) {
    // A line being removed needs no ticket: one that is gone (trashed, its event unpublished) can still go.
    if (w.quantity < 1) continue;
    const t = found.get(id);
    if (!t) return TicketErrors.ticketDoesNotExist(id);
    if (t.provider !== provider.slug) continue;
    if (!isOnSale(t, now)) return TicketErrors.ticketNotOnSale(t.post.title, id);
    const { available } = ticketStock(t);
    if (available !== -1 && w.quantity > available) return TicketErrors.ticketCapacityNotAvailable(t.post.title, id);
    // The collection mode is the ticket's setting (as Event Tickets Plus reports it), never the client's.
    lines.push({ ticket: t, quantity: w.quantity, optout: w.optout, meta: meta.get(id) ?? [], iac: t.iac || 'none', extra: w.extra });
  }
  return lines;
}

/** Requested lines by the provider that handles them: the entry's own `provider`, else the request's. */
function entriesByProvider(tickets: unknown, requested: unknown): Map<TicketProvider, Record<string, unknown>[]> {
  const out = new Map<TicketProvider, Record<string, unknown>[]>();
  for (const entry of asList(tickets)) {
    const rec = asRecord(entry);
    if (!rec) continue;
    // CASE: entries whose ticket ID reads as 0 (`absint`) are skipped, as the original's cart skips them.
    if (absint(rec.ticket_id) === 0) continue;
    const provider = resolveProvider(rec.provider ?? requested);
    if (!provider) continue; // CASE: a provider not offered here has no cart; the original's hook for it does nothing.
    // CASE: the original's cart reads a line without a quantity as 0: it removes the line.
    out.set(provider, [...(out.get(provider) ?? []), { ...rec, quantity: rec.quantity ?? 0 }]);
  }
  return out;
}

/**
 * `POST /cart`: sets the lines `tickets` names (a quantity below 1 removes one) and leaves the others;
 * `meta`, when sent, becomes the registration answers of the whole cart. Answers the error of the
 * first bad line (the cart is left as it was), else whether anything was written.
 */
export async function writeCart(ctx: AppContext, user: RestUser | null, key: string, provider: unknown, tickets: unknown, meta: unknown): Promise<RestError | boolean> {
  const answers = meta === undefined || meta === null ? undefined : metaByTicket(meta);
  const groups = tickets === undefined || tickets === null ? new Map<TicketProvider, Record<string, unknown>[]>() : entriesByProvider(tickets, provider);
  // Answers alone change nothing in a cart without lines (and hand out no cookie).
  if (groups.size === 0 && (!answers || (await cartLines(ctx.db, key)).length === 0)) return false;
  const tooMany = await checkQuantities(ctx, [...groups.values()].flat());
  if (tooMany) return tooMany;
  const set: CartLine[] = [];
  const remove: { ticketId: number; provider: ProviderSlug }[] = [];
  for (const [p, entries] of groups) {
    const lines = await checkLines(ctx, user, p, entries, answers ?? new Map());
    if (!Array.isArray(lines)) return lines;
    const kept = new Set(lines.map((l) => l.ticket.id));
    for (const e of entries) {
      const id = positiveInt(e.ticket_id);
      if (id !== undefined && !kept.has(id)) remove.push({ ticketId: id, provider: p.slug });
    }
    for (const l of lines) {
      set.push({
        ticketId: l.ticket.id,
        provider: p.slug,
        postId: l.ticket.postId,
        quantity: l.quantity,
        optout: l.optout,
        iac: l.iac ?? 'none',
        extra: l.extra ?? {},
        meta: [], // a line keeps its answers; `answers` (when sent) replace them all below
      });
    }
  }
  const { perLine, perOrder } = await quantityLimits(ctx);
  const cutoff = gmtText(new Date(ctx.now().getTime() - CART_TTL_HOURS * 3600_000));
  const written = await changeCartLines(ctx.db, key, { set, remove, ...(answers ? { meta: answers } : {}) }, perOrder, nowGmt(ctx), cutoff);
  return written ? true : TicketErrors.quantityTooLarge(perLine, perOrder);
}
