/**
 * @module namespaces/tickets/jobs
 * The ticketing area's background jobs: the tickets e-mail of a settled order, and the sweep that
 * cancels orders left pending (their seats go back on sale).
 */
import type { AppContext } from '../../app-context.js';
import type { JobHandler, ScheduleDef } from '../../area.js';
import { expireStaleReservations } from './orders.service.js';
import { ORDER_EMAIL_JOB, sendOrderTicketsJob } from './ticket-email.js';

export const STALE_ORDERS_JOB = 'tickets.cancel-stale-orders';

/** Frees what abandoned checkouts hold: orders pending past the reservation setting are cancelled. */
export async function releaseStaleHolds(ctx: AppContext): Promise<void> {
  await expireStaleReservations(ctx);
}

export const ticketJobs: Record<string, JobHandler> = {
  [ORDER_EMAIL_JOB]: sendOrderTicketsJob,
  [STALE_ORDERS_JOB]: releaseStaleHolds,
};

export const ticketSchedules: ScheduleDef[] = [{ name: STALE_ORDERS_JOB, kind: STALE_ORDERS_JOB, every: '5m' }];
