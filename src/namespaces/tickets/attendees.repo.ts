/**
 * @module namespaces/tickets/attendees.repo
 * Attendee queries: loading attendees with their posts, writing them, and check-in as one conditional
 * UPDATE so two scanners can never check the same attendee in twice. The filtered list is in
 * `attendees-list.repo.ts`.
 */
import { sql, type AliasedRawBuilder } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { PostRecord } from '../../content/posts.js';
import { PROVIDERS, type ProviderSlug } from './providers.js';
import type { TicketRecord } from './tickets.repo.js';
import { postColumnsAs, postFromRow, type DatePair } from './posts.repo.js';
import { executeCompiled, runCompiled } from '../../storage/compiled-queries.js';
import { packedColumns, rowColumns, rowValues, unpackRow } from '../../storage/dialect.js';
import { insertChunks, insertShape } from './compiled-rows.js';

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

/** Attendees `a` joined with their posts `ap`. */
export function attendeesJoined(db: Db) {
  return db.selectFrom('ticket_attendees as a').innerJoin('posts as ap', 'ap.id', 'a.attendee_id');
}

/**
 * The site-local date of attendee `a`'s order post, as a subquery rather than a join: PostgreSQL
 * plans a custom plan for each execution of a list page (its `LIMIT`/`OFFSET` parameters keep the
 * generic plan out), and every table joined multiplies that planning (see `attendeeTicketPacked`).
 */
const orderDate = sql`(SELECT op.date FROM posts op WHERE op.id = a.order_id)`;

/**
 * Columns of `a` an {@link AttendeeListing} holds, but for those selected apart: the IDs callers key
 * by, and `price`, a number SQLite's JSON would write back with 15 digits (and PostgreSQL's `numeric`
 * as a JSON number where its driver gives text).
 */
const LISTING_ROW_COLUMNS = [
  'post_id', 'provider', 'order_id', 'order_status', 'holder_name', 'holder_email', 'purchaser_name', 'purchaser_email', 'optout',
  'currency', 'checked_in', 'checkin_local', 'checkin_source', 'checkin_author',
] as const;

/** Columns of the attendee's post `ap` an {@link AttendeeListing} holds. */
const LISTING_POST_COLUMNS = ['author', 'status', 'date', 'date_gmt', 'modified', 'modified_gmt'] as const;

/** What {@link listingColumns} selects under `listing`, in the order {@link listingFromRow} reads it. */
const LISTING_ROW = [...LISTING_ROW_COLUMNS.map((c) => `a.${c}`), orderDate, ...LISTING_POST_COLUMNS.map((c) => `ap.${c}`)];

/**
 * What a listing query selects (see {@link listingFromRow}): `attendee_id`, `ticket_id`, `price`, and
 * the rest as `listing` ({@link rowColumns}: packed on SQLite, where a list page reads tens of rows of
 * 24 columns and better-sqlite3 spent more on a property per column than SQLite on the rows).
 */
export function listingColumns(db: Db): AliasedRawBuilder<unknown, string>[] {
  return [sql.ref('a.attendee_id').as('attendee_id'), sql.ref('a.ticket_id').as('ticket_id'), sql.ref('a.price').as('price'), ...rowColumns(db, 'listing', LISTING_ROW)];
}

/** What a full attendee query selects (see {@link attendeeFromRow}). */
function attendeeColumns(db: Db): AliasedRawBuilder<unknown, string>[] {
  return [
    ...listingColumns(db),
    ...['user_id', 'security_code', 'checkin_gmt', 'qr_status', 'information', 'source'].map((c) => sql.ref(`a.${c}`).as(c)),
    ...postColumnsAs('ap', 'ap_'),
  ];
}

/** The listing of a row selected with {@link listingColumns}. */
export function listingFromRow(r: Record<string, unknown>): AttendeeListing {
  const [postId, provider, orderId, orderStatus, holderName, holderEmail, purchaserName, purchaserEmail, optout, currency, checkedIn, checkinLocal, checkinSource, checkinAuthor, orderPostDate, author, status, date, dateGmt, modified, modifiedGmt] =
    rowValues(r, 'listing', LISTING_ROW.length);
  return {
    id: Number(r.attendee_id),
    ticketId: Number(r.ticket_id),
    postId: Number(postId),
    provider: provider as ProviderSlug,
    orderId: orderId === null ? null : Number(orderId),
    orderStatus: orderStatus as string,
    holderName: holderName as string,
    holderEmail: holderEmail as string,
    purchaserName: purchaserName as string,
    purchaserEmail: purchaserEmail as string,
    optout: Number(optout) === 1,
    price: Number(r.price),
    currency: currency as string,
    checkedIn: Number(checkedIn) === 1,
    checkinLocal: checkinLocal as string,
    checkinSource: checkinSource as string,
    checkinAuthor: Number(checkinAuthor),
    post: {
      author: Number(author),
      status: status as string,
      date: date as string,
      date_gmt: dateGmt as string,
      modified: modified as string,
      modified_gmt: modifiedGmt as string,
    },
    orderDate: orderPostDate === null || orderPostDate === undefined ? undefined : (orderPostDate as string),
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

/**
 * What an attendee object shows of attendee `a`'s ticket, packed in one column (see
 * {@link ticketOfPacked}) by a subquery: joined to a page of attendees, the ticket and its post were
 * two more tables for PostgreSQL to plan on every execution (1.2 ms of the page's 1.3), as one
 * subquery they are planned apart and cheaply, and read for the page's rows only.
 */
export function attendeeTicketPacked(db: Db): AliasedRawBuilder<unknown, 'ticket'> {
  const columns = packedColumns(db, ['tp.title', 'tp.content', 't.price', 't.currency', 't.start_local', 't.end_local', 't.sku']);
  return sql`(SELECT ${columns} FROM ticket_details t INNER JOIN posts tp ON tp.id = t.ticket_id WHERE t.ticket_id = a.ticket_id)`.as('ticket');
}

/** The attendee's ticket selected with {@link attendeeTicketPacked}; undefined when it is gone. */
export function ticketOfPacked(packed: unknown): AttendeeTicket | undefined {
  if (packed === null || packed === undefined) return undefined;
  const [title, content, price, currency, startLocal, endLocal, sku] = unpackRow(packed) as string[];
  return { price: price!, currency: currency!, startLocal: startLocal!, endLocal: endLocal!, sku: sku!, post: { title: title!, content: content! } };
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
async function rowsByIds(db: Db, ids: readonly number[], shape: string, columns: (db: Db) => AliasedRawBuilder<unknown, string>[]): Promise<Record<string, unknown>[]> {
  const unique = [...new Set(ids)];
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    out.push(...(await runCompiled<Record<string, unknown>>(db, `${shape}:${chunk.length}`, () => attendeesJoined(db).select(columns(db)).where('a.attendee_id', 'in', chunk), chunk)));
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
 * The candidate read of {@link getCheckInCandidate} (`a` joined with its post `ap`), to run or to nest:
 * the listing, and apart the columns the check-in compares ({@link checkInIfAllowed}'s `UPDATE` too).
 */
function checkInCandidateQuery(db: Db, id: number) {
  return attendeesJoined(db)
    .select([
      ...listingColumns(db),
      ...(['security_code', 'qr_status', 'provider', 'order_status', 'checked_in'] as const).map((c) => sql.ref(`a.${c}`).as(c)),
      sql.ref('ap.status').as('ap_status'),
      attendeeTicketPacked(db),
    ])
    .where('a.attendee_id', '=', id);
}

function candidateOfRow(row: Record<string, unknown>): { attendee: CheckInCandidate; ticket: AttendeeTicket | undefined } {
  const attendee = { ...listingFromRow(row), securityCode: row.security_code as string, qrStatus: Number(row.qr_status) === 1 };
  return { attendee, ticket: ticketOfPacked(row.ticket) };
}

/**
 * One attendee for a check-in with what its object shows of its ticket (undefined when the ticket is
 * gone), in one query; undefined when there is no such attendee.
 */
export async function getCheckInCandidate(db: Db, id: number): Promise<{ attendee: CheckInCandidate; ticket: AttendeeTicket | undefined } | undefined> {
  const [row] = await runCompiled<Record<string, unknown>>(db, 'getCheckInCandidate', () => checkInCandidateQuery(db, id), [id]);
  return row ? candidateOfRow(row) : undefined;
}

/**
 * {@link getCheckInCandidate} and {@link markCheckedIn} in one statement, where the engine has
 * `capabilities(db).writesInWith` (one round trip instead of two on PostgreSQL). The candidate is read
 * as it was before the statement; the UPDATE checks the attendee in only when that read passes every
 * check the QR check-in makes before it writes: `securityCode` is the attendee's, its post is not
 * trashed, its ticket exists, its order lets it check in, and it is not checked in yet (nor, in the
 * row as the UPDATE finds it, by a concurrent scan, as {@link markCheckedIn}). `checkedIn` says
 * whether this statement did it. The caller repeats the checks on the candidate; where they pass and
 * `checkedIn` is false, a concurrent scan won (or a condition here was stricter than the caller's):
 * {@link markCheckedIn} then decides as it always did.
 */
export async function checkInIfAllowed(
  db: Db,
  id: number,
  securityCode: string,
  mark: CheckInMark,
): Promise<{ attendee: CheckInCandidate; ticket: AttendeeTicket | undefined; checkedIn: boolean } | undefined> {
  const qr = mark.source === 'app' ? 1 : 0;
  const mayCheckIn = sql.join(
    PROVIDERS.map((p) => sql`(c.provider = ${sql.lit(p.slug)} AND c.order_status IN (${sql.join(p.completed.map((s) => sql.lit(s)))}))`),
    sql` OR `,
  );
  const [row] = await runCompiled<Record<string, unknown>>(db, 'checkInIfAllowed', () => {
    const query = sql`WITH c AS (${checkInCandidateQuery(db, id)}),
      u AS (
        UPDATE ticket_attendees
        SET checked_in = ${1}, qr_status = ${qr}, checkin_local = ${mark.when.local}, checkin_gmt = ${mark.when.gmt}, checkin_source = ${mark.source}, checkin_author = ${mark.author}
        FROM c
        WHERE ticket_attendees.attendee_id = ${id} AND ticket_attendees.attendee_id = c.attendee_id
          AND ticket_attendees.checked_in = 0 AND ticket_attendees.qr_status = 0
          AND c.security_code = ${securityCode} AND c.ap_status <> 'trash' AND c.ticket IS NOT NULL
          AND (${mayCheckIn}) AND c.checked_in <> 1 AND c.qr_status <> 1
        RETURNING ticket_attendees.attendee_id
      )
      SELECT c.*, EXISTS (SELECT 1 FROM u) AS checked_in_now FROM c`;
    return { compile: () => query.compile(db) };
  }, [id, 1, qr, mark.when.local, mark.when.gmt, mark.source, mark.author, id, securityCode]);
  return row ? { ...candidateOfRow(row), checkedIn: row.checked_in_now === true } : undefined;
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

/** Inserts the detail rows of attendees whose posts exist, several in one statement ({@link insertChunks}). */
export async function insertAttendeeDetails(db: Db, rows: readonly (NewAttendee & { attendee_id: number })[]): Promise<void> {
  for (const part of insertChunks(rows)) {
    const { shape, parameters } = insertShape('ticket_attendees', part);
    await executeCompiled(db, shape, () => db.insertInto('ticket_attendees').values(part), parameters);
  }
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
