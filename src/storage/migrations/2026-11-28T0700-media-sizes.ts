import crypto from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * The media library's image sizes and one attachment per source:
 * - `sizes`: the smaller copies made of the image (`content/image-sizes.ts`), as JSON;
 * - `original_file`: the file name of the original when the attachment's file is a copy of it;
 * - `source_key`: the SHA-256 of the URL the file was side-loaded from, unique, so two concurrent
 *   side-loads of one URL make one attachment. (An index on the URL itself refuses URLs longer than
 *   about 2,700 bytes on PostgreSQL.) Attachments made twice from one URL before keep the first as
 *   that URL's; the others keep their files and lose only the record of where they came from.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('media_files').addColumn('sizes', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('media_files').addColumn('original_file', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('media_files').addColumn('source_key', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
  const rows = await db.selectFrom('media_files').select(['post_id', 'source_url']).where('source_url', '<>', '').orderBy('post_id').execute();
  const seen = new Set<string>();
  for (const row of rows) {
    const key = sourceKey(row.source_url);
    if (seen.has(key)) continue;
    seen.add(key);
    await db.updateTable('media_files').set({ source_key: key }).where('post_id', '=', row.post_id).execute();
  }
  await db.schema.dropIndex('media_files_source').ifExists().execute();
  await db.schema.createIndex('media_files_source_key').on('media_files').column('source_key').unique().where('source_key', '<>', '').execute();
}

/** The key of a source URL (the same as `content/media.ts` computes). */
function sourceKey(url: string): string {
  return crypto.createHash('sha256').update(url).digest('hex');
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('media_files_source_key').execute();
  // The plain index on `source_url` is not made again: PostgreSQL refuses it once a URL longer than
  // about 2,700 bytes is stored, which this version allows. Lookups by source then scan the table.
  for (const column of ['source_key', 'original_file', 'sizes']) await db.schema.alterTable('media_files').dropColumn(column).execute();
}
