/**
 * @module namespaces/events/events-list.repo
 * The events archive query: every filter of the list resolved into one compiled statement per shape,
 * the page of events and its total (window totals from the day cells of `event_window_days`).
 */
import { sql, type CompiledQuery, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { ANY_STATUSES } from '../../content/posts.js';
import { safeOffset } from '../../rest/pagination.js';
import { runCompiled } from '../../storage/compiled-queries.js';
import type { Db } from '../../storage/db.js';
import { ilike, containsPattern, countPostTextCandidates, packedColumns, plannedForValues, postTextCandidates } from '../../storage/dialect.js';
import type { Database } from '../../storage/schema.js';
import { LIST_EVENT_COLUMNS, toEventRecord, type EventRecord } from './events.repo.js';
import type { TicketedSubquery } from './extensions.js';

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

/**
 * A text search's statements are planned for their patterns (see {@link plannedForValues}): whether a
 * page walks the start order or reads the text index's candidates depends on how many posts a pattern
 * finds, which a plan made once for any pattern cannot know.
 */
function forFilter<QB extends SelectQueryBuilder<any, any, any>>(db: Db, f: EventListFilter, query: QB): QB {
  return (f.search?.length ?? 0) > 0 ? plannedForValues(db, query) : query;
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

/**
 * The term filter a list reads from `event_term_index` (categories before tags): its rows carry every
 * `event_details` column a filter part tests, so with the index aliased as `e` the other parts apply
 * to it unchanged, and the driving part becomes `e.term_id IN (…)`.
 */
interface TermDriver {
  name: 'cat' | 'tag';
  /** Several terms: an event holding two of them has two rows, so pages and totals count it once. */
  several: boolean;
}

function termDriver(f: EventListFilter): TermDriver | undefined {
  if (f.categoryIds && f.categoryIds.length > 0) return { name: 'cat', several: f.categoryIds.length > 1 };
  if (f.tagIds && f.tagIds.length > 0) return { name: 'tag', several: f.tagIds.length > 1 };
  return undefined;
}

/** `textDrive: false`: the text index only tests rows (see {@link postTextCandidates}); `driver`: `e` is `event_term_index`. */
function filterParts(db: Db, f: EventListFilter, textDrive = true, driver?: TermDriver): FilterPart[] {
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
    if (name === driver?.name) list.push(part(`t${name}${values.length}`, values, (eb) => eb(sql.ref<number>('e.term_id'), 'in', values)));
    else list.push(part(`${name}${values.length}`, values, (eb) => eb('e.post_id', 'in', eventsLinkedTo(values))));
  }
  if (f.featured !== undefined) {
    // A literal, so that `featured = 1` can use the partial index of featured events.
    const featured = f.featured ? 1 : 0;
    list.push(part(`f${featured}`, [], (eb) => eb('e.featured', '=', sql.lit(featured))));
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

/** Number of events matching the filter (index-only on `event_details` for the default window, on `event_term_index` for terms). */
export async function countEvents(db: Db, f: EventListFilter): Promise<number> {
  const driver = termDriver(f);
  if (driver) return countEventsByTerm(db, f, driver);
  const parts = filterParts(db, f);
  const window = windowOnly(parts, f);
  if (window) return countEventsInWindow(db, window);
  const [row] = needsPosts(f)
    ? await runFiltered(db, 'countEventsJoined', parts, (where) =>
        forFilter(db, f, db
          .selectFrom('event_details as e')
          .innerJoin('posts as p', 'p.id', 'e.post_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where((eb) => where(eb as unknown as EB))))
    : await runFiltered(db, 'countEvents', parts, (where) =>
        db
          .selectFrom('event_details as e')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where((eb) => where(eb as unknown as EB)));
  return Number(row?.n ?? 0);
}

/** {@link countEvents} from the rows of the filter's terms (each event once). */
async function countEventsByTerm(db: Db, f: EventListFilter, driver: TermDriver): Promise<number> {
  const joined = needsPosts(f);
  const [row] = await runFiltered(db, `countEventsByTerm${joined ? 'Joined' : ''}`, filterParts(db, f, true, driver), (where) =>
    forFilter(db, f, db
      .selectFrom('event_term_index as e')
      .$if(joined, (q) => q.innerJoin('posts as p', 'p.id', 'e.post_id'))
      .select((eb) => (driver.several ? eb.fn.count<number>('e.post_id').distinct() : eb.fn.countAll<number>()).as('n'))
      .where((eb) => where(eb as unknown as EB))));
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
  const driver = termDriver(f);
  const name = `eventPage${byPostDate ? 'ByPostDate' : ''}${driver ? `ByTerm${needsPosts(f) ? 'Joined' : ''}` : ''}`;
  const rows = await runFiltered(db, name, filterParts(db, f, textDrive, driver), (where) => {
    const ids = pageIds(db, driver, needsPosts(f), where, byPostDate).limit(limit).offset(skip);
    const page = forFilter(db, f, db
      .selectFrom(ids.as('page'))
      .innerJoin('event_details as e', 'e.post_id', 'page.post_id')
      .innerJoin('posts as p', 'p.id', 'page.post_id')
      .select(packedColumns(db, LIST_EVENT_COLUMNS).as('packed')));
    return byPostDate
      ? page.orderBy('page.date_gmt', 'asc').orderBy('page.post_id', 'asc')
      : page.orderBy('page.start_utc', 'asc').orderBy('page.date_gmt', 'asc').orderBy('page.post_id', 'asc');
  }, [limit, skip]);
  return rows.map((r) => toEventRecord(r.packed));
}

/**
 * The ordered IDs (with their sort keys) of the matching events: from `event_details` and `posts`, or
 * with a term driver from `event_term_index`, whose rows hold the publication date too (`posts` is
 * joined only for the filters that test its columns).
 */
function pageIds(db: Db, driver: TermDriver | undefined, joinPosts: boolean, where: (eb: EB) => Expression<SqlBool>, byPostDate: boolean) {
  if (driver) {
    const q = db
      .selectFrom('event_term_index as e')
      .$if(joinPosts, (b) => b.innerJoin('posts as p', 'p.id', 'e.post_id'))
      .select(['e.post_id', 'e.start_utc', 'e.date_gmt'])
      .$if(driver.several, (b) => b.distinct())
      .where((eb) => where(eb as unknown as EB));
    return byPostDate
      ? q.orderBy('e.date_gmt', 'asc').orderBy('e.post_id', 'asc')
      : q.orderBy('e.start_utc', 'asc').orderBy('e.date_gmt', 'asc').orderBy('e.post_id', 'asc');
  }
  const q = db
    .selectFrom('event_details as e')
    .innerJoin('posts as p', 'p.id', 'e.post_id')
    .select(['e.post_id', 'e.start_utc', 'p.date_gmt'])
    .where((eb) => where(eb as unknown as EB));
  return byPostDate
    ? q.orderBy('p.date_gmt', 'asc').orderBy('e.post_id', 'asc')
    : q.orderBy('e.start_utc', 'asc').orderBy('p.date_gmt', 'asc').orderBy('e.post_id', 'asc');
}
