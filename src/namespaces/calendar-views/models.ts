/**
 * @module namespaces/calendar-views/models
 * The data of each view (the original's `Month_View`, `List_View`, `Day_View`): the month grid from
 * the week's first day with stacked multi-day events and "more" counts, the list of upcoming or past
 * events with paging, the day's events grouped by start time. Dates are the events' own wall-clock
 * dates; "today" is the site's.
 */
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import { siteTimeZone } from '../../content/posts.js';
import { allEvents, countEvents, eventSlice, firstEvent, type CalEvent, type Caller } from './events-source.js';
import { archiveFilter, type ViewRequest } from './view-url.js';

export interface MonthDay {
  date: string;
  is_start_of_week: boolean;
  year_number: string;
  month_number: string;
  day_number: string;
  is_past: boolean;
  is_today: boolean;
  in_month: boolean;
  events: CalEvent[];
  featured_events: CalEvent[];
  /** Multi-day and all-day events at fixed positions; null is a spacer. */
  multiday_events: (CalEvent | null)[];
  found_events: number;
  more_events: number;
}

export interface MonthModel {
  kind: 'month';
  month: string;
  /** Set when the grid is empty and no keyword was given: what the empty-view message says. */
  empty?: EmptyFacts;
  today: string;
  gridStart: string;
  gridEnd: string;
  days: MonthDay[];
  prevMonth: string;
  nextMonth: string;
  events: CalEvent[];
}

export interface ListModel {
  kind: 'list';
  events: CalEvent[];
  page: number;
  past: boolean;
  hasNext: boolean;
  hasPrev: boolean;
  reference: string;
  today: string;
}

export interface DayModel {
  kind: 'day';
  date: string;
  /** Set when the day is empty and no keyword was given: what the empty-view message says. */
  empty?: EmptyFacts;
  today: string;
  /** Time slots in order: 'all-day' first, then `HH:MM`. */
  groups: { time: string; events: CalEvent[] }[];
  events: CalEvent[];
  prevDate: string;
  nextDate: string;
}

export type ViewModel = MonthModel | ListModel | DayModel;

export interface ViewSettings {
  startOfWeek: number;
  perPage: number;
  perDay: number;
}

export async function viewSettings(ctx: AppContext): Promise<ViewSettings> {
  const num = (v: unknown, d: number, min: number, max: number) => {
    const n = Number(v);
    return Number.isInteger(n) && n >= min && n <= max ? n : d;
  };
  return {
    startOfWeek: num(await ctx.options.get('start_of_week'), 1, 0, 6),
    perPage: num(await ctx.options.get('postsPerPage'), 12, 1, 100),
    perDay: num(await ctx.options.get('monthEventAmount'), 12, 1, 100),
  };
}

export async function todayOf(ctx: AppContext): Promise<DateTime> {
  return DateTime.fromJSDate(ctx.now()).setZone(await siteTimeZone(ctx.options)).startOf('day');
}

const day = (s: string) => s.slice(0, 10);

/** What the original's empty-view messages depend on. */
export interface EmptyFacts {
  /**
   * The start (`YYYY-MM-DD HH:MM:SS`) of the first event after the view's date, which the original's
   * fast-forward link leads to; none on a term archive, where it offers no such link.
   */
  next?: string;
  /** Without a next event: whether any event starts from today on (`upcoming_events_count`). */
  upcoming?: boolean;
}

async function emptyFacts(ctx: AppContext, caller: Caller, req: ViewRequest, today: DateTime, from: DateTime): Promise<EmptyFacts> {
  const next = req.archive === '' ? await firstEvent(ctx, caller, { starts_after: from.toFormat('yyyy-MM-dd HH:mm:ss'), strict_dates: 'true' }) : undefined;
  if (next) return { next: next.start_date };
  return { upcoming: (await countEvents(ctx, caller, { starts_after: today.toFormat('yyyy-MM-dd 00:00:00'), strict_dates: 'true' })) > 0 };
}
const isMultiday = (e: CalEvent) => e.all_day || day(e.start_date) !== day(e.end_date);
const order = (a: CalEvent, b: CalEvent) => Number(b.sticky || b.featured) - Number(a.sticky || a.featured) || a.start_date.localeCompare(b.start_date) || a.id - b.id;

function filterQuery(req: ViewRequest): Record<string, unknown> {
  return { ...archiveFilter(req.archive), ...(req.search ? { search: req.search } : {}) };
}

export async function monthModel(ctx: AppContext, caller: Caller, req: ViewRequest, s: ViewSettings): Promise<MonthModel> {
  const today = await todayOf(ctx);
  const first = req.date ? DateTime.fromISO(`${req.date}-01`, { zone: today.zone }) : today.startOf('month');
  const last = first.endOf('month').startOf('day');
  // luxon weekday: 1 = Monday … 7 = Sunday; start_of_week: 0 = Sunday … 6 = Saturday.
  const sow = s.startOfWeek === 0 ? 7 : s.startOfWeek;
  const gridStart = first.minus({ days: (first.weekday - sow + 7) % 7 });
  const gridEnd = last.plus({ days: (sow + 6 - last.weekday + 7) % 7 });
  const events = await allEvents(ctx, caller, {
    ...filterQuery(req), ends_after: gridStart.toFormat('yyyy-MM-dd 00:00:00'), starts_before: gridEnd.toFormat('yyyy-MM-dd 23:59:59'), strict_dates: 'true',
  });
  const days: MonthDay[] = [];
  const rows: (CalEvent | null)[] = [];
  for (let d = gridStart; d <= gridEnd; d = d.plus({ days: 1 })) {
    const date = d.toFormat('yyyy-MM-dd');
    const on = events.filter((e) => day(e.start_date) <= date && day(e.end_date) >= date);
    // Keep multi-day events in the rows they took on their first day; the week's first day restarts the stack.
    if (d.weekday === sow) rows.length = 0;
    for (let i = 0; i < rows.length; i++) if (rows[i] && day(rows[i]!.end_date) < date) rows[i] = null;
    for (const e of on.filter(isMultiday).sort(order)) {
      if (rows.includes(e)) continue;
      const free = rows.indexOf(null);
      if (free >= 0) rows[free] = e;
      else rows.push(e);
    }
    while (rows.length > 0 && rows[rows.length - 1] === null) rows.pop();
    const single = on.filter((e) => !isMultiday(e)).sort(order);
    const shown = single.slice(0, s.perDay);
    const stacked = rows.filter((e) => e !== null).length;
    days.push({
      date, is_start_of_week: d.weekday === sow, year_number: d.toFormat('yyyy'), month_number: d.toFormat('LL'), day_number: d.toFormat('dd'),
      is_past: d < today, is_today: +d === +today, in_month: d.month === first.month,
      events: shown, featured_events: single.filter((e) => e.featured), multiday_events: [...rows], found_events: on.length,
      more_events: Math.max(0, on.length - shown.length - stacked),
    });
  }
  const empty = events.length === 0 && !req.search ? await emptyFacts(ctx, caller, req, today, first) : undefined;
  return {
    ...(empty ? { empty } : {}),
    kind: 'month', month: first.toFormat('yyyy-MM'), today: today.toFormat('yyyy-MM-dd'), gridStart: gridStart.toFormat('yyyy-MM-dd'),
    gridEnd: gridEnd.toFormat('yyyy-MM-dd'), days, prevMonth: first.minus({ months: 1 }).toFormat('yyyy-MM'), nextMonth: first.plus({ months: 1 }).toFormat('yyyy-MM'), events,
  };
}

export async function listModel(ctx: AppContext, caller: Caller, req: ViewRequest, s: ViewSettings): Promise<ListModel> {
  const today = await todayOf(ctx);
  const reference = req.date ? DateTime.fromISO(req.date.length === 7 ? `${req.date}-01` : req.date, { zone: today.zone }) : DateTime.fromJSDate(ctx.now()).setZone(today.zone);
  const at = reference.toFormat('yyyy-MM-dd HH:mm:ss');
  const base = { ...filterQuery(req), strict_dates: 'true' };
  if (!req.past) {
    const from = (req.page - 1) * s.perPage;
    // One more than the page holds decides whether there is a next page.
    const { events, total } = await eventSlice(ctx, caller, { ...base, ends_after: at }, from, from + s.perPage + 1);
    return { kind: 'list', events: events.slice(0, s.perPage), page: req.page, past: false, hasNext: events.length > s.perPage || total > from + s.perPage, hasPrev: true, reference: at, today: today.toFormat('yyyy-MM-dd') };
  }
  const query = { ...base, ends_before: at };
  const total = await countEvents(ctx, caller, query);
  const to = Math.max(0, total - (req.page - 1) * s.perPage);
  const from = Math.max(0, to - s.perPage);
  const { events } = to > 0 ? await eventSlice(ctx, caller, query, from, to) : { events: [] };
  return { kind: 'list', events, page: req.page, past: true, hasNext: req.page > 1, hasPrev: from > 0, reference: at, today: today.toFormat('yyyy-MM-dd') };
}

export async function dayModel(ctx: AppContext, caller: Caller, req: ViewRequest): Promise<DayModel> {
  const today = await todayOf(ctx);
  const d = req.date ? DateTime.fromISO(req.date, { zone: today.zone }) : today;
  const date = d.toFormat('yyyy-MM-dd');
  const events = await allEvents(ctx, caller, { ...filterQuery(req), ends_after: `${date} 00:00:00`, starts_before: `${date} 23:59:59`, strict_dates: 'true' });
  const groups = new Map<string, CalEvent[]>();
  const slot = (e: CalEvent) => (e.all_day || day(e.start_date) < date ? 'all-day' : e.start_date.slice(11, 16));
  for (const e of [...events].sort((a, b) => slot(a).localeCompare(slot(b)) || order(a, b))) groups.set(slot(e), [...(groups.get(slot(e)) ?? []), e]);
  const sorted = [...groups.entries()].sort(([a], [b]) => (a === 'all-day' ? -1 : b === 'all-day' ? 1 : a.localeCompare(b)));
  const empty = events.length === 0 && !req.search ? await emptyFacts(ctx, caller, req, today, d) : undefined;
  return {
    ...(empty ? { empty } : {}),
    kind: 'day', date, today: today.toFormat('yyyy-MM-dd'), groups: sorted.map(([time, evs]) => ({ time, events: evs })), events,
    prevDate: d.minus({ days: 1 }).toFormat('yyyy-MM-dd'), nextDate: d.plus({ days: 1 }).toFormat('yyyy-MM-dd'),
  };
}
