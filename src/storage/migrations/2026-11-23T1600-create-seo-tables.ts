import type { Kysely } from 'kysely';
import { withIdColumn } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('seo_user_meta')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(191)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('seo_user_meta_pk', ['user_id', 'name'])
    .execute();
  await db.schema
    .createTable('seo_post_meta')
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('meta_key', 'varchar(191)', (c) => c.notNull())
    .addColumn('meta_value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('seo_post_meta_pk', ['post_id', 'meta_key'])
    .execute();
  await db.schema.createIndex('seo_post_meta_key').on('seo_post_meta').columns(['meta_key', 'post_id']).execute();
  await db.schema
    .createTable('seo_scores')
    .addColumn('post_id', 'integer', (c) => c.primaryKey())
    .addColumn('seo_score', 'integer')
    .addColumn('readability_score', 'integer', (c) => c.notNull())
    .addColumn('reading_time', 'integer', (c) => c.notNull())
    .addColumn('analysed_modified', 'varchar(19)', (c) => c.notNull())
    .addColumn('analysed_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await withIdColumn(db, db.schema.createTable('seo_indexables'))
    .addColumn('object_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('object_sub_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('object_id', 'integer', (c) => c.notNull())
    .addColumn('permalink', 'text', (c) => c.notNull())
    .addColumn('breadcrumb_title', 'text', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull())
    .addColumn('links_indexed', 'integer', (c) => c.notNull())
    .addColumn('updated_gmt', 'varchar(19)', (c) => c.notNull())
    .addUniqueConstraint('seo_indexables_object', ['object_type', 'object_sub_type', 'object_id'])
    .execute();
  await withIdColumn(db, db.schema.createTable('seo_links'))
    .addColumn('source_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('source_id', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('link_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('target_post_id', 'integer')
    .execute();
  await db.schema.createIndex('seo_links_source').on('seo_links').columns(['source_type', 'source_id']).execute();
  await db.schema
    .createTable('seo_cache')
    .addColumn('cache_key', 'varchar(191)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expires_gmt', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('connector_nonces')
    .addColumn('nonce', 'varchar(64)', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('connector_nonces_pk', ['timestamp', 'nonce'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['connector_nonces', 'seo_cache', 'seo_links', 'seo_indexables', 'seo_scores', 'seo_post_meta', 'seo_user_meta']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
