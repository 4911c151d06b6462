import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Shop analytics: the customer lookup with its aggregates, order stats, product and coupon lookups,
 * indexed for every customer filter and sort and for date-window reports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.createTable('shop_customer_lookup')
    .addColumn('customer_id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('user_id', 'integer', (c) => c.unique())
    .addColumn('guest_email', 'varchar(200)', (c) => c.unique())
    .addColumn('name', 'varchar(250)', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'varchar(2)', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('postcode', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_registered_gmt', 'varchar(19)')
    .addColumn('date_last_active_gmt', 'varchar(19)')
    .addColumn('orders_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_spend', 'numeric(14, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('date_last_order', 'varchar(19)')
    .execute();
  for (const col of ['date_registered_gmt', 'date_last_active_gmt', 'orders_count', 'total_spend', 'date_last_order', 'country']) {
    await db.schema.createIndex(`shop_customer_lookup_${col}`).on('shop_customer_lookup').columns([col, 'customer_id']).execute();
  }

  await db.schema.createTable('shop_order_stats')
    .addColumn('order_id', 'integer', (c) => c.notNull())
    .addColumn('is_refund', 'integer', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('status_rank', 'integer', (c) => c.notNull())
    .addColumn('date_created', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_created_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_paid', 'varchar(19)')
    .addColumn('date_completed', 'varchar(19)')
    .addColumn('num_items_sold', 'integer', (c) => c.notNull())
    .addColumn('total_sales', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('net_total', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('discount_amount', 'numeric(14, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addPrimaryKeyConstraint('shop_order_stats_pk', ['order_id', 'is_refund'])
    .execute();
  await db.schema.createIndex('shop_order_stats_customer').on('shop_order_stats').columns(['customer_id', 'status', 'date_created']).execute();
  await db.schema.createIndex('shop_order_stats_date').on('shop_order_stats').columns(['date_created', 'status']).execute();

  await db.schema.createTable('shop_order_product_lookup')
    .addColumn('order_id', 'integer', (c) => c.notNull())
    .addColumn('ticket_id', 'integer', (c) => c.notNull())
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('net_revenue', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('date_created', 'varchar(19)', (c) => c.notNull())
    .addPrimaryKeyConstraint('shop_order_product_lookup_pk', ['order_id', 'ticket_id'])
    .execute();
  await db.schema.createIndex('shop_order_product_lookup_date').on('shop_order_product_lookup').columns(['date_created', 'ticket_id']).execute();

  await db.schema.createTable('shop_order_coupon_lookup')
    .addColumn('order_id', 'integer', (c) => c.notNull())
    .addColumn('coupon_id', 'integer', (c) => c.notNull())
    .addColumn('discount_amount', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('date_created', 'varchar(19)', (c) => c.notNull())
    .addPrimaryKeyConstraint('shop_order_coupon_lookup_pk', ['order_id', 'coupon_id'])
    .execute();
  await db.schema.createIndex('shop_order_coupon_lookup_date').on('shop_order_coupon_lookup').columns(['date_created', 'coupon_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['shop_order_coupon_lookup', 'shop_order_product_lookup', 'shop_order_stats', 'shop_customer_lookup']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
