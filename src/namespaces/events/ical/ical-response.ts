/**
 * @module namespaces/events/ical/ical-response
 * Answering a page request with an iCalendar feed: who is asking, which events of the REST archive
 * they may see, and the `.ics` attachment. The feed pages of this area use it, and so do the calendar
 * views' pages (a view's URL with `?ical=1` exports the view's events, as the original's do).
 *
 * Events come from the REST archive itself (`GET /eventsuite/events/v1/events`), dispatched
 * internally as the caller, so a feed accepts the archive's filters with the same validation and
 * holds exactly what the caller may see there: anonymous callers get published events only. Like the
 * original's, a list feed never holds drafts; signed-in readers of private events also get those.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageHost } from '../../../area.js';
import type { AppContext } from '../../../app-context.js';
import { siteTimeZoneSetting } from '../../../content/posts.js';
import { sanitizeTitle } from '../../../content/slugs.js';
import type { Dispatcher } from '../../../rest/dispatch.js';
import { invalidParam, RestError } from '../../../rest/errors.js';
import { createRestRequest } from '../../../rest/request.js';
import type { RestUser } from '../../../rest/route.js';
import { valueOf } from '../../../rest/serve.js';
import { eventsService } from '../events.public.js';
import { buildIcalFeed, type FeedCalendar, type FeedEvent } from './ical-feed.js';

/** Events in a feed unless `per_page` says otherwise (the original's `tribe_ical_feed_posts_per_page`). */
export const FEED_DEFAULT_COUNT = 30;
/** Most events one feed carries; larger `per_page` values are clamped. */
export const FEED_MAX_COUNT = 1000;
/** Page size of the internal archive reads (the archive's own maximum). */
const ARCHIVE_PAGE = 50;
/** Feed-only and envelope parameters, never passed on to the archive. */
const NOT_ARCHIVE_PARAMS = ['ical', 'outlook-ical', 'per_page', 'page', 'rest_route', '_fields', '_embed', '_envelope', '_jsonp'];

export type FeedCaller = { user: RestUser | null; auth: Parameters<typeof createRestRequest>[0]['auth'] };

/** What one feed holds and where it belongs. */
export interface FeedSpec {
  /** REST archive filters; `status` defaults to what the caller may list. */
  query: Record<string, unknown>;
  /** How many events at most. */
  count: number;
  /** Take the last `count` events of the archive's order instead of the first (a past list). */
  last?: boolean;
  /** X-ORIGINAL-URL: the page the feed exports. */
  url: string;
  /** File name after the site's slug (`<site>-<suffix>.ics`). */
  fileSuffix: string;
}

/** The request's headers as the REST request carries them (lower-case names, repeated values joined). */
export function headersOf(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function queryOf(request: FastifyRequest): Record<string, unknown> {
  return (request.query ?? {}) as Record<string, unknown>;
}

/** Whether a page request asks for the feed: `ical` or the Outlook export's `outlook-ical`, any value (the original tests presence). */
export function isFeedRequest(request: FastifyRequest): boolean {
  const query = queryOf(request);
  return query.ical !== undefined || query['outlook-ical'] !== undefined;
}

/** The request's own archive filters: its query without the feed's and the envelope's parameters. */
export function archiveQueryOf(request: FastifyRequest): Record<string, unknown> {
  const query = { ...queryOf(request) };
  for (const key of NOT_ARCHIVE_PARAMS) delete query[key];
  return query;
}

export function sendFeedError(reply: FastifyReply, error: RestError): FastifyReply {
  return reply.code(error.status).type('application/json; charset=UTF-8').send(JSON.stringify(error.toJSON()));
}

/** The number of events asked for: `per_page` clamped to 1…1000, or a 400 for a value that is no positive integer. */
export function feedCount(value: unknown): number | RestError {
  if (value === undefined || value === null || value === '') return FEED_DEFAULT_COUNT;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1) {
    return invalidParam('per_page', `per_page must be an integer between 1 and ${FEED_MAX_COUNT}.`);
  }
  return Math.min(n, FEED_MAX_COUNT);
}

/** The caller of a feed request; bad credentials are the REST error (401), as on the REST routes. */
export async function feedCaller(host: PageHost, request: FastifyRequest): Promise<FeedCaller | RestError> {
  const outcome = await host.authenticator.authenticate({ headers: headersOf(request), query: queryOf(request), body: {}, ip: request.ip });
  return outcome instanceof RestError ? outcome : { user: outcome.user, auth: outcome.auth };
}

/** Statuses a feed lists for a caller who did not ask for some: published, plus private for their readers. */
function feedStatuses(user: RestUser | null): string {
  return user?.can('read_private_tribe_events') ? 'publish,private' : 'publish';
}

function archiveRequest(request: FastifyRequest, caller: FeedCaller, query: Record<string, unknown>) {
  return createRestRequest({ method: 'GET', route: '/eventsuite/events/v1/events', query, headers: headersOf(request), user: caller.user, auth: caller.auth, ip: request.ip });
}

/**
 * Reads `count` events of the archive for `query` from position `from` on, page by page, as the
 * caller. Returns the archive's error when the query is refused.
 */
async function archiveEvents(dispatcher: Dispatcher<AppContext>, request: FastifyRequest, caller: FeedCaller, query: Record<string, unknown>, from: number, count: number): Promise<FeedEvent[] | RestError> {
  const events: FeedEvent[] = [];
  const first = Math.floor(from / ARCHIVE_PAGE) + 1;
  for (let page = first; events.length < count; page++) {
    const res = await dispatcher.dispatch(archiveRequest(request, caller, { ...query, per_page: ARCHIVE_PAGE, page }));
    if (res.data instanceof RestError) return page === first ? res.data : events;
    const body = valueOf(res.data) as { events?: FeedEvent[]; total_pages?: number };
    const batch = body.events ?? [];
    const skip = page === first ? from - (first - 1) * ARCHIVE_PAGE : 0;
    events.push(...batch.slice(skip, skip + count - events.length));
    if (batch.length < ARCHIVE_PAGE || page >= Number(body.total_pages ?? 0)) break;
  }
  return events;
}

/** How many events the archive holds for `query`, or its error. */
async function archiveTotal(dispatcher: Dispatcher<AppContext>, request: FastifyRequest, caller: FeedCaller, query: Record<string, unknown>): Promise<number | RestError> {
  const res = await dispatcher.dispatch(archiveRequest(request, caller, { ...query, per_page: 1, page: 1 }));
  if (res.data instanceof RestError) return res.data;
  return Number((valueOf(res.data) as { total?: number }).total ?? 0);
}

/**
 * The archive blanks a password-protected event shown without its password, its all-day flag
 * included (`null`); the feed still needs that flag for the event's dates, and says the content is
 * protected. Only such events are looked up.
 */
export async function markProtected(ctx: AppContext, events: FeedEvent[]): Promise<FeedEvent[]> {
  const blanked = events.filter((e) => e.all_day === null).map((e) => e.id);
  if (blanked.length === 0) return events;
  const summaries = await eventsService.getEvents(ctx, blanked);
  return events.map((e) => {
    const s = e.all_day === null ? summaries.get(e.id) : undefined;
    return s ? { ...e, all_day: s.allDay, protected: s.passwordProtected } : e;
  });
}

async function calendarOf(ctx: AppContext, url: string, outlook: boolean): Promise<FeedCalendar> {
  const name = String((await ctx.options.get('blogname')) ?? '');
  return { name, url, home: ctx.urls.home, defaultTimezone: await siteTimeZoneSetting(ctx.options), outlook };
}

/** Sends `events` as the `.ics` attachment of the request. */
export async function sendFeed(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, events: FeedEvent[], url: string, fileSuffix: string): Promise<FastifyReply> {
  const outlook = queryOf(request)['outlook-ical'] !== undefined && queryOf(request).ical === undefined;
  const calendar = await calendarOf(ctx, url, outlook);
  const site = sanitizeTitle(calendar.name) || 'events';
  const text = buildIcalFeed(await markProtected(ctx, events), calendar, ctx.now());
  return reply
    .code(200)
    .header('Content-Type', 'text/calendar; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${site}-${fileSuffix}${outlook ? '-outlook' : ''}.ics"`)
    .header('Cache-Control', 'no-cache, must-revalidate, max-age=0')
    .send(text);
}

/**
 * Answers the request with the feed of the archive events `spec` selects, as the caller sees them;
 * a refused filter is the archive's 400, bad credentials a 401.
 *
 * @example
 * return sendEventsFeed(host, request, reply, { query: { categories: 'music' }, count: 30, url, fileSuffix: 'music' });
 */
export async function sendEventsFeed(host: PageHost, request: FastifyRequest, reply: FastifyReply, spec: FeedSpec): Promise<FastifyReply> {
  const caller = await feedCaller(host, request);
  if (caller instanceof RestError) return sendFeedError(reply, caller);
  const events = await feedEvents(host, request, caller, spec);
  if (events instanceof RestError) return sendFeedError(reply, events);
  return sendFeed(host.ctx, request, reply, events, spec.url, spec.fileSuffix);
}

/** The archive events `spec` selects, as the caller sees them, or the archive's error. */
export async function feedEvents(host: PageHost, request: FastifyRequest, caller: FeedCaller, spec: Pick<FeedSpec, 'query' | 'count' | 'last'>): Promise<FeedEvent[] | RestError> {
  const query = { ...spec.query, status: spec.query.status ?? feedStatuses(caller.user) };
  let from = 0;
  if (spec.last) {
    const total = await archiveTotal(host.dispatcher, request, caller, query);
    if (total instanceof RestError) return total;
    from = Math.max(0, total - spec.count);
  }
  return archiveEvents(host.dispatcher, request, caller, query, from, spec.count);
}
