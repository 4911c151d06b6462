import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oembed_cache')
    .addColumn('cache_key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('expires_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oembed_cache_expires').on('oembed_cache').column('expires_gmt').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oembed_cache').ifExists().execute();
}
