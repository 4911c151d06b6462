import type { Kysely } from 'kysely';

/** Link indexing walks the objects whose links are not recorded yet, in id order; link targets are found by permalink. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('seo_indexables_links').on('seo_indexables').columns(['object_type', 'links_indexed', 'id']).execute();
  await db.schema.createIndex('seo_indexables_permalink').on('seo_indexables').columns(['object_type', 'permalink']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('seo_indexables_permalink').ifExists().execute();
  await db.schema.dropIndex('seo_indexables_links').ifExists().execute();
}
