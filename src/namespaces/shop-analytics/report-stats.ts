/**
 * @module namespaces/shop-analytics/report-stats
 * What every `…/stats` report shares: its parameters (`interval` from hour to year, `fields`), its
 * date window (default: the last seven days up to now, in the site's time zone) and its answer —
 * `{totals, intervals}` with every interval of the window (empty ones as zeros), sorted and paged,
 * with the pagination headers.
 */
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import { parseDateTime, toDbDate } from '../../content/posts.js';
import { invalidParam } from '../../rest/errors.js';
import { paginationHeaders } from '../../rest/pagination.js';
import { respond, type ArgSchema, type RestRequest } from '../../rest/route.js';
import { ANALYTICS_NS, localToGmt, siteTimeZone } from './common.js';
import type { DateRange } from './customers.repo.js';
import { INTERVALS, intervalCount, MAX_INTERVALS, slotsOf, type Interval } from './intervals.js';

/** An argument listing IDs (`products`, `categories`, `coupons` …). */
export const idListArg = (description: string): ArgSchema => ({ description, type: 'array', items: { type: 'integer' } });

/** The positive IDs of an {@link idListArg} value. */
export const idsOf = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isInteger(n) && n > 0) : []);

/** The parameters every report shares, with its `orderby` choices and default, and its own filters after them. */
export function reportArgs(orderby: readonly string[], orderbyDefault: string, extra: Record<string, ArgSchema> = {}): Record<string, ArgSchema> {
  return {
    context: { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: ['view'], default: 'view' },
    page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
    per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 },
    after: { description: 'Limit response to resources published after a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
    before: { description: 'Limit response to resources published before a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
    order: { description: 'Order sort attribute ascending or descending.', type: 'string', default: 'desc', enum: ['asc', 'desc'] },
    orderby: { description: 'Sort collection by object attribute.', type: 'string', default: orderbyDefault, enum: [...orderby] },
    ...extra,
  };
}

/** The parameters of a stats report with its `orderby` choices and its own filters. */
export function statsArgs(orderby: readonly string[], extra: Record<string, ArgSchema> = {}): Record<string, ArgSchema> {
  return reportArgs(orderby, 'date', {
    interval: { description: 'Time interval to use for buckets in the returned data.', type: 'string', default: 'week', enum: [...INTERVALS] },
    fields: { description: 'Limit stats fields to the specified items.', type: 'array', items: { type: 'string' } },
    ...extra,
  });
}

export interface StatsWindow {
  after: DateTime;
  before: DateTime;
  zone: string;
  /** The window as site-local `YYYY-MM-DD HH:MM:SS` bounds. */
  range: Required<DateRange>;
}

/** The `after`/`before` parameters given, in the site's time zone. */
export async function dateBounds(req: RestRequest, ctx: AppContext): Promise<{ zone: string; after?: DateTime; before?: DateTime }> {
  const zone = await siteTimeZone(ctx.options);
  const at = (v: unknown) => (typeof v === 'string' && v !== '' ? parseDateTime(v, zone, ctx.now())?.setZone(zone) : undefined);
  return { zone, after: at(req.params.after), before: at(req.params.before) };
}

/** `after`/`before` in the site's time zone; `before` defaults to now, `after` to the start of the day a week earlier. */
export async function statsWindow(req: RestRequest, ctx: AppContext): Promise<StatsWindow> {
  const given = await dateBounds(req, ctx);
  const zone = given.zone;
  const before = given.before ?? DateTime.fromJSDate(ctx.now()).setZone(zone);
  const after = given.after ?? before.minus({ days: 7 }).startOf('day');
  // The original builds every interval of any window; an hourly report over decades would hold
  // hundreds of thousands of them, so a window that large is refused instead of computed.
  if (intervalCount(after, before, req.params.interval as Interval) > MAX_INTERVALS) {
    throw invalidParam('interval', `The window holds more than ${MAX_INTERVALS} intervals of this size; choose a larger interval or a shorter window.`);
  }
  return { after, before, zone, range: { after: toDbDate(after), before: toDbDate(before) } };
}

type Sums = Record<string, number>;

export interface StatsAnswer {
  totals: Sums;
  /** Sums of each interval with orders, by interval id. */
  buckets: Map<string, Sums>;
}

/**
 * The `{totals, intervals}` answer of a stats report at `path`: `present` turns sums into the
 * report's fields (of totals and of each interval's subtotals); `totalsExtra` adds fields only the
 * totals have.
 */
export function statsResponse(req: RestRequest, ctx: AppContext, path: string, w: StatsWindow, answer: StatsAnswer, present: (sums: Sums) => Record<string, unknown>, totalsExtra: Record<string, unknown> = {}) {
  const fields = Array.isArray(req.params.fields) && req.params.fields.length > 0 ? new Set((req.params.fields as unknown[]).map(String)) : undefined;
  const pick = (o: Record<string, unknown>) => (fields ? Object.fromEntries(Object.entries(o).filter(([k]) => fields.has(k))) : o);
  const totals = { ...pick({ ...present(answer.totals), ...totalsExtra }), segments: [] };
  const zero = Object.fromEntries(Object.keys(answer.totals).map((k) => [k, 0]));
  const all = slotsOf(w.after, w.before, req.params.interval as Interval).map((slot) => {
    const start = toDbDate(slot.start);
    const end = toDbDate(slot.end);
    const sums = present(answer.buckets.get(slot.id) ?? zero);
    return { interval: slot.id, date_start: start, date_start_gmt: localToGmt(start, w.zone), date_end: end, date_end_gmt: localToGmt(end, w.zone), sums };
  });
  // Intervals sort by date (oldest first) or by a field of their subtotals, the date breaking ties.
  const by = String(req.params.orderby ?? 'date');
  const value = (i: (typeof all)[number]) => Number(i.sums[by] ?? 0);
  const ordered = by === 'date' ? all : all.map((i, n) => ({ i, n })).sort((a, b) => value(a.i) - value(b.i) || a.n - b.n).map(({ i }) => i);
  if (req.params.order !== 'asc') ordered.reverse();
  const page = Number(req.params.page);
  const perPage = Number(req.params.per_page);
  const intervals = ordered.slice((page - 1) * perPage, page * perPage).map(({ sums, ...i }) => ({ ...i, subtotals: { ...pick(sums), segments: [] } }));
  return respond({ totals, intervals }, { headers: paginationHeaders(req, ctx.urls.rest(`/${ANALYTICS_NS}/${path}`), { total: all.length, page, perPage }) });
}
