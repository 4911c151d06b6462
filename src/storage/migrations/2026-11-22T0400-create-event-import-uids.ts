import type { Kysely } from 'kysely';

/**
 * Which event each imported iCalendar item became (`UID`, or `UID#RECURRENCE-ID` for an occurrence),
 * with the fields as last imported, so re-running an import updates or leaves events instead of
 * duplicating them. Rows go with their event.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_import_uids')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('imported_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_import_uids_post').on('event_import_uids').column('post_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_import_uids').ifExists().execute();
}
