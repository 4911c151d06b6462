/**
 * @module namespaces/events/linked.repo
 * Queries of venues and organizers (the events' "linked posts"): records with their details, the
 * archive query with its filters, duplicate detection and writes.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { PostRecord } from '../../content/posts.js';
import { pathSlug } from '../../content/slugs.js';
import { caseFolded, containsPattern, ilike, packedColumns, unpackRow } from '../../storage/dialect.js';
import type { Db } from '../../storage/db.js';
import { ORGANIZER_TYPE, VENUE_TYPE } from './caps.js';
import type { NewPostRow } from './events.repo.js';
import { safeOffset } from '../../rest/pagination.js';
import { runCompiled } from '../../storage/compiled-queries.js';

export interface VenueRecord extends PostRecord {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateprovince: string;
  showMap: boolean;
  showMapLink: boolean;
  geoLat: number | null;
  geoLng: number | null;
  imageId: number;
  lineage: string[];
}

export interface OrganizerRecord extends PostRecord {
  phone: string;
  website: string;
  email: string;
  imageId: number;
  lineage: string[];
}

export type LinkedKind = 'venue' | 'organizer';

/** Detail columns by kind, as the service writes them. */
export interface VenueDetailsRow {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateprovince: string;
  show_map: number;
  show_map_link: number;
  geo_lat: number | null;
  geo_lng: number | null;
  image_id: number;
  lineage: string;
}

export interface OrganizerDetailsRow {
  phone: string;
  website: string;
  email: string;
  image_id: number;
  lineage: string;
}

function list(text: unknown): string[] {
  try {
    const v: unknown = JSON.parse(String(text ?? '[]'));
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

function str(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}

function num(v: unknown): number | null {
  return v === null || v === undefined || v === '' ? null : Number(v);
}

function flag(v: unknown): boolean {
  return v === null || v === undefined ? true : Number(v) !== 0;
}

const POST_COLUMNS = [
  'p.id', 'p.type', 'p.status', 'p.slug', 'p.title', 'p.content', 'p.excerpt', 'p.author', 'p.parent', 'p.password',
  'p.menu_order', 'p.date', 'p.date_gmt', 'p.modified', 'p.modified_gmt', 'p.image_url',
] as const;

/** The post part of a packed row (the values of {@link POST_COLUMNS}, from `values[0]` on). */
function post(values: readonly unknown[]): PostRecord {
  const [id, type, status, slug, title, content, excerpt, author, parent, password, menuOrder, date, dateGmt, modified, modifiedGmt, imageUrl] = values;
  return {
    id: Number(id), type: String(type), status: String(status), slug: String(slug), title: String(title),
    content: String(content), excerpt: String(excerpt), author: Number(author), parent: Number(parent),
    password: String(password), menu_order: Number(menuOrder), date: String(date), date_gmt: String(dateGmt),
    modified: String(modified), modified_gmt: String(modifiedGmt), image_url: String(imageUrl),
  };
}

/** Packed with the post columns; `geo_lat`/`geo_lng` (REAL) are selected as columns beside them. */
const VENUE_COLUMNS = [
  ...POST_COLUMNS, 'v.address', 'v.city', 'v.country', 'v.province', 'v.state', 'v.zip', 'v.phone', 'v.website', 'v.stateprovince',
  'v.show_map', 'v.show_map_link', 'v.image_id', 'v.lineage',
] as const;

const ORGANIZER_COLUMNS = [...POST_COLUMNS, 'o.phone', 'o.website', 'o.email', 'o.image_id', 'o.lineage'] as const;

/** A venue row: {@link VENUE_COLUMNS} packed, and the coordinates. */
interface VenueRow {
  packed: unknown;
  geo_lat: number | null;
  geo_lng: number | null;
}

// `Object.assign` onto the post record, not `{ ...post(values), … }`: V8 builds that spread tens of
// times slower (a dictionary-mode object), and every presenter reads it again.
function toVenue(r: VenueRow): VenueRecord {
  const values = unpackRow(r.packed);
  const [address, city, country, province, state, zip, phone, website, stateprovince, showMap, showMapLink, imageId, lineage] = values.slice(POST_COLUMNS.length);
  return Object.assign(post(values), {
    address: str(address), city: str(city), country: str(country), province: str(province), state: str(state), zip: str(zip),
    phone: str(phone), website: str(website), stateprovince: str(stateprovince), showMap: flag(showMap), showMapLink: flag(showMapLink),
    geoLat: num(r.geo_lat), geoLng: num(r.geo_lng), imageId: Number(imageId ?? 0), lineage: list(lineage),
  });
}

function toOrganizer(r: { packed: unknown }): OrganizerRecord {
  const values = unpackRow(r.packed);
  const [phone, website, email, imageId, lineage] = values.slice(POST_COLUMNS.length);
  return Object.assign(post(values), { phone: str(phone), website: str(website), email: str(email), imageId: Number(imageId ?? 0), lineage: list(lineage) });
}

/** Venues by ID (any status), one query; IDs that are not venues are absent. */
export async function getVenuesByIds(db: Db, ids: readonly number[]): Promise<Map<number, VenueRecord>> {
  const out = new Map<number, VenueRecord>();
  const unique = [...new Set(ids)].filter((n) => Number.isInteger(n) && n > 0);
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom('posts as p')
      .leftJoin('venue_details as v', 'v.post_id', 'p.id')
      .select([packedColumns(db, VENUE_COLUMNS).as('packed'), 'v.geo_lat', 'v.geo_lng'])
      .where('p.type', '=', VENUE_TYPE)
      .where('p.id', 'in', unique.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      const v = toVenue(r);
      out.set(v.id, v);
    }
  }
  return out;
}

/** Organizers by ID (any status), one query. */
export async function getOrganizersByIds(db: Db, ids: readonly number[]): Promise<Map<number, OrganizerRecord>> {
  const out = new Map<number, OrganizerRecord>();
  const unique = [...new Set(ids)].filter((n) => Number.isInteger(n) && n > 0);
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom('posts as p')
      .leftJoin('organizer_details as o', 'o.post_id', 'p.id')
      .select(packedColumns(db, ORGANIZER_COLUMNS).as('packed'))
      .where('p.type', '=', ORGANIZER_TYPE)
      .where('p.id', 'in', unique.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      const o = toOrganizer(r);
      out.set(o.id, o);
    }
  }
  return out;
}

/** Venues or organizers of events with each event's IDs in link order: what a page of events shows. */
export interface LinkedOfEvents<T> {
  ids: Map<number, number[]>;
  records: Map<number, T>;
}

/** The venues and organizers of a page of events. */
export interface LinkedOfPage {
  venues: LinkedOfEvents<VenueRecord>;
  organizers: LinkedOfEvents<OrganizerRecord>;
}

/**
 * The venues and the organizers linked to `eventIds` (links to posts of another type are left out), in
 * one query for any number of events: on PostgreSQL each query is a round trip, which costs more than
 * what it reads.
 */
export async function linkedOfEvents(db: Db, eventIds: readonly number[]): Promise<LinkedOfPage> {
  const venues: LinkedOfEvents<VenueRecord> = { ids: new Map(), records: new Map() };
  const organizers: LinkedOfEvents<OrganizerRecord> = { ids: new Map(), records: new Map() };
  if (eventIds.length === 0) return { venues, organizers };
  const ids = [...new Set(eventIds)];
  const rows = await runCompiled(db, `linkedOfEvents:${ids.length}`, () =>
    db
      .selectFrom('event_venues as l')
      .innerJoin('posts as p', 'p.id', 'l.venue_id')
      .leftJoin('venue_details as v', 'v.post_id', 'p.id')
      .select([sql.lit(0).as('kind'), 'l.event_id', 'l.position', 'l.venue_id as linked_id', packedColumns(db, VENUE_COLUMNS).as('packed'), 'v.geo_lat', 'v.geo_lng'])
      .where('l.event_id', 'in', ids)
      .where('p.type', '=', VENUE_TYPE)
      .unionAll(
        db
          .selectFrom('event_organizers as l')
          .innerJoin('posts as p', 'p.id', 'l.organizer_id')
          .leftJoin('organizer_details as o', 'o.post_id', 'p.id')
          .select([sql.lit(1).as('kind'), 'l.event_id', 'l.position', 'l.organizer_id as linked_id', packedColumns(db, ORGANIZER_COLUMNS).as('packed'), sql<null>`null`.as('geo_lat'), sql<null>`null`.as('geo_lng')])
          .where('l.event_id', 'in', ids)
          .where('p.type', '=', ORGANIZER_TYPE),
      )
      .orderBy('kind')
      .orderBy('event_id')
      .orderBy('position'), [...ids, VENUE_TYPE, ...ids, ORGANIZER_TYPE]);
  for (const r of rows) {
    if (Number(r.kind) === 0) addLinked(venues, r, toVenue);
    else addLinked(organizers, r, toOrganizer);
  }
  return { venues, organizers };
}

function addLinked<R extends { event_id: number; linked_id: number }, T>(into: LinkedOfEvents<T>, r: R, make: (r: R) => T): void {
  const eventId = Number(r.event_id);
  const id = Number(r.linked_id);
  const list = into.ids.get(eventId);
  if (list) list.push(id);
  else into.ids.set(eventId, [id]);
  if (!into.records.has(id)) into.records.set(id, make(r));
}

/** The post type of a linked kind. */
export function linkedType(kind: LinkedKind): typeof VENUE_TYPE | typeof ORGANIZER_TYPE {
  return kind === 'venue' ? VENUE_TYPE : ORGANIZER_TYPE;
}

/** The ID of the venue/organizer a by-slug path names (`get_page_by_path`: written or percent-encoded, see {@link pathSlug}). */
export async function findLinkedIdBySlug(db: Db, kind: LinkedKind, slug: string): Promise<number | undefined> {
  const row = await db.selectFrom('posts').select('id').where('type', '=', linkedType(kind)).where('slug', '=', pathSlug(slug)).executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

/** Which of `ids` are posts of the kind (any status). */
export async function existingLinkedIds(db: Db, kind: LinkedKind, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('posts').select('id').where('type', '=', linkedType(kind)).where('id', 'in', [...new Set(ids)]).execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * An existing, not trashed venue/organizer with this title (and description, when given): the
 * originals return it instead of creating a duplicate. Compared case-insensitively, as the originals'
 * collation (utf8mb4_unicode_ci) compares them.
 */
export async function findDuplicate(db: Db, kind: LinkedKind, title: string, description?: string): Promise<number | undefined> {
  const same = (column: 'title' | 'content', value: string) => sql<SqlBool>`${caseFolded(db, sql.ref(column))} = ${value.toLowerCase()}`;
  let q = db.selectFrom('posts').select('id').where('type', '=', linkedType(kind)).where(same('title', title)).where('status', '!=', 'trash');
  if (description !== undefined && description !== '') q = q.where(same('content', description));
  const row = await q.orderBy('id').executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

// ---------------------------------------------------------------------------------------------
// The archive query
// ---------------------------------------------------------------------------------------------

export interface LinkedListFilter {
  kind: LinkedKind;
  statuses: readonly string[];
  ownDraftsOnly?: { userId: number; readPrivate: boolean };
  search?: string;
  /** Only those linked to this event. */
  eventId?: number;
  /** true: linked to at least one event that is not a draft or pending; false: linked to none. */
  hasEvents?: boolean;
  /** Only those with an event ending after this UTC time, among events of these statuses. */
  upcoming?: { afterUtc: string; eventStatuses: readonly string[] };
}

const VENUE_SEARCH_COLUMNS = ['address', 'city', 'province', 'state', 'stateprovince', 'country', 'zip', 'phone'] as const;
const ORGANIZER_SEARCH_COLUMNS = ['phone', 'email', 'website'] as const;

function linkedConditions(db: Db, f: LinkedListFilter) {
  return (eb: any): Expression<SqlBool> => {
    const list: Expression<SqlBool>[] = [eb('p.type', '=', linkedType(f.kind))];
    list.push(f.statuses.length === 1 ? eb('p.status', '=', f.statuses[0]) : eb('p.status', 'in', [...f.statuses]));
    if (f.ownDraftsOnly) {
      const { userId, readPrivate } = f.ownDraftsOnly;
      list.push(eb.or([eb('p.status', '=', 'publish'), eb('p.author', '=', userId), ...(readPrivate ? [eb('p.status', '=', 'private')] : [])]));
    }
    const linkTable = f.kind === 'venue' ? 'event_venues' : 'event_organizers';
    const linkColumn = f.kind === 'venue' ? 'venue_id' : 'organizer_id';
    // Every word of the search, in any order, somewhere in the post or its details.
    for (const word of (f.search ?? '').split(/\s+/).filter((w) => w !== '')) {
      const pattern = containsPattern(word);
      const fields = [eb.ref('p.title'), eb.ref('p.content'), eb.ref('p.excerpt')];
      const detailColumns = f.kind === 'venue' ? VENUE_SEARCH_COLUMNS : ORGANIZER_SEARCH_COLUMNS;
      const detailTable = f.kind === 'venue' ? 'venue_details' : 'organizer_details';
      const detailMatch = db
        .selectFrom(`${detailTable} as d` as 'venue_details as d')
        .select(sql.lit(1).as('one'))
        .where('d.post_id', '=', sql.ref<number>('p.id'))
        .where((deb) => deb.or(detailColumns.map((c) => ilike(db, deb.ref(`d.${c}` as 'd.address'), pattern))));
      list.push(eb.or([...fields.map((c) => ilike(db, c, pattern)), eb.exists(detailMatch)]));
    }
    const links = () =>
      db
        .selectFrom(`${linkTable} as l` as 'event_venues as l')
        .innerJoin('event_details as ed', 'ed.post_id', 'l.event_id')
        .select(sql.lit(1).as('one'))
        .where(`l.${linkColumn}` as 'l.venue_id', '=', sql.ref<number>('p.id'));
    if (f.eventId !== undefined) list.push(eb.exists(links().where('l.event_id', '=', f.eventId)));
    if (f.hasEvents !== undefined) {
      const sub = links().where('ed.status', 'not in', ['draft', 'pending', 'auto-draft', 'trash']);
      list.push(f.hasEvents ? eb.exists(sub) : eb.not(eb.exists(sub)));
    }
    if (f.upcoming !== undefined) {
      list.push(eb.exists(links().where('ed.end_utc', '>=', f.upcoming.afterUtc).where('ed.status', 'in', [...f.upcoming.eventStatuses])));
    }
    return eb.and(list);
  };
}

/** Number of venues/organizers matching the filter. */
export async function countLinked(db: Db, f: LinkedListFilter): Promise<number> {
  const row = await db
    .selectFrom('posts as p')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(linkedConditions(db, f))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** One page of matching IDs, newest publication first (WordPress's default order). */
export async function listLinkedIds(db: Db, f: LinkedListFilter, limit: number, offset: number): Promise<number[]> {
  const rows = await db
    .selectFrom('posts as p')
    .select('p.id')
    .where(linkedConditions(db, f))
    .orderBy('p.date_gmt', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .offset(safeOffset(offset))
    .execute();
  return rows.map((r) => Number(r.id));
}

// ---------------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------------

/** Inserts a venue (post + details) and returns its ID. */
export async function insertVenue(db: Db, postRow: NewPostRow, details: VenueDetailsRow): Promise<number> {
  const { id } = await db.insertInto('posts').values(postRow).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('venue_details').values({ post_id: Number(id), ...details }).execute();
  return Number(id);
}

/** Inserts an organizer (post + details) and returns its ID. */
export async function insertOrganizer(db: Db, postRow: NewPostRow, details: OrganizerDetailsRow): Promise<number> {
  const { id } = await db.insertInto('posts').values(postRow).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('organizer_details').values({ post_id: Number(id), ...details }).execute();
  return Number(id);
}

/** Updates a venue's post and detail columns. */
export async function updateVenueRows(db: Db, id: number, postRow: Partial<NewPostRow>, details: Partial<VenueDetailsRow>): Promise<void> {
  if (Object.keys(postRow).length > 0) await db.updateTable('posts').set(postRow).where('id', '=', id).execute();
  if (Object.keys(details).length > 0) await db.updateTable('venue_details').set(details).where('post_id', '=', id).execute();
}

/** Updates an organizer's post and detail columns. */
export async function updateOrganizerRows(db: Db, id: number, postRow: Partial<NewPostRow>, details: Partial<OrganizerDetailsRow>): Promise<void> {
  if (Object.keys(postRow).length > 0) await db.updateTable('posts').set(postRow).where('id', '=', id).execute();
  if (Object.keys(details).length > 0) await db.updateTable('organizer_details').set(details).where('post_id', '=', id).execute();
}
