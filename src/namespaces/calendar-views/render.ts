/**
 * @module namespaces/calendar-views/render
 * The view container markup (the original's `v2/month.php`, `list.php`, `day.php` skeleton): the
 * container with its REST URL, the `tribe-events-view-data` JSON, the events bar (a GET form, so it
 * works without JavaScript), prev/next/today links, messages, the view body and JSON-LD per event.
 * The same markup is the REST route's answer and the inside of the public pages.
 */
import { DateTime } from 'luxon';
import { esc } from '../../admin/html.js';
import type { CalEvent } from './events-source.js';
import type { DayModel, EmptyFacts, ListModel, MonthModel, ViewModel } from './models.js';
import { phpDate } from './php-date.js';
import { viewUrl, type ViewRequest, type ViewSlug } from './view-url.js';

export interface RenderEnv {
  home: string;
  /** The term archive the view shows (see {@link ViewRequest.archive}); '' for all events. */
  archive: string;
  restUrl: string;
  siteName: string;
  dateFormat: string;
  timeFormat: string;
  startOfWeek: number;
  enabledViews: ViewSlug[];
  shouldManageUrl: boolean;
  isInitialLoad: boolean;
  prevUrl: string;
  now: DateTime;
}

/** Script-safe JSON (no `</script>` breakout). */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The iCalendar export of what the view shows: the view's own URL with `ical=1`, as the original's. */
function icalUrl(pageUrl: string): string {
  const url = new URL(pageUrl);
  url.searchParams.set('ical', '1');
  return url.toString();
}

const dt = (s: string) => DateTime.fromFormat(s.slice(0, 19), 'yyyy-MM-dd HH:mm:ss');
const link = (href: string, text: string, cls: string, rel = '') => `<a href="${esc(href)}" class="${cls}" data-js="tribe-events-view-link"${rel ? ` rel="${rel}"` : ''}>${esc(text)}</a>`;

function timeRange(e: CalEvent, env: RenderEnv): string {
  const s = dt(e.start_date);
  const en = dt(e.end_date);
  if (e.all_day) return s.hasSame(en, 'day') ? 'All day' : `${phpDate(env.dateFormat, s)} – ${phpDate(env.dateFormat, en)}`;
  if (s.hasSame(en, 'day')) return `${phpDate(env.dateFormat, s)} @ ${phpDate(env.timeFormat, s)} – ${phpDate(env.timeFormat, en)}`;
  return `${phpDate(env.dateFormat, s)} @ ${phpDate(env.timeFormat, s)} – ${phpDate(env.dateFormat, en)} @ ${phpDate(env.timeFormat, en)}`;
}

function venueName(e: CalEvent): string {
  return Array.isArray(e.venue) ? '' : e.venue.venue;
}

/** schema.org Event JSON-LD of the events shown. */
export function jsonLd(events: readonly CalEvent[]): string {
  if (events.length === 0) return '';
  const items = events.map((e) => {
    const v = Array.isArray(e.venue) ? undefined : e.venue;
    const start = dt(e.start_date);
    const end = dt(e.end_date);
    return {
      '@context': 'http://schema.org', '@type': 'Event', name: e.title, description: e.excerpt.replace(/<[^>]*>/g, '').trim(), url: e.url,
      ...(e.image ? { image: e.image.url } : {}),
      startDate: e.all_day ? start.toFormat('yyyy-MM-dd') : start.toFormat("yyyy-MM-dd'T'HH:mm:ss"),
      endDate: e.all_day ? end.toFormat('yyyy-MM-dd') : end.toFormat("yyyy-MM-dd'T'HH:mm:ss"),
      eventStatus: 'https://schema.org/EventScheduled',
      ...(v ? { location: { '@type': 'Place', name: v.venue, url: v.url, address: { '@type': 'PostalAddress', streetAddress: v.address ?? '', addressLocality: v.city ?? '', addressCountry: v.country ?? '' } } } : {}),
      ...(e.organizer.length > 0 ? { organizer: { '@type': 'Person', name: e.organizer[0]!.organizer, url: e.organizer[0]!.url } } : {}),
      ...(e.cost ? { offers: { '@type': 'Offer', price: e.cost.replace(/[^\d.,-]/g, ''), url: e.url } } : {}),
    };
  });
  return `<script type="application/ld+json">${jsonForScript(items)}</script>`;
}

function eventCard(e: CalEvent, env: RenderEnv, cls: string): string {
  const venue = venueName(e);
  return `<article class="${cls}${e.featured ? ` ${cls}--featured` : ''}" data-event-id="${e.id}">
<h3 class="tribe-events-calendar-${cls.includes('list') ? 'list' : 'day'}__event-title"><a href="${esc(e.url)}" class="tribe-common-anchor-thin">${esc(e.title)}</a></h3>
<div class="tribe-events-c-small-cta"><time datetime="${esc(e.start_date.slice(0, 10))}">${esc(timeRange(e, env))}</time>${venue ? ` · <span class="tribe-events-venue">${esc(venue)}</span>` : ''}${e.cost ? ` · <span class="tribe-events-c-small-cta__price">${esc(e.cost)}</span>` : ''}</div>
${e.excerpt ? `<div class="tribe-events-calendar-list__event-description">${esc(e.excerpt.replace(/<[^>]*>/g, '').trim())}</div>` : ''}
</article>`;
}

function monthBody(m: MonthModel, env: RenderEnv, search: string): string {
  const heads = m.days.slice(0, 7).map((d) => `<th scope="col">${esc(dt(`${d.date} 00:00:00`).toFormat('ccc'))}</th>`).join('');
  const weeks: string[] = [];
  for (let i = 0; i < m.days.length; i += 7) {
    const cells = m.days.slice(i, i + 7).map((d) => {
      const multi = d.multiday_events.map((e) => (e ? `<div class="tribe-events-calendar-month__multiday-event" data-event-id="${e.id}"><a href="${esc(e.url)}">${esc(e.title)}</a></div>` : '<div class="tribe-events-calendar-month__multiday-event-hidden"></div>')).join('');
      const single = d.events.map((e) => `<div class="tribe-events-calendar-month__calendar-event" data-event-id="${e.id}"><a href="${esc(e.url)}">${e.all_day ? '' : `<time>${esc(phpDate(env.timeFormat, dt(e.start_date)))}</time> `}${esc(e.title)}</a></div>`).join('');
      const more = d.more_events > 0 ? `<div class="tribe-events-calendar-month__more-events">${link(viewUrl(env, { view: 'day', date: d.date, search }), `+ ${d.more_events} More`, 'tribe-events-calendar-month__more-events-link')}</div>` : '';
      const cls = ['tribe-events-calendar-month__day', d.in_month ? '' : 'tribe-events-calendar-month__day--other-month', d.is_today ? 'tribe-events-calendar-month__day--current' : '', d.is_past ? 'tribe-events-calendar-month__day--past' : ''].filter(Boolean).join(' ');
      return `<td class="${cls}" data-date="${d.date}"><div class="tribe-events-calendar-month__day-date">${link(viewUrl(env, { view: 'day', date: d.date, search }), String(Number(d.day_number)), 'tribe-events-calendar-month__day-date-link')}</div>${multi}${single}${more}</td>`;
    });
    weeks.push(`<tr class="tribe-events-calendar-month__week">${cells.join('')}</tr>`);
  }
  return `<table class="tribe-events-calendar-month" role="grid"><thead><tr>${heads}</tr></thead><tbody>${weeks.join('')}</tbody></table>`;
}

function listBody(l: ListModel, env: RenderEnv): string {
  let month = '';
  const parts: string[] = [];
  for (const e of l.events) {
    const m = e.start_date.slice(0, 7);
    if (m !== month) {
      month = m;
      parts.push(`<h2 class="tribe-events-calendar-list__month-separator">${esc(dt(`${m}-01 00:00:00`).toFormat('LLLL yyyy'))}</h2>`);
    }
    parts.push(eventCard(e, env, 'tribe-events-calendar-list__event'));
  }
  return `<div class="tribe-events-calendar-list">${parts.join('\n')}</div>`;
}

function dayBody(d: DayModel, env: RenderEnv): string {
  return `<div class="tribe-events-calendar-day">${d.groups.map((g) => `<section class="tribe-events-calendar-day__time-separator-group"><h2 class="tribe-events-calendar-day__time-separator">${g.time === 'all-day' ? 'All day' : esc(phpDate(env.timeFormat, dt(`${d.date} ${g.time}:00`)))}</h2>${g.events.map((e) => eventCard(e, env, 'tribe-events-calendar-day__event')).join('\n')}</section>`).join('\n')}</div>`;
}

interface Nav {
  title: string;
  url: string;
  prevUrl: string;
  nextUrl: string;
  prevLabel: string;
  nextLabel: string;
  todayUrl: string;
  /** HTML, as the original's (a keyword is escaped in them, a fast-forward link is markup). */
  messages: string[];
}

/** The original's fast-forward link (`get_fast_forward_link`), to the view of the next event's date. */
function fastForward(url: string): string {
  return `Jump to the <a href="${esc(url)}" class="tribe-events-c-messages__message-list-item-link tribe-common-anchor-thin-alt" data-js="tribe-events-view-link">next upcoming events</a>.`;
}

/**
 * The message (HTML) of an empty month or day without a keyword, as the original: `none` and the
 * fast-forward link when an event starts after the view's date, else `noneUpcoming` when any starts
 * from today on, else "no upcoming events".
 */
function emptyMessage(facts: EmptyFacts | undefined, none: string, ffUrl: (next: string) => string, noneUpcoming: string): string {
  if (facts?.next) return `${esc(none)} ${fastForward(ffUrl(facts.next))}`;
  return esc(facts?.upcoming ? noneUpcoming : 'There are no upcoming events.');
}

/** The keyword message (HTML): the keyword, escaped, in bold quotes. */
const noResultsFor = (search: string, after = '') => `There were no results found for <strong>"${esc(search)}"</strong>${after}.`;

export function navigation(model: ViewModel, req: ViewRequest, env: RenderEnv): Nav {
  const search = req.search;
  if (model.kind === 'month') {
    const first = dt(`${model.month}-01 00:00:00`);
    return {
      title: first.toFormat('LLLL yyyy'), url: viewUrl(env, { view: 'month', date: model.month, search }),
      prevUrl: viewUrl(env, { view: 'month', date: model.prevMonth, search }), nextUrl: viewUrl(env, { view: 'month', date: model.nextMonth, search }),
      prevLabel: dt(`${model.prevMonth}-01 00:00:00`).toFormat('LLLL'), nextLabel: dt(`${model.nextMonth}-01 00:00:00`).toFormat('LLLL'),
      todayUrl: viewUrl(env, { view: 'month', search }),
      messages: model.events.length === 0
        ? [search ? noResultsFor(search, ' this month') : emptyMessage(model.empty, 'There were no results found for this view.', (next) => viewUrl(env, { view: 'month', date: next.slice(0, 7) }), 'There were no results found.')]
        : [],
    };
  }
  if (model.kind === 'day') {
    const none = `No events scheduled for ${phpDate('F j, Y', dt(`${model.date} 00:00:00`))}.`;
    return {
      title: phpDate(env.dateFormat, dt(`${model.date} 00:00:00`)), url: viewUrl(env, { view: 'day', date: model.date, search }),
      prevUrl: viewUrl(env, { view: 'day', date: model.prevDate, search }), nextUrl: viewUrl(env, { view: 'day', date: model.nextDate, search }),
      prevLabel: 'Previous Day', nextLabel: 'Next Day', todayUrl: viewUrl(env, { view: 'day', search }),
      messages: model.events.length === 0 ? [search ? noResultsFor(search) : emptyMessage(model.empty, none, (next) => viewUrl(env, { view: 'day', date: next.slice(0, 10) }), none)] : [],
    };
  }
  const upcoming = !model.past;
  const prevUrl = upcoming
    ? model.page > 1 ? viewUrl(env, { view: 'list', page: model.page - 1, search, date: req.date }) : viewUrl(env, { view: 'list', past: true, search, date: req.date })
    : model.hasPrev ? viewUrl(env, { view: 'list', past: true, page: model.page + 1, search, date: req.date }) : '';
  const nextUrl = upcoming
    ? model.hasNext ? viewUrl(env, { view: 'list', page: model.page + 1, search, date: req.date }) : ''
    : model.page > 1 ? viewUrl(env, { view: 'list', past: true, page: model.page - 1, search, date: req.date }) : viewUrl(env, { view: 'list', search, date: req.date });
  return {
    title: upcoming ? 'Upcoming' : 'Past Events', url: viewUrl(env, { view: 'list', page: model.page, past: model.past, search, date: req.date }),
    prevUrl, nextUrl, prevLabel: 'Previous Events', nextLabel: 'Next Events', todayUrl: viewUrl(env, { view: 'list', search }),
    messages: model.events.length === 0 ? [search ? noResultsFor(search) : upcoming ? 'There are no upcoming events.' : 'There are no past events.'] : [],
  };
}

/** The `tribe-events-view-data` JSON: the view's template variables with events as IDs. */
export function viewData(model: ViewModel, req: ViewRequest, env: RenderEnv, nav: Nav): Record<string, unknown> {
  const events = model.kind === 'month' ? model.events : model.events;
  const publicViews: Record<string, unknown> = {};
  const labels: Record<ViewSlug, string> = { month: 'Month', list: 'List', day: 'Day' };
  for (const v of env.enabledViews) publicViews[v] = { view_class: `Tribe\\Events\\Views\\V2\\Views\\${labels[v]}_View`, view_url: viewUrl(env, { view: v }), view_label: labels[v] };
  const base: Record<string, unknown> = {
    slug: req.view, title: `${nav.title} – ${env.siteName}`, events: events.map((e) => e.id), url: nav.url, prev_url: nav.prevUrl, next_url: nav.nextUrl,
    // As the original: false for the implicit date (none given), else the chosen date as Y-m-d (a month is its first day).
    url_event_date: req.date === '' ? false : req.date.length === 7 ? `${req.date}-01` : req.date, bar: { keyword: req.search, date: req.date }, today: env.now.toFormat('yyyy-MM-dd 00:00:00'), now: env.now.toFormat('yyyy-MM-dd HH:mm:ss'),
    request_date: req.date || env.now.toFormat('yyyy-MM-dd'), home_url: `${env.home}/`, rest_url: env.restUrl, rest_method: 'POST', rest_nonce: '',
    should_manage_url: env.shouldManageUrl, today_url: nav.todayUrl, today_title: `Click to select today's date`, today_label: 'Today',
    prev_label: nav.prevLabel, next_label: nav.nextLabel,
    date_formats: { compact: 'n/j/Y', month_and_year_compact: 'n/Y', month_and_year: 'F Y', time_range_separator: ' - ', date_time_separator: ' @ ' },
    messages: nav.messages.length > 0 ? { notice: nav.messages } : [], start_of_week: String(env.startOfWeek), header_title: '', content_title: '',
    breadcrumbs: [], before_events: '', after_events: '', display_events_bar: true, disable_event_search: false, live_refresh: true,
    ical: { display_link: true, link: { url: icalUrl(nav.url), text: 'Export Events', title: 'Use this to share calendar data with Google Calendar, Apple iCal and other compatible apps' } },
    container_classes: ['tribe-common', 'tribe-events', 'tribe-events-view', `tribe-events-view--${req.view}`], container_data: [],
    is_past: model.kind === 'list' && model.past, breakpoints: { xsmall: 500, medium: 768, full: 960 }, is_initial_load: env.isInitialLoad,
    public_views: publicViews, show_latest_past: true, past: model.kind === 'list' && model.past,
  };
  if (model.kind === 'month') {
    Object.assign(base, {
      the_date: model.month, today_date: model.today, grid_date: `${model.month}-01`, formatted_grid_date: dt(`${model.month}-01 00:00:00`).toFormat('LLLL yyyy'),
      formatted_grid_date_mobile: dt(`${model.month}-01 00:00:00`).toFormat('L/yyyy'), next_month: model.nextMonth, prev_month: model.prevMonth, next_rel: 'noindex', prev_rel: 'noindex',
      mobile_messages: [], grid_start_date: model.gridStart,
      days: Object.fromEntries(model.days.map((d) => [d.date, {
        ...d, events: d.events.map((e) => e.id), featured_events: d.featured_events.map((e) => e.id),
        multiday_events: d.multiday_events.map((e) => (e ? e.id : false)), day_url: viewUrl(env, { view: 'day', date: d.date, search: req.search }),
      }])),
    });
  }
  if (model.kind === 'day') Object.assign(base, { day_view_disabled: !env.enabledViews.includes('day'), the_date: model.date });
  if (model.kind === 'list') Object.assign(base, { page: model.page });
  return base;
}

/** The container markup of a view. */
export function renderContainer(model: ViewModel, req: ViewRequest, env: RenderEnv): string {
  const nav = navigation(model, req, env);
  const data = viewData(model, req, env, nav);
  const body = model.kind === 'month' ? monthBody(model, env, req.search) : model.kind === 'list' ? listBody(model, env) : dayBody(model, env);
  const views = env.enabledViews.map((v) => `<li class="tribe-events-c-view-selector__list-item${v === req.view ? ' tribe-events-c-view-selector__list-item--active' : ''}">${link(viewUrl(env, { view: v, search: req.search }), v[0]!.toUpperCase() + v.slice(1), 'tribe-events-c-view-selector__list-item-link')}</li>`).join('');
  const events = model.kind === 'month' ? model.events : model.events;
  return `<div class="tribe-common tribe-events tribe-events-view tribe-events-view--${req.view}" data-js="tribe-events-view" data-view-rest-url="${esc(env.restUrl)}" data-view-rest-method="POST" data-view-manage-url="${env.shouldManageUrl ? '1' : '0'}" data-view-breakpoint-pointer="tribe-events-view-${req.view}">
<div class="tribe-common-l-container tribe-events-l-container">
<div class="tribe-events-view-loader" role="alert" aria-live="polite" hidden>Loading view.</div>
${jsonLd(events)}
<script data-js="tribe-events-view-data" type="application/json">${jsonForScript(data)}</script>
<header class="tribe-events-header">
<form class="tribe-events-c-events-bar" method="get" action="${esc(viewUrl(env, { view: req.view }))}" data-js="tribe-events-view-form" role="search">
<label for="tribe-events-search">Search for events</label>
<input type="search" id="tribe-events-search" name="tribe-bar-search" value="${esc(req.search)}" placeholder="Search for events">
<label for="tribe-events-date">Date</label>
<input type="${req.view === 'month' ? 'month' : 'date'}" id="tribe-events-date" name="tribe-bar-date" value="${esc(req.date)}">
<button type="submit" class="tribe-events-c-search__button">Find Events</button>
</form>
<nav class="tribe-events-c-view-selector" aria-label="Views"><ul>${views}</ul></nav>
<nav class="tribe-events-c-top-bar" aria-label="Navigation">
${nav.prevUrl ? link(nav.prevUrl, `‹ ${nav.prevLabel}`, 'tribe-events-c-top-bar__nav-link tribe-events-c-top-bar__nav-link--prev', 'prev') : ''}
${link(nav.todayUrl, 'Today', 'tribe-common-c-btn-border-small tribe-events-c-top-bar__today-button')}
${nav.nextUrl ? link(nav.nextUrl, `${nav.nextLabel} ›`, 'tribe-events-c-top-bar__nav-link tribe-events-c-top-bar__nav-link--next', 'next') : ''}
<h1 class="tribe-events-c-top-bar__datepicker-time">${esc(nav.title)}</h1>
</nav>
</header>
${nav.messages.map((m) => `<div class="tribe-events-c-messages__message tribe-events-c-messages__message--notice" role="alert">${m}</div>`).join('\n')}
${body}
<div class="tribe-events-c-ical"><a class="tribe-events-c-ical__link" href="${esc(icalUrl(nav.url))}">Export Events</a></div>
</div>
</div>`;
}
