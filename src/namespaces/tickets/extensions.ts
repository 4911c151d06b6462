/**
 * @module namespaces/tickets/extensions
 * The extension point other areas (shop analytics) use to follow the order lifecycle without the
 * tickets area knowing them. Contributions run after the change is committed, one after another; a
 * failing one is logged and never undoes or blocks the order.
 *
 * @example
 * export const shopAnalyticsArea = defineArea({
 *   id: 'shop-analytics',
 *   requires: ['tickets'],
 *   contributes: { orderChanged: (ctx, change) => syncOrder(ctx, change.orderId) },
 * });
 */
import type { AppContext } from '../../app-context.js';
import type { OrderRecord, OrderStatus } from './orders.repo.js';

/** One committed order change: placed (`from` null) or moved from one status to another. */
export interface OrderChangeEvent {
  orderId: number;
  from: OrderStatus | null;
  to: OrderStatus;
  /** The order as the change committed it, when the tickets area has it at hand (saves reading it back). */
  order?: OrderRecord;
}

/** Called after an order is placed or changes status. Read the order with `getOrder` for details (unless `order` is given). */
export type OrderChangedHook = (ctx: AppContext, change: OrderChangeEvent) => Promise<void>;

declare module '../../area.js' {
  interface ExtensionPoints {
    /** Follows orders as they are placed, completed, refunded and cancelled. */
    orderChanged: OrderChangedHook;
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
