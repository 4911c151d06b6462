import type { Kysely } from 'kysely';

/**
 * Event, venue and organizer detail tables, the event links, and an index for every filter and sort of
 * the events calendar lists (the default window scans `event_details_list` in start order).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('event_details')
    .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('start_local', 'varchar(19)', (c) => c.notNull())
    .addColumn('end_local', 'varchar(19)', (c) => c.notNull())
    .addColumn('start_utc', 'varchar(19)', (c) => c.notNull())
    .addColumn('end_utc', 'varchar(19)', (c) => c.notNull())
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('timezone_abbr', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('all_day', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cost', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cost_values', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('currency_symbol', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('currency_code', 'varchar(8)', (c) => c.notNull().defaultTo(''))
    .addColumn('currency_position', 'varchar(8)', (c) => c.notNull().defaultTo(''))
    .addColumn('website', 'text')
    .addColumn('show_map', 'integer')
    .addColumn('show_map_link', 'integer')
    .addColumn('hide_from_listings', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('image_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lineage', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  // Default list: status = publish, not hidden, start in the window, ordered by start (covering for the count).
  await db.schema.createIndex('event_details_list').on('event_details')
    .columns(['status', 'hide_from_listings', 'start_utc', 'end_utc', 'post_id']).execute();
  // Start order for every other status set (editors' "any"), covering the usual filter columns.
  await db.schema.createIndex('event_details_start').on('event_details')
    .columns(['start_utc', 'status', 'hide_from_listings', 'end_utc', 'post_id']).execute();
  await db.schema.createIndex('event_details_end').on('event_details')
    .columns(['end_utc', 'status', 'hide_from_listings', 'start_utc', 'post_id']).execute();
  await db.schema.createIndex('event_details_featured').on('event_details').columns(['featured', 'status', 'start_utc']).execute();

  await db.schema.createTable('event_venues')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('venue_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('event_venues_pk', ['event_id', 'venue_id'])
    .execute();
  await db.schema.createIndex('event_venues_venue').on('event_venues').columns(['venue_id', 'event_id']).execute();

  await db.schema.createTable('event_organizers')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('organizer_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('event_organizers_pk', ['event_id', 'organizer_id'])
    .execute();
  await db.schema.createIndex('event_organizers_organizer').on('event_organizers').columns(['organizer_id', 'event_id']).execute();

  await db.schema.createTable('venue_details')
    .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('province', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('zip', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('stateprovince', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('show_map', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('show_map_link', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('geo_lat', 'double precision')
    .addColumn('geo_lng', 'double precision')
    .addColumn('image_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lineage', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema.createTable('organizer_details')
    .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('phone', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('image_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lineage', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  // Term lookups by name (categories/tags given by name) and children of a parent.
  await db.schema.createIndex('terms_taxonomy_name').on('terms').columns(['taxonomy', 'name']).execute();
  await db.schema.createIndex('terms_taxonomy_parent').on('terms').columns(['taxonomy', 'parent']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('terms_taxonomy_parent').ifExists().execute();
  await db.schema.dropIndex('terms_taxonomy_name').ifExists().execute();
  for (const t of ['organizer_details', 'venue_details', 'event_organizers', 'event_venues', 'event_details']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
