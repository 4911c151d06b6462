/**
 * @module namespaces/tickets/attendees.repo
 * Attendee queries: loading attendees with their posts, the filtered list (with the public-visibility
 * rules for callers without manage access), and check-in as one conditional UPDATE so two scanners
 * can never check the same attendee in twice.
 */
import { sql, type AliasedRawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { PostRecord } from '../../content/posts.js';
import { containsPattern, ilike } from '../../storage/dialect.js';
import { ATTENDEE_TYPES, type ProviderSlug } from './providers.js';
import type { TicketRecord } from './tickets.repo.js';
import { ATTENDEE_LIST_MARKERS, postColumnsAs, postFromRow, type DatePair } from './posts.repo.js';
import { safeOffset } from '../../rest/pagination.js';
import { executeCompiled, runCompiled } from '../../storage/compiled-queries.js';
import { applyFilters, filtersShape, includeOrder, insertShape, type ListFilter as Filter } from './compiled-rows.js';

/**
 * What an attendee object shows (see `attendees.present.ts`): lists and ticket statistics load only
 * this, since every column read into a row object costs more than SQLite takes to find it.
 */
export interface AttendeeListing {
  id: number;
  ticketId: number;
  postId: number;
  provider: ProviderSlug;
  orderId: number | null;
  orderStatus: string;
  holderName: string;
  holderEmail: string;
  purchaserName: string;
  purchaserEmail: string;
  optout: boolean;
  price: number;
  currency: string;
  checkedIn: boolean;
  checkinLocal: string;
  checkinSource: string;
  checkinAuthor: number;
  post: Pick<PostRecord, 'author' | 'status' | 'date' | 'date_gmt' | 'modified' | 'modified_gmt'>;
  /** Site-local date of the attendee's order post; undefined without one. */
  orderDate: string | undefined;
}

/** What an attendee object shows of its ticket. */
export type AttendeeTicket = Pick<TicketRecord, 'price' | 'currency' | 'startLocal' | 'endLocal' | 'sku'> & { post: Pick<PostRecord, 'title' | 'content'> };

/** An attendee with everything stored about it. */
export interface AttendeeRecord extends AttendeeListing {
  userId: number;
  securityCode: string;
  checkinGmt: string;
  qrStatus: boolean;
  information: Record<string, unknown>;
  source: string;
  post: PostRecord;
}

/** The stored registration answers as an object (`{}` when they are not one). */
export function parseInformation(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Attendees `a` joined with their posts `ap` and their order posts `op`. */
function attendeesJoined(db: Db) {
  return db
    .selectFrom('ticket_attendees as a')
    .innerJoin('posts as ap', 'ap.id', 'a.attendee_id')
    .leftJoin('posts as op', 'op.id', 'a.order_id');
}

/** Columns of `a` an {@link AttendeeListing} holds. */
const LISTING_COLUMNS = [
  'attendee_id', 'ticket_id', 'post_id', 'provider', 'order_id', 'order_status', 'holder_name', 'holder_email', 'purchaser_name',
  'purchaser_email', 'optout', 'price', 'currency', 'checked_in', 'checkin_local', 'checkin_source', 'checkin_author',
] as const;

/** Columns of the attendee's post `ap` an {@link AttendeeListing} holds. */
const LISTING_POST_COLUMNS = ['author', 'status', 'date', 'date_gmt', 'modified', 'modified_gmt'] as const;

/** What a listing query selects (see {@link listingFromRow}). */
function listingColumns(): AliasedRawBuilder<unknown, string>[] {
  return [
    ...LISTING_COLUMNS.map((c) => sql.ref(`a.${c}`).as(c)),
    sql.ref('op.date').as('order_date'),
    ...LISTING_POST_COLUMNS.map((c) => sql.ref(`ap.${c}`).as(`ap_${c}`)),
  ];
}

/** What a full attendee query selects (see {@link attendeeFromRow}). */
function attendeeColumns(): AliasedRawBuilder<unknown, string>[] {
  return [
    ...LISTING_COLUMNS.map((c) => sql.ref(`a.${c}`).as(c)),
    sql.ref('op.date').as('order_date'),
    ...['user_id', 'security_code', 'checkin_gmt', 'qr_status', 'information', 'source'].map((c) => sql.ref(`a.${c}`).as(c)),
    ...postColumnsAs('ap', 'ap_'),
  ];
}

function listingFromRow(r: Record<string, unknown>): AttendeeListing {
  return {
    id: Number(r.attendee_id),
    ticketId: Number(r.ticket_id),
    postId: Number(r.post_id),
    provider: r.provider as ProviderSlug,
    orderId: r.order_id === null ? null : Number(r.order_id),
    orderStatus: r.order_status as string,
    holderName: r.holder_name as string,
    holderEmail: r.holder_email as string,
    purchaserName: r.purchaser_name as string,
    purchaserEmail: r.purchaser_email as string,
    optout: Number(r.optout) === 1,
    price: Number(r.price),
    currency: r.currency as string,
    checkedIn: Number(r.checked_in) === 1,
    checkinLocal: r.checkin_local as string,
    checkinSource: r.checkin_source as string,
    checkinAuthor: Number(r.checkin_author),
    post: {
      author: Number(r.ap_author),
      status: r.ap_status as string,
      date: r.ap_date as string,
      date_gmt: r.ap_date_gmt as string,
      modified: r.ap_modified as string,
      modified_gmt: r.ap_modified_gmt as string,
    },
    orderDate: r.order_date === null || r.order_date === undefined ? undefined : (r.order_date as string),
  };
}

function attendeeFromRow(r: Record<string, unknown>): AttendeeRecord | undefined {
  const post = postFromRow(r, 'ap_');
  if (!post) return undefined;
  return {
    ...listingFromRow(r),
    userId: Number(r.user_id),
    securityCode: r.security_code as string,
    checkinGmt: r.checkin_gmt as string,
    qrStatus: Number(r.qr_status) === 1,
    information: parseInformation(r.information as string),
    source: r.source as string,
    post,
  };
}

/** What an attendee object shows of the ticket `t` (with its post `tp`), see {@link ticketOfRow}. */
function attendeeTicketColumns(): AliasedRawBuilder<unknown, string>[] {
  return [
    sql.ref('tp.id').as('tp_id'), sql.ref('tp.title').as('tp_title'), sql.ref('tp.content').as('tp_content'),
    ...(['price', 'currency', 'start_local', 'end_local', 'sku'] as const).map((c) => sql.ref(`t.${c}`).as(`t_${c}`)),
  ];
}

/** The attendee's ticket selected with {@link attendeeTicketColumns}; undefined when it is gone. */
function ticketOfRow(r: Record<string, unknown>): AttendeeTicket | undefined {
  if (r.tp_id === null || r.tp_id === undefined || r.t_price === null || r.t_price === undefined) return undefined;
  return {
    price: r.t_price as string,
    currency: r.t_currency as string,
    startLocal: r.t_start_local as string,
    endLocal: r.t_end_local as string,
    sku: r.t_sku as string,
    post: { title: r.tp_title as string, content: r.tp_content as string },
  };
}

function attendeesOfRows(rows: readonly unknown[]): AttendeeRecord[] {
  const out: AttendeeRecord[] = [];
  for (const r of rows) {
    const a = attendeeFromRow(r as Record<string, unknown>);
    if (a) out.push(a);
  }
  return out;
}

/** Rows of the attendees `ids` with `columns`, one query per 500. */
async function rowsByIds(db: Db, ids: readonly number[], shape: string, columns: () => AliasedRawBuilder<unknown, string>[]): Promise<Record<string, unknown>[]> {
  const unique = [...new Set(ids)];
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    out.push(...(await runCompiled<Record<string, unknown>>(db, `${shape}:${chunk.length}`, () => attendeesJoined(db).select(columns()).where('a.attendee_id', 'in', chunk), chunk)));
  }
  return out;
}

/** Attendees by ID with their posts and order dates (one query per 500). */
export async function loadAttendees(db: Db, ids: readonly number[]): Promise<Map<number, AttendeeRecord>> {
  if (ids.length === 0) return new Map();
  return new Map(attendeesOfRows(await rowsByIds(db, ids, 'loadAttendees', attendeeColumns)).map((a) => [a.id, a]));
}

/** What attendee objects of `ids` show (one query per 500). */
export async function loadAttendeeListings(db: Db, ids: readonly number[]): Promise<Map<number, AttendeeListing>> {
  if (ids.length === 0) return new Map();
  return new Map((await rowsByIds(db, ids, 'loadAttendeeListings', listingColumns)).map((r) => [Number(r.attendee_id), listingFromRow(r)]));
}

/** An attendee as the QR check-in reads it: what its object shows, and what the scan is checked against. */
export type CheckInCandidate = AttendeeListing & Pick<AttendeeRecord, 'securityCode' | 'qrStatus'>;

/**
 * One attendee for a check-in with what its object shows of its ticket (undefined when the ticket is
 * gone), in one query; undefined when there is no such attendee.
 */
export async function getCheckInCandidate(db: Db, id: number): Promise<{ attendee: CheckInCandidate; ticket: AttendeeTicket | undefined } | undefined> {
  const [row] = await runCompiled<Record<string, unknown>>(db, 'getCheckInCandidate', () =>
    attendeesJoined(db)
      .leftJoin('ticket_details as t', 't.ticket_id', 'a.ticket_id')
      .leftJoin('posts as tp', 'tp.id', 't.ticket_id')
      .select([...listingColumns(), sql.ref('a.security_code').as('security_code'), sql.ref('a.qr_status').as('qr_status'), ...attendeeTicketColumns()])
      .where('a.attendee_id', '=', id), [id]);
  if (!row) return undefined;
  const attendee = { ...listingFromRow(row), securityCode: row.security_code as string, qrStatus: Number(row.qr_status) === 1 };
  return { attendee, ticket: ticketOfRow(row) };
}

/** One attendee, or undefined. */
export async function getAttendee(db: Db, id: number): Promise<AttendeeRecord | undefined> {
  return (await loadAttendees(db, [id])).get(id);
}

export interface NewAttendee {
  ticket_id: number;
  post_id: number;
  provider: ProviderSlug;
  order_id: number | null;
  order_status: string;
  holder_name: string;
  holder_email: string;
  purchaser_name: string;
  purchaser_email: string;
  user_id: number;
  optout: number;
  security_code: string;
  price: number;
  currency: string;
  information: string;
  source: string;
}

export async function insertAttendeeDetails(db: Db, attendeeId: number, values: NewAttendee): Promise<void> {
  const row = { attendee_id: attendeeId, ...values };
  const { shape, parameters } = insertShape('ticket_attendees', [row]);
  await executeCompiled(db, shape, () => db.insertInto('ticket_attendees').values(row), parameters);
}

export interface CheckInMark {
  when: DatePair;
  source: 'site' | 'app';
  author: number;
}

/**
 * Checks an attendee in unless already checked in (by the site or by the app): one conditional UPDATE,
 * so of several concurrent calls exactly one returns true.
 */
export async function markCheckedIn(db: Db, attendeeId: number, mark: CheckInMark): Promise<boolean> {
  const qr = mark.source === 'app' ? 1 : 0;
  const result = await executeCompiled(db, 'markCheckedIn', () =>
    db
      .updateTable('ticket_attendees')
      .set({ checked_in: 1, qr_status: qr, checkin_local: mark.when.local, checkin_gmt: mark.when.gmt, checkin_source: mark.source, checkin_author: mark.author })
      .where('attendee_id', '=', attendeeId)
      .where('checked_in', '=', 0)
      .where('qr_status', '=', 0), [1, qr, mark.when.local, mark.when.gmt, mark.source, mark.author, attendeeId, 0, 0]);
  return Number(result.numAffectedRows) === 1;
}

/** Clears an attendee's check-in. */
export async function clearCheckIn(db: Db, attendeeId: number): Promise<void> {
  await db
    .updateTable('ticket_attendees')
    .set({ checked_in: 0, qr_status: 0, checkin_local: '', checkin_gmt: '', checkin_source: '', checkin_author: 0 })
    .where('attendee_id', '=', attendeeId)
    .execute();
}

/** Sets the order status of every attendee of an order. */
export async function setOrderAttendeesStatus(db: Db, orderId: number, status: string): Promise<void> {
  await db.updateTable('ticket_attendees').set({ order_status: status }).where('order_id', '=', orderId).execute();
}

/** Attendee IDs of an order, in ID order. */
export async function attendeeIdsOfOrder(db: Db, orderId: number): Promise<number[]> {
  const rows = await db.selectFrom('ticket_attendees').select('attendee_id').where('order_id', '=', orderId).orderBy('attendee_id').execute();
  return rows.map((r) => Number(r.attendee_id));
}

/** Touches the modified date of attendee posts. */
export async function touchAttendees(db: Db, ids: readonly number[], when: DatePair): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('posts').set({ modified: when.local, modified_gmt: when.gmt }).where('id', 'in', [...ids]).execute();
}

// ---------------------------------------------------------------------------------------------
// The list
// ---------------------------------------------------------------------------------------------

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
    filters.push({ key, parameters: columns.map(() => p), apply: (query) => query.where((eb) => eb.or(columns.map((c) => ilike(db, eb.ref(c), p)))) });
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
 * The statuses attendee posts have, site-wide: per attendee type, the least status and then the next
 * above the last one found, each one index seek (`posts_type_status_date`), so a few seeks however
 * many attendees there are.
 */
async function attendeePostStatuses(db: Db): Promise<Set<string>> {
  const build = () => {
    const anchors = sql.join(ATTENDEE_TYPES.map((t) => sql`SELECT ${sql.lit(t)} AS type, (SELECT MIN(p.status) FROM posts p WHERE p.type = ${sql.lit(t)}) AS status`), sql` UNION ALL `);
    const query = sql<{ status: string }>`WITH RECURSIVE s(type, status) AS (
    ${anchors}
    UNION ALL
    SELECT s.type, (SELECT MIN(p.status) FROM posts p WHERE p.type = s.type AND p.status > s.status) FROM s WHERE s.status IS NOT NULL
  ) SELECT DISTINCT status FROM s WHERE status IS NOT NULL`;
    return { compile: () => query.compile(db) };
  };
  const rows = await runCompiled(db, 'attendeePostStatuses', build, []);
  return new Set(rows.map((r) => r.status));
}

/**
 * The total of a list filtered by event, ticket and statuses only (a manager's list of an event or a
 * ticket), without reading every attendee's post: when every status attendee posts have is one the
 * list takes, the attendee-status filter keeps them all, so the index of the event's (or ticket's)
 * attendees is counted alone, with the event's own status checked once. Undefined when the list has
 * other filters or some attendee post has a status the list leaves out (then the caller counts the
 * rows with their posts). Every attendee row has its post: the foreign key deletes it with the post.
 */
async function countByIndex(db: Db, q: AttendeeListQuery): Promise<number | undefined> {
  const { postIds, ticketIds, postStatuses, statuses, publicOnly, orderby, order, limit, offset, ...others } = q;
  if (publicOnly || Object.values(others).some((v) => v !== undefined)) return undefined;
  if (!postIds?.length && !ticketIds?.length) return undefined;
  if (!statuses) return undefined;
  for (const status of await attendeePostStatuses(db)) if (!statuses.includes(status)) return undefined;
  const allowed = postStatuses ? (postStatuses.length ? postStatuses : ['']) : [];
  const build = () => {
    let query = db.selectFrom('ticket_attendees as a').select((eb) => eb.fn.countAll<number>().as('n'));
    if (postIds?.length && postStatuses) {
      // The events named that have a status the list takes, looked up once (not once per attendee);
      // they drive the walk through the attendees index.
      query = query.where('a.post_id', 'in', (eb) => eb.selectFrom('posts as ep').select('ep.id').where('ep.id', 'in', postIds).where('ep.status', 'in', allowed));
    } else if (postIds?.length) {
      query = query.where('a.post_id', 'in', postIds);
    }
    if (ticketIds?.length) query = query.where('a.ticket_id', 'in', ticketIds);
    if (!postIds?.length && postStatuses) {
      query = query.where((eb) => eb.exists(eb.selectFrom('posts as ep').select('ep.id').whereRef('ep.id', '=', 'a.post_id').where('ep.status', 'in', allowed)));
    }
    return query;
  };
  const parameters = postIds?.length ? [...postIds, ...allowed, ...(ticketIds ?? [])] : [...(ticketIds ?? []), ...allowed];
  const shape = `countByIndex:${postIds?.length ?? 0}:${ticketIds?.length ?? 0}:${postStatuses ? postStatuses.length || 1 : '-'}`;
  const [row] = await runCompiled(db, shape, build, parameters);
  return Number(row?.n ?? 0);
}

/** A page of the list with `filters` as listings with their order dates and tickets, before its order. */
function pageBase(db: Db, filters: readonly ListFilter[]) {
  return listBase(db, filters)
    .leftJoin('posts as op', 'op.id', 'a.order_id')
    .leftJoin('ticket_details as t', 't.ticket_id', 'a.ticket_id')
    .leftJoin('posts as tp', 'tp.id', 't.ticket_id')
    .select([...listingColumns(), ...attendeeTicketColumns()]);
}

type PageQueryBuilder = ReturnType<typeof pageBase>;

/** The page's order: its shape key, the values it binds and how to add it to the page query. */
function listOrder(q: AttendeeListQuery): { key: string; parameters: readonly unknown[]; apply: (query: PageQueryBuilder) => PageQueryBuilder } {
  const dir = q.order === 'DESC' ? 'desc' : 'asc';
  switch (q.orderby) {
    case 'date':
      return { key: `date ${dir}`, parameters: [], apply: (query) => query.orderBy('ap.date_gmt', dir).orderBy('a.attendee_id', 'asc') };
    case 'title':
      return { key: `title ${dir}`, parameters: [], apply: (query) => query.orderBy('a.holder_name', dir).orderBy('a.attendee_id', 'asc') };
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
 * an event's attendees run to thousands, and counting them alone (an index scan) is cheaper than
 * carrying them all through a window for `count(*) over ()`. Both are compiled once per shape (filters
 * present, list lengths, order).
 */
export async function listAttendeePage(db: Db, q: AttendeeListQuery): Promise<{ attendees: AttendeeListing[]; tickets: Map<number, AttendeeTicket>; total: number }> {
  const filters = listFilters(db, q);
  const { key: keys, parameters } = filtersShape(filters);
  let total = await countByIndex(db, q);
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
    const ticket = ticketOfRow(r);
    if (ticket) tickets.set(Number(r.ticket_id), ticket);
  }
  return { attendees: rows.map(listingFromRow), tickets, total };
}

/** What attendee objects of tickets' attendees show, in ID order, optionally only the public ones (opted-in, going/completed). */
export async function attendeesOfTickets(db: Db, ticketIds: readonly number[], publicOnly: boolean): Promise<AttendeeListing[]> {
  if (ticketIds.length === 0) return [];
  const ids = [...new Set(ticketIds)];
  const build = () => {
    let query = attendeesJoined(db).select(listingColumns()).where('a.ticket_id', 'in', ids);
    if (publicOnly) {
      query = query.where('a.optout', '=', 0).where('ap.status', '=', 'publish').where('a.order_status', 'in', PUBLIC_ORDER_STATUSES);
    }
    return query.orderBy('a.attendee_id');
  };
  const parameters = publicOnly ? [...ids, 0, 'publish', ...PUBLIC_ORDER_STATUSES] : ids;
  const rows = await runCompiled<Record<string, unknown>>(db, `attendeesOfTickets:${ids.length}:${publicOnly}`, build, parameters);
  return rows.map(listingFromRow);
}
