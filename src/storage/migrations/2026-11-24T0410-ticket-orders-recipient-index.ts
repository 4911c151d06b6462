import { sql, type Kysely } from 'kysely';

/**
 * Checkout's e-mail limit counts a recipient's orders of the last hour by `lower(customer_email)`;
 * without an index on that expression it walked every order of the hour (`ticket_orders_created`),
 * a cost that grows with the checkout rate. Both engines index the expression as written.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX ticket_orders_recipient_created ON ticket_orders (lower(customer_email), created_gmt)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ticket_orders_recipient_created').ifExists().execute();
}
