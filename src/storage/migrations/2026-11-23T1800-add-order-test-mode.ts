import type { Kysely } from 'kysely';

/** Orders paid while the payment gateway is in test mode are marked, so a shop can delete them before launch. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ticket_orders').addColumn('test_mode', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('ticket_orders_test_mode').on('ticket_orders').column('test_mode').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ticket_orders_test_mode').execute();
  await db.schema.alterTable('ticket_orders').dropColumn('test_mode').execute();
}
