import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('spamfilter_checks'))
    .addColumn('guid', 'varchar(64)', (c) => c.notNull())
    .addColumn('source', 'varchar(40)', (c) => c.notNull())
    .addColumn('verdict', 'varchar(8)', (c) => c.notNull())
    .addColumn('via', 'varchar(8)', (c) => c.notNull())
    .addColumn('actual', 'varchar(8)')
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('spamfilter_checks_guid').on('spamfilter_checks').column('guid').execute();
  await db.schema.createIndex('spamfilter_checks_created').on('spamfilter_checks').column('created_gmt').execute();
  await db.schema
    .createTable('spamfilter_tokens')
    .addColumn('token', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('spam', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ham', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('spamfilter_tokens').ifExists().execute();
  await db.schema.dropTable('spamfilter_checks').ifExists().execute();
}
