/**
 * @module namespaces/tickets/email-limits
 * Checkout sends the purchaser a tickets e-mail (RSVPs at once, paid orders when paid), and anyone
 * may check out for any address: without limits a client could make the site mail-bomb an address,
 * or relay its own text (see `mail-names.ts`) to thousands. So, while e-mail is configured:
 *
 * - one recipient gets at most {@link ORDERS_PER_RECIPIENT_PER_HOUR} checkouts an hour, counted from
 *   the stored orders (so every process sees the same count), case-insensitively;
 * - one client address places at most {@link ORDERS_PER_ADDRESS_PER_HOUR} anonymous checkouts an
 *   hour (counted in this process);
 *
 * beyond that the checkout is refused with 429 and `Retry-After`, before any seat is taken. Managers
 * (the box office) and signed-in buyers writing to their own account address are not limited: they
 * cannot mail anyone but themselves or are trusted to.
 */
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import type { Db } from '../../storage/db.js';
import { RestResponse, type RestRequest } from '../../rest/route.js';
import { hasManageAccess } from './access.js';
import { gmtText } from './common.js';
import { TicketErrors } from './errors.js';

/** Checkouts whose tickets e-mail one recipient may receive in an hour. */
export const ORDERS_PER_RECIPIENT_PER_HOUR = 5;
/** Anonymous checkouts one client address may place in an hour. */
export const ORDERS_PER_ADDRESS_PER_HOUR = 20;

const HOUR_MS = 3_600_000;
/** Client addresses remembered at most (the oldest are forgotten first). */
const MAX_ADDRESSES = 10_000;

/** Recent checkouts by client address, per app. */
const checkoutsByAddress = new WeakMap<AppContext, Map<string, number[]>>();

/** Seconds until `address` may check out again (0: now, and the checkout is counted). */
function hitAddress(ctx: AppContext, address: string, now: number): number {
  let hits = checkoutsByAddress.get(ctx);
  if (!hits) checkoutsByAddress.set(ctx, (hits = new Map()));
  const recent = (hits.get(address) ?? []).filter((t) => t > now - HOUR_MS);
  hits.delete(address);
  if (recent.length >= ORDERS_PER_ADDRESS_PER_HOUR) {
    hits.set(address, recent);
    return Math.max(1, Math.ceil((recent[0]! + HOUR_MS - now) / 1000));
  }
  recent.push(now);
  hits.set(address, recent);
  while (hits.size > MAX_ADDRESSES) hits.delete(hits.keys().next().value!);
  return 0;
}

/** The latest orders to `email` created after `sinceGmt` (as many as the limit looks at), on the `ticket_orders_recipient_created` index. */
export function recipientOrdersQuery(db: Db, email: string, sinceGmt: string) {
  return db
    .selectFrom('ticket_orders')
    .select('created_gmt')
    .where(sql<string>`lower(customer_email)`, '=', email.toLowerCase())
    .where('created_gmt', '>', sinceGmt)
    .orderBy('created_gmt', 'desc')
    .limit(ORDERS_PER_RECIPIENT_PER_HOUR);
}

/** Seconds until `email` may receive another tickets e-mail (0: now). */
async function recipientWait(ctx: AppContext, email: string, now: number): Promise<number> {
  const rows = await recipientOrdersQuery(ctx.db, email, gmtText(new Date(now - HOUR_MS))).execute();
  if (rows.length < ORDERS_PER_RECIPIENT_PER_HOUR) return 0;
  const oldest = DateTime.fromSQL(rows.at(-1)!.created_gmt, { zone: 'UTC' }).toMillis();
  return Math.max(1, Math.ceil((oldest + HOUR_MS - now) / 1000));
}

/** The 429 answer when this checkout would exceed a limit; undefined when it may go ahead. */
export async function emailLimitAnswer(req: RestRequest, ctx: AppContext, email: string): Promise<RestResponse | undefined> {
  if (!ctx.mailer.configured || (await hasManageAccess(req, ctx))) return undefined;
  if (req.user && req.user.email.toLowerCase() === email.toLowerCase()) return undefined;
  const now = ctx.now().getTime();
  let wait = await recipientWait(ctx, email, now);
  if (wait === 0 && !req.user) wait = hitAddress(ctx, req.ip, now);
  if (wait === 0) return undefined;
  return new RestResponse(TicketErrors.tooManyEmails().toJSON(), 429, { 'Retry-After': String(wait) });
}
