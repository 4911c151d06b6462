import type { Kysely } from 'kysely';

/**
 * Import records, the origin-id map (seeded from the iCalendar importer's `event_import_uids` so
 * events imported before stay matched) and the claims of items being created.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_records')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('origin', 'varchar(20)', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('frequency', 'varchar(20)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('parent_id', 'varchar(64)')
    .addColumn('next_batch_hash', 'varchar(64)')
    .addColumn('percentage_complete', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_events', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('activity', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('message_slug', 'varchar(100)', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_run_gmt', 'varchar(19)')
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('updated_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_records_status').on('import_records').columns(['status', 'next_run_gmt']).execute();
  await db.schema
    .createTable('import_origin_ids')
    .addColumn('origin_id', 'varchar(500)', (c) => c.primaryKey())
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('record_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('imported_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_origin_ids_post').on('import_origin_ids').column('post_id').execute();
  await db.schema
    .createTable('import_claims')
    .addColumn('origin_id', 'varchar(500)', (c) => c.primaryKey())
    .addColumn('record_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('claimed_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  const legacy = await db.selectFrom('event_import_uids').select(['uid', 'post_id', 'fields', 'imported_gmt']).execute();
  for (const row of legacy) {
    await db.insertInto('import_origin_ids').values({ origin_id: row.uid, post_id: row.post_id, fields: row.fields, record_id: '', imported_gmt: row.imported_gmt }).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_claims').ifExists().execute();
  await db.schema.dropTable('import_origin_ids').ifExists().execute();
  await db.schema.dropTable('import_records').ifExists().execute();
}
