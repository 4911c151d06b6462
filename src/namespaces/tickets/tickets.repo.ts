/**
 * @module namespaces/tickets/tickets.repo
 * Ticket queries: loading tickets with their post and shared capacity, the filtered list and
 * per-ticket attendee statistics (seat reservation is `seats.repo.ts`).
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../storage/db.js';
import { ANY_STATUSES, type PostRecord } from '../../content/posts.js';
import { POST_COLUMN_COUNT, postColumnRefs, postFromValues } from './posts.repo.js';
import { PROVIDERS, TICKET_TYPES } from './providers.js';
import { containsPattern, ilike, ilikeBinding, rowColumns, rowValues, textOrder } from '../../storage/dialect.js';
import type { ProviderSlug } from './providers.js';
import { safeOffset } from '../../rest/pagination.js';
import { runCompiled } from '../../storage/compiled-queries.js';
import { applyFilters, filtersShape, includeOrder, type ListFilter as Filter } from './compiled-rows.js';

export type CapacityMode = 'own' | 'global' | 'capped' | '';

/** Modes whose sales also count against the post's shared capacity (also in PostgreSQL's `ticket_reserve_seats`). */
export const SHARED_MODES: readonly CapacityMode[] = ['global', 'capped'];

export interface SharedCapacity {
  capacity: number;
  sold: number;
}

/** A ticket with its post row, the post it is sold for and, for shared modes, that post's shared capacity. */
export interface TicketRecord {
  id: number;
  postId: number;
  provider: ProviderSlug;
  type: string;
  price: string;
  currency: string;
  showDescription: boolean;
  startLocal: string;
  startGmt: string;
  endLocal: string;
  endGmt: string;
  sku: string;
  iac: string;
  /** Own seat limit, -1 when the ticket has none of its own. */
  capacity: number;
  capacityMode: CapacityMode;
  /** Seats taken, pending included. */
  sold: number;
  pending: number;
  shared: SharedCapacity | null;
  post: PostRecord;
  /** The post the ticket is sold for; undefined when it is gone. */
  parent: PostRecord | undefined;
}

/** Columns of the ticket `t` and its post's shared capacity `s` a {@link TicketRecord} holds, in the order {@link ticketFromRow} reads them. */
const TICKET_COLUMNS = [
  't.ticket_id', 't.post_id', 't.provider', 't.type', 't.price', 't.currency', 't.show_description', 't.start_local', 't.start_gmt', 't.end_local',
  't.end_gmt', 't.sku', 't.iac', 't.capacity', 't.capacity_mode', 't.sold', 't.pending', 's.capacity', 's.sold',
] as const;

/** The ticket's columns, then its post's, then those of the post it is sold for. */
const TICKET_ROW = [...TICKET_COLUMNS, ...postColumnRefs('tp'), ...postColumnRefs('pp')];

/**
 * What a ticket query selects from `ticket_details as t` joined with its post `tp`, the post it is
 * sold for `pp` and that post's shared capacity `s`: on SQLite in one column (`rowColumns`: 51 values
 * a row, which better-sqlite3 makes into properties slower than SQLite reads them); see {@link ticketFromRow}.
 */
function ticketColumns(db: Db) {
  return rowColumns(db, 'ticket', TICKET_ROW);
}

/** A row selected with {@link ticketColumns}, or undefined when its ticket post is missing. */
function ticketFromRow(r: Record<string, unknown>): TicketRecord | undefined {
  const v = rowValues(r, 'ticket', TICKET_ROW.length);
  const post = postFromValues(v, TICKET_COLUMNS.length);
  if (!post) return undefined;
  const [ticketId, postId, provider, type, price, currency, showDescription, startLocal, startGmt, endLocal, endGmt, sku, iac, capacity, capacityMode, sold, pending, sharedCapacity, sharedSold] = v;
  const mode = capacityMode as CapacityMode;
  const shared = sharedCapacity === null || sharedCapacity === undefined ? { capacity: 0, sold: 0 } : { capacity: Number(sharedCapacity), sold: Number(sharedSold) };
  return {
    id: Number(ticketId),
    postId: Number(postId),
    provider: provider as ProviderSlug,
    type: type as string,
    price: price as string,
    currency: currency as string,
    showDescription: Number(showDescription) === 1,
    startLocal: startLocal as string,
    startGmt: startGmt as string,
    endLocal: endLocal as string,
    endGmt: endGmt as string,
    sku: sku as string,
    iac: iac as string,
    capacity: Number(capacity),
    capacityMode: mode,
    sold: Number(sold),
    pending: Number(pending),
    shared: SHARED_MODES.includes(mode) ? shared : null,
    post,
    parent: postFromValues(v, TICKET_COLUMNS.length + POST_COLUMN_COUNT),
  };
}

/** Tickets with their joins: the base of every ticket read. */
function ticketsJoined(db: Db) {
  return db
    .selectFrom('ticket_details as t')
    .innerJoin('posts as tp', 'tp.id', 't.ticket_id')
    .leftJoin('posts as pp', 'pp.id', 't.post_id')
    .leftJoin('ticket_shared_capacity as s', 's.post_id', 't.post_id');
}

/** Tickets by ID with their posts, the posts they are sold for and shared capacities (one query). */
export async function loadTickets(db: Db, ids: readonly number[]): Promise<Map<number, TicketRecord>> {
  const out = new Map<number, TicketRecord>();
  if (ids.length === 0) return out;
  const unique = [...new Set(ids)];
  const rows = await runCompiled(db, `loadTickets:${unique.length}`, () => ticketsJoined(db).select(ticketColumns(db)).where('t.ticket_id', 'in', unique), unique);
  for (const r of rows) {
    const ticket = ticketFromRow(r as Record<string, unknown>);
    if (ticket) out.set(ticket.id, ticket);
  }
  return out;
}

/** One ticket, or undefined. */
export async function getTicket(db: Db, id: number): Promise<TicketRecord | undefined> {
  return (await loadTickets(db, [id])).get(id);
}

/** Number of tickets per post (posts without tickets are absent). */
export async function ticketCountsByPost(db: Db, postIds: readonly number[]): Promise<Map<number, number>> {
  if (postIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('ticket_details')
    .select(['post_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('post_id', 'in', [...new Set(postIds)])
    .groupBy('post_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.post_id), Number(r.n)]));
}

export interface TicketDetailsValues {
  post_id: number;
  provider: ProviderSlug;
  type: string;
  price: string;
  currency: string;
  show_description: number;
  start_local: string;
  start_gmt: string;
  end_local: string;
  end_gmt: string;
  sku: string;
  iac: string;
  capacity: number;
  capacity_mode: CapacityMode;
}

export async function insertTicketDetails(db: Db, ticketId: number, values: TicketDetailsValues): Promise<void> {
  await db.insertInto('ticket_details').values({ ticket_id: ticketId, ...values, sold: 0, pending: 0 }).execute();
}

export async function updateTicketDetails(db: Db, ticketId: number, patch: Partial<TicketDetailsValues>): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('ticket_details').set(patch).where('ticket_id', '=', ticketId).execute();
}

/** Sets (creating if needed) the shared capacity of a post. */
export async function setSharedCapacity(db: Db, postId: number, capacity: number): Promise<void> {
  await db
    .insertInto('ticket_shared_capacity')
    .values({ post_id: postId, capacity, sold: 0 })
    .onConflict((oc) => oc.column('post_id').doUpdateSet({ capacity }))
    .execute();
}

/** The post's shared capacity row, if it has one. */
export async function getSharedCapacity(db: Db, postId: number): Promise<SharedCapacity | undefined> {
  const row = await db.selectFrom('ticket_shared_capacity').selectAll().where('post_id', '=', postId).executeTakeFirst();
  return row ? { capacity: Number(row.capacity), sold: Number(row.sold) } : undefined;
}

/** Adds `delta` (may be negative) to the seats counted against a post's shared capacity. */
export async function adjustSharedSold(db: Db, postId: number, delta: number): Promise<void> {
  if (delta === 0) return;
  await db
    .insertInto('ticket_shared_capacity')
    .values({ post_id: postId, capacity: 0, sold: Math.max(delta, 0) })
    .onConflict((oc) => oc.column('post_id').doUpdateSet((eb) => ({ sold: eb('ticket_shared_capacity.sold', '+', delta) })))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------------------

export interface TicketStats {
  attendees: number;
  checkedIn: number;
  going: number;
  notGoing: number;
}

/** Attendee counts per ticket (one grouped query). */
export async function ticketStats(db: Db, ticketIds: readonly number[]): Promise<Map<number, TicketStats>> {
  const out = new Map<number, TicketStats>();
  if (ticketIds.length === 0) return out;
  const rows = await db
    .selectFrom('ticket_attendees')
    .select((eb) => [
      'ticket_id',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('checked_in').as('checked'),
      eb.fn.sum<number>(sql<number>`CASE WHEN order_status = 'yes' THEN 1 ELSE 0 END`).as('going'),
    ])
    .where('ticket_id', 'in', [...new Set(ticketIds)])
    .groupBy('ticket_id')
    .execute();
  for (const r of rows) {
    const n = Number(r.n);
    const going = Number(r.going ?? 0);
    out.set(Number(r.ticket_id), { attendees: n, checkedIn: Number(r.checked ?? 0), going, notGoing: n - going });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The list
// ---------------------------------------------------------------------------------------------

/** Filters of `GET /tickets`, already resolved by the service. */
export interface TicketListQuery {
  search?: string;
  includePosts?: number[];
  excludePosts?: number[];
  isAvailable?: boolean;
  providers?: ProviderSlug[];
  afterGmt?: string;
  beforeGmt?: string;
  include?: number[];
  exclude?: number[];
  availableFromGmt?: string;
  availableUntilGmt?: string;
  /** Parent post statuses; undefined = any. */
  postStatuses?: readonly string[];
  /** Ticket statuses; undefined = any. */
  statuses?: readonly string[];
  currencies?: string[];
  /** Plus add-on only: tickets here never collect attendee information. */
  attendeeInformation?: boolean;
  attendeesBetween?: [number, number];
  checkedInBetween?: [number, number];
  capacityBetween?: [number, number];
  /** Limits non-manage callers to what they may read. */
  visibility?: { userId: number; readPrivate: boolean };
  orderby: 'id' | 'include' | 'title' | 'slug';
  order: 'ASC' | 'DESC';
  limit: number;
  offset: number;
}

const PAID_PROVIDERS = PROVIDERS.filter((p) => p.paid).map((p) => p.slug);

type ListQueryBuilder = ReturnType<typeof ticketsJoined>;
type ListFilter = Filter<ListQueryBuilder>;

const none = sql<SqlBool>`1 = 0`;
const noMatch: ListFilter = { key: 'none', parameters: [], apply: (query) => query.where(none) };

/** `column IN list`, or no match for an empty list. */
function inList(column: 't.post_id' | 't.provider' | 't.ticket_id', list: readonly unknown[]): ListFilter {
  if (list.length === 0) return noMatch;
  return { key: `${column} in ${list.length}`, parameters: list, apply: (query) => query.where(column, 'in', list as never[]) };
}

/** `column NOT IN list` (nothing for an empty list). */
function notInList(column: 't.post_id' | 't.ticket_id', list: readonly number[] | undefined): ListFilter[] {
  if (!list?.length) return [];
  return [{ key: `${column} not in ${list.length}`, parameters: list, apply: (query) => query.where(column, 'not in', [...list]) }];
}

/** A status column in a list of statuses (an empty list matches no status). */
function statusIn(column: 'pp.status' | 'tp.status', statuses: readonly string[]): ListFilter {
  const list = statuses.length ? statuses : [''];
  return { key: `${column} in ${list.length}`, parameters: list, apply: (query) => query.where(column, 'in', list) };
}

/** `value BETWEEN low AND high`. */
function between(key: string, value: Expression<number>, [low, high]: [number, number]): ListFilter {
  return { key, parameters: [low, high], apply: (query) => query.where(sql<SqlBool>`${value} BETWEEN ${low} AND ${high}`) };
}

/** The list's conditions, in the order they bind their values. */
function listFilters(db: Db, q: TicketListQuery): ListFilter[] {
  // Redundant for the result, but lets the planner reach ticket posts by the type index instead of
  // walking every post of the site when it starts from `posts`.
  const filters: ListFilter[] = [{ key: 'ticket types', parameters: TICKET_TYPES, apply: (query) => query.where('tp.type', 'in', TICKET_TYPES) }];
  const dateFilter = (column: 'tp.date_gmt', op: '>=' | '<=', value: string) =>
    filters.push({ key: `${column} ${op}`, parameters: [value], apply: (query) => query.where(column, op, value) });
  // An unset start (end) of sale passes the bound.
  const saleBound = (column: 't.end_gmt' | 't.start_gmt', op: '>=' | '<=', value: string) =>
    filters.push({ key: `${column} ${op}`, parameters: ['', value], apply: (query) => query.where((eb) => eb.or([eb(column, '=', ''), eb(column, op, value)])) });
  if (q.search) {
    const pattern = containsPattern(q.search);
    const bound = ilikeBinding(db, pattern);
    filters.push({ key: `search ${bound.form}`, parameters: [bound.value, bound.value], apply: (query) => query.where((eb) => eb.or([ilike(db, eb.ref('tp.title'), pattern), ilike(db, eb.ref('tp.content'), pattern)])) });
  }
  if (q.includePosts) filters.push(inList('t.post_id', q.includePosts));
  filters.push(...notInList('t.post_id', q.excludePosts));
  if (q.isAvailable !== undefined) {
    const available = sql<SqlBool>`((t.capacity < 0 OR t.sold < t.capacity) AND (t.capacity_mode NOT IN ('global', 'capped') OR COALESCE(s.sold, 0) < COALESCE(s.capacity, 0)))`;
    const wanted = q.isAvailable;
    filters.push({ key: `available ${wanted}`, parameters: [], apply: (query) => query.where(wanted ? available : sql<SqlBool>`NOT ${available}`) });
  }
  if (q.providers) filters.push(inList('t.provider', q.providers));
  if (q.afterGmt) dateFilter('tp.date_gmt', '>=', q.afterGmt);
  if (q.beforeGmt) dateFilter('tp.date_gmt', '<=', q.beforeGmt);
  if (q.include) filters.push(inList('t.ticket_id', q.include));
  filters.push(...notInList('t.ticket_id', q.exclude));
  // As the original: the sale starts on or after `available_from`, ends on or before `available_until`.
  if (q.availableFromGmt) saleBound('t.start_gmt', '>=', q.availableFromGmt);
  if (q.availableUntilGmt) saleBound('t.end_gmt', '<=', q.availableUntilGmt);
  if (q.postStatuses) filters.push(statusIn('pp.status', q.postStatuses));
  if (q.statuses) filters.push(statusIn('tp.status', q.statuses));
  // Free RSVP tickets are priced in no currency, whatever the site's currency setting says.
  if (q.currencies) {
    const currencies = q.currencies;
    filters.push(
      currencies.length
        ? { key: `currency in ${currencies.length}`, parameters: [...currencies, ...PAID_PROVIDERS], apply: (query) => query.where('t.currency', 'in', currencies).where('t.provider', 'in', PAID_PROVIDERS) }
        : noMatch,
    );
  }
  if (q.attendeeInformation === true) filters.push(noMatch);
  const countOf = (extra: Expression<SqlBool> | null) =>
    sql<number>`(SELECT COUNT(*) FROM ticket_attendees a WHERE a.ticket_id = t.ticket_id${extra ? sql` AND ${extra}` : sql``})`;
  if (q.attendeesBetween) filters.push(between('attendees between', countOf(null), q.attendeesBetween));
  if (q.checkedInBetween) filters.push(between('checked in between', countOf(sql<SqlBool>`a.checked_in = 1`), q.checkedInBetween));
  if (q.capacityBetween) {
    filters.push(between('capacity between', sql<number>`CASE WHEN t.capacity_mode = 'global' THEN COALESCE(s.capacity, 0) ELSE t.capacity END`, q.capacityBetween));
  }
  if (q.visibility && !q.visibility.readPrivate) {
    const uid = q.visibility.userId;
    // The user ID is a literal (the shape names it): for signed-out callers the planner drops the author branch.
    filters.push({
      key: `visible to ${uid}`,
      parameters: ['publish', uid, 0, 'publish', uid, 0],
      apply: (query) =>
        query
          .where((eb) => eb.or([eb('tp.status', '=', 'publish'), eb.and([eb('tp.author', '=', uid), eb(sql.lit(uid), '>', 0)])]))
          .where((eb) => eb.or([eb('pp.status', '=', 'publish'), eb.and([eb('pp.author', '=', uid), eb(sql.lit(uid), '>', 0)])])),
    });
  }
  return filters;
}

/** The page's IDs, with the total riding on every row, before their order. */
function pageBase(db: Db, filters: readonly ListFilter[]) {
  return applyFilters(ticketsJoined(db), filters).select(['t.ticket_id', sql<number>`count(*) over ()`.as('total_matches')]);
}

type PageQueryBuilder = ReturnType<typeof pageBase>;

/** The page's order: its shape key, the values it binds and how to add it to the page query. */
function listOrder(q: TicketListQuery): { key: string; parameters: readonly unknown[]; apply: (query: PageQueryBuilder) => PageQueryBuilder } {
  const dir = q.order === 'DESC' ? 'desc' : 'asc';
  switch (q.orderby) {
    case 'title':
      return { key: `title ${dir}`, parameters: [], apply: (query) => query.orderBy(textOrder(sql.ref('tp.title')), dir).orderBy('t.ticket_id', 'asc') };
    case 'slug':
      return { key: `slug ${dir}`, parameters: [], apply: (query) => query.orderBy('tp.slug', dir).orderBy('t.ticket_id', 'asc') };
    case 'include':
      if (!q.include?.length) break;
      return includeOrder('t.ticket_id', q.include, dir);
  }
  return { key: `id ${dir}`, parameters: [], apply: (query) => query.orderBy('t.ticket_id', dir) };
}

/** One page of ticket IDs and the total number of matches (one query, compiled once per shape). */
export async function listTicketIds(db: Db, q: TicketListQuery): Promise<{ ids: number[]; total: number }> {
  const filters = listFilters(db, q);
  const { key, parameters } = filtersShape(filters);
  const order = listOrder(q);
  const limit = q.limit;
  const offset = safeOffset(q.offset);
  // The total rides on every row of the page; only a page past the end asks for it on its own.
  const rows = await runCompiled(
    db,
    `ticketList:page:${order.key}:${key}`,
    () => order.apply(pageBase(db, filters)).limit(limit).offset(offset),
    [...parameters, ...order.parameters, limit, offset],
  );
  if (rows.length > 0) return { ids: rows.map((r) => Number(r.ticket_id)), total: Number(rows[0]!.total_matches) };
  if (offset === 0) return { ids: [], total: 0 };
  const [countRow] = await runCompiled(db, `ticketList:count:${key}`, () => applyFilters(ticketsJoined(db), filters).select((eb) => eb.fn.countAll<number>().as('n')), parameters);
  return { ids: [], total: Number(countRow?.n ?? 0) };
}

/** Statuses a `post_status`/`status` list names: `any` covers every status but trash and auto-draft. */
export function statusList(values: readonly string[]): readonly string[] {
  return values.includes('any') ? ANY_STATUSES : values;
}
