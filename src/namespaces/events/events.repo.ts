/**
 * @module namespaces/events/events.repo
 * Queries of events: rows of `posts` + `event_details` as {@link EventRecord}s, and the writes of event
 * rows and links. The archive's list query is `events-list.repo.ts`.
 */
import { sql, type RawBuilder } from 'kysely';
import type { PostRecord } from '../../content/posts.js';
import { pathSlug } from '../../content/slugs.js';
import { packedColumns, unpackRow } from '../../storage/dialect.js';
import type { Db } from '../../storage/db.js';
import { EVENT_TYPE } from './caps.js';
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
export const LIST_EVENT_COLUMNS = EVENT_COLUMNS.map((c) =>
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
export function toEventRecord(packed: unknown): EventRecord {
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
