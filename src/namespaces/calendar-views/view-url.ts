/**
 * @module namespaces/calendar-views/view-url
 * The calendar's public URLs, both ways: a URL (the page being navigated to) → the view it shows, and a
 * view → its URL. `/events/` (default view), `/events/month/` and `/events/month/2026-05/`,
 * `/events/list/` (`/page/N/`, `?eventDisplay=past`), `/events/today/` and `/events/2026-05-10/` (day);
 * `tribe-bar-search`, `tribe-bar-date` and `paged` from the query. Each of them also under a term
 * archive, `/events/category/<slug>/…` and `/events/tag/<slug>/…` (the `url` the category and tag
 * routes give), and the tag archive `/tag/<slug>/` shows the list of that tag's events.
 */
import { pathSlug } from '../../content/slugs.js';

export const VIEWS = ['month', 'list', 'day'] as const;
export type ViewSlug = (typeof VIEWS)[number];
/** Slugs the original knows; `latest-past` is answered with the past list. */
export const KNOWN_VIEWS = ['month', 'list', 'day', 'latest-past', 'week', 'photo', 'map', 'summary'] as const;

export interface ViewRequest {
  view: ViewSlug;
  /** `YYYY-MM` for month, `YYYY-MM-DD` for day and the list's reference date; '' = today. */
  date: string;
  page: number;
  search: string;
  past: boolean;
  /** The term archive shown: `category/<slug>` or `tag/<slug>` (slug as stored), or '' for all events. */
  archive: string;
}

/** Where the calendar's URLs start: the site's home and, under a term archive, that archive. */
export interface CalendarBase {
  home: string;
  archive?: string;
}

/** The REST list filter of a term archive (`categories` or `tags` by slug). */
export function archiveFilter(archive: string): Record<string, string> {
  const [kind, slug] = archive.split('/');
  if (!slug) return {};
  return kind === 'category' ? { categories: slug } : { tags: slug };
}

const MONTH = /^(\d{4})-(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function validMonth(s: string): boolean {
  const m = MONTH.exec(s);
  return !!m && Number(m[2]) >= 1 && Number(m[2]) <= 12;
}

function validDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** A date the events bar sends (`2026-05-10`, `2026-05`), or '' when it is none. */
export function barDate(value: unknown): string {
  const s = typeof value === 'string' ? value.trim() : '';
  return validDay(s) || validMonth(s) ? s : '';
}

/**
 * The view a calendar URL shows, or undefined for a path that is no calendar page. `overrides`
 * (the events bar's `view_data`, the `view` parameter) win over the URL.
 */
export function parseViewUrl(rawUrl: string, home: string, defaultView: ViewSlug, overrides: { view?: string; data?: Record<string, unknown> } = {}): ViewRequest | undefined {
  let url: URL;
  try {
    url = new URL(rawUrl, `${home}/`);
  } catch {
    return undefined;
  }
  const basePath = new URL(`${home}/`).pathname;
  let path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname.replace(/^\//, '');
  path = path.replace(/\/+$/, '');
  const parts = path.split('/').filter((p) => p !== '');
  let archive = '';
  let rest: string[];
  if (parts[0] === 'tag' && parts[1] !== undefined) {
    archive = `tag/${pathSlug(parts[1])}`;
    rest = ['list', ...parts.slice(2)];
  } else if (parts[0] !== 'events') {
    return undefined;
  } else if ((parts[1] === 'category' || parts[1] === 'tag') && parts[2] !== undefined) {
    archive = `${parts[1]}/${pathSlug(parts[2])}`;
    rest = parts.slice(3);
  } else {
    rest = parts.slice(1);
  }
  if (archive.endsWith('/')) return undefined;
  const q = url.searchParams;
  const req: ViewRequest = { view: defaultView, date: '', page: 1, search: q.get('tribe-bar-search')?.trim() ?? '', past: q.get('eventDisplay') === 'past', archive };
  const pageAt = rest.indexOf('page');
  if (pageAt >= 0) {
    const n = Number(rest[pageAt + 1]);
    if (!Number.isInteger(n) || n < 1) return undefined;
    req.page = n;
    rest.splice(pageAt, 2);
  }
  const [first, second] = rest;
  if (rest.length > 2) return undefined;
  if (first === undefined) {
    // default view
  } else if (first === 'month' || first === 'list' || first === 'day') {
    req.view = first;
    if (second !== undefined) {
      if (first === 'month' && validMonth(second)) req.date = second;
      else if (validDay(second)) req.date = second;
      else return undefined;
    }
  } else if (first === 'today' && second === undefined) {
    req.view = 'day';
  } else if (validDay(first) && second === undefined) {
    req.view = 'day';
    req.date = first;
  } else if (validMonth(first) && second === undefined) {
    req.view = 'month';
    req.date = first;
  } else return undefined;
  const paged = Number(q.get('paged'));
  if (Number.isInteger(paged) && paged > 1) req.page = paged;
  const date = barDate(q.get('tribe-bar-date'));
  if (date) req.date = date;

  if (overrides.view === 'latest-past') {
    req.view = 'list';
    req.past = true;
  } else if ((VIEWS as readonly string[]).includes(overrides.view ?? '')) req.view = overrides.view as ViewSlug;
  const data = overrides.data ?? {};
  if (typeof data['tribe-bar-search'] === 'string') req.search = data['tribe-bar-search'].trim();
  const overrideDate = barDate(data['tribe-bar-date']);
  if (overrideDate) req.date = overrideDate;
  if (data.eventDisplay === 'past') req.past = true;
  if (req.view === 'month' && DAY.test(req.date)) req.date = req.date.slice(0, 7);
  if (req.view === 'day' && MONTH.test(req.date)) req.date = `${req.date}-01`;
  return req;
}

/** The URL of a view (what links and the browser's address bar show), under `base`'s term archive if any. */
export function viewUrl(base: CalendarBase, v: Partial<ViewRequest> & { view: ViewSlug }): string {
  const root = base.archive ? `${base.home}/events/${base.archive}/` : `${base.home}/events/`;
  let path = `${root}${v.view}/`;
  if (v.view === 'month' && v.date) path += `${v.date.slice(0, 7)}/`;
  if (v.view === 'day') path = v.date ? `${root}${base.archive ? 'day/' : ''}${v.date}/` : `${root}today/`;
  if (v.view === 'list' && v.page && v.page > 1) path += `page/${v.page}/`;
  const q = new URLSearchParams();
  if (v.view === 'list' && v.date) q.set('tribe-bar-date', v.date);
  if (v.past) q.set('eventDisplay', 'past');
  if (v.search) q.set('tribe-bar-search', v.search);
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}
