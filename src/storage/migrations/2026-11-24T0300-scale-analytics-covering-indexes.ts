import type { Kysely } from 'kysely';

/**
 * Covering indexes for the customer report at scale (100,000 orders, 20,000 customers): the
 * last-active window with the aggregates it is usually combined with (count and filter read the
 * index only), and the order-date window's grouped subquery over the stats rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('shop_customer_lookup_active_aggregates')
    .on('shop_customer_lookup')
    .columns(['date_last_active_gmt', 'orders_count', 'total_spend', 'customer_id'])
    .execute();
  await db.schema
    .createIndex('shop_order_stats_date_customer')
    .on('shop_order_stats')
    .columns(['date_created', 'status', 'customer_id', 'is_refund', 'total_sales'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('shop_order_stats_date_customer').ifExists().execute();
  await db.schema.dropIndex('shop_customer_lookup_active_aggregates').ifExists().execute();
}
