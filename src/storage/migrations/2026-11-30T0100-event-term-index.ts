import { sql, type Kysely } from 'kysely';
import { capabilities } from '../dialect.js';

/**
 * `event_term_index`: one row per event and term (category or tag) with what the archive filters and
 * sorts on (status, listing visibility, featured, UTC start and end, publication date), ordered by term
 * and start. A list filtered by terms then reads its page in order from the term's rows and stops, and
 * counts its total from them alone, instead of looking up every event of the term in `event_details`
 * and `posts` and sorting them all (at a million events a category holds ~48,000 events: 100–220 ms a
 * page and 50–70 ms a total before).
 *
 * Kept by triggers in the writing transaction: on `term_relationships` (a term given or taken), on
 * `event_details` (an event created, moved, its status or flags changed, deleted) and on `posts` (its
 * publication date). On PostgreSQL a relationship's trigger reads the event's rows `FOR SHARE`, so a
 * concurrent change of the event waits for it (and the change's own trigger then sees the new row)
 * instead of leaving the row stale.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pgsql = capabilities(db).triggerBodies === 'plpgsql-function';
  await db.schema
    .createTable('event_term_index')
    .addColumn('term_id', 'integer', (c) => c.notNull())
    .addColumn('start_utc', 'varchar(19)', (c) => c.notNull())
    .addColumn('date_gmt', 'varchar(19)', (c) => c.notNull())
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('end_utc', 'varchar(19)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('hide_from_listings', 'integer', (c) => c.notNull())
    .addColumn('featured', 'integer', (c) => c.notNull())
    // SQLite: the table is its primary key's B-tree, so a term's rows are read in order with every column.
    // PostgreSQL: a heap, read in order through the covering index below.
    .$call((t) => (pgsql ? t : t.addPrimaryKeyConstraint('event_term_index_pk', ['term_id', 'start_utc', 'date_gmt', 'post_id']).modifyEnd(sql`without rowid`)))
    .execute();
  await db.schema.createIndex('event_term_index_post').unique().on('event_term_index').columns(['post_id', 'term_id']).execute();
  if (pgsql) {
    // The filter columns in the ordered index, so PostgreSQL answers a page and a total from the index.
    await sql`CREATE INDEX event_term_index_covering ON event_term_index (term_id, start_utc, date_gmt, post_id)
      INCLUDE (end_utc, status, hide_from_listings, featured)`.execute(db);
  }
  await sql`INSERT INTO event_term_index (term_id, start_utc, date_gmt, post_id, end_utc, status, hide_from_listings, featured)
    SELECT tr.term_id, e.start_utc, p.date_gmt, e.post_id, e.end_utc, e.status, e.hide_from_listings, e.featured
    FROM term_relationships tr JOIN event_details e ON e.post_id = tr.post_id JOIN posts p ON p.id = e.post_id`.execute(db);

  const columns = sql.raw('term_id, start_utc, date_gmt, post_id, end_utc, status, hide_from_listings, featured');
  const relAdded = (lock: boolean) => sql`INSERT INTO event_term_index (${columns})
    SELECT new.term_id, e.start_utc, p.date_gmt, e.post_id, e.end_utc, e.status, e.hide_from_listings, e.featured
    FROM event_details e JOIN posts p ON p.id = e.post_id WHERE e.post_id = new.post_id${sql.raw(lock ? ' FOR SHARE' : '')}`;
  const relRemoved = sql`DELETE FROM event_term_index WHERE post_id = old.post_id AND term_id = old.term_id`;
  const eventAdded = sql`INSERT INTO event_term_index (${columns})
    SELECT tr.term_id, new.start_utc, p.date_gmt, new.post_id, new.end_utc, new.status, new.hide_from_listings, new.featured
    FROM term_relationships tr JOIN posts p ON p.id = new.post_id WHERE tr.post_id = new.post_id`;
  const eventChanged = sql`UPDATE event_term_index SET start_utc = new.start_utc, end_utc = new.end_utc, status = new.status,
    hide_from_listings = new.hide_from_listings, featured = new.featured WHERE post_id = new.post_id`;
  const eventRemoved = sql`DELETE FROM event_term_index WHERE post_id = old.post_id`;
  const postDated = sql`UPDATE event_term_index SET date_gmt = new.date_gmt WHERE post_id = new.id`;
  // Saving an event writes every column of its row: the index rows are touched (and, on PostgreSQL,
  // locked) only when a column they copy changed, so an edit that keeps them does not take locks a
  // concurrent term deletion takes in the other order.
  const changed = sql.raw(['post_id', 'status', 'hide_from_listings', 'featured', 'start_utc', 'end_utc'].map((c) => `old.${c} IS DISTINCT FROM new.${c}`).join(' OR '));

  if (pgsql) {
    await sql`CREATE FUNCTION event_term_index_relationships() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    ${relRemoved};
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    ${relAdded(true)};
  END IF;
  RETURN NULL;
END $$`.execute(db);
    await sql`CREATE TRIGGER event_term_index_relationships AFTER INSERT OR DELETE OR UPDATE OF post_id, term_id
      ON term_relationships FOR EACH ROW EXECUTE FUNCTION event_term_index_relationships()`.execute(db);
    await sql`CREATE FUNCTION event_term_index_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${eventAdded};
  ELSIF TG_OP = 'DELETE' THEN
    ${eventRemoved};
  ELSIF old.post_id <> new.post_id THEN
    ${eventRemoved};
    ${eventAdded};
  ELSE
    ${eventChanged};
  END IF;
  RETURN NULL;
END $$`.execute(db);
    await sql`CREATE TRIGGER event_term_index_events AFTER INSERT OR DELETE ON event_details FOR EACH ROW EXECUTE FUNCTION event_term_index_events()`.execute(db);
    await sql`CREATE TRIGGER event_term_index_events_changed AFTER UPDATE OF post_id, status, hide_from_listings, featured, start_utc, end_utc
      ON event_details FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION event_term_index_events()`.execute(db);
    await sql`CREATE FUNCTION event_term_index_posts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${postDated};
  RETURN NULL;
END $$`.execute(db);
    await sql`CREATE TRIGGER event_term_index_posts AFTER UPDATE OF date_gmt ON posts FOR EACH ROW
      WHEN (old.date_gmt IS DISTINCT FROM new.date_gmt) EXECUTE FUNCTION event_term_index_posts()`.execute(db);
    return;
  }
  await sql`CREATE TRIGGER event_term_index_rel_insert AFTER INSERT ON term_relationships BEGIN ${relAdded(false)}; END`.execute(db);
  await sql`CREATE TRIGGER event_term_index_rel_delete AFTER DELETE ON term_relationships BEGIN ${relRemoved}; END`.execute(db);
  await sql`CREATE TRIGGER event_term_index_rel_update AFTER UPDATE OF post_id, term_id ON term_relationships BEGIN
    ${relRemoved};
    ${relAdded(false)};
  END`.execute(db);
  await sql`CREATE TRIGGER event_term_index_event_insert AFTER INSERT ON event_details BEGIN ${eventAdded}; END`.execute(db);
  await sql`CREATE TRIGGER event_term_index_event_delete AFTER DELETE ON event_details BEGIN ${eventRemoved}; END`.execute(db);
  await sql`CREATE TRIGGER event_term_index_event_update AFTER UPDATE OF post_id, status, hide_from_listings, featured, start_utc, end_utc ON event_details
    WHEN ${changed} BEGIN
    DELETE FROM event_term_index WHERE post_id = old.post_id AND old.post_id <> new.post_id;
    ${eventChanged};
    INSERT INTO event_term_index (${columns})
      SELECT tr.term_id, new.start_utc, p.date_gmt, new.post_id, new.end_utc, new.status, new.hide_from_listings, new.featured
      FROM term_relationships tr JOIN posts p ON p.id = new.post_id WHERE tr.post_id = new.post_id AND old.post_id <> new.post_id;
  END`.execute(db);
  await sql`CREATE TRIGGER event_term_index_post_date AFTER UPDATE OF date_gmt ON posts WHEN old.date_gmt IS NOT new.date_gmt BEGIN ${postDated}; END`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (capabilities(db).triggerBodies === 'plpgsql-function') {
    await sql`DROP TRIGGER IF EXISTS event_term_index_relationships ON term_relationships`.execute(db);
    await sql`DROP TRIGGER IF EXISTS event_term_index_events ON event_details`.execute(db);
    await sql`DROP TRIGGER IF EXISTS event_term_index_events_changed ON event_details`.execute(db);
    await sql`DROP TRIGGER IF EXISTS event_term_index_posts ON posts`.execute(db);
    for (const fn of ['event_term_index_relationships', 'event_term_index_events', 'event_term_index_posts']) await sql`DROP FUNCTION IF EXISTS ${sql.id(fn)}()`.execute(db);
  } else {
    for (const trigger of [
      'event_term_index_rel_insert', 'event_term_index_rel_delete', 'event_term_index_rel_update', 'event_term_index_event_insert',
      'event_term_index_event_delete', 'event_term_index_event_update', 'event_term_index_post_date',
    ]) await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
  }
  await db.schema.dropTable('event_term_index').ifExists().execute();
}
