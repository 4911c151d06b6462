import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contact_forms')
    .addColumn('post_id', 'integer', (c) => c.primaryKey())
    .addColumn('locale', 'varchar(20)', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('mail', 'text', (c) => c.notNull())
    .addColumn('mail_2', 'text', (c) => c.notNull())
    .addColumn('messages', 'text', (c) => c.notNull())
    .addColumn('additional_settings', 'text', (c) => c.notNull())
    .execute();
  await withIdColumn(db, db.schema.createTable('contact_form_submissions'))
    .addColumn('form_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(24)', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('remote_ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('spam_guid', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_form_submissions_form').on('contact_form_submissions').columns(['form_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('contact_form_submissions').ifExists().execute();
  await db.schema.dropTable('contact_forms').ifExists().execute();
}
