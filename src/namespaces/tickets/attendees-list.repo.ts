/**
 * @module namespaces/tickets/attendees-list.repo
 * The filtered attendee list, with the public-visibility rules for callers without manage access: its
 * conditions described once (`compiled-rows.ts`), the count and the page compiled once per shape.
 */
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../storage/db.js';
import { containsPattern, ilike, ilikeBinding, inFewValues, textOrder } from '../../storage/dialect.js';
import { ATTENDEE_TYPES, type ProviderSlug } from './providers.js';
import { ATTENDEE_LIST_MARKERS } from './posts.repo.js';
import { safeOffset } from '../../rest/pagination.js';
import { runCompiled } from '../../storage/compiled-queries.js';
import { applyFilters, filtersShape, includeOrder, type ListFilter as Filter } from './compiled-rows.js';
import { SETTLE_AFTER_DELTAS, settleAttendeeCounts } from './attendee-counts.repo.js';
import { attendeesJoined, attendeeTicketPacked, listingColumns, listingFromRow, ticketOfPacked, type AttendeeListing, type AttendeeTicket } from './attendees.repo.js';

export interface AttendeeListQuery {
  providers?: ProviderSlug[];
  search?: string;
  postIds?: number[];
  excludePosts?: number[];
  ticketIds?: number[];
  excludeTickets?: number[];
  afterGmt?: string;
  beforeGmt?: string;
  include?: number[];
  exclude?: number[];
  /** Event statuses; undefined = any. */
  postStatuses?: readonly string[];
  /** Attendee post statuses. */
  statuses?: readonly string[];
  /** Order statuses; undefined = any. */
  orderStatuses?: readonly string[];
  checkedIn?: boolean;
  rsvpGoing?: string[];
  priceMin?: number;
  priceMax?: number;
  attendeeInformation?: boolean;
  name?: string;
  email?: string;
  /** Only attendees the public may see (no manage access). */
  publicOnly?: boolean;
  orderby: 'id' | 'date' | 'include' | 'title' | 'slug';
  order: 'ASC' | 'DESC';
  limit: number;
  offset: number;
}

/** Order statuses that count as "public" (a completed order or a "going" RSVP). */
export const PUBLIC_ORDER_STATUSES = Object.freeze(['completed', 'yes']);

/** Attendees `a` with their posts `ap` and the posts they are for `ep`: what the list filters. */
function listFrom(db: Db) {
  return db
    .selectFrom('ticket_attendees as a')
    .innerJoin('posts as ap', 'ap.id', 'a.attendee_id')
    .leftJoin('posts as ep', 'ep.id', 'a.post_id');
}

type ListQueryBuilder = ReturnType<typeof listFrom>;

type ListFilter = Filter<ListQueryBuilder>;

const none = sql<SqlBool>`1 = 0`;
const noMatch: ListFilter = { key: 'none', parameters: [], apply: (query) => query.where(none) };

/** `column IN list`, or no match for an empty list. */
function inList(column: 'a.provider' | 'a.post_id' | 'a.ticket_id' | 'a.attendee_id', list: readonly unknown[]): ListFilter {
  if (list.length === 0) return noMatch;
  return { key: `${column} in ${list.length}`, parameters: list, apply: (query) => query.where(column, 'in', list as never[]) };
}

/** `column NOT IN list` (nothing for an empty list). */
function notInList(column: 'a.post_id' | 'a.ticket_id' | 'a.attendee_id', list: readonly number[] | undefined): ListFilter[] {
  if (!list?.length) return [];
  return [{ key: `${column} not in ${list.length}`, parameters: list, apply: (query) => query.where(column, 'not in', [...list]) }];
}

/** A status column in a list of statuses (an empty list matches no status). */
function statusIn(column: 'ep.status' | 'ap.status' | 'a.order_status', statuses: readonly string[]): ListFilter {
  const list = statuses.length ? statuses : [''];
  return { key: `${column} in ${list.length}`, parameters: list, apply: (query) => query.where(column, 'in', list) };
}

/** The list's conditions, in the order they bind their values. */
function listFilters(db: Db, q: AttendeeListQuery): ListFilter[] {
  const filters: ListFilter[] = [];
  const compare = (column: 'ap.date_gmt' | 'a.checked_in' | 'a.price', op: '>=' | '<=' | '=', value: string | number) =>
    filters.push({ key: `${column} ${op}`, parameters: [value], apply: (query) => query.where(column, op, value) });
  const like = (key: string, columns: readonly ('a.holder_name' | 'a.holder_email' | 'a.purchaser_name')[], text: string) => {
    const p = containsPattern(text);
    const bound = ilikeBinding(db, p);
    filters.push({ key: `${key} ${bound.form}`, parameters: columns.map(() => bound.value), apply: (query) => query.where((eb) => eb.or(columns.map((c) => ilike(db, eb.ref(c), p)))) });
  };
  if (q.providers) filters.push(inList('a.provider', q.providers));
  if (q.search) like('search', ['a.holder_name', 'a.holder_email', 'a.purchaser_name'], q.search);
  if (q.postIds) filters.push(inList('a.post_id', q.postIds));
  filters.push(...notInList('a.post_id', q.excludePosts));
  if (q.ticketIds) filters.push(inList('a.ticket_id', q.ticketIds));
  filters.push(...notInList('a.ticket_id', q.excludeTickets));
  if (q.afterGmt) compare('ap.date_gmt', '>=', q.afterGmt);
  if (q.beforeGmt) compare('ap.date_gmt', '<=', q.beforeGmt);
  if (q.include) filters.push(inList('a.attendee_id', q.include));
  filters.push(...notInList('a.attendee_id', q.exclude));
  if (q.postStatuses) filters.push(statusIn('ep.status', q.postStatuses));
  if (q.statuses) filters.push(statusIn('ap.status', q.statuses));
  if (q.orderStatuses) filters.push(statusIn('a.order_status', q.orderStatuses));
  if (q.checkedIn !== undefined) compare('a.checked_in', '=', q.checkedIn ? 1 : 0);
  if (q.rsvpGoing) {
    const wanted = q.rsvpGoing;
    // Attendees of other providers carry no RSVP status and always match.
    filters.push({
      key: `rsvp going ${wanted.length}`,
      parameters: ['rsvp', ...wanted],
      apply: (query) => query.where((eb) => eb.or([eb('a.provider', '!=', 'rsvp'), ...(wanted.length ? [eb('a.order_status', 'in', wanted)] : [])])),
    });
  }
  if (q.priceMin !== undefined) compare('a.price', '>=', q.priceMin);
  if (q.priceMax !== undefined) compare('a.price', '<=', q.priceMax);
  if (q.attendeeInformation === true) filters.push(noMatch);
  if (q.name) like('name', ['a.holder_name'], q.name);
  if (q.email) like('email', ['a.holder_email'], q.email);
  if (q.publicOnly) {
    const markers = ATTENDEE_LIST_MARKERS.map(containsPattern);
    filters.push({
      key: 'public',
      parameters: ['publish', 0, ...PUBLIC_ORDER_STATUSES, 'publish', '', ...markers],
      apply: (query) =>
        query
          .where('ap.status', '=', 'publish')
          .where('a.optout', '=', 0)
          .where('a.order_status', 'in', PUBLIC_ORDER_STATUSES)
          .where('ep.status', '=', 'publish')
          .where('ep.password', '=', '')
          .where((eb) => eb.or(markers.map((m) => ilike(db, eb.ref('ep.content'), m)))),
    });
  }
  return filters;
}

/** The list query with `filters` (built only when its shape is compiled). */
function listBase(db: Db, filters: readonly ListFilter[]): ListQueryBuilder {
  return applyFilters(listFrom(db), filters);
}

/**
 * The statuses attendee posts have, site-wide, as the recursive `WITH` table `s(type, status)`: per
 * attendee type, the least status and then the next above the last one found, each one index seek
 * (`posts_type_status_date`), so a few seeks however many attendees there are.
 */
function attendeePostStatuses() {
  const anchors = sql.join(ATTENDEE_TYPES.map((t) => sql`SELECT ${sql.lit(t)} AS type, (SELECT MIN(p.status) FROM posts p WHERE p.type = ${sql.lit(t)}) AS status`), sql` UNION ALL `);
  return sql`WITH RECURSIVE s(type, status) AS (
    ${anchors}
    UNION ALL
    SELECT s.type, (SELECT MIN(p.status) FROM posts p WHERE p.type = s.type AND p.status > s.status) FROM s WHERE s.status IS NOT NULL
  )`;
}

/**
 * The total of a list filtered by event, ticket and statuses only (a manager's list of an event or a
 * ticket), from the attendee counts the triggers keep (`ticket_attendee_counts`: a few rows per
 * event and ticket, however many attendees), without reading any attendee: when every status attendee
 * posts have is one the list takes, the attendee-status filter keeps them all, so the number of the
 * event's (or ticket's) attendee rows is the total, with the event's own status checked once.
 * Undefined when the list has other filters or some attendee post has a status the list leaves out
 * (then the caller counts the rows with their posts). Every attendee row has its post: the foreign key
 * deletes it with the post. One statement: the statuses are looked up first and the sum is answered
 * only when they all fit. On PostgreSQL the counts are delta rows until settled; past
 * {@link SETTLE_AFTER_DELTAS} of them the reader settles its events' and tickets' counts.
 */
async function totalFromCounts(db: Db, q: AttendeeListQuery): Promise<number | undefined> {
  const { postIds, ticketIds, postStatuses, statuses, publicOnly, orderby, order, limit, offset, ...others } = q;
  if (publicOnly || Object.values(others).some((v) => v !== undefined)) return undefined;
  if (!postIds?.length && !ticketIds?.length) return undefined;
  if (!statuses) return undefined;
  // As `statusIn` lists them: an empty list takes only the empty status.
  const taken = statuses.length ? statuses : [''];
  const allowed = postStatuses ? (postStatuses.length ? postStatuses : ['']) : [];
  const build = () => {
    let sum = db
      .selectFrom('ticket_attendee_counts as a')
      .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('a.n'), sql.lit(0)).as('n'), eb.fn.coalesce(eb.fn.sum<number>(sql`1 - a.settled`), sql.lit(0)).as('deltas')]);
    if (postIds?.length && postStatuses) {
      // The events named that have a status the list takes, looked up once (not once per count row).
      sum = sum.where((eb) => inFewValues(db, eb.ref('a.post_id'), eb.selectFrom('posts as ep').select('ep.id').where('ep.id', 'in', postIds).where('ep.status', 'in', allowed)));
    } else if (postIds?.length) {
      sum = sum.where('a.post_id', 'in', postIds);
    }
    if (ticketIds?.length) sum = sum.where('a.ticket_id', 'in', ticketIds);
    if (!postIds?.length && postStatuses) {
      sum = sum.where((eb) => eb.exists(eb.selectFrom('posts as ep').select('ep.id').whereRef('ep.id', '=', 'a.post_id').where('ep.status', 'in', allowed)));
    }
    const query = sql<{ n: number | string; deltas: number | string }>`${attendeePostStatuses()}
    SELECT c.n, c.deltas FROM (${sum}) c WHERE NOT EXISTS (SELECT 1 FROM s WHERE s.status NOT IN (${sql.join(taken)}))`;
    return { compile: () => query.compile(db) };
  };
  const parameters = [...(postIds?.length ? [...postIds, ...allowed, ...(ticketIds ?? [])] : [...(ticketIds ?? []), ...allowed]), ...taken];
  const shape = `totalFromCounts:${taken.length}:${postIds?.length ?? 0}:${ticketIds?.length ?? 0}:${postStatuses ? postStatuses.length || 1 : '-'}`;
  const [row] = await runCompiled(db, shape, build, parameters);
  if (!row) return undefined;
  // Settling only shortens later reads: the total stands if it fails.
  if (Number(row.deltas) > SETTLE_AFTER_DELTAS) await settleAttendeeCounts(db, postIds ?? [], ticketIds ?? []).catch(() => undefined);
  return Number(row.n);
}

/** A page of the list with `filters` as listings with their order dates and tickets, before its order. */
function pageBase(db: Db, filters: readonly ListFilter[]) {
  return listBase(db, filters).select([...listingColumns(db), attendeeTicketPacked(db)]);
}

type PageQueryBuilder = ReturnType<typeof pageBase>;

/** The page's order: its shape key, the values it binds and how to add it to the page query. */
function listOrder(q: AttendeeListQuery): { key: string; parameters: readonly unknown[]; apply: (query: PageQueryBuilder) => PageQueryBuilder } {
  const dir = q.order === 'DESC' ? 'desc' : 'asc';
  switch (q.orderby) {
    case 'date':
      return { key: `date ${dir}`, parameters: [], apply: (query) => query.orderBy('ap.date_gmt', dir).orderBy('a.attendee_id', 'asc') };
    case 'title':
      return { key: `title ${dir}`, parameters: [], apply: (query) => query.orderBy(textOrder(sql.ref('a.holder_name')), dir).orderBy('a.attendee_id', 'asc') };
    case 'slug':
      return { key: `slug ${dir}`, parameters: [], apply: (query) => query.orderBy('ap.slug', dir).orderBy('a.attendee_id', 'asc') };
    case 'include':
      if (!q.include?.length) break;
      return includeOrder('a.attendee_id', q.include, dir);
  }
  return { key: `id ${dir}`, parameters: [], apply: (query) => query.orderBy('a.attendee_id', dir) };
}

/**
 * One page of the list (what the attendee objects show, their tickets' part too) and the total number
 * of matches. Two queries:
 * an event's attendees run to thousands, and counting them alone (from the kept counts when it can,
 * {@link totalFromCounts}, else an index scan) is cheaper than carrying them all through a window for
 * `count(*) over ()`. Both are compiled once per shape (filters present, list lengths, order).
 */
export async function listAttendeePage(db: Db, q: AttendeeListQuery): Promise<{ attendees: AttendeeListing[]; tickets: Map<number, AttendeeTicket>; total: number }> {
  const filters = listFilters(db, q);
  const { key: keys, parameters } = filtersShape(filters);
  let total = await totalFromCounts(db, q);
  if (total === undefined) {
    const [row] = await runCompiled(db, `attendeeList:count:${keys}`, () => listBase(db, filters).select((eb) => eb.fn.countAll<number>().as('n')), parameters);
    total = Number(row?.n ?? 0);
  }
  const tickets = new Map<number, AttendeeTicket>();
  if (total === 0) return { attendees: [], tickets, total };
  const order = listOrder(q);
  const limit = q.limit;
  const offset = safeOffset(q.offset);
  const rows = await runCompiled<Record<string, unknown>>(
    db,
    `attendeeList:page:${order.key}:${keys}`,
    () => order.apply(pageBase(db, filters)).limit(limit).offset(offset),
    [...parameters, ...order.parameters, limit, offset],
  );
  for (const r of rows) {
    const ticket = ticketOfPacked(r.ticket);
    if (ticket) tickets.set(Number(r.ticket_id), ticket);
  }
  return { attendees: rows.map(listingFromRow), tickets, total };
}

/** What attendee objects of tickets' attendees show, in ID order, optionally only the public ones (opted-in, going/completed). */
export async function attendeesOfTickets(db: Db, ticketIds: readonly number[], publicOnly: boolean): Promise<AttendeeListing[]> {
  if (ticketIds.length === 0) return [];
  const ids = [...new Set(ticketIds)];
  const build = () => {
    let query = attendeesJoined(db).select(listingColumns(db)).where('a.ticket_id', 'in', ids);
    if (publicOnly) {
      query = query.where('a.optout', '=', 0).where('ap.status', '=', 'publish').where('a.order_status', 'in', PUBLIC_ORDER_STATUSES);
    }
    return query.orderBy('a.attendee_id');
  };
  const parameters = publicOnly ? [...ids, 0, 'publish', ...PUBLIC_ORDER_STATUSES] : ids;
  const rows = await runCompiled<Record<string, unknown>>(db, `attendeesOfTickets:${ids.length}:${publicOnly}`, build, parameters);
  return rows.map(listingFromRow);
}
