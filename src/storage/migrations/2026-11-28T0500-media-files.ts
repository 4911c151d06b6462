import type { Kysely } from 'kysely';
import { bytewiseText } from '../dialect.js';

/**
 * `media_files`: the file of each image attachment in the media library (`content/media.ts`): its
 * path under the uploads folder, type, size in pixels and bytes, and the URL it was side-loaded from,
 * so one source is loaded once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media_files')
    .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('path', bytewiseText(db, 255), (c) => c.notNull().unique())
    .addColumn('mime', 'varchar(100)', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('filesize', 'integer', (c) => c.notNull())
    .addColumn('source_url', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('media_files_source').on('media_files').column('source_url').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('media_files').ifExists().execute();
}
