/**
 * @module namespaces/tickets/attendee-counts.repo
 * Settling the attendee counts (`ticket_attendee_counts`, kept by triggers: see the migration
 * `2026-12-01T0100-ticket-attendee-counts`). On PostgreSQL every attendee inserted or deleted adds a
 * delta row there, so a writer locks no row another one holds; the counts of an event or a ticket then
 * grow by a row per change until settled into one row per event and ticket. SQLite keeps one row per
 * event and ticket as it is and never has deltas.
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { capabilities } from '../../storage/dialect.js';

/** Deltas a reader sums before it settles them (a few microseconds of index entries). */
export const SETTLE_AFTER_DELTAS = 64;

/**
 * Folds the deltas of the events `postIds` and the tickets `ticketIds` into one row per event and
 * ticket (`ticket_attendee_counts_settle`, PostgreSQL only): skipped, not waited for, while another
 * settlement runs. Sums are unchanged. Nothing to do where one writer runs at a time (SQLite).
 */
export async function settleAttendeeCounts(db: Db, postIds: readonly number[], ticketIds: readonly number[]): Promise<void> {
  if (capabilities(db).serialisesWriters) return;
  await sql`SELECT ticket_attendee_counts_settle(${[...postIds]}::integer[], ${[...ticketIds]}::integer[])`.execute(db);
}
