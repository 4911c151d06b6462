/**
 * @module namespaces/shop-analytics/sync.service
 * Keeps the analytics tables in step with the ticketing orders. Each sync is state-based (it reads
 * the order as it is now and writes what follows from it), so replays and rebuilds are harmless; a
 * stats row never moves back along the lifecycle (pending → completed → refunded/cancelled), so a
 * late writer holding an older state cannot undo a newer one.
 *
 * As WooCommerce Analytics imports orders through a scheduled action rather than in its checkout, an
 * order change does not write the analytics rows itself: the transaction that changes the order adds
 * the order to `shop_order_sync_queue` (one small insert, committed with the change or not at all),
 * and the queue is emptied in batches — by a job the change schedules a moment later (one per
 * {@link SYNC_DELAY_MS} per process, so a busy checkout shares one batch among hundreds of orders), by
 * a recurring sweep (for a process that died before scheduling), and by every report read before it
 * answers, so reports still show each committed order at once.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../app-context.js';
import type { Db } from '../../storage/db.js';
import { capabilities } from '../../storage/dialect.js';
import { executeCompiled } from '../../storage/compiled-queries.js';
import { ordersByIds, type OrderRecord } from '../tickets/index.js';
import { excludedStatuses, gmtToLocal, siteTimeZone } from './common.js';
import { yieldToEventLoop } from '../../jobs/yield.js';

type Order = Omit<OrderRecord, 'post'>;

const RANK: Readonly<Record<string, number>> = { pending: 0, completed: 1, refunded: 2, cancelled: 2 };

/** Site option: the excluded statuses the stored aggregates were computed with. */
const AGGREGATES_BASIS_OPTION = 'shop_analytics_aggregates_basis';

/** The job that empties the sync queue. */
export const SYNC_JOB = 'shop-analytics.sync-orders';
/** How long after an order change its sync job runs; changes in between join its batch. */
export const SYNC_DELAY_MS = 1000;
/** Queued orders synced per transaction. */
const SYNC_BATCH = 500;

/** The `orderChanging` contribution: queues the order for a sync, in the transaction changing it. */
export async function queueOrderSync(trx: Db, orderId: number): Promise<void> {
  await executeCompiled(trx, 'shop-analytics:queue-order-sync', () => trx.insertInto('shop_order_sync_queue').values({ order_id: orderId }), [orderId]);
}

/** Per app: until when the sync job last scheduled covers changes (ms, on the app's clock). */
const scheduledUntil = new WeakMap<AppContext, number>();

/**
 * The `orderChanged` contribution: makes sure a sync job runs within {@link SYNC_DELAY_MS}. A job
 * already scheduled by this process and not yet due covers the change (it syncs whatever is queued
 * when it runs), so a busy shop enqueues one job per delay, not one per order.
 */
export async function scheduleOrderSync(ctx: AppContext): Promise<void> {
  const now = ctx.now().getTime();
  const until = scheduledUntil.get(ctx);
  if (until !== undefined && now < until && now >= until - SYNC_DELAY_MS) return;
  scheduledUntil.set(ctx, now + SYNC_DELAY_MS);
  await ctx.jobs.enqueue(SYNC_JOB, {}, { runAt: new Date(now + SYNC_DELAY_MS) });
}

/** The sync job: a change after it starts schedules a job of its own, even when this one ran early (run by hand). */
export async function runSyncJob(ctx: AppContext): Promise<void> {
  scheduledUntil.delete(ctx);
  await syncQueuedOrders(ctx);
}

/**
 * Syncs every queued order, in batches of one transaction each (the batch's orders and customers
 * written with a few multi-row statements, the queue rows it read deleted); returns how many queue
 * rows it took. One cheap read when the queue is empty, so report reads call it first.
 */
export async function syncQueuedOrders(ctx: AppContext, options: { batchSize?: number } = {}): Promise<number> {
  const first = await ctx.db.selectFrom('shop_order_sync_queue').select('id').limit(1).executeTakeFirst();
  if (!first) return 0;
  const zone = await siteTimeZone(ctx.options);
  const excluded = await excludedStatuses(ctx);
  let synced = 0;
  for (;;) {
    const n = await ctx.db.transaction().execute((trx) => syncBatch(trx, zone, excluded, options.batchSize ?? SYNC_BATCH));
    if (n === 0) return synced;
    synced += n;
    await yieldToEventLoop();
  }
}

async function syncBatch(trx: Db, zone: string, excluded: readonly string[], size: number): Promise<number> {
  let next = trx.selectFrom('shop_order_sync_queue').select(['id', 'order_id']).orderBy('id').limit(size);
  // A second syncer (PostgreSQL) waits here for the first to commit, then finds its rows gone.
  if (capabilities(trx).supportsRowLocks) next = next.forUpdate();
  const queued = await next.execute();
  if (queued.length === 0) return 0;
  // Read after the queue rows: each order is at least as new as the change that queued it.
  const orders = await ordersByIds(trx, [...new Set(queued.map((r) => Number(r.order_id)))]);
  const customers = await writeOrders(trx, orders, zone);
  await refreshAggregates(trx, excluded, [...new Set(customers)]);
  for (const ids of chunks(queued.map((r) => r.id))) await trx.deleteFrom('shop_order_sync_queue').where('id', 'in', ids).execute();
  return queued.length;
}

/** At most this many rows per INSERT (well under either engine's limit of bound values). */
const CHUNK = 500;

function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * The customer of each order (same order as `orders`), created on first sight and given the name and
 * e-mail of its latest order: a few multi-row statements however many orders.
 */
export async function customersFor(db: Db, orders: readonly Order[]): Promise<number[]> {
  const userIds = [...new Set(orders.map((o) => o.customerUserId).filter((id) => id > 0))];
  const registered = new Map<number, string>();
  for (const ids of chunks(userIds)) {
    for (const u of await db.selectFrom('users').select(['id', 'registered_gmt']).where('id', 'in', ids).execute()) registered.set(Number(u.id), u.registered_gmt);
  }
  const guestKey = (o: Order) => o.customerEmail.trim().toLowerCase();
  // The latest order of each customer decides its name and e-mail (as order-by-order syncs would).
  const byUser = new Map<number, Order>();
  const byGuest = new Map<string, Order>();
  for (const o of [...orders].sort((a, b) => a.id - b.id)) {
    if (registered.has(o.customerUserId)) byUser.set(o.customerUserId, o);
    else byGuest.set(guestKey(o), o);
  }
  const userCustomer = new Map<number, number>();
  for (const part of chunks([...byUser.entries()])) {
    const rows = await db
      .insertInto('shop_customer_lookup')
      .values(part.map(([userId, o]) => ({ name: o.customerName, email: o.customerEmail, user_id: userId, guest_email: null, date_registered_gmt: registered.get(userId) || null })))
      .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), email: eb.ref('excluded.email') })))
      .returning(['customer_id', 'user_id'])
      .execute();
    for (const r of rows) userCustomer.set(Number(r.user_id), Number(r.customer_id));
  }
  const guestCustomer = new Map<string, number>();
  for (const part of chunks([...byGuest.entries()])) {
    const rows = await db
      .insertInto('shop_customer_lookup')
      .values(part.map(([key, o]) => ({ name: o.customerName, email: o.customerEmail, user_id: null, guest_email: key, date_registered_gmt: null })))
      .onConflict((oc) => oc.column('guest_email').doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), email: eb.ref('excluded.email') })))
      .returning(['customer_id', 'guest_email'])
      .execute();
    for (const r of rows) guestCustomer.set(r.guest_email!, Number(r.customer_id));
  }
  return orders.map((o) => (registered.has(o.customerUserId) ? userCustomer.get(o.customerUserId)! : guestCustomer.get(guestKey(o))!));
}

/** The rows one order gives the analytics tables. */
function orderRows(order: Order, customerId: number, zone: string) {
  const local = (gmt: string) => (gmt ? gmtToLocal(gmt, zone) : null);
  const created = gmtToLocal(order.createdGmt, zone);
  const completed = local(order.completedGmt);
  const rank = RANK[order.status] ?? 0;
  const discount = order.discount;
  const stats = {
    order_id: order.id,
    is_refund: 0,
    customer_id: customerId,
    status: order.status,
    status_rank: rank,
    date_created: created,
    date_created_gmt: order.createdGmt,
    date_paid: completed,
    date_completed: completed,
    num_items_sold: order.quantity,
    total_sales: order.total,
    net_total: order.total,
    discount_amount: discount > 0 ? Math.round(discount * 100) / 100 : 0,
    currency: order.currency,
  };
  const when = order.refundedGmt || order.updatedGmt;
  const refund = order.status !== 'refunded' ? undefined : {
    ...stats,
    is_refund: 1,
    date_created: gmtToLocal(when, zone),
    date_created_gmt: when,
    date_paid: null,
    date_completed: null,
    num_items_sold: -order.quantity,
    total_sales: -order.total,
    net_total: -order.total,
    discount_amount: 0,
  };
  const products = order.items.map((i) => ({ order_id: order.id, ticket_id: i.ticketId, event_id: i.postId, customer_id: customerId, quantity: i.quantity, net_revenue: i.total, date_created: created }));
  const coupon = order.couponId > 0 ? { order_id: order.id, coupon_id: order.couponId, coupon_code: order.couponCode, discount_amount: order.discount, date_created: created } : undefined;
  return { stats, refund, products, coupon };
}

/**
 * Writes the stats, refund, product and coupon rows of orders with a few multi-row statements (queue
 * syncs, rebuilds, seeding); returns the customer ID of each order. A stats row only moves forward
 * along the lifecycle.
 */
export async function writeOrders(db: Db, orders: readonly Order[], zone: string): Promise<number[]> {
  if (orders.length === 0) return [];
  const customers = await customersFor(db, orders);
  const rows = orders.map((o, i) => orderRows(o, customers[i]!, zone));
  for (const part of chunks(rows.map((r) => r.stats))) {
    await db
      .insertInto('shop_order_stats')
      .values(part)
      .onConflict((oc) =>
        oc
          .columns(['order_id', 'is_refund'])
          .doUpdateSet((eb) => ({
            status: eb.ref('excluded.status'),
            status_rank: eb.ref('excluded.status_rank'),
            date_paid: eb.ref('excluded.date_paid'),
            date_completed: eb.ref('excluded.date_completed'),
            customer_id: eb.ref('excluded.customer_id'),
          }))
          .where((eb) => eb('shop_order_stats.status_rank', '<=', eb.ref('excluded.status_rank'))),
      )
      .execute();
  }
  for (const part of chunks(rows.flatMap((r) => (r.refund ? [r.refund] : [])))) {
    await db.insertInto('shop_order_stats').values(part).onConflict((oc) => oc.columns(['order_id', 'is_refund']).doNothing()).execute();
  }
  for (const part of chunks(rows.flatMap((r) => r.products))) {
    await db.insertInto('shop_order_product_lookup').values(part).onConflict((oc) => oc.columns(['order_id', 'ticket_id']).doNothing()).execute();
  }
  for (const part of chunks(rows.flatMap((r) => (r.coupon ? [r.coupon] : [])))) {
    await db.insertInto('shop_order_coupon_lookup').values(part).onConflict((oc) => oc.columns(['order_id', 'coupon_id']).doNothing()).execute();
  }
  return customers;
}

/**
 * Recomputes the stored aggregates (orders count, total spend, last order, last active) of the given
 * customers, or of every customer, from the stats rows: one UPDATE.
 */
export async function refreshAggregates(db: Db, excluded: readonly string[], customerIds: readonly number[] | 'all'): Promise<void> {
  if (customerIds !== 'all' && customerIds.length === 0) return;
  const counted = (eb: any) => {
    let q = eb.selectFrom('shop_order_stats as s').whereRef('s.customer_id', '=', 'shop_customer_lookup.customer_id');
    if (excluded.length > 0) q = q.where('s.status', 'not in', excluded);
    return q;
  };
  let q = db.updateTable('shop_customer_lookup').set((eb) => ({
    orders_count: counted(eb).where('s.is_refund', '=', 0).select(eb.fn.countAll().as('n')),
    total_spend: counted(eb).select(sql<number>`coalesce(sum(s.total_sales), 0)`.as('t')),
    date_last_order: counted(eb).select(sql<string | null>`max(s.date_created)`.as('d')),
    date_last_active_gmt: eb
      .selectFrom('shop_order_stats as s')
      .whereRef('s.customer_id', '=', 'shop_customer_lookup.customer_id')
      .select(sql<string | null>`max(s.date_created_gmt)`.as('a')),
  }));
  if (customerIds !== 'all') q = q.where('customer_id', 'in', customerIds);
  await q.execute();
}

/**
 * Makes sure the stored aggregates were computed with the current excluded statuses (the setting may
 * have changed since); recomputes them all when not.
 */
export async function ensureAggregatesBasis(ctx: AppContext): Promise<void> {
  const excluded = await excludedStatuses(ctx);
  const basis = JSON.stringify(excluded);
  if ((await ctx.options.get<string>(AGGREGATES_BASIS_OPTION, '')) === basis) return;
  await refreshAggregates(ctx.db, excluded, 'all');
  await ctx.options.set(AGGREGATES_BASIS_OPTION, basis);
}
