import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

/**
 * Ticketing: ticket, attendee and order details keyed by their post IDs, shared event capacity, order
 * items and cart lines, with an index for every list filter and the order reports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('ticket_details')
    .addColumn('ticket_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull().defaultTo('default'))
    .addColumn('price', 'varchar(32)', (c) => c.notNull().defaultTo('0'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('show_description', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('start_local', 'varchar(19)', (c) => c.notNull().defaultTo(''))
    .addColumn('start_gmt', 'varchar(19)', (c) => c.notNull().defaultTo(''))
    .addColumn('end_local', 'varchar(19)', (c) => c.notNull().defaultTo(''))
    .addColumn('end_gmt', 'varchar(19)', (c) => c.notNull().defaultTo(''))
    .addColumn('sku', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('iac', 'varchar(20)', (c) => c.notNull().defaultTo('none'))
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('capacity_mode', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('sold', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('ticket_details_post').on('ticket_details').columns(['post_id', 'ticket_id']).execute();
  await db.schema.createIndex('ticket_details_provider').on('ticket_details').columns(['provider', 'ticket_id']).execute();
  await db.schema.createIndex('ticket_details_currency').on('ticket_details').columns(['currency']).execute();
  await db.schema.createIndex('ticket_details_window').on('ticket_details').columns(['start_gmt', 'end_gmt']).execute();

  await db.schema.createTable('ticket_shared_capacity')
    .addColumn('post_id', 'integer', (c) => c.primaryKey())
    .addColumn('capacity', 'integer', (c) => c.notNull())
    .addColumn('sold', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.createTable('ticket_orders')
    .addColumn('order_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('order_key', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('gateway', 'varchar(32)', (c) => c.notNull())
    .addColumn('gateway_ref', 'varchar(191)', (c) => c.notNull().defaultTo(''))
    .addColumn('payment_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('subtotal', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('total', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('customer_name', 'varchar(250)', (c) => c.notNull().defaultTo(''))
    .addColumn('customer_email', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('customer_user_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cart_key', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('updated_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('completed_gmt', 'varchar(19)', (c) => c.notNull().defaultTo(''))
    .addColumn('refunded_gmt', 'varchar(19)', (c) => c.notNull().defaultTo(''))
    .addColumn('cancelled_gmt', 'varchar(19)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('ticket_orders_status_created').on('ticket_orders').columns(['status', 'created_gmt']).execute();
  await db.schema.createIndex('ticket_orders_created').on('ticket_orders').columns(['created_gmt']).execute();
  await db.schema.createIndex('ticket_orders_completed').on('ticket_orders').columns(['completed_gmt']).execute();
  await db.schema.createIndex('ticket_orders_customer_email').on('ticket_orders').columns(['customer_email']).execute();
  await db.schema.createIndex('ticket_orders_customer_user').on('ticket_orders').columns(['customer_user_id']).execute();
  await db.schema.createIndex('ticket_orders_gateway_ref').on('ticket_orders').columns(['gateway', 'gateway_ref']).execute();

  await withIdColumn(db, db.schema.createTable('ticket_order_items'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('ticket_orders.order_id').onDelete('cascade'))
    .addColumn('ticket_id', 'integer', (c) => c.notNull())
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('ticket_title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price', 'numeric(14, 2)', (c) => c.notNull())
    .addColumn('total', 'numeric(14, 2)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ticket_order_items_order').on('ticket_order_items').columns(['order_id']).execute();
  await db.schema.createIndex('ticket_order_items_ticket').on('ticket_order_items').columns(['ticket_id', 'order_id']).execute();
  await db.schema.createIndex('ticket_order_items_post').on('ticket_order_items').columns(['post_id', 'order_id']).execute();

  await db.schema.createTable('ticket_attendees')
    .addColumn('attendee_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('ticket_id', 'integer', (c) => c.notNull())
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.references('ticket_orders.order_id').onDelete('set null'))
    .addColumn('order_status', 'varchar(20)', (c) => c.notNull())
    .addColumn('holder_name', 'varchar(250)', (c) => c.notNull().defaultTo(''))
    .addColumn('holder_email', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('purchaser_name', 'varchar(250)', (c) => c.notNull().defaultTo(''))
    .addColumn('purchaser_email', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('optout', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('security_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('price', 'numeric(14, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('checked_in', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('checkin_local', 'varchar(19)', (c) => c.notNull().defaultTo(''))
    .addColumn('checkin_gmt', 'varchar(19)', (c) => c.notNull().defaultTo(''))
    .addColumn('checkin_source', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('checkin_author', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('qr_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('information', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('source', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('ticket_attendees_ticket').on('ticket_attendees').columns(['ticket_id', 'attendee_id']).execute();
  await db.schema.createIndex('ticket_attendees_post').on('ticket_attendees').columns(['post_id', 'attendee_id']).execute();
  await db.schema.createIndex('ticket_attendees_order').on('ticket_attendees').columns(['order_id']).execute();
  await db.schema.createIndex('ticket_attendees_email').on('ticket_attendees').columns(['holder_email']).execute();
  await db.schema.createIndex('ticket_attendees_checked_in').on('ticket_attendees').columns(['ticket_id', 'checked_in']).execute();

  await db.schema.createTable('ticket_cart_items')
    .addColumn('cart_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('ticket_id', 'integer', (c) => c.notNull())
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('optout', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('iac', 'varchar(20)', (c) => c.notNull().defaultTo('none'))
    .addColumn('extra', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('meta', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('updated_gmt', 'varchar(19)', (c) => c.notNull())
    .addPrimaryKeyConstraint('ticket_cart_items_pk', ['cart_key', 'ticket_id'])
    .execute();
  await db.schema.createIndex('ticket_cart_items_updated').on('ticket_cart_items').columns(['updated_gmt']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['ticket_cart_items', 'ticket_attendees', 'ticket_order_items', 'ticket_orders', 'ticket_shared_capacity', 'ticket_details']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
