/**
 * @module namespaces/calendar-views/pages
 * The calendar's public pages: the views (`/events/…`, rendered by the same code as the REST route,
 * with both view nonces embedded; `/events/category/<slug>/…` and `/tag/<slug>/` show one term's
 * events), the single event page (`/event/<slug>/`, with its JSON-LD) and the venue and organizer
 * pages listing their upcoming events. Every page works without JavaScript.
 * `/events/` and `/event/<slug>/` are the feed's URLs too: the events area serves them and hands the
 * requests without `ical` to {@link calendarPages}.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DateTime } from 'luxon';
import type { PageHost } from '../../area.js';
import { esc } from '../../admin/html.js';
import type { AppContext } from '../../app-context.js';
import { createNonce } from '../../auth/index.js';
import { readSession } from '../../auth/session.js';
import { siteTimeZone } from '../../content/posts.js';
import { RestError } from '../../rest/errors.js';
import { createRestRequest } from '../../rest/request.js';
import { valueOf } from '../../rest/serve.js';
import { feedCaller, feedCount, feedEvents, isFeedRequest, pageApiRoot, sendEventsFeed, sendFeed, sendFeedError, type CalendarPageHandlers } from '../events/index.js';
import { allEvents, useDispatcher, type CalEvent, type Caller } from './events-source.js';
import './event-page-sections.js';
import { sendPage } from './page-shell.js';
import { jsonLd } from './render.js';
import { phpDate } from './php-date.js';
import { viewFeedSpec } from './view-feed.js';
import { renderView, viewRequestFor } from './views.service.js';
import { archiveFilter } from './view-url.js';
import { VIEW_NONCE_ACTION } from './views.routes.js';

function headersOf(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function callerOf(host: PageHost, request: FastifyRequest): Promise<Caller> {
  const outcome = await host.authenticator.authenticate({ headers: headersOf(request), query: {}, body: {}, ip: request.ip });
  // Bad credentials on a public page: shown as to a signed-out visitor.
  return outcome instanceof RestError ? { user: null, auth: { method: 'none' }, ip: request.ip } : { user: outcome.user, auth: outcome.auth, ip: request.ip };
}

/**
 * The view pages' visitor: as {@link callerOf}, and a browser signed in by cookie alone (a page carries
 * no REST nonce) is that user, as on WordPress's front end; the view route keeps them the same way.
 */
async function viewCallerOf(host: PageHost, request: FastifyRequest): Promise<Caller> {
  const caller = await callerOf(host, request);
  if (caller.user !== null) return caller;
  const session = await readSession(host.ctx, request.headers.cookie);
  return session ? { user: session.user, auth: { method: 'cookie', sessionToken: session.token }, ip: request.ip } : caller;
}

function notFound(reply: FastifyReply): FastifyReply {
  reply.callNotFound();
  return reply;
}

/**
 * The view nonces: the primary for whoever is looking; the secondary, the signed-out visitor's, only
 * for a signed-in one (a signed-out visitor's primary is that nonce already: the secondary is empty).
 */
async function nonces(ctx: AppContext, caller: Caller): Promise<Record<string, string>> {
  return {
    _tec_view_rest_nonce_primary: await createNonce(ctx, caller, VIEW_NONCE_ACTION),
    _tec_view_rest_nonce_secondary: caller.user === null ? '' : await createNonce(ctx, { user: null, auth: { method: 'none' } }, VIEW_NONCE_ACTION),
  };
}

/** `?ical=1` on a view's URL: the view's events as a feed (see {@link viewFeedSpec}); 404 for a URL that is no view. */
async function viewFeed(host: PageHost, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { ctx } = host;
  const req = await viewRequestFor(ctx, { url: `${ctx.urls.home}${request.url}` });
  if (!req) return notFound(reply);
  const count = feedCount((request.query as Record<string, unknown>).per_page);
  if (count instanceof RestError) return sendFeedError(reply, count);
  const caller = await feedCaller(host, request);
  if (caller instanceof RestError) return sendFeedError(reply, caller);
  const now = DateTime.fromJSDate(ctx.now()).setZone(await siteTimeZone(ctx.options));
  const spec = viewFeedSpec(req, now, ctx.urls.home, count);
  const events = await feedEvents(host, request, caller, spec);
  // A term that does not exist is no page (the view's own answer), not a bad request.
  if (events instanceof RestError) return events.status === 400 ? notFound(reply) : sendFeedError(reply, events);
  return sendFeed(ctx, request, reply, events, spec.url, spec.fileSuffix);
}

async function viewPage(host: PageHost, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { ctx } = host;
  if (isFeedRequest(request)) return viewFeed(host, request, reply);
  const caller = await viewCallerOf(host, request);
  let out;
  try {
    out = await renderView(ctx, caller, { url: `${ctx.urls.home}${request.url}`, initialLoad: true, shouldManageUrl: true });
  } catch (e) {
    if (e instanceof RestError && e.status === 400) out = undefined;
    else throw e;
  }
  if (!out) return notFound(reply);
  const title = /<h1[^>]*>([^<]*)<\/h1>/.exec(out.html)?.[1] ?? 'Events';
  const apiRoot = pageApiRoot(ctx, { filter: archiveFilter(out.req.archive) });
  return sendPage(ctx, reply, { title: `Events for ${title}`.replace(/&amp;/g, '&'), body: out.html, nonces: await nonces(ctx, caller), apiRoot, signedIn: caller.user !== null });
}

async function restGet(host: PageHost, caller: Caller, route: string, query: Record<string, unknown> = {}): Promise<Record<string, any> | undefined> {
  const res = await host.dispatcher.dispatch(createRestRequest({ method: 'GET', route, query, user: caller.user, auth: caller.auth, ip: caller.ip }));
  return res.data instanceof RestError ? undefined : (valueOf(res.data) as Record<string, any>);
}

/** Text of stored HTML as paragraphs (descriptions come from imports and editors; no markup is trusted here). */
function paragraphs(html: string): string {
  const text = html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '').replace(/<\/(p|div|li|h\d)>|<br\s*\/?>/gi, '\n\n').replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;|&#8221;|&#8220;/g, '"').replace(/&#0?39;|&#8217;/g, "'");
  return text.split(/\n{2,}/).map((p) => p.trim()).filter(Boolean).map((p) => `<p>${esc(p)}</p>`).join('\n');
}

/** The original's "+ Google Map" link of a venue with an address (shown while the event or venue asks for it). */
function mapLink(venue: Record<string, unknown>): string {
  const address = [venue.address, venue.city, venue.state || venue.province, venue.zip, venue.country].filter((v) => typeof v === 'string' && v !== '').join(' ');
  if (!address) return '';
  return ` <a class="tribe-events-gmap" href="${esc(`https://maps.google.com/maps?f=q&source=s_q&hl=en&geocode=&q=${encodeURIComponent(address)}`)}" rel="noopener">+ Google Map</a>`;
}

async function eventPage(host: PageHost, request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply): Promise<FastifyReply> {
  const { ctx } = host;
  const caller = await callerOf(host, request);
  const ev = await restGet(host, caller, `/eventsuite/events/v1/events/by-slug/${encodeURIComponent(request.params.slug)}`);
  if (!ev) return notFound(reply);
  const [dateFormat, timeFormat] = [String(await ctx.options.get('date_format')), String(await ctx.options.get('time_format'))];
  const s = DateTime.fromFormat(String(ev.start_date), 'yyyy-MM-dd HH:mm:ss');
  const e = DateTime.fromFormat(String(ev.end_date), 'yyyy-MM-dd HH:mm:ss');
  const when = ev.all_day ? `${phpDate(dateFormat, s)}${s.hasSame(e, 'day') ? '' : ` – ${phpDate(dateFormat, e)}`} (all day)` : `${phpDate(dateFormat, s)} @ ${phpDate(timeFormat, s)} – ${s.hasSame(e, 'day') ? '' : `${phpDate(dateFormat, e)} @ `}${phpDate(timeFormat, e)}`;
  const venue = Array.isArray(ev.venue) ? undefined : ev.venue;
  const organizers = (ev.organizer ?? []) as { organizer: string; url: string }[];
  const sections = await Promise.all(ctx.areas.contributions('eventPageSections').map((section) => section(host, caller, { id: Number(ev.id), title: String(ev.title) })));
  const ld = ev.json_ld ? `<script type="application/ld+json">${JSON.stringify([ev.json_ld]).replace(/</g, '\\u003c')}</script>` : jsonLd([ev as CalEvent]);
  const body = `<article class="event-single" data-event-id="${Number(ev.id)}">
<p><a href="${esc(ctx.urls.home)}/events/">« All Events</a></p>
<h1 class="tribe-events-single-event-title">${esc(ev.title)}</h1>
<p class="tribe-events-schedule"><time datetime="${esc(String(ev.start_date).slice(0, 10))}">${esc(when)}</time>${ev.timezone ? ` <span class="tribe-events-timezone">${esc(ev.timezone)}</span>` : ''}</p>
${ev.image?.url ? `<img src="${esc(ev.image.url)}" alt="" style="max-width:100%;height:auto">` : ''}
<div class="tribe-events-single-event-description">${paragraphs(String(ev.description ?? ''))}</div>
<dl>
${ev.cost ? `<dt>Cost</dt><dd>${esc(ev.cost)}</dd>` : ''}
${venue ? `<dt>Venue</dt><dd><a href="${esc(venue.url)}">${esc(venue.venue)}</a>${venue.address || venue.city ? `, ${esc([venue.address, venue.city, venue.country].filter(Boolean).join(', '))}` : ''}${ev.show_map_link === true ? mapLink(venue) : ''}</dd>` : ''}
${organizers.length ? `<dt>Organizer</dt><dd>${organizers.map((o) => `<a href="${esc(o.url)}">${esc(o.organizer)}</a>`).join(', ')}</dd>` : ''}
${ev.website && ev.website !== ev.url ? `<dt>Website</dt><dd><a href="${esc(ev.website)}" rel="nofollow noopener">${esc(ev.website)}</a></dd>` : ''}
${(ev.categories ?? []).length ? `<dt>Categories</dt><dd>${(ev.categories as { name: string }[]).map((c) => esc(c.name)).join(', ')}</dd>` : ''}
</dl>
${sections.join('\n')}
<p><a href="${esc(ctx.urls.home)}/event/${esc(encodeURIComponent(request.params.slug))}/?ical=1">+ Export to iCalendar</a></p>
</article>`;
  return sendPage(ctx, reply, { title: String(ev.title), body, head: ld, permalink: String(ev.url), apiRoot: pageApiRoot(ctx, { event: Number(ev.id) }), signedIn: caller.user !== null });
}

async function linkedPage(host: PageHost, kind: 'venue' | 'organizer', request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply): Promise<FastifyReply> {
  const { ctx } = host;
  const caller = await callerOf(host, request);
  const item = await restGet(host, caller, `/eventsuite/events/v1/${kind}s/by-slug/${encodeURIComponent(request.params.slug)}`);
  if (!item) return notFound(reply);
  // The archive reads dates in the site's zone.
  const now = DateTime.fromJSDate(ctx.now()).setZone(await siteTimeZone(ctx.options)).toFormat('yyyy-MM-dd HH:mm:ss');
  const upcoming = { [kind]: item.id, ends_after: now, strict_dates: 'true' };
  if (isFeedRequest(request)) {
    // The original's venue and organizer feeds: their upcoming events, as the page lists them.
    const count = feedCount((request.query as Record<string, unknown>).per_page);
    if (count instanceof RestError) return sendFeedError(reply, count);
    return sendEventsFeed(host, request, reply, { query: upcoming, count, url: String(item.url), fileSuffix: `${kind}-${Number(item.id)}` });
  }
  const events = (await allEvents(ctx, caller, upcoming)).slice(0, 100);
  const name = String(item[kind]);
  const details = kind === 'venue'
    ? [item.address, item.city, item.state || item.province, item.zip, item.country].filter(Boolean).join(', ')
    : [item.email, item.phone].filter(Boolean).join(' · ');
  const map = kind === 'venue' && item.show_map_link === true ? mapLink(item) : '';
  const dateFormat = String(await ctx.options.get('date_format'));
  const list = events.map((e) => `<article class="tribe-events-calendar-list__event" data-event-id="${e.id}"><h3><a href="${esc(e.url)}">${esc(e.title)}</a></h3><time datetime="${esc(e.start_date.slice(0, 10))}">${esc(phpDate(dateFormat, DateTime.fromFormat(e.start_date, 'yyyy-MM-dd HH:mm:ss')))}</time></article>`).join('\n');
  const body = `<section class="tribe-events-${kind}-single"><p><a href="${esc(ctx.urls.home)}/events/">« All Events</a></p>
<h1>${esc(name)}</h1>${details ? `<p>${esc(details)}${map}</p>` : ''}${item.website ? `<p><a href="${esc(item.website)}" rel="nofollow noopener">${esc(item.website)}</a></p>` : ''}
${paragraphs(String(item.description ?? ''))}
<h2>Upcoming events</h2>
${list || '<div class="tribe-events-c-messages__message" role="alert">There are no upcoming events.</div>'}</section>`;
  // The original points a venue page at the venue's events; an organizer page at the namespace.
  const apiRoot = pageApiRoot(ctx, kind === 'venue' ? { filter: { venue: Number(item.id) } } : {});
  return sendPage(ctx, reply, { title: name, body, head: jsonLd(events), permalink: String(item.url), apiRoot, signedIn: caller.user !== null });
}

/** The handlers the events area calls for `/events/` and `/event/<slug>/` without `ical`. */
export const calendarPages: CalendarPageHandlers = {
  list: (request, reply, host) => viewPage(host, request, reply),
  single: (request, reply, host) => eventPage(host, request, reply),
};

/** Registers the view pages under `/events/…` (term archives included), the tag archive, and the venue and organizer pages. */
export function registerCalendarPages(app: FastifyInstance, host: PageHost): void {
  useDispatcher(host.ctx, host.dispatcher);
  app.get('/events/*', (request, reply) => viewPage(host, request, reply));
  app.get('/tag/*', (request, reply) => viewPage(host, request, reply));
  for (const kind of ['venue', 'organizer'] as const) {
    const handler = (request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply) => linkedPage(host, kind, request, reply);
    app.get(`/${kind}/:slug/`, handler);
    app.get(`/${kind}/:slug`, handler);
  }
}
