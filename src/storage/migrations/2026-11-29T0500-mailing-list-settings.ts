import type { Kysely } from 'kysely';

/**
 * Sign-up forms gain the original's remaining subscribe settings: `replace_interests` (on by
 * default, as `default-form-settings.php`), and the tags to add and to remove (comma lists). The
 * list service's merge fields, interest groups and marketing permissions are kept a day per list in
 * `mailinglist_list_cache` (the original's `mc4wp_list_{id}_mf|ic|mp` transients).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mailinglist_forms').addColumn('replace_interests', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('mailinglist_forms').addColumn('subscriber_tags', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('mailinglist_forms').addColumn('remove_subscriber_tags', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema
    .createTable('mailinglist_list_cache')
    .addColumn('list_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expires_gmt', 'varchar(19)', (c) => c.notNull())
    .addPrimaryKeyConstraint('mailinglist_list_cache_pk', ['list_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mailinglist_list_cache').ifExists().execute();
  for (const column of ['remove_subscriber_tags', 'subscriber_tags', 'replace_interests']) await db.schema.alterTable('mailinglist_forms').dropColumn(column).execute();
}
