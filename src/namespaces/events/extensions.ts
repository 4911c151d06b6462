/**
 * @module namespaces/events/extensions
 * The extension points other areas (tickets) use to take part in event queries and event objects
 * without the events area knowing them. An area contributes through its declaration, and the events
 * area reads the contributions of the enabled areas from `ctx.areas`:
 *
 * @example
 * export const ticketsArea = defineArea({
 *   id: 'tickets',
 *   // ...
 *   contributes: {
 *     // (a) `ticketed` filter: a subquery correlated to the event ID; the events list wraps it in
 *     //     EXISTS (ticketed=true) or NOT EXISTS (ticketed=false).
 *     eventTicketed: (db, eventId) => db.selectFrom('ticket_details as t').select(sql.lit(1).as('one')).whereRef('t.post_id', '=', eventId),
 *     // (b) extra fields: one query for the whole page, merged into each event object (existing keys
 *     //     such as `cost` are replaced in place, new keys appended after the event's own fields).
 *     eventFields: [ticketFieldsProvider],
 *     // (c) manage access by the check-in key.
 *     eventManageAccess: (req, ctx) => hasManageAccess(req, ctx),
 *   },
 * });
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Expression } from 'kysely';
import type { PageHost } from '../../area.js';
import type { AppContext } from '../../app-context.js';
import type { RestRequest } from '../../rest/route.js';
import type { Db } from '../../storage/db.js';

/** What a field provider learns about each event of the page (no query needed for these). */
export interface EventFieldTarget {
  id: number;
  status: string;
  author: number;
  /** True when the event has a password. */
  passwordProtected: boolean;
  /** Start and end in UTC, `YYYY-MM-DD HH:MM:SS`. */
  startUtc: string;
  endUtc: string;
  timezone: string;
  /** The event's own cost data, which a provider may replace. */
  cost: string;
  costValues: readonly string[];
  currencySymbol: string;
  currencyCode: string;
  currencyPosition: string;
}

/** Where the event objects are being built. */
export interface EventFieldsContext {
  ctx: AppContext;
  /** The connection to query (a transaction inside writes). */
  db: Db;
  /** The request being answered (its `user` and params, e.g. `api_key`); undefined outside HTTP. */
  req: RestRequest | undefined;
  /** `list` for archive items, `single` for single-event answers (GET, create, update, delete). */
  view: 'list' | 'single';
}

/**
 * Adds fields to event objects. `load` runs ONCE per page (or single event) with all its events and
 * must use a fixed number of queries, never one per event.
 */
export interface EventFieldProvider {
  /** For logs and errors. */
  name: string;
  /** Extra fields per event ID; events missing from the map get nothing from this provider. */
  load(context: EventFieldsContext, events: readonly EventFieldTarget[]): Promise<Map<number, Record<string, unknown>>>;
  /**
   * Values shown instead of this provider's fields on a password-protected event whose password was
   * not given (e.g. `{ ticketed: null }`). Fields without an entry here are left out of such events.
   */
  redacted?: Record<string, unknown>;
}

/**
 * The `ticketed` filter: a select query correlated to `eventId` that returns a row when the event
 * has tickets. The events list compiles `ticketed=true` to `EXISTS (<query>)` and `ticketed=false`
 * to `NOT EXISTS (<query>)`.
 */
export type TicketedSubquery = (db: Db, eventId: Expression<number>) => Expression<unknown>;

/**
 * Ticket "manage access" for a request (e.g. a valid check-in `api_key`): such requests also list
 * events hidden from listings. Users who can `edit_users` or `tribe_manage_attendees` always have it.
 */
export type ManageAccessCheck = (req: RestRequest, ctx: AppContext) => boolean | Promise<boolean>;

/**
 * The HTML pages at the feed's URLs (`/events/`, `/event/<slug>/`): the feed pages answer requests
 * with `ical` in the query and hand every other request to the first contributed page handler (the
 * calendar views area), else 404. One Fastify route per path, two owners.
 */
export interface CalendarPageHandlers {
  list(request: FastifyRequest, reply: FastifyReply, host: PageHost): Promise<unknown>;
  single(request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply, host: PageHost): Promise<unknown>;
}

declare module '../../area.js' {
  interface ExtensionPoints {
    /** The HTML pages at the feed URLs (the first contribution is used). */
    calendarPages: CalendarPageHandlers;
    /** Adds fields to event objects. */
    eventFields: EventFieldProvider;
    /** The `ticketed` filter (the first contribution is used; until one exists `ticketed=true` lists nothing). */
    eventTicketed: TicketedSubquery;
    /** Extra manage-access check (the check-in API key); any one that passes grants access. */
    eventManageAccess: ManageAccessCheck;
  }
}
