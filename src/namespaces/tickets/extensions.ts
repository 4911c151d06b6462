/**
 * @module namespaces/tickets/extensions
 * The extension points other areas (shop analytics) use to follow the order lifecycle without the
 * tickets area knowing them. `orderChanged` contributions run after the change is committed, one
 * after another; a failing one is logged and never undoes or blocks the order. `orderChanging`
 * contributions run inside the transaction that writes the change, so what they write commits with
 * it or not at all (an outbox row for work done later); a failing one rolls the change back, so they
 * must be a small write of the contributor's own rows.
 *
 * @example
 * export const shopAnalyticsArea = defineArea({
 *   id: 'shop-analytics',
 *   requires: ['tickets'],
 *   contributes: { orderChanging: (trx, change) => queueOrderSync(trx, change.orderId), orderChanged: scheduleSync },
 * });
 */
import type { AppContext } from '../../app-context.js';
import type { Db } from '../../storage/db.js';
import type { OrderRecord, OrderStatus } from './orders.repo.js';

/** One order change: placed (`from` null) or moved from one status to another (committed by the time `orderChanged` sees it). */
export interface OrderChangeEvent {
  orderId: number;
  from: OrderStatus | null;
  to: OrderStatus;
  /** The order as the change committed it, when the tickets area has it at hand (saves reading it back). */
  order?: OrderRecord;
}

/** Called after an order is placed or changes status. Read the order with `getOrder` for details (unless `order` is given). */
export type OrderChangedHook = (ctx: AppContext, change: OrderChangeEvent) => Promise<void>;

/** Called inside the transaction that places or changes an order, with that transaction. */
export type OrderChangingHook = (trx: Db, change: OrderChangeEvent) => Promise<void>;

declare module '../../area.js' {
  interface ExtensionPoints {
    /** Follows orders as they are placed, completed, refunded and cancelled. */
    orderChanged: OrderChangedHook;
    /** Writes that must commit with an order change (see the module comment). */
    orderChanging: OrderChangingHook;
  }
}

/** Runs the enabled areas' `orderChanged` contributions; errors are logged, never thrown. */
export async function notifyOrderChanged(ctx: AppContext, change: OrderChangeEvent): Promise<void> {
  for (const hook of ctx.areas.contributions('orderChanged')) {
    try {
      await hook(ctx, change);
    } catch (err) {
      ctx.log.error({ err, order: change.orderId }, 'an orderChanged contribution failed');
    }
  }
}

/** Runs the enabled areas' `orderChanging` contributions in `trx`; an error propagates (the change rolls back). */
export async function recordOrderChange(ctx: AppContext, trx: Db, change: OrderChangeEvent): Promise<void> {
  for (const hook of ctx.areas.contributions('orderChanging')) await hook(trx, change);
}
