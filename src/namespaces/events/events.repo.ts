/**
 * @module namespaces/events/events.repo
 * Queries of events: rows of `posts` + `event_details` as {@link EventRecord}s, the list query with
 * every filter of the events archive, and the writes of event rows and links.
 */
import { sql, type CompiledQuery, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { ANY_STATUSES, type PostRecord } from '../../content/posts.js';
import { pathSlug } from '../../content/slugs.js';
import { ilike, containsPattern, countPostTextCandidates, packedColumns, postTextCandidates, unpackRow } from '../../storage/dialect.js';
import type { Db } from '../../storage/db.js';
import type { Database } from '../../storage/schema.js';
import { EVENT_TYPE } from './caps.js';
import type { TicketedSubquery } from './extensions.js';
import { safeOffset } from '../../rest/pagination.js';
import { runCompiled } from '../../storage/compiled-queries.js';

/** An event: its post row and its details. */
export interface EventRecord extends PostRecord {
  startLocal: string;
  endLocal: string;
  startUtc: string;
  endUtc: string;
  timezone: string;
  timezoneAbbr: string;
  allDay: boolean;
  cost: string;
  costValues: string[];
  currencySymbol: string;
  currencyCode: string;
  currencyPosition: string;
  website: string | null;
  showMap: boolean | null;
  showMapLink: boolean | null;
  hideFromListings: boolean;
  featured: boolean;
  imageId: number;
  lineage: string[];
  /** `description`/`excerpt` rendered at write time; null: not rendered (render `content`/`excerpt`). */
  contentHtml: string | null;
  excerptHtml: string | null;
}

/** Event detail columns as the service writes them. */
export interface EventDetailsRow {
  status: string;
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
  timezone: string;
  timezone_abbr: string;
  all_day: number;
  cost: string;
  cost_values: string;
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  website: string | null;
  show_map: number | null;
  show_map_link: number | null;
  hide_from_listings: number;
  featured: number;
  image_id: number;
  lineage: string;
  /** Rendered `description`/`excerpt` (null or absent: not rendered). */
  content_html?: string | null;
  excerpt_html?: string | null;
}

const POST_COLUMNS = [
  'p.id', 'p.type', 'p.status', 'p.slug', 'p.title', 'p.content', 'p.excerpt', 'p.author', 'p.parent', 'p.password',
  'p.menu_order', 'p.date', 'p.date_gmt', 'p.modified', 'p.modified_gmt', 'p.image_url',
] as const;

const DETAIL_COLUMNS = [
  'e.start_local', 'e.end_local', 'e.start_utc', 'e.end_utc', 'e.timezone', 'e.timezone_abbr', 'e.all_day', 'e.cost',
  'e.cost_values', 'e.currency_symbol', 'e.currency_code', 'e.currency_position', 'e.website', 'e.show_map',
  'e.show_map_link', 'e.hide_from_listings', 'e.featured', 'e.image_id', 'e.lineage', 'e.content_html', 'e.excerpt_html',
] as const;

/** The columns of an event row, in the order {@link toEventRecord} reads them. */
const EVENT_COLUMNS: readonly (string | RawBuilder<unknown>)[] = [...POST_COLUMNS, ...DETAIL_COLUMNS];

/**
 * The columns of list pages: the raw description and excerpt only where no rendered HTML is stored
 * (list pages never show the raw text), so a page does not read the text twice.
 */
const LIST_EVENT_COLUMNS = EVENT_COLUMNS.map((c) =>
  c === 'p.content' || c === 'p.excerpt' ? sql`case when ${sql.ref(`e.${c.slice(2)}_html`)} is null then ${sql.ref(c)} else '' end` : c);

function jsonList(text: unknown): string[] {
  try {
    const v: unknown = JSON.parse(String(text ?? '[]'));
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

function nullableBool(v: unknown): boolean | null {
  return v === null || v === undefined ? null : Number(v) !== 0;
}

function nullableString(v: unknown): string | null {
  return v === null || v === undefined ? null : String(v);
}

/** An event row (the values of {@link EVENT_COLUMNS}, unpacked) as an {@link EventRecord}. */
function toEventRecord(packed: unknown): EventRecord {
  const [
    id, type, status, slug, title, content, excerpt, author, parent, password, menuOrder, date, dateGmt, modified, modifiedGmt, imageUrl,
    startLocal, endLocal, startUtc, endUtc, timezone, timezoneAbbr, allDay, cost, costValues, currencySymbol, currencyCode,
    currencyPosition, website, showMap, showMapLink, hideFromListings, featured, imageId, lineage, contentHtml, excerptHtml,
  ] = unpackRow(packed);
  return {
    id: Number(id), type: String(type), status: String(status), slug: String(slug), title: String(title),
    content: String(content), excerpt: String(excerpt), author: Number(author), parent: Number(parent),
    password: String(password), menu_order: Number(menuOrder), date: String(date), date_gmt: String(dateGmt),
    modified: String(modified), modified_gmt: String(modifiedGmt), image_url: String(imageUrl),
    startLocal: String(startLocal), endLocal: String(endLocal), startUtc: String(startUtc), endUtc: String(endUtc),
    timezone: String(timezone), timezoneAbbr: String(timezoneAbbr), allDay: Number(allDay) !== 0,
    cost: String(cost), costValues: jsonList(costValues), currencySymbol: String(currencySymbol),
    currencyCode: String(currencyCode), currencyPosition: String(currencyPosition), website: nullableString(website),
    showMap: nullableBool(showMap), showMapLink: nullableBool(showMapLink),
    hideFromListings: Number(hideFromListings) !== 0, featured: Number(featured) !== 0,
    imageId: Number(imageId), lineage: jsonList(lineage), contentHtml: nullableString(contentHtml), excerptHtml: nullableString(excerptHtml),
  };
}

/** Event rows with `columns` packed (see {@link packedColumns}) whose IDs are `ids`. */
function eventRowsByIds(db: Db, columns: readonly (string | RawBuilder<unknown>)[], ids: readonly number[]) {
  return db
    .selectFrom('event_details as e')
    .innerJoin('posts as p', 'p.id', 'e.post_id')
    .select(packedColumns(db, columns).as('packed'))
    .where('e.post_id', 'in', [...ids]);
}

/** Events by ID, one query; IDs that are not events are absent. */
export async function getEventsByIds(db: Db, ids: readonly number[]): Promise<Map<number, EventRecord>> {
  const out = new Map<number, EventRecord>();
  const unique = [...new Set(ids)].filter((n) => Number.isInteger(n) && n > 0);
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows = await runCompiled(db, `eventsByIds:${chunk.length}`, () => eventRowsByIds(db, EVENT_COLUMNS, chunk), chunk);
    for (const r of rows) {
      const ev = toEventRecord(r.packed);
      out.set(ev.id, ev);
    }
  }
  return out;
}

/** One event by ID. */
export async function getEvent(db: Db, id: number): Promise<EventRecord | undefined> {
  return (await getEventsByIds(db, [id])).get(id);
}

/** The ID of the event a by-slug path names (`get_page_by_path`: written or percent-encoded, see {@link pathSlug}). */
export async function findEventIdBySlug(db: Db, slug: string): Promise<number | undefined> {
  const row = await db.selectFrom('posts').select('id').where('type', '=', EVENT_TYPE).where('slug', '=', pathSlug(slug)).executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

/** Which of `ids` are events (any status). */
export async function existingEventIds(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('posts').select('id').where('type', '=', EVENT_TYPE).where('id', 'in', [...new Set(ids)]).execute();
  return new Set(rows.map((r) => Number(r.id)));
}

// ---------------------------------------------------------------------------------------------
// The archive query
// ---------------------------------------------------------------------------------------------

/** Every filter of the events archive, resolved (IDs, UTC bounds). */
export interface EventListFilter {
  statuses: readonly string[];
  /** Restrict non-published events to this author (callers who may not read others' drafts). */
  ownDraftsOnly?: { userId: number; readPrivate: boolean };
  includeHidden: boolean;
  startsOnOrAfter?: string;
  endsOnOrBefore?: string;
  startsBefore?: string;
  startsAfter?: string;
  endsBefore?: string;
  endsAfter?: string;
  /** Search terms; each must match title, content or excerpt. */
  search?: readonly string[];
  /** With `search`: password-protected events match only when written by this user (0: none); unset: all. */
  searchProtectedOf?: number;
  categoryIds?: readonly number[];
  tagIds?: readonly number[];
  venueIds?: readonly number[];
  organizerIds?: readonly number[];
  featured?: boolean;
  include?: readonly number[];
  postParent?: number;
  ticketed?: boolean;
  ticketedSubquery?: TicketedSubquery;
}

type EB = ExpressionBuilder<Database & { e: Database['event_details']; p: Database['posts'] }, 'e' | 'p'>;

/** True when the filter needs `posts` columns (author, parent, text search, post date order). */
function needsPosts(f: EventListFilter): boolean {
  return f.ownDraftsOnly !== undefined || (f.search?.length ?? 0) > 0 || f.postParent !== undefined || f.include !== undefined;
}

const NOT_LISTED = ['trash', 'auto-draft', 'inherit'];

/**
 * `status = x`, or for several statuses `IN (…)`; the editors' "any" set is written as the statuses it
 * leaves out, so the planner keeps scanning in start order instead of merging one range per status.
 */
function statusCondition(eb: EB, statuses: readonly string[]): Expression<SqlBool> {
  if (statuses.length === 1) return eb('e.status', '=', statuses[0]!);
  return isAnyStatus(statuses) ? eb('e.status', 'not in', NOT_LISTED) : eb('e.status', 'in', [...statuses]);
}

function isAnyStatus(statuses: readonly string[]): boolean {
  return ANY_STATUSES.length === statuses.length && ANY_STATUSES.every((s) => statuses.includes(s));
}

/**
 * Text candidates up to which a page reads them all and sorts them; beyond, it walks the start order
 * and tests each event against them (matches are then dense enough to fill a page soon).
 */
const FEW_TEXT_CANDIDATES = 2000;

/**
 * One condition of a list filter: the shape it gives the SQL, the values it binds (in the order the
 * compiled SQL takes them) and how to build it. A filter whose parts all have a shape runs as a
 * compiled query (see {@link runCompiled}): building and compiling the list query costs several times
 * what SQLite takes to answer it.
 */
interface FilterPart {
  /** Undefined: the SQL depends on more than the values (text search, another area's subquery). */
  shape: string | undefined;
  values: readonly unknown[];
  build: (eb: EB) => Expression<SqlBool>;
}

function part(shape: string | undefined, values: readonly unknown[], build: (eb: EB) => Expression<SqlBool>): FilterPart {
  return { shape, values, build };
}

/** `textDrive: false`: the text index only tests rows (see {@link postTextCandidates}). */
function filterParts(db: Db, f: EventListFilter, textDrive = true): FilterPart[] {
  const list: FilterPart[] = [];
  const { statuses } = f;
  if (statuses.length === 1) list.push(part('s1', statuses, (eb) => statusCondition(eb, statuses)));
  else if (isAnyStatus(statuses)) list.push(part('sAny', NOT_LISTED, (eb) => statusCondition(eb, statuses)));
  else list.push(part(`s${statuses.length}`, statuses, (eb) => statusCondition(eb, statuses)));
  if (f.ownDraftsOnly) {
    const { userId, readPrivate } = f.ownDraftsOnly;
    list.push(part(readPrivate ? 'ownP' : 'own', readPrivate ? ['publish', userId, 'private'] : ['publish', userId], (eb) =>
      eb.or([eb('e.status', '=', 'publish'), eb('p.author', '=', userId), ...(readPrivate ? [eb('e.status', '=', 'private')] : [])])));
  }
  if (!f.includeHidden) list.push(part('h', [0], (eb) => eb('e.hide_from_listings', '=', 0)));
  const bounds = [
    ['e.start_utc', '>=', f.startsOnOrAfter], ['e.end_utc', '<=', f.endsOnOrBefore], ['e.start_utc', '<', f.startsBefore],
    ['e.start_utc', '>', f.startsAfter], ['e.end_utc', '<', f.endsBefore], ['e.end_utc', '>', f.endsAfter],
  ] as const;
  for (const [column, op, value] of bounds) {
    if (value !== undefined) list.push(part(`${column}${op}`, [value], (eb) => eb(column, op, value)));
  }
  const search = f.search ?? [];
  if (search.length > 0) {
    // The text index narrows the candidates; the LIKE of each term decides, as without the index.
    const candidates = postTextCandidates(db, sql.ref<number>('e.post_id'), search, { drive: textDrive });
    if (candidates) list.push(part(undefined, [], () => candidates));
    for (const term of search) {
      const pattern = containsPattern(term);
      list.push(part(undefined, [], (eb) => eb.or([ilike(db, eb.ref('p.title'), pattern), ilike(db, eb.ref('p.content'), pattern), ilike(db, eb.ref('p.excerpt'), pattern)])));
    }
    const protectedOf = f.searchProtectedOf;
    if (protectedOf !== undefined) {
      // Password-protected events are not found by their hidden text, except by who may edit them.
      list.push(part(undefined, [], (eb) => (protectedOf > 0 ? eb.or([eb('p.password', '=', ''), eb('p.author', '=', protectedOf)]) : eb('p.password', '=', ''))));
    }
  }
  // `post_id IN (subquery)` rather than EXISTS: the planner can drive from the (selective) link index
  // or filter the window scan through a materialised list, instead of probing once per event.
  const terms = (ids: number[]) => db.selectFrom('term_relationships as tr').select('tr.post_id').where('tr.term_id', 'in', ids);
  const links = [
    ['cat', f.categoryIds, terms],
    ['tag', f.tagIds, terms],
    ['ven', f.venueIds, (ids: number[]) => db.selectFrom('event_venues as ev').select('ev.event_id').where('ev.venue_id', 'in', ids)],
    ['org', f.organizerIds, (ids: number[]) => db.selectFrom('event_organizers as eo').select('eo.event_id').where('eo.organizer_id', 'in', ids)],
  ] as const;
  for (const [name, ids, eventsLinkedTo] of links) {
    if (!ids || ids.length === 0) continue;
    const values = [...ids];
    list.push(part(`${name}${values.length}`, values, (eb) => eb('e.post_id', 'in', eventsLinkedTo(values))));
  }
  if (f.featured !== undefined) {
    const featured = f.featured ? 1 : 0;
    list.push(part('f', [featured], (eb) => eb('e.featured', '=', featured)));
  }
  if (f.include !== undefined) {
    const include = [...f.include];
    list.push(part(`i${include.length}`, include, (eb) => (include.length > 0 ? eb('e.post_id', 'in', include) : sql<SqlBool>`1 = 0`)));
  }
  const parent = f.postParent;
  if (parent !== undefined) list.push(part('par', [parent], (eb) => eb('p.parent', '=', parent)));
  if (f.ticketed !== undefined) {
    const { ticketedSubquery, ticketed } = f;
    if (ticketedSubquery) {
      // A select builder becomes `(select …)`, so EXISTS is applied by the expression builder.
      list.push(part(undefined, [], (eb) => {
        const sub = ticketedSubquery(db, eb.ref('e.post_id')) as Parameters<EB['exists']>[0];
        return ticketed ? eb.exists(sub) : eb.not(eb.exists(sub));
      }));
    } else if (ticketed) {
      // CASE: no ticket provider registered, so no event has tickets.
      list.push(part('none', [], () => sql<SqlBool>`1 = 0`));
    }
  }
  return list;
}

/** The compiled-query shape of a filter's parts and their values; undefined when one part has none. */
function filterShape(parts: readonly FilterPart[]): { shape: string; values: unknown[] } | undefined {
  const shapes: string[] = [];
  const values: unknown[] = [];
  for (const p of parts) {
    if (p.shape === undefined) return undefined;
    shapes.push(p.shape);
    values.push(...p.values);
  }
  return { shape: shapes.join(','), values };
}

/**
 * Runs the query `build` makes from the filter's conditions: compiled once per filter shape (with
 * `extra` values bound after the filter's, and `name` telling the queries apart), or built each time
 * when the filter has no shape.
 */
async function runFiltered<R>(db: Db, name: string, parts: readonly FilterPart[], build: (where: (eb: EB) => Expression<SqlBool>) => { compile(): CompiledQuery<R>; execute(): Promise<R[]> }, extra: readonly unknown[] = []): Promise<R[]> {
  const where = (eb: EB) => eb.and(parts.map((p) => p.build(eb)));
  const shaped = filterShape(parts);
  if (!shaped) return build(where).execute();
  return runCompiled(db, `${name}:${shaped.shape}`, () => build(where), [...shaped.values, ...extra]);
}

/** Number of events matching the filter (index-only on `event_details` for the default window). */
export async function countEvents(db: Db, f: EventListFilter): Promise<number> {
  const parts = filterParts(db, f);
  const window = windowOnly(parts, f);
  if (window) return countEventsInWindow(db, window);
  const [row] = needsPosts(f)
    ? await runFiltered(db, 'countEventsJoined', parts, (where) =>
        db
          .selectFrom('event_details as e')
          .innerJoin('posts as p', 'p.id', 'e.post_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where((eb) => where(eb as unknown as EB)))
    : await runFiltered(db, 'countEvents', parts, (where) =>
        db
          .selectFrom('event_details as e')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where((eb) => where(eb as unknown as EB)));
  return Number(row?.n ?? 0);
}

/** A filter of statuses, listing visibility and a closed window of UTC dates, and nothing else. */
interface WindowOnly {
  status: FilterPart;
  hidden: FilterPart | undefined;
  from: string;
  to: string;
}

const WINDOW_PARTS = new Set(['h', 'e.start_utc>=', 'e.end_utc<=']);
const DB_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The filter as a {@link WindowOnly} when it is one: any other condition makes it undefined. */
function windowOnly(parts: readonly FilterPart[], f: EventListFilter): WindowOnly | undefined {
  const [status, ...rest] = parts;
  const from = f.startsOnOrAfter;
  const to = f.endsOnOrBefore;
  if (!status?.shape?.startsWith('s') || from === undefined || to === undefined || !DB_DATE.test(from) || !DB_DATE.test(to)) return undefined;
  if (!rest.every((p) => p.shape !== undefined && WINDOW_PARTS.has(p.shape))) return undefined;
  return { status, hidden: rest.find((p) => p.shape === 'h'), from, to };
}

/** `YYYY-MM-DD` of the UTC day after `day`. */
function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The total of a {@link WindowOnly} filter in one statement whose cost does not grow with the window:
 * events starting on a day after the window's first and ending on a day before its last are summed
 * from `event_window_days`; those starting on the first day, and those ending on the last day (having
 * started after the first), are counted row by row from the start and end indexes. The three sets are
 * disjoint and together are every event of the window.
 */
async function countEventsInWindow(db: Db, w: WindowOnly): Promise<number> {
  const firstDay = w.from.slice(0, 10);
  const lastDay = w.to.slice(0, 10);
  const secondDayStart = `${dayAfter(firstDay)} 00:00:00`;
  const lastDayStart = `${lastDay} 00:00:00`;
  const anyStatus = w.status.shape === 'sAny';
  const hiddenValues = w.hidden?.values ?? [];
  const where = (eb: EB) => eb.and([w.status.build(eb), ...(w.hidden ? [w.hidden.build(eb)] : [])]);
  const rows = await runCompiled(db, `countEventsInWindow:${w.status.shape}${w.hidden ? ',h' : ''}`, () => {
    const cells = db
      .selectFrom('event_window_days as c')
      .select((eb) => eb.fn.sum<number>('c.n').as('n'))
      .where('c.status', anyStatus ? 'not in' : 'in', w.status.values as string[])
      .$if(w.hidden !== undefined, (q) => q.where('c.hidden', '=', 0))
      .where('c.start_day', '>', firstDay)
      .where('c.end_day', '<', lastDay);
    const events = () => db.selectFrom('event_details as e').select((eb) => eb.fn.countAll<number>().as('n')).where((eb) => where(eb as unknown as EB));
    return cells
      .unionAll(events().where('e.start_utc', '>=', w.from).where('e.start_utc', '<', secondDayStart).where('e.end_utc', '<=', w.to))
      .unionAll(events().where('e.end_utc', '>=', lastDayStart).where('e.end_utc', '<=', w.to).where('e.start_utc', '>=', secondDayStart));
  }, [
    ...w.status.values, ...hiddenValues, firstDay, lastDay,
    ...w.status.values, ...hiddenValues, w.from, secondDayStart, w.to,
    ...w.status.values, ...hiddenValues, lastDayStart, w.to, secondDayStart,
  ]);
  return rows.reduce((sum, r) => sum + Number(r.n ?? 0), 0);
}

/**
 * One page of matching events (rows as list pages show them: `content`/`excerpt` are '' where rendered
 * HTML is stored). Order: start (UTC) ascending, then publication date and ID; with `include`,
 * publication date and ID (as the original when dates are ignored).
 *
 * One query in two steps: the page's IDs (ordered, limited, offset: index and key columns only) in a
 * subquery, then their rows by primary key. Sorting and skipping narrow rows is many times cheaper
 * than carrying every column of each candidate through the sort, and one statement is one round trip.
 */
export async function listEvents(db: Db, f: EventListFilter, limit: number, offset: number): Promise<EventRecord[]> {
  const textDrive = (f.search?.length ?? 0) === 0 || ((await countPostTextCandidates(db, f.search!, FEW_TEXT_CANDIDATES)) ?? 0) < FEW_TEXT_CANDIDATES;
  const byPostDate = f.include !== undefined;
  const skip = safeOffset(offset);
  const rows = await runFiltered(db, byPostDate ? 'eventPageByPostDate' : 'eventPage', filterParts(db, f, textDrive), (where) => {
    const q = db
      .selectFrom('event_details as e')
      .innerJoin('posts as p', 'p.id', 'e.post_id')
      .select(['e.post_id', 'e.start_utc', 'p.date_gmt'])
      .where((eb) => where(eb as unknown as EB));
    const ids = (byPostDate
      ? q.orderBy('p.date_gmt', 'asc').orderBy('e.post_id', 'asc')
      : q.orderBy('e.start_utc', 'asc').orderBy('p.date_gmt', 'asc').orderBy('e.post_id', 'asc')
    ).limit(limit).offset(skip);
    const page = db
      .selectFrom(ids.as('page'))
      .innerJoin('event_details as e', 'e.post_id', 'page.post_id')
      .innerJoin('posts as p', 'p.id', 'page.post_id')
      .select(packedColumns(db, LIST_EVENT_COLUMNS).as('packed'));
    return byPostDate
      ? page.orderBy('page.date_gmt', 'asc').orderBy('page.post_id', 'asc')
      : page.orderBy('page.start_utc', 'asc').orderBy('page.date_gmt', 'asc').orderBy('page.post_id', 'asc');
  }, [limit, skip]);
  return rows.map((r) => toEventRecord(r.packed));
}

// ---------------------------------------------------------------------------------------------
// Links
// ---------------------------------------------------------------------------------------------

/** Venue and organizer IDs of each event, in their stored order: two queries for any number of events. */
export async function linksOfEvents(db: Db, ids: readonly number[]): Promise<{ venues: Map<number, number[]>; organizers: Map<number, number[]> }> {
  const venues = new Map<number, number[]>();
  const organizers = new Map<number, number[]>();
  if (ids.length === 0) return { venues, organizers };
  const unique = [...new Set(ids)];
  const [v, o] = await Promise.all([
    db.selectFrom('event_venues').select(['event_id', 'venue_id']).where('event_id', 'in', unique).orderBy('event_id').orderBy('position').execute(),
    db.selectFrom('event_organizers').select(['event_id', 'organizer_id']).where('event_id', 'in', unique).orderBy('event_id').orderBy('position').execute(),
  ]);
  for (const r of v) {
    const list = venues.get(Number(r.event_id)) ?? [];
    list.push(Number(r.venue_id));
    venues.set(Number(r.event_id), list);
  }
  for (const r of o) {
    const list = organizers.get(Number(r.event_id)) ?? [];
    list.push(Number(r.organizer_id));
    organizers.set(Number(r.event_id), list);
  }
  return { venues, organizers };
}

/** Replaces the venues of an event. */
export async function setEventVenues(db: Db, eventId: number, venueIds: readonly number[]): Promise<void> {
  await db.deleteFrom('event_venues').where('event_id', '=', eventId).execute();
  const unique = [...new Set(venueIds)];
  if (unique.length > 0) await db.insertInto('event_venues').values(unique.map((venue_id, position) => ({ event_id: eventId, venue_id, position }))).execute();
}

/** Replaces the organizers of an event. */
export async function setEventOrganizers(db: Db, eventId: number, organizerIds: readonly number[]): Promise<void> {
  await db.deleteFrom('event_organizers').where('event_id', '=', eventId).execute();
  const unique = [...new Set(organizerIds)];
  if (unique.length > 0) await db.insertInto('event_organizers').values(unique.map((organizer_id, position) => ({ event_id: eventId, organizer_id, position }))).execute();
}

// ---------------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------------

/** The `posts` columns of a new post. */
export type NewPostRow = Omit<PostRecord, 'id'>;

/** Inserts a post row and returns its ID. */
export async function insertPostRow(db: Db, post: NewPostRow): Promise<number> {
  const row = await db.insertInto('posts').values(post).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Inserts an event's detail row. */
export async function insertEventDetails(db: Db, postId: number, details: EventDetailsRow): Promise<void> {
  await db.insertInto('event_details').values({ post_id: postId, ...details }).execute();
}

/** Updates post and detail columns of an event (either may be empty). */
export async function updateEventRows(db: Db, id: number, post: Partial<NewPostRow>, details: Partial<EventDetailsRow>): Promise<void> {
  if (Object.keys(post).length > 0) await db.updateTable('posts').set(post).where('id', '=', id).execute();
  if (Object.keys(details).length > 0) await db.updateTable('event_details').set(details).where('post_id', '=', id).execute();
}

/** `ids` and every term below them (children, grandchildren, …). */
export async function withChildTerms(db: Db, ids: readonly number[]): Promise<number[]> {
  const seen = new Set(ids);
  let frontier = [...seen];
  while (frontier.length > 0) {
    const parents = frontier;
    const rows = await runCompiled(db, `childTerms:${parents.length}`, () => db.selectFrom('terms').select('id').where('parent', 'in', parents), parents);
    frontier = rows.map((r) => Number(r.id)).filter((id) => !seen.has(id));
    for (const id of frontier) seen.add(id);
  }
  return [...seen];
}
