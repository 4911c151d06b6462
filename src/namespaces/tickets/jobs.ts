/**
 * @module namespaces/tickets/jobs
 * The ticketing area's background jobs: the tickets e-mail of a settled order, and the sweep that
 * cancels orders left pending (their seats go back on sale).
 */
import type { AppContext } from '../../app-context.js';
import type { JobHandler, ScheduleDef } from '../../area.js';
import { cancelStalePendingOrders } from './orders.service.js';
import { ORDER_EMAIL_JOB, sendOrderTicketsJob } from './ticket-email.js';

export const STALE_ORDERS_JOB = 'tickets.cancel-stale-orders';

/** Minutes an order may stay pending before it is cancelled (WooCommerce's "hold stock" default). */
export const PENDING_ORDER_MINUTES = 60;

/**
 * Frees what abandoned checkouts hold. The one place the sweep is chosen: when reservation expiry
 * (`expireStaleReservations(ctx)`, branch `security`) lands, call it here as well.
 */
export async function releaseStaleHolds(ctx: AppContext): Promise<void> {
  await cancelStalePendingOrders(ctx, PENDING_ORDER_MINUTES);
}

export const ticketJobs: Record<string, JobHandler> = {
  [ORDER_EMAIL_JOB]: sendOrderTicketsJob,
  [STALE_ORDERS_JOB]: releaseStaleHolds,
};

export const ticketSchedules: ScheduleDef[] = [{ name: STALE_ORDERS_JOB, kind: STALE_ORDERS_JOB, every: '5m' }];
