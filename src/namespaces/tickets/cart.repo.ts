/**
 * @module namespaces/tickets/cart.repo
 * Cart lines of a visitor's cart (keyed by the cart cookie). A write sets or removes the lines it names
 * in one transaction; lines untouched for {@link CART_TTL_HOURS} hours are purged on write.
 */
import type { Db } from '../../storage/db.js';
import { capabilities } from '../../storage/dialect.js';
import type { ProviderSlug } from './providers.js';

/** Carts live this long after their last change (the original keeps them in a transient). */
export const CART_TTL_HOURS = 48;

export interface CartLine {
  ticketId: number;
  provider: ProviderSlug;
  postId: number;
  quantity: number;
  optout: boolean;
  iac: string;
  extra: Record<string, unknown>;
  /** One object of registration answers per attendee. */
  meta: Record<string, unknown>[];
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The lines of a cart, in ticket ID order. */
export async function cartLines(db: Db, cartKey: string): Promise<CartLine[]> {
  const rows = await db.selectFrom('ticket_cart_items').selectAll().where('cart_key', '=', cartKey).orderBy('ticket_id').execute();
  return rows.map((r) => ({
    ticketId: Number(r.ticket_id),
    provider: r.provider as ProviderSlug,
    postId: Number(r.post_id),
    quantity: Number(r.quantity),
    optout: Number(r.optout) === 1,
    iac: r.iac,
    extra: parseJson<Record<string, unknown>>(r.extra, {}),
    meta: parseJson<Record<string, unknown>[]>(r.meta, []),
  }));
}

/** The `ticket_cart_items` row of a line. */
function cartItemRow(cartKey: string, l: CartLine, nowGmt: string) {
  return {
    cart_key: cartKey, ticket_id: l.ticketId, provider: l.provider, post_id: l.postId, quantity: l.quantity, optout: l.optout ? 1 : 0,
    iac: l.iac, extra: JSON.stringify(l.extra), meta: JSON.stringify(l.meta), updated_gmt: nowGmt,
  };
}

/** One write to a cart: lines to set, tickets to take out, and (when sent) every line's registration answers. */
export interface CartChanges {
  /** Lines set as given (a line of the same ticket is replaced, not added to, and keeps its answers). */
  set: readonly CartLine[];
  /** Lines that go: a ticket's line, when it is of that provider. */
  remove: readonly { ticketId: number; provider: ProviderSlug }[];
  /** When present, the registration answers of the whole cart: lines it does not name keep none. */
  meta?: ReadonlyMap<number, readonly Record<string, unknown>[]>;
}

/** Thrown inside the transaction to undo a write that would leave the cart over its size. */
class CartTooLarge extends Error {}

/**
 * Applies `changes` to a cart in one transaction; lines the write does not name stay as they were.
 * Nothing is written, and false is answered, when the cart would then hold more than `maxTickets`
 * tickets. Expired lines of every cart are purged in the same transaction.
 */
export async function changeCartLines(db: Db, cartKey: string, changes: CartChanges, maxTickets: number, nowGmt: string, cutoffGmt: string): Promise<boolean> {
  try {
    await applyCartChanges(db, cartKey, changes, maxTickets, nowGmt, cutoffGmt);
    return true;
  } catch (error) {
    if (error instanceof CartTooLarge) return false;
    throw error;
  }
}

async function applyCartChanges(db: Db, cartKey: string, changes: CartChanges, maxTickets: number, nowGmt: string, cutoffGmt: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('ticket_cart_items').where('updated_gmt', '<', cutoffGmt).execute();
    // Concurrent writes to one cart take turns (PostgreSQL locks rows one by one: two writes locking
    // the same lines in different orders would deadlock); SQLite writes one transaction at a time anyway.
    if (capabilities(trx).supportsRowLocks) await trx.selectFrom('ticket_cart_items').select('ticket_id').where('cart_key', '=', cartKey).orderBy('ticket_id').forUpdate().execute();
    for (const provider of new Set(changes.remove.map((r) => r.provider))) {
      const ids = changes.remove.filter((r) => r.provider === provider).map((r) => r.ticketId);
      await trx.deleteFrom('ticket_cart_items').where('cart_key', '=', cartKey).where('provider', '=', provider).where('ticket_id', 'in', ids).execute();
    }
    if (changes.set.length > 0) {
      await trx
        .insertInto('ticket_cart_items')
        .values([...changes.set].sort((a, b) => a.ticketId - b.ticketId).map((l) => cartItemRow(cartKey, l, nowGmt)))
        .onConflict((oc) => oc.columns(['cart_key', 'ticket_id']).doUpdateSet((eb) => ({
          provider: eb.ref('excluded.provider'),
          post_id: eb.ref('excluded.post_id'),
          quantity: eb.ref('excluded.quantity'),
          optout: eb.ref('excluded.optout'),
          iac: eb.ref('excluded.iac'),
          extra: eb.ref('excluded.extra'),
          updated_gmt: eb.ref('excluded.updated_gmt'),
        })))
        .execute();
    }
    const held = await trx.selectFrom('ticket_cart_items').select(['ticket_id', 'quantity']).where('cart_key', '=', cartKey).execute();
    if (held.reduce((sum, r) => sum + Number(r.quantity), 0) > maxTickets) throw new CartTooLarge();
    if (changes.meta) {
      // Lines the answers do not name lose theirs; only lines whose answers change count as touched.
      await trx.updateTable('ticket_cart_items').set({ meta: '[]' }).where('cart_key', '=', cartKey).execute();
      // Only the cart's own lines (at most `maxTickets` of them) take answers.
      for (const { ticket_id } of held) {
        const items = changes.meta.get(Number(ticket_id));
        if (!items) continue;
        await trx.updateTable('ticket_cart_items').set({ meta: JSON.stringify(items), updated_gmt: nowGmt }).where('cart_key', '=', cartKey).where('ticket_id', '=', ticket_id).execute();
      }
    }
  });
}

/**
 * Takes the given lines out of a cart, inside a checkout's transaction; false when one is no longer
 * there as it was read (a concurrent checkout took it, or a cart write changed its quantity).
 */
export async function claimCartLines(trx: Db, cartKey: string, lines: readonly Pick<CartLine, 'ticketId' | 'quantity'>[]): Promise<boolean> {
  if (lines.length === 0) return true;
  const taken = await trx.deleteFrom('ticket_cart_items').where('cart_key', '=', cartKey).where('ticket_id', 'in', lines.map((l) => l.ticketId)).returning(['ticket_id', 'quantity']).execute();
  const read = new Map(lines.map((l) => [l.ticketId, l.quantity]));
  return taken.length === read.size && taken.every((r) => read.get(Number(r.ticket_id)) === Number(r.quantity));
}

/**
 * Puts claimed lines back (their checkout's payment failed); a line of the same ticket added since
 * stays. (A line added and bought again while the failed payment was under way comes back too: the
 * buyer removes it.)
 */
export async function restoreCartLines(db: Db, cartKey: string, lines: readonly CartLine[], nowGmt: string): Promise<void> {
  if (lines.length === 0) return;
  await db
    .insertInto('ticket_cart_items')
    .values(lines.map((l) => cartItemRow(cartKey, l, nowGmt)))
    .onConflict((oc) => oc.columns(['cart_key', 'ticket_id']).doNothing())
    .execute();
}
