import { sql, type Kysely } from 'kysely';
import { capabilities } from '../dialect.js';

/**
 * PostgreSQL: `ticket_reserve_seats(tickets, quantities, pending)`, the seat reservation of
 * `seats.repo.ts`'s `reserveSeats` as a function, for a checkout that sends its reservations with
 * its COMMIT in one round trip (`reserveSeatsAndCommit`): a statement there has no parameters and
 * must fail, not answer no row, when there is no room, so that the COMMIT after it does not run. The
 * same conditional UPDATEs in the same order: every ticket's row (the arrays come in ascending ticket
 * ID), then the shared capacity of the posts whose tickets count against it (`global` and `capped`),
 * by post ID then ticket ID. No room raises SQLSTATE `ES409` with the ticket's ID as the detail.
 * SQLite has no round trips to save and no such function.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!capabilities(db).oneTripCommit) return;
  await sql`CREATE FUNCTION ticket_reserve_seats(p_tickets integer[], p_quantities integer[], p_pending boolean[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_post integer;
  v_mode varchar;
  v_posts integer[] := '{}';
  v_quantities integer[] := '{}';
  v_tickets integer[] := '{}';
  v_shared record;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_tickets, 1), 0) LOOP
    UPDATE ticket_details
      SET sold = sold + p_quantities[i], pending = CASE WHEN p_pending[i] THEN pending + p_quantities[i] ELSE pending END
      WHERE ticket_id = p_tickets[i] AND (capacity < 0 OR sold + p_quantities[i] <= capacity)
      RETURNING post_id, capacity_mode INTO v_post, v_mode;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'ticket % has no room', p_tickets[i] USING ERRCODE = 'ES409', DETAIL = p_tickets[i]::text;
    END IF;
    IF v_mode IN ('global', 'capped') THEN
      v_posts := v_posts || v_post;
      v_quantities := v_quantities || p_quantities[i];
      v_tickets := v_tickets || p_tickets[i];
    END IF;
  END LOOP;
  FOR v_shared IN SELECT * FROM unnest(v_posts, v_quantities, v_tickets) AS s(post_id, quantity, ticket_id) ORDER BY post_id, ticket_id LOOP
    UPDATE ticket_shared_capacity SET sold = sold + v_shared.quantity WHERE post_id = v_shared.post_id AND sold + v_shared.quantity <= capacity;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'ticket % has no room', v_shared.ticket_id USING ERRCODE = 'ES409', DETAIL = v_shared.ticket_id::text;
    END IF;
  END LOOP;
END $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!capabilities(db).oneTripCommit) return;
  await sql`DROP FUNCTION IF EXISTS ticket_reserve_seats(integer[], integer[], boolean[])`.execute(db);
}
