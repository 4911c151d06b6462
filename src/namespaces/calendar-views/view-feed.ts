/**
 * @module namespaces/calendar-views/view-feed
 * The iCalendar export of a view: the view's URL with `?ical=1` (the original's "Export Events" link,
 * and what calendar apps subscribed to) holds the events that view shows, as the original's
 * `get_ical_ids` picks them, at most the feed's count (30):
 * - month: the month's events, from today on while it is the current month (from its 1st otherwise);
 * - list: the events ending after the list's date (now by default), or in the past list the latest
 *   ones ending before it;
 * - day: the events overlapping the day.
 * A term archive or a keyword narrows each of them as it narrows the view.
 */
import type { DateTime } from 'luxon';
import type { FeedSpec } from '../events/index.js';
import { archiveFilter, viewUrl, type ViewRequest } from './view-url.js';

const DB = 'yyyy-MM-dd HH:mm:ss';

/** The feed of the view `req` asks for, seen at `now` (the site's zone). */
export function viewFeedSpec(req: ViewRequest, now: DateTime, home: string, count: number): FeedSpec {
  const query: Record<string, unknown> = { ...archiveFilter(req.archive), ...(req.search ? { search: req.search } : {}), strict_dates: 'true' };
  const today = now.startOf('day');
  let last = false;
  if (req.view === 'month') {
    const month = req.date || today.toFormat('yyyy-MM');
    const first = today.toFormat('yyyy-MM') === month ? today : today.set({ year: Number(month.slice(0, 4)), month: Number(month.slice(5, 7)), day: 1 });
    query.ends_after = first.toFormat(DB);
    query.starts_before = first.endOf('month').toFormat(DB);
  } else if (req.view === 'day') {
    const day = req.date || today.toFormat('yyyy-MM-dd');
    query.ends_after = `${day} 00:00:00`;
    query.starts_before = `${day} 23:59:59`;
  } else {
    const reference = req.date ? `${req.date.length === 7 ? `${req.date}-01` : req.date} 00:00:00` : now.toFormat(DB);
    if (req.past) {
      query.ends_before = reference;
      last = true;
    } else query.ends_after = reference;
  }
  const [, slug] = req.archive.split('/');
  return {
    query, count, last,
    url: viewUrl({ home, archive: req.archive }, { view: req.view, date: req.date, past: req.past, search: req.search }),
    // A header value: nothing of the slug but what a file name needs.
    fileSuffix: [slug?.replace(/[^A-Za-z0-9%_-]/g, ''), req.view, req.date].filter((part) => part).join('-'),
  };
}
