import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mailinglist_forms')
    .addColumn('post_id', 'integer', (c) => c.primaryKey())
    .addColumn('lists', 'text', (c) => c.notNull())
    .addColumn('double_optin', 'integer', (c) => c.notNull())
    .addColumn('update_existing', 'integer', (c) => c.notNull())
    .addColumn('required_fields', 'text', (c) => c.notNull())
    .addColumn('messages', 'text', (c) => c.notNull())
    .addColumn('redirect', 'text', (c) => c.notNull())
    .execute();
  await withIdColumn(db, db.schema.createTable('mailinglist_subscribers'))
    .addColumn('list_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('updated_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mailinglist_subscribers_list_email').unique().on('mailinglist_subscribers').columns(['list_id', 'email']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mailinglist_subscribers').ifExists().execute();
  await db.schema.dropTable('mailinglist_forms').ifExists().execute();
}
