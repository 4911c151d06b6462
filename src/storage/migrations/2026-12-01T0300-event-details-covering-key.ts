import { sql, type Kysely } from 'kysely';
import { capabilities } from '../dialect.js';

/**
 * PostgreSQL: `event_details`' primary key carries the columns the archive filters on (status, listing
 * visibility, start, end, featured), so a lookup by event ID that only tests them reads the key's
 * B-tree and not the table's wide rows (index-only). A text search finds its candidates in `posts`
 * (the `pg_trgm` indexes) and tests each one's window and status here: at a million events a common
 * word has 50,000 candidates, whose rows are spread over the table's 276 MB, more than a default
 * `shared_buffers` keeps. SQLite's table is its key's B-tree already: nothing to do.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!capabilities(db).rowsApartFromKey) return;
  await sql`ALTER TABLE event_details DROP CONSTRAINT event_details_pkey,
    ADD CONSTRAINT event_details_pkey PRIMARY KEY (post_id) INCLUDE (status, hide_from_listings, start_utc, end_utc, featured)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!capabilities(db).rowsApartFromKey) return;
  await sql`ALTER TABLE event_details DROP CONSTRAINT event_details_pkey, ADD CONSTRAINT event_details_pkey PRIMARY KEY (post_id)`.execute(db);
}
