import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Coupons of the ticket shop (code, percent or fixed amount, usage limit, expiry), the coupon and
 * discount stored on each order, and the coupon code kept in the analytics coupon lookup.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.createTable('ticket_coupons')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('code', 'varchar(50)', (c) => c.notNull().unique())
    .addColumn('discount_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('amount', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('usage_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_gmt', 'varchar(19)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('ticket_orders').addColumn('coupon_id', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('ticket_orders').addColumn('coupon_code', 'varchar(50)', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('ticket_orders').addColumn('discount', 'numeric(14, 2)', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('shop_order_coupon_lookup').addColumn('coupon_code', 'varchar(50)', (c) => c.notNull().defaultTo('')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('shop_order_coupon_lookup').dropColumn('coupon_code').execute();
  for (const col of ['discount', 'coupon_code', 'coupon_id']) await db.schema.alterTable('ticket_orders').dropColumn(col).execute();
  await db.schema.dropTable('ticket_coupons').ifExists().execute();
}
