import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** Customer report sorts in their default direction (`DESC NULLS LAST`, ties by ID), for PostgreSQL. */
const PG_SORTS = ['date_registered_gmt', 'date_last_active_gmt', 'orders_count', 'total_spend'] as const;

/**
 * Covering indexes for the customer report at scale (100,000 orders, 20,000 customers): the
 * last-active window with the aggregates it is usually combined with (count and filter read the
 * index only), and the order-date window's grouped subquery over the stats rows. On PostgreSQL also
 * the report's descending sorts as written (`DESC NULLS LAST`, which a backward scan of an ascending
 * index cannot give; SQLite sorts NULLs first already and uses the existing indexes).
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
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const col of PG_SORTS) {
      await sql`CREATE INDEX ${sql.id(`shop_customer_lookup_${col}_desc`)} ON shop_customer_lookup (${sql.id(col)} DESC NULLS LAST, customer_id DESC)`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const col of PG_SORTS) await db.schema.dropIndex(`shop_customer_lookup_${col}_desc`).ifExists().execute();
  await db.schema.dropIndex('shop_order_stats_date_customer').ifExists().execute();
  await db.schema.dropIndex('shop_customer_lookup_active_aggregates').ifExists().execute();
}
