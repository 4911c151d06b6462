/**
 * @module namespaces/events/events.handlers
 * Handlers and permissions of the event routes: the archive with every filter, single reads by ID or
 * slug, create, update (only the fields sent change) and delete (to the trash).
 */
import { cachedCount } from './count-cache.js';
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import { paginate } from '../../rest/pagination.js';
import { ANY_STATUSES, siteTimeZone, toDbDate, parseDateTime } from '../../content/posts.js';
import { respond, type Permission, type RestRequest, type RestResponse } from '../../rest/route.js';
import { archivePage, type QueryPair } from './archive.js';
import { can, canDeletePost, canEditPost, EVENT_TYPE } from './caps.js';
import { loadEvent, resolvedTermFilter } from './checks.js';
import { invalidParam } from '../../rest/errors.js';
import { eventError } from './errors.js';
import { countEvents, listEvents as listEventRows, type EventListFilter } from './events-list.repo.js';
import { withChildTerms, type EventRecord } from './events.repo.js';
import {
  assertEventReadable, eventInputFrom, manageAccess, presentCalendarEventList, presentEventList, presentSingleEvent, reloadEvent, saveEvent,
  trashEvent,
} from './events.service.js';
import { EVENTS_NAMESPACE } from './linked.present.js';
import { CALENDAR_PAGING, type eventArchiveArgs } from './event-args.js';
import type { TypedRequest } from '../../rest/typed.js';
import { isTruthy } from './validators.js';
import { guardEventWrite } from './write-guard.js';
import { sideloadInputImages } from './post-write.js';

declare module '../../rest/route.js' {
  interface RequestLocals {
    /**
     * `calendar`: the archive answers only the fields the calendar views show (set by the views on
     * their internal requests; clients cannot set it).
     */
    eventFields?: 'calendar';
  }
}

/** The event a single route addresses (its checks guarantee it exists). */
async function targetEvent(req: RestRequest, ctx: AppContext): Promise<EventRecord> {
  const ev = await loadEvent(req, ctx);
  if (!ev) throw invalidParam(req.urlParams.slug !== undefined ? 'slug' : 'id');
  return ev;
}

// ---------------------------------------------------------------------------------------------
// Permissions (the args' checks ran before: the target exists)
// ---------------------------------------------------------------------------------------------

/** Create: "edit events" capability. */
export const canCreateEvent: Permission<AppContext> = (req) => can(req.user, EVENT_TYPE, 'edit');

/** Update: the right to edit this event. */
export const canUpdateEvent: Permission<AppContext> = async (req, ctx) => {
  if (!can(req.user, EVENT_TYPE, 'edit')) return false;
  const ev = await loadEvent(req, ctx);
  return ev !== undefined && canEditPost(req.user, EVENT_TYPE, ev);
};

/** Delete: the right to delete this event. */
export const canDeleteEvent: Permission<AppContext> = async (req, ctx) => {
  if (!can(req.user, EVENT_TYPE, 'delete')) return false;
  const ev = await loadEvent(req, ctx);
  return ev !== undefined && canDeletePost(req.user, EVENT_TYPE, ev);
};

/** Reads are public; the handler enforces visibility. */
export const canReadEvent: Permission<AppContext> = () => true;

/** The archive is public. */
export const canListEvents: Permission<AppContext> = () => true;

// ---------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------

/** GET single (by ID or slug): 200 with the event and its JSON-LD. */
export async function getEventHandler(req: RestRequest, ctx: AppContext): Promise<Record<string, unknown>> {
  const ev = await targetEvent(req, ctx);
  assertEventReadable(ev, req.user, req.params);
  return presentSingleEvent(ctx, ev, req, true);
}

/** POST /events: 201 with the new event. */
export async function createEventHandler(req: RestRequest, ctx: AppContext): Promise<RestResponse> {
  const input = guardEventWrite(req.user, eventInputFrom(req), true);
  await sideloadInputImages(ctx, req.user!, input);
  const id = await saveEvent(ctx, input, req.user);
  const ev = await reloadEvent(ctx, id);
  return respond(await presentSingleEvent(ctx, ev, req, false), { status: 201, headers: { Location: ctx.urls.rest(`${EVENTS_NAMESPACE}/events/${id}`) } });
}

/** POST/PUT/PATCH single: only the fields sent change; 200 with the event. */
export async function updateEventHandler(req: RestRequest, ctx: AppContext): Promise<Record<string, unknown>> {
  const current = await targetEvent(req, ctx);
  const input = eventInputFrom(req);
  // CASE: on by-slug routes `slug` is the path variable; it renames only when the body sends another.
  if (req.urlParams.slug !== undefined && input.slug === req.urlParams.slug) delete input.slug;
  const guarded = guardEventWrite(req.user, input, false);
  await sideloadInputImages(ctx, req.user!, guarded);
  const id = await saveEvent(ctx, guarded, req.user, current);
  return presentSingleEvent(ctx, await reloadEvent(ctx, id), req, false);
}

/** DELETE single: to the trash, 200 with the trashed event; 410 when already trashed. */
export async function deleteEventHandler(req: RestRequest, ctx: AppContext): Promise<Record<string, unknown>> {
  const ev = await targetEvent(req, ctx);
  await trashEvent(ctx, ev);
  return presentSingleEvent(ctx, await reloadEvent(ctx, ev.id), req, false);
}

/**
 * WordPress's search parsing: quoted phrases stay whole, other words are ANDed; ten or more terms are
 * matched as one phrase (`WP_Query::parse_search`), which also keeps the query small.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  const re = /"([^"]+)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const term = (m[1] ?? m[2] ?? '').trim();
    if (term !== '') terms.push(term);
    if (terms.length > 9) return [text.trim()];
  }
  return terms;
}

/** The archive's default window with `strict_dates`: from yesterday 23:59 to this moment 24 months ahead. */
function strictWindow(zone: string, now: Date): { start: DateTime; end: DateTime } {
  const nowLocal = DateTime.fromJSDate(now, { zone });
  return { start: nowLocal.minus({ days: 1 }).set({ hour: 23, minute: 59, second: 0, millisecond: 0 }), end: nowLocal.plus({ months: 24 }).set({ millisecond: 0 }) };
}

/** Default windows by zone, each valid from `from` until `until` (the local day it was computed in). */
const dayWindows = new Map<string, { from: number; until: number; start: DateTime; end: DateTime }>();
const DAY_WINDOWS_MAX = 100;

/**
 * The archive's default window: from the start of yesterday to the end of the day 24 months ahead (site
 * zone). It changes only with the local date, so it is computed once per zone and day (zone date
 * arithmetic costs a tenth of a millisecond).
 */
function dayWindow(zone: string, now: Date): { start: DateTime; end: DateTime } {
  const t = now.getTime();
  const known = dayWindows.get(zone);
  if (known && t >= known.from && t < known.until) return known;
  const nowLocal = DateTime.fromJSDate(now, { zone });
  const today = nowLocal.startOf('day');
  const window = {
    from: today.toMillis(),
    until: today.plus({ days: 1 }).toMillis(),
    start: nowLocal.minus({ days: 1 }).startOf('day'),
    end: nowLocal.plus({ months: 24 }).endOf('day').set({ millisecond: 0 }),
  };
  if (dayWindows.size >= DAY_WINDOWS_MAX) dayWindows.clear();
  dayWindows.set(zone, window);
  return window;
}

/** GET /events: the archive. */
export async function listEventsHandler(req: TypedRequest<ReturnType<typeof eventArchiveArgs>>, ctx: AppContext): Promise<RestResponse> {
  const p = req.params;
  const zone = await siteTimeZone(ctx.options);
  const now = ctx.now();
  const { page, perPage } = await paginate(req, ctx, CALENDAR_PAGING);
  const strict = isTruthy(p.strict_dates ?? 'false');
  const include = p.include?.filter((n) => n > 0);

  // ---- Date window (site time zone; whole days unless strict).
  const local = (v: unknown): DateTime | undefined => parseDateTime(v, zone, now);
  const bound = (name: string, value: unknown, edge: 'start' | 'end'): DateTime => {
    const dt = local(value);
    if (!dt) throw invalidParam(name);
    if (strict) return dt;
    return edge === 'start' ? dt.startOf('day') : dt.endOf('day').set({ millisecond: 0 });
  };
  const relative = ['starts_before', 'starts_after', 'ends_before', 'ends_after'].some((k) => req.has(k));
  const defaults = strict ? strictWindow(zone, now) : dayWindow(zone, now);
  let start: DateTime | undefined = req.has('start_date') ? bound('start_date', p.start_date, 'start') : defaults.start;
  let end: DateTime | undefined = req.has('end_date') ? bound('end_date', p.end_date, 'end') : defaults.end;
  if (relative) {
    // CASE: open bounds replace the default window unless the query string names the dates.
    if (req.query.start_date === undefined) start = undefined;
    if (req.query.end_date === undefined) end = undefined;
  }
  const open: Partial<Record<'starts_before' | 'starts_after' | 'ends_before' | 'ends_after', DateTime>> = {};
  for (const k of ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const) if (req.has(k)) open[k] = bound(k, p[k], 'end');
  if (include !== undefined) {
    start = undefined;
    end = undefined;
    for (const k of Object.keys(open) as (keyof typeof open)[]) delete open[k];
  }
  const utc = (dt: DateTime | undefined) => (dt ? toDbDate(dt.toUTC()) : undefined);

  // ---- Visibility.
  const editor = can(req.user, EVENT_TYPE, 'edit');
  const statuses = p.status ?? (editor ? [...ANY_STATUSES] : ['publish']);
  const filter: EventListFilter = {
    statuses,
    includeHidden: await manageAccess(req, ctx),
    startsOnOrAfter: utc(start),
    endsOnOrBefore: utc(end),
    startsBefore: utc(open.starts_before),
    startsAfter: utc(open.starts_after),
    endsBefore: utc(open.ends_before),
    endsAfter: utc(open.ends_after),
    include,
  };
  if (editor && !can(req.user, EVENT_TYPE, 'edit_others')) filter.ownDraftsOnly = { userId: req.user!.id, readPrivate: can(req.user, EVENT_TYPE, 'read_private') };

  // ---- Other filters.
  if (p.search !== undefined) {
    filter.search = searchTerms(p.search);
    if (!can(req.user, EVENT_TYPE, 'edit_others')) filter.searchProtectedOf = req.user?.id ?? 0;
  }
  // A category also selects its child categories, as the original's taxonomy query (include_children).
  if (p.categories !== undefined) filter.categoryIds = await withChildTerms(ctx.db, (await resolvedTermFilter(req, ctx, 'categories', p.categories)).ids);
  if (p.tags !== undefined) filter.tagIds = (await resolvedTermFilter(req, ctx, 'tags', p.tags)).ids;
  if (p.venue !== undefined) filter.venueIds = p.venue;
  if (p.organizer !== undefined) filter.organizerIds = p.organizer;
  if (p.featured !== undefined) filter.featured = p.featured;
  if (p.post_parent !== undefined) filter.postParent = p.post_parent;
  if (p.ticketed !== undefined) {
    filter.ticketed = p.ticketed;
    filter.ticketedSubquery = ctx.areas.contributions('eventTicketed')[0];
  }

  // ---- Query.
  const [total, rows] = await Promise.all([cachedCount(ctx, JSON.stringify(filter), () => countEvents(ctx.db, filter)), listEventRows(ctx.db, filter, perPage, (page - 1) * perPage)]);
  if (rows.length === 0 && page > 1) throw eventError('event-archive-page-not-found');
  const events = req.locals.eventFields === 'calendar' ? await presentCalendarEventList(ctx, rows, req) : await presentEventList(ctx, rows, req);

  // ---- Envelope.
  const fmt = (dt: DateTime | undefined) => (dt ? toDbDate(dt) : undefined);
  const pairs: QueryPair[] = [
    ['per_page', perPage],
    ['start_date', fmt(start)],
    ['end_date', fmt(end)],
    ['search', p.search],
    ['categories', p.categories],
    ['tags', p.tags],
    ['geoloc', req.has('geoloc') && p.geoloc === true ? 1 : undefined],
    ['geoloc_lat', req.has('geoloc') && p.geoloc === true ? (p.geoloc_lat ?? '') : undefined],
    ['geoloc_lng', req.has('geoloc') && p.geoloc === true ? (p.geoloc_lng ?? '') : undefined],
    ['status', req.has('status') ? statuses : editor ? 'any' : 'publish'],
    ['post_parent', p.post_parent],
    ['include', include],
    ['starts_before', fmt(open.starts_before)],
    ['starts_after', fmt(open.starts_after)],
    ['ends_before', fmt(open.ends_before)],
    ['ends_after', fmt(open.ends_after)],
    ['ticketed', p.ticketed],
    ['venue', p.venue],
    ['organizer', p.organizer],
    ['featured', p.featured],
  ];
  const collection = ctx.urls.rest(`${EVENTS_NAMESPACE}/events`);
  const info = archivePage(req, { base: `${collection}/`, collection, pairs, page, perPage, total });
  const body: Record<string, unknown> = { events, rest_url: info.restUrl };
  if (info.nextUrl) body.next_rest_url = info.nextUrl;
  if (info.previousUrl) body.previous_rest_url = info.previousUrl;
  body.total = info.total;
  body.total_pages = info.totalPages;
  return respond(body, { headers: info.headers });
}
