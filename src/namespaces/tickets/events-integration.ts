/**
 * @module namespaces/tickets/events-integration
 * What Event Tickets adds to the events namespace, through the events area's extension point:
 * - the `ticketed` list filter (events with / without tickets that are not in the trash);
 * - the `ticketed` field of event objects (ET `REST/V1/Flags.php`): `false`, or the providers of the
 *   event's tickets (de-duplicated, in ticket order);
 * - the `attendance` field for manage-access requests (ET `REST/V1/Main.php`);
 * - manage access by check-in `api_key` (such requests also list events hidden from listings).
 */
import { sql } from 'kysely';
import { runCompiled } from '../../storage/compiled-queries.js';
import type { Contributions } from '../../area.js';
import type { EventFieldProvider } from '../events/index.js';
import { hasManageAccess } from './access.js';

/** The provider of the event objects' ticket fields. */
export const ticketFieldsProvider: EventFieldProvider = {
  name: 'tickets',
  redacted: { ticketed: null },
  async load({ ctx, db, req }, events) {
    const ids = events.map((e) => e.id);
    const out = new Map<number, Record<string, unknown>>();
    if (ids.length === 0) return out;
    const manage = req ? await hasManageAccess(req, ctx) : false;
    // The providers, and for managers the attendance, in one query (a round trip less on PostgreSQL).
    // Built only when the shape is compiled for the first time: building costs more than the query.
    const providersOf = () =>
      db
        .selectFrom('ticket_details as t')
        .innerJoin('posts as tp', 'tp.id', 't.ticket_id')
        .select([sql.lit(0).as('kind'), 't.post_id', 't.ticket_id as sort', 't.provider', sql<number | null>`null`.as('n'), sql<number | null>`null`.as('checked')])
        .where('t.post_id', 'in', ids)
        .where('tp.status', '!=', 'trash');
    const attendanceOf = () =>
      db
        .selectFrom('ticket_attendees')
        .select((eb) => [sql.lit(1).as('kind'), 'post_id', sql<number | null>`null`.as('sort'), sql<string | null>`null`.as('provider'), eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('checked_in').as('checked')])
        .where('post_id', 'in', ids)
        .groupBy('post_id');
    const rows = manage
      ? await runCompiled(db, `ticketFieldsManaged:${ids.length}`, () => providersOf().unionAll(attendanceOf() as unknown as ReturnType<typeof providersOf>).orderBy('kind').orderBy('sort'), [...ids, 'trash', ...ids])
      : await runCompiled(db, `ticketFields:${ids.length}`, () => providersOf().orderBy('sort'), [...ids, 'trash']);
    const providers = new Map<number, string[]>();
    const attendance = new Map<number, { total: number; checked: number }>();
    for (const r of rows) {
      const eventId = Number(r.post_id);
      if (Number(r.kind) === 1) {
        attendance.set(eventId, { total: Number(r.n), checked: Number(r.checked ?? 0) });
        continue;
      }
      const list = providers.get(eventId) ?? [];
      if (!list.includes(r.provider)) list.push(r.provider);
      providers.set(eventId, list);
    }
    for (const id of ids) {
      const fields: Record<string, unknown> = { ticketed: providers.get(id) ?? false };
      if (manage) {
        const a = attendance.get(id) ?? { total: 0, checked: 0 };
        fields.attendance = { total_attendees: a.total, checked_in: a.checked, not_checked_in: a.total - a.checked };
      }
      out.set(id, fields);
    }
    return out;
  },
};

/** What the tickets area contributes to the events area's extension points. */
export const ticketEventContributions: Contributions = {
  eventTicketed: (db, eventId) =>
    db
      .selectFrom('ticket_details as t')
      .innerJoin('posts as tp', 'tp.id', 't.ticket_id')
      .select(sql.lit(1).as('one'))
      .whereRef('t.post_id', '=', eventId)
      .where('tp.status', '!=', 'trash'),
  eventFields: [ticketFieldsProvider],
  eventManageAccess: (req, ctx) => hasManageAccess(req, ctx),
};
