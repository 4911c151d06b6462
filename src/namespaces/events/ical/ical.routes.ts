/**
 * @module namespaces/events/ical/ical.routes
 * The site pages that serve the iCalendar feed, at the original's URLs: `{home}/events/?ical=1` (the
 * events list, with the REST archive's filters) and `{home}/event/<slug>/?ical=1` (one event).
 *
 * Events come from the REST archive itself (`GET /eventsuite/events/v1/events`, and `/events/by-slug`
 * for one event), dispatched internally as the caller, so the feed accepts the same filters with the
 * same validation and shows exactly what the caller may see there: anonymous callers get published
 * events only. Like the original's front end, the feed never lists drafts; signed-in readers of private
 * events also get those.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context.js';
import type { Authenticator } from '../../../auth/types.js';
import { siteTimeZoneSetting } from '../../../content/posts.js';
import { sanitizeTitle } from '../../../content/slugs.js';
import type { Dispatcher } from '../../../rest/dispatch.js';
import { valueOf } from '../../../rest/serve.js';
import { invalidParam, RestError } from '../../../rest/errors.js';
import { createRestRequest } from '../../../rest/request.js';
import type { RestUser } from '../../../rest/route.js';
import { EVENTS_NS } from '../index.js';
import { buildIcalFeed, type FeedCalendar, type FeedEvent } from './ical-feed.js';

/** Events in a feed unless `per_page` says otherwise (the original's `tribe_ical_feed_posts_per_page`). */
export const FEED_DEFAULT_COUNT = 30;
/** Most events one feed carries; larger `per_page` values are clamped. */
export const FEED_MAX_COUNT = 1000;
/** Page size of the internal archive reads (the archive's own maximum). */
const ARCHIVE_PAGE = 50;

export interface IcalRouteDeps {
  authenticator: Authenticator;
  dispatcher: Dispatcher<AppContext>;
}

type Caller = { user: RestUser | null; auth: Parameters<typeof createRestRequest>[0]['auth'] };

function headersOf(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function sendError(reply: FastifyReply, error: RestError): FastifyReply {
  return reply.code(error.status).type('application/json; charset=UTF-8').send(JSON.stringify(error.toJSON()));
}

function sendCalendar(reply: FastifyReply, text: string, filename: string): FastifyReply {
  return reply
    .code(200)
    .header('Content-Type', 'text/calendar; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .header('Cache-Control', 'no-cache, must-revalidate, max-age=0')
    .send(text);
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

/** Statuses the feed lists for a caller who did not ask for some: published, plus private for their readers. */
function feedStatuses(user: RestUser | null): string {
  return user?.can('read_private_tribe_events') ? 'publish,private' : 'publish';
}

async function calendarOf(ctx: AppContext, url: string): Promise<FeedCalendar> {
  const name = String((await ctx.options.get('blogname')) ?? '');
  return { name, url, home: ctx.urls.home, defaultTimezone: await siteTimeZoneSetting(ctx.options) };
}

function siteSlug(name: string): string {
  return sanitizeTitle(name) || 'events';
}

/**
 * Reads up to `count` events of the archive for `query`, page by page, as the caller. Returns the
 * archive's error when the query is refused.
 */
async function archiveEvents(dispatcher: Dispatcher<AppContext>, query: Record<string, unknown>, count: number, caller: Caller, request: FastifyRequest): Promise<FeedEvent[] | RestError> {
  const events: FeedEvent[] = [];
  for (let page = 1; events.length < count; page++) {
    const req = createRestRequest({
      method: 'GET',
      route: `/${EVENTS_NS}/events`,
      query: { ...query, per_page: ARCHIVE_PAGE, page },
      headers: headersOf(request),
      user: caller.user,
      auth: caller.auth,
      ip: request.ip,
    });
    const res = await dispatcher.dispatch(req);
    if (res.data instanceof RestError) return page === 1 ? res.data : events;
    const body = valueOf(res.data) as { events?: FeedEvent[]; total_pages?: number };
    const batch = body.events ?? [];
    events.push(...batch.slice(0, count - events.length));
    if (batch.length < ARCHIVE_PAGE || page >= Number(body.total_pages ?? 0)) break;
  }
  return events;
}

/**
 * Adds the feed pages to the Fastify app. Without `ical` in the query these URLs are the calendar's
 * HTML pages (the `calendarPages` extension point), or 404 while no area contributes them.
 *
 * @example
 * registerIcalRoutes(app, ctx, { authenticator, dispatcher });
 */
export function registerIcalRoutes(app: FastifyInstance, ctx: AppContext, deps: IcalRouteDeps): void {
  const { authenticator, dispatcher } = deps;

  const authenticate = async (request: FastifyRequest): Promise<Caller | RestError> => {
    const outcome = await authenticator.authenticate({ headers: headersOf(request), query: (request.query ?? {}) as Record<string, unknown>, body: {}, ip: request.ip });
    return outcome instanceof RestError ? outcome : { user: outcome.user, auth: outcome.auth };
  };

  const host = { ctx, authenticator, dispatcher };
  const page = () => ctx.areas.contributions('calendarPages')[0];

  const listFeed = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = { ...((request.query ?? {}) as Record<string, unknown>) };
    if (query.ical === undefined) return page()?.list(request, reply, host) ?? reply.callNotFound();
    const caller = await authenticate(request);
    if (caller instanceof RestError) return sendError(reply, caller);
    const count = feedCount(query.per_page);
    if (count instanceof RestError) return sendError(reply, count);
    for (const key of ['ical', 'per_page', 'page', 'rest_route', '_fields', '_embed', '_envelope', '_jsonp']) delete query[key];
    query.status ??= feedStatuses(caller.user);
    const events = await archiveEvents(dispatcher, query, count, caller, request);
    if (events instanceof RestError) return sendError(reply, events);
    const calendar = await calendarOf(ctx, `${ctx.urls.home}/events/`);
    return sendCalendar(reply, buildIcalFeed(events, calendar, ctx.now()), `${siteSlug(calendar.name)}-events.ics`);
  };

  const singleFeed = async (request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    if (query.ical === undefined) return page()?.single(request, reply, host) ?? reply.callNotFound();
    const caller = await authenticate(request);
    if (caller instanceof RestError) return sendError(reply, caller);
    const slug = request.params.slug;
    const req = createRestRequest({
      method: 'GET',
      route: `/${EVENTS_NS}/events/by-slug/${slug}`,
      query: typeof query.password === 'string' ? { password: query.password } : {},
      headers: headersOf(request),
      user: caller.user,
      auth: caller.auth,
      ip: request.ip,
    });
    const res = await dispatcher.dispatch(req);
    // An event the caller may not read is no page for them, as a draft's permalink is not.
    if (res.data instanceof RestError) return reply.callNotFound();
    const event = valueOf(res.data) as FeedEvent;
    const calendar = await calendarOf(ctx, event.url);
    return sendCalendar(reply, buildIcalFeed([event], calendar, ctx.now()), `${siteSlug(calendar.name)}-${sanitizeTitle(slug) || event.id}.ics`);
  };

  app.get('/events/', listFeed);
  app.get('/events', listFeed);
  app.get('/event/:slug/', singleFeed);
  app.get('/event/:slug', singleFeed);
}
