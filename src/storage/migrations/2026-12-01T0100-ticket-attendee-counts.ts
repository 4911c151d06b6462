import { sql, type Kysely } from 'kysely';
import { capabilities } from '../dialect.js';

/**
 * `ticket_attendee_counts`: how many attendee rows each event and ticket has, so the total of a
 * manager's attendee list adds a few numbers instead of counting every index entry of the event's
 * attendees (30,000 attendees: 1–2 ms a request, growing with the event). The sum of `n` over a
 * (post_id, ticket_id) is the number of `ticket_attendees` rows with them, kept by triggers in the
 * writing transaction (an attendee inserted, deleted, also by its post's cascade, or moved).
 *
 * SQLite (one writer at a time): one row per event and ticket, its `n` updated in place.
 *
 * PostgreSQL: a single counter row per ticket would be a hot row every checkout of the ticket locks
 * from its attendees' insert to its COMMIT, and lock before the ticket's seats (`ticket_details`),
 * where a release locks the ticket first and deletes attendees after: a lock-order cycle. So the
 * triggers only insert delta rows (`n` = +1 or -1, `settled` = 0), which lock nothing another
 * transaction holds. `ticket_attendee_counts_settle` folds the deltas of some events and tickets into
 * one settled row per (post_id, ticket_id), deleting the deltas and inserting their sums in one
 * statement; the reader calls it when it summed many deltas. It takes a transaction-scoped advisory
 * lock with `pg_try_advisory_xact_lock` and does nothing when another settlement holds it, so two
 * settlements never wait for each other's row locks; the rows it deletes are committed deltas no
 * writer touches again. Its commit is asynchronous (`synchronous_commit` off): lost in a crash, it
 * is lost whole, and the deltas stay as they were.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pgsql = capabilities(db).triggerBodies === 'plpgsql-function';
  await db.schema
    .createTable('ticket_attendee_counts')
    .addColumn('post_id', 'integer', (c) => c.notNull())
    .addColumn('ticket_id', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    // 1: a row with the count of its (post_id, ticket_id) so far; 0: a delta not yet settled (PostgreSQL).
    .addColumn('settled', 'integer', (c) => c.notNull().defaultTo(1))
    .$call((t) => (pgsql ? t : t.addPrimaryKeyConstraint('ticket_attendee_counts_pk', ['post_id', 'ticket_id']).modifyEnd(sql`without rowid`)))
    .execute();
  if (pgsql) {
    // Every column in the indexes, so a sum is read from the index alone.
    await sql`CREATE INDEX ticket_attendee_counts_post ON ticket_attendee_counts (post_id, ticket_id) INCLUDE (n, settled)`.execute(db);
    await sql`CREATE INDEX ticket_attendee_counts_ticket ON ticket_attendee_counts (ticket_id, post_id) INCLUDE (n, settled)`.execute(db);
  } else {
    await db.schema.createIndex('ticket_attendee_counts_ticket').on('ticket_attendee_counts').columns(['ticket_id', 'post_id']).execute();
  }
  await sql`INSERT INTO ticket_attendee_counts (post_id, ticket_id, n, settled)
    SELECT post_id, ticket_id, COUNT(*), 1 FROM ticket_attendees GROUP BY post_id, ticket_id`.execute(db);

  const moved = sql.raw('old.post_id IS DISTINCT FROM new.post_id OR old.ticket_id IS DISTINCT FROM new.ticket_id');
  if (pgsql) {
    const delta = (row: 'new' | 'old', n: 1 | -1) =>
      sql`INSERT INTO ticket_attendee_counts (post_id, ticket_id, n, settled) VALUES (${sql.raw(row)}.post_id, ${sql.raw(row)}.ticket_id, ${sql.raw(String(n))}, 0)`;
    await sql`CREATE FUNCTION ticket_attendee_counts_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    ${delta('old', -1)};
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    ${delta('new', 1)};
  END IF;
  RETURN NULL;
END $$`.execute(db);
    await sql`CREATE TRIGGER ticket_attendee_counts_changed AFTER INSERT OR DELETE ON ticket_attendees FOR EACH ROW EXECUTE FUNCTION ticket_attendee_counts_delta()`.execute(db);
    await sql`CREATE TRIGGER ticket_attendee_counts_moved AFTER UPDATE OF post_id, ticket_id ON ticket_attendees FOR EACH ROW
      WHEN (${moved}) EXECUTE FUNCTION ticket_attendee_counts_delta()`.execute(db);
    await sql`CREATE FUNCTION ticket_attendee_counts_settle(p_posts integer[], p_tickets integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('eventsuite-attendee-counts:' || current_schema())) THEN
    RETURN;
  END IF;
  PERFORM set_config('synchronous_commit', 'off', true);
  WITH keys AS (
    SELECT DISTINCT post_id, ticket_id FROM ticket_attendee_counts
    WHERE settled = 0 AND (post_id = ANY (p_posts) OR ticket_id = ANY (p_tickets))
  ), gone AS (
    DELETE FROM ticket_attendee_counts c USING keys k WHERE c.post_id = k.post_id AND c.ticket_id = k.ticket_id
    RETURNING c.post_id, c.ticket_id, c.n
  )
  INSERT INTO ticket_attendee_counts (post_id, ticket_id, n, settled)
    SELECT post_id, ticket_id, SUM(n), 1 FROM gone GROUP BY post_id, ticket_id HAVING SUM(n) <> 0;
END $$`.execute(db);
    return;
  }
  const added = (row: 'new' | 'old') => sql`INSERT INTO ticket_attendee_counts (post_id, ticket_id, n) VALUES (${sql.raw(row)}.post_id, ${sql.raw(row)}.ticket_id, 1)
    ON CONFLICT (post_id, ticket_id) DO UPDATE SET n = n + 1`;
  const removed = (row: 'new' | 'old') => sql`UPDATE ticket_attendee_counts SET n = n - 1 WHERE post_id = ${sql.raw(row)}.post_id AND ticket_id = ${sql.raw(row)}.ticket_id;
    DELETE FROM ticket_attendee_counts WHERE post_id = ${sql.raw(row)}.post_id AND ticket_id = ${sql.raw(row)}.ticket_id AND n = 0`;
  await sql`CREATE TRIGGER ticket_attendee_counts_insert AFTER INSERT ON ticket_attendees BEGIN ${added('new')}; END`.execute(db);
  await sql`CREATE TRIGGER ticket_attendee_counts_delete AFTER DELETE ON ticket_attendees BEGIN ${removed('old')}; END`.execute(db);
  await sql`CREATE TRIGGER ticket_attendee_counts_update AFTER UPDATE OF post_id, ticket_id ON ticket_attendees WHEN ${moved} BEGIN
    ${removed('old')};
    ${added('new')};
  END`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (capabilities(db).triggerBodies === 'plpgsql-function') {
    await sql`DROP TRIGGER IF EXISTS ticket_attendee_counts_changed ON ticket_attendees`.execute(db);
    await sql`DROP TRIGGER IF EXISTS ticket_attendee_counts_moved ON ticket_attendees`.execute(db);
    await sql`DROP FUNCTION IF EXISTS ticket_attendee_counts_delta()`.execute(db);
    await sql`DROP FUNCTION IF EXISTS ticket_attendee_counts_settle(integer[], integer[])`.execute(db);
  } else {
    for (const trigger of ['ticket_attendee_counts_insert', 'ticket_attendee_counts_delete', 'ticket_attendee_counts_update']) await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
  }
  await db.schema.dropTable('ticket_attendee_counts').ifExists().execute();
}
