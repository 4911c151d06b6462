import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * The orders whose analytics rows are due a sync: written in the transaction that changes the order
 * (an outbox), emptied in batches by shop analytics (a job, and any report read first). Several rows
 * of one order are fine: the sync reads each order as it is now. On SQLite a plain rowid key (no
 * AUTOINCREMENT, whose counter table would be one more page written per checkout): a row is deleted
 * only by the sync that read it, so a reused ID is never mistaken for an older row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.createTable('shop_order_sync_queue')
    .addColumn('id', pg ? 'serial' : 'integer', (c) => c.primaryKey())
    .addColumn('order_id', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shop_order_sync_queue').ifExists().execute();
}
