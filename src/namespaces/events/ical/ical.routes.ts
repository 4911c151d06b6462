/**
 * @module namespaces/events/ical/ical.routes
 * The site pages that serve the iCalendar feed, at the original's URLs: `{home}/events/?ical=1` (the
 * events list, with the REST archive's filters) and `{home}/event/<slug>/?ical=1` (one event);
 * `?outlook-ical=1` is the original's Outlook export of the same. The calendar views' own URLs
 * (`/events/month/?ical=1`, term archives, …) are answered by that area through
 * {@link sendEventsFeed}.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageHost } from '../../../area.js';
import type { AppContext } from '../../../app-context.js';
import type { Authenticator } from '../../../auth/types.js';
import { sanitizeTitle } from '../../../content/slugs.js';
import type { Dispatcher } from '../../../rest/dispatch.js';
import { RestError } from '../../../rest/errors.js';
import { createRestRequest } from '../../../rest/request.js';
import { valueOf } from '../../../rest/serve.js';
import { EVENTS_NS } from '../index.js';
import { findEventIdBySlug } from '../events.repo.js';
import type { FeedEvent } from './ical-feed.js';
import { archiveQueryOf, feedCaller, feedEvents, headersOf, feedCount, isFeedRequest, sendEventsFeed, sendFeed, sendFeedError } from './ical-response.js';

export { FEED_DEFAULT_COUNT, FEED_MAX_COUNT, feedCount } from './ical-response.js';

export interface IcalRouteDeps {
  authenticator: Authenticator;
  dispatcher: Dispatcher<AppContext>;
}

/**
 * Adds the feed pages to the Fastify app. Without `ical` in the query these URLs are the calendar's
 * HTML pages (the `calendarPages` extension point), or 404 while no area contributes them.
 *
 * @example
 * registerIcalRoutes(app, ctx, { authenticator, dispatcher });
 */
export function registerIcalRoutes(app: FastifyInstance, ctx: AppContext, deps: IcalRouteDeps): void {
  const host: PageHost = { ctx, ...deps };
  const page = () => ctx.areas.contributions('calendarPages')[0];

  const listFeed = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isFeedRequest(request)) return page()?.list(request, reply, host) ?? reply.callNotFound();
    const count = feedCount((request.query as Record<string, unknown>).per_page);
    if (count instanceof RestError) return sendFeedError(reply, count);
    const query = archiveQueryOf(request);
    // CASE: the original's `event_ids` asks for those events only (each one the caller may read).
    if (query.event_ids !== undefined) {
      query.include = query.event_ids;
      delete query.event_ids;
    }
    // CASE: `/events/?ical=1` is the upcoming events (REST filters allowed) whatever the default view;
    // the original follows the default view, so on a month-view site it would hold this month's only.
    return sendEventsFeed(host, request, reply, { query, count, url: `${ctx.urls.home}/events/`, fileSuffix: 'events' });
  };

  const singleFeed = async (request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply) => {
    if (!isFeedRequest(request)) return page()?.single(request, reply, host) ?? reply.callNotFound();
    const caller = await feedCaller(host, request);
    if (caller instanceof RestError) return sendFeedError(reply, caller);
    const query = request.query as Record<string, unknown>;
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
    const res = await deps.dispatcher.dispatch(req);
    let event = res.data instanceof RestError ? undefined : (valueOf(res.data) as FeedEvent);
    if (res.data instanceof RestError && res.data.code === 'event-password-protected') {
      // CASE: the original exports a password-protected event without its content (as the archive shows it).
      const id = await findEventIdBySlug(ctx.db, slug);
      const found = id === undefined ? [] : await feedEvents(host, request, caller, { query: { include: String(id) }, count: 1 });
      if (Array.isArray(found)) event = found[0];
    }
    // An event the caller may not read is no page for them, as a draft's permalink is not.
    if (!event) return reply.callNotFound();
    return sendFeed(ctx, request, reply, [event], event.url, sanitizeTitle(slug) || String(event.id));
  };

  app.get('/events/', listFeed);
  app.get('/events', listFeed);
  app.get('/event/:slug/', singleFeed);
  app.get('/event/:slug', singleFeed);
}
