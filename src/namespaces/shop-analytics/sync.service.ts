/**
 * @module namespaces/shop-analytics/sync.service
 * Keeps the analytics tables in step with the ticketing orders. Each sync is state-based (it reads
 * the order as it is now and writes what follows from it), so replays and rebuilds are harmless; a
 * stats row never moves back along the lifecycle (pending → completed → refunded/cancelled), so a
 * late writer holding an older state cannot undo a newer one.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../app-context.js';
import type { Db } from '../../storage/db.js';
import { getOrder, type OrderRecord } from '../tickets/index.js';
import { excludedStatuses, gmtToLocal, siteTimeZone } from './common.js';

type Order = Omit<OrderRecord, 'post'>;

const RANK: Readonly<Record<string, number>> = { pending: 0, completed: 1, refunded: 2, cancelled: 2 };

/** Site option: the excluded statuses the stored aggregates were computed with. */
const AGGREGATES_BASIS_OPTION = 'shop_analytics_aggregates_basis';

/**
 * The `orderChanged` contribution: brings one order's analytics rows and its customer up to date, in
 * one transaction. `known` is the order as the change committed it, when the caller has it.
 */
export async function syncOrderById(ctx: AppContext, orderId: number, known?: Order): Promise<void> {
  const order = known ?? (await getOrder(ctx.db, orderId));
  if (!order) return;
  const zone = await siteTimeZone(ctx.options);
  const excluded = await excludedStatuses(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    const customerId = await writeOrder(trx, order, zone);
    await refreshAggregates(trx, excluded, [customerId]);
  });
}

/** The customer an order belongs to: its user when it has one, else its guest e-mail. Created on first sight. */
export async function customerFor(db: Db, order: Order): Promise<number> {
  const userId = order.customerUserId;
  const user = userId > 0 ? await db.selectFrom('users').select(['id', 'registered_gmt']).where('id', '=', userId).executeTakeFirst() : undefined;
  const base = { name: order.customerName, email: order.customerEmail };
  if (user) {
    await db
      .insertInto('shop_customer_lookup')
      .values({ ...base, user_id: userId, guest_email: null, date_registered_gmt: user.registered_gmt || null })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    const row = await db.selectFrom('shop_customer_lookup').select('customer_id').where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.customer_id);
  }
  const key = order.customerEmail.trim().toLowerCase();
  await db
    .insertInto('shop_customer_lookup')
    .values({ ...base, user_id: null, guest_email: key, date_registered_gmt: null })
    .onConflict((oc) => oc.column('guest_email').doNothing())
    .execute();
  const row = await db.selectFrom('shop_customer_lookup').select('customer_id').where('guest_email', '=', key).executeTakeFirstOrThrow();
  return Number(row.customer_id);
}

/** Writes the stats, refund and product rows of one order; returns its customer's ID. */
export async function writeOrder(db: Db, order: Order, zone: string): Promise<number> {
  const customerId = await customerFor(db, order);
  const local = (gmt: string) => (gmt ? gmtToLocal(gmt, zone) : null);
  const created = gmtToLocal(order.createdGmt, zone);
  const rank = RANK[order.status] ?? 0;
  const discount = order.discount;
  const row = {
    order_id: order.id,
    is_refund: 0,
    customer_id: customerId,
    status: order.status,
    status_rank: rank,
    date_created: created,
    date_created_gmt: order.createdGmt,
    date_paid: local(order.completedGmt),
    date_completed: local(order.completedGmt),
    num_items_sold: order.quantity,
    total_sales: order.total,
    net_total: order.total,
    discount_amount: discount > 0 ? Math.round(discount * 100) / 100 : 0,
    currency: order.currency,
  };
  await db
    .insertInto('shop_order_stats')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['order_id', 'is_refund'])
        .doUpdateSet({ status: row.status, status_rank: rank, date_paid: row.date_paid, date_completed: row.date_completed, customer_id: customerId })
        .where('shop_order_stats.status_rank', '<=', rank),
    )
    .execute();
  if (order.status === 'refunded') {
    const when = order.refundedGmt || order.updatedGmt;
    await db
      .insertInto('shop_order_stats')
      .values({
        ...row,
        is_refund: 1,
        date_created: gmtToLocal(when, zone),
        date_created_gmt: when,
        date_paid: null,
        date_completed: null,
        num_items_sold: -order.quantity,
        total_sales: -order.total,
        net_total: -order.total,
        discount_amount: 0,
      })
      .onConflict((oc) => oc.columns(['order_id', 'is_refund']).doNothing())
      .execute();
  }
  if (order.items.length > 0) {
    await db
      .insertInto('shop_order_product_lookup')
      .values(order.items.map((i) => ({ order_id: order.id, ticket_id: i.ticketId, event_id: i.postId, customer_id: customerId, quantity: i.quantity, net_revenue: i.total, date_created: created })))
      .onConflict((oc) => oc.columns(['order_id', 'ticket_id']).doNothing())
      .execute();
  }
  if (order.couponId > 0) {
    await db
      .insertInto('shop_order_coupon_lookup')
      .values({ order_id: order.id, coupon_id: order.couponId, coupon_code: order.couponCode, discount_amount: order.discount, date_created: created })
      .onConflict((oc) => oc.columns(['order_id', 'coupon_id']).doNothing())
      .execute();
  }
  await db.updateTable('shop_customer_lookup').set({ name: order.customerName, email: order.customerEmail }).where('customer_id', '=', customerId).execute();
  return customerId;
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
