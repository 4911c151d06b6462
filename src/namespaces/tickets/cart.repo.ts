/**
 * @module namespaces/tickets/cart.repo
 * Cart lines of a visitor's cart (keyed by the cart cookie). Writes replace one provider's lines in a
 * single transaction; lines untouched for {@link CART_TTL_HOURS} hours are purged on write.
 */
import type { Db } from '../../storage/db.js';
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

/**
 * Replaces the lines of `provider` in a cart with `lines` (an empty list empties that provider's
 * part). Expired lines of every cart are purged in the same transaction.
 */
export async function replaceCartLines(db: Db, cartKey: string, provider: ProviderSlug, lines: readonly CartLine[], nowGmt: string, cutoffGmt: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('ticket_cart_items').where('updated_gmt', '<', cutoffGmt).execute();
    await trx.deleteFrom('ticket_cart_items').where('cart_key', '=', cartKey).where('provider', '=', provider).execute();
    if (lines.length === 0) return;
    await trx
      .insertInto('ticket_cart_items')
      .values(lines.map((l) => ({
        cart_key: cartKey,
        ticket_id: l.ticketId,
        provider: l.provider,
        post_id: l.postId,
        quantity: l.quantity,
        optout: l.optout ? 1 : 0,
        iac: l.iac,
        extra: JSON.stringify(l.extra),
        meta: JSON.stringify(l.meta),
        updated_gmt: nowGmt,
      })))
      .onConflict((oc) => oc.columns(['cart_key', 'ticket_id']).doUpdateSet((eb) => ({
        provider: eb.ref('excluded.provider'),
        post_id: eb.ref('excluded.post_id'),
        quantity: eb.ref('excluded.quantity'),
        optout: eb.ref('excluded.optout'),
        iac: eb.ref('excluded.iac'),
        extra: eb.ref('excluded.extra'),
        meta: eb.ref('excluded.meta'),
        updated_gmt: eb.ref('excluded.updated_gmt'),
      })))
      .execute();
  });
}

/** Sets registration answers of existing lines (meta sent without tickets). */
export async function setCartMeta(db: Db, cartKey: string, ticketId: number, meta: readonly Record<string, unknown>[], nowGmt: string): Promise<void> {
  await db
    .updateTable('ticket_cart_items')
    .set({ meta: JSON.stringify(meta), updated_gmt: nowGmt })
    .where('cart_key', '=', cartKey)
    .where('ticket_id', '=', ticketId)
    .execute();
}

/** Removes the given tickets from a cart (after they were checked out). */
export async function removeCartTickets(db: Db, cartKey: string, ticketIds: readonly number[]): Promise<void> {
  if (ticketIds.length === 0) return;
  await db.deleteFrom('ticket_cart_items').where('cart_key', '=', cartKey).where('ticket_id', 'in', [...ticketIds]).execute();
}
