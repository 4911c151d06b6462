import { sql, type Kysely } from 'kysely';
import { capabilities } from '../dialect.js';

/**
 * PostgreSQL: `ticket_reserve_seats(ticket, quantity, pending)`, the seat reservation of
 * `tickets.repo.ts`'s `reserveSeats` as a function, for a checkout that sends its reservations with
 * its COMMIT in one round trip (`reserveSeatsAndCommit`): a statement there has no parameters and
 * must fail, not answer no row, when there is no room, so that the COMMIT after it does not run. The
 * same conditional UPDATEs in the same order (the ticket's row, then its post's shared capacity for
 * the shared modes `global` and `capped`); no room raises SQLSTATE `ES409` with the ticket's ID as
 * the detail. SQLite has no round trips to save and no such function.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!capabilities(db).oneTripCommit) return;
  await sql`CREATE FUNCTION ticket_reserve_seats(p_ticket integer, p_quantity integer, p_pending boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_post integer;
  v_mode varchar;
BEGIN
  UPDATE ticket_details
    SET sold = sold + p_quantity, pending = CASE WHEN p_pending THEN pending + p_quantity ELSE pending END
    WHERE ticket_id = p_ticket AND (capacity < 0 OR sold + p_quantity <= capacity)
    RETURNING post_id, capacity_mode INTO v_post, v_mode;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'ticket % has no room', p_ticket USING ERRCODE = 'ES409', DETAIL = p_ticket::text;
  END IF;
  IF v_mode IN ('global', 'capped') THEN
    UPDATE ticket_shared_capacity SET sold = sold + p_quantity WHERE post_id = v_post AND sold + p_quantity <= capacity;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'ticket % has no room', p_ticket USING ERRCODE = 'ES409', DETAIL = p_ticket::text;
    END IF;
  END IF;
END $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!capabilities(db).oneTripCommit) return;
  await sql`DROP FUNCTION IF EXISTS ticket_reserve_seats(integer, integer, boolean)`.execute(db);
}
