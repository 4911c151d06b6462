/**
 * @module namespaces/calendar-views/events-source
 * Events for the views, read from the events archive itself (`GET /eventsuite/events/v1/events`,
 * dispatched internally as the visitor), so the calendar shows exactly what that visitor may list —
 * published events for everyone, never events hidden from listings — with the archive's filters.
 */
import type { AppContext } from '../../app-context.js';
import { RestError } from '../../rest/errors.js';
import type { Dispatcher } from '../../rest/dispatch.js';
import { createRestRequest } from '../../rest/request.js';
import type { AuthInfo, RestUser } from '../../rest/route.js';
import { valueOf } from '../../rest/serve.js';

/** The event object fields the views use (the archive's calendar fields, same values as its event object). */
export interface CalEvent {
  id: number;
  title: string;
  url: string;
  excerpt: string;
  /** `YYYY-MM-DD HH:MM:SS` in the event's zone. */
  start_date: string;
  end_date: string;
  all_day: boolean;
  timezone: string;
  featured: boolean;
  sticky: boolean;
  cost: string;
  image: false | { url: string };
  venue: { id: number; venue: string; url: string; address?: string; city?: string; country?: string } | unknown[];
  organizer: { id: number; organizer: string; url: string }[];
}

export interface Caller {
  user: RestUser | null;
  auth: AuthInfo;
  ip: string;
}

const PAGE = 50;
/** Most events one view reads. */
export const MAX_VIEW_EVENTS = 2000;

/** Dispatchers by app (set when the area's pages are registered; the REST route needs one too). */
const dispatchers = new WeakMap<AppContext, Dispatcher<AppContext>>();

export function useDispatcher(ctx: AppContext, dispatcher: Dispatcher<AppContext>): void {
  dispatchers.set(ctx, dispatcher);
}

async function archivePage(ctx: AppContext, caller: Caller, query: Record<string, unknown>, page: number, perPage: number): Promise<{ events: CalEvent[]; total: number }> {
  const dispatcher = dispatchers.get(ctx);
  if (!dispatcher) throw new Error('calendar views: pages not registered');
  const req = createRestRequest({ method: 'GET', route: '/eventsuite/events/v1/events', query: { ...query, page, per_page: perPage }, user: caller.user, auth: caller.auth, ip: caller.ip });
  // Only the fields the views show: no terms, extension fields or date details to build.
  req.locals.eventFields = 'calendar';
  const res = await dispatcher.dispatch(req);
  if (res.data instanceof RestError) {
    // A page past the end is no error for a view.
    if (res.data.code === 'rest_post_invalid_page_number' || res.data.status === 400 && page > 1) return { events: [], total: 0 };
    throw res.data;
  }
  const body = valueOf(res.data) as { events?: CalEvent[]; total?: number };
  return { events: body.events ?? [], total: Number(body.total ?? 0) };
}

/** Every event of the query (up to {@link MAX_VIEW_EVENTS}), start ascending. */
export async function allEvents(ctx: AppContext, caller: Caller, query: Record<string, unknown>): Promise<CalEvent[]> {
  const out: CalEvent[] = [];
  for (let page = 1; out.length < MAX_VIEW_EVENTS; page++) {
    const { events, total } = await archivePage(ctx, caller, query, page, PAGE);
    out.push(...events);
    if (events.length < PAGE || out.length >= total) break;
  }
  return out;
}

/** Events `from`…`to` (0-based, exclusive) of the query's ascending order, and the total. */
export async function eventSlice(ctx: AppContext, caller: Caller, query: Record<string, unknown>, from: number, to: number): Promise<{ events: CalEvent[]; total: number }> {
  const out: CalEvent[] = [];
  let total = 0;
  for (let page = Math.floor(from / PAGE) + 1; page <= Math.floor(Math.max(from, to - 1) / PAGE) + 1; page++) {
    const res = await archivePage(ctx, caller, query, page, PAGE);
    total = res.total;
    const offset = (page - 1) * PAGE;
    res.events.forEach((e, i) => {
      if (offset + i >= from && offset + i < to) out.push(e);
    });
    if (res.events.length < PAGE) break;
  }
  return { events: out, total };
}

/** The first event of the query's ascending order, if any. */
export async function firstEvent(ctx: AppContext, caller: Caller, query: Record<string, unknown>): Promise<CalEvent | undefined> {
  return (await archivePage(ctx, caller, query, 1, 1)).events[0];
}

/** How many events the query matches. */
export async function countEvents(ctx: AppContext, caller: Caller, query: Record<string, unknown>): Promise<number> {
  return (await archivePage(ctx, caller, query, 1, 1)).total;
}
