/**
 * @module namespaces/events/events.public
 * The read-only service other areas (tickets, views, import) use: events by ID, existence and
 * readability checks. No writes, no HTTP shapes.
 */
import type { AppContext } from '../../app-context.js';
import type { RestUser } from '../../rest/route.js';
import type { Db } from '../../storage/db.js';
import { canEditPost, canReadPost, EVENT_TYPE } from './caps.js';
import { existingEventIds, getEventsByIds, type EventRecord } from './events.repo.js';
import { EVENTS_NAMESPACE } from './linked.present.js';
import { passwordMatches } from './events.service.js';

/** What other areas see of an event. */
export interface EventSummary {
  id: number;
  title: string;
  slug: string;
  status: string;
  /** Author user ID. */
  author: number;
  passwordProtected: boolean;
  hideFromListings: boolean;
  allDay: boolean;
  /** `YYYY-MM-DD HH:MM:SS` in the event's zone, and in UTC. */
  startLocal: string;
  endLocal: string;
  startUtc: string;
  endUtc: string;
  /** IANA name or `UTC+5`-style offset. */
  timezone: string;
  /** Public permalink and REST URL. */
  url: string;
  restUrl: string;
}

function summary(ctx: AppContext, ev: EventRecord): EventSummary {
  return {
    id: ev.id, title: ev.title, slug: ev.slug, status: ev.status, author: ev.author, passwordProtected: ev.password !== '',
    hideFromListings: ev.hideFromListings, allDay: ev.allDay, startLocal: ev.startLocal, endLocal: ev.endLocal,
    startUtc: ev.startUtc, endUtc: ev.endUtc, timezone: ev.timezone, url: ctx.urls.permalink(ev),
    restUrl: ctx.urls.rest(`${EVENTS_NAMESPACE}/events/${ev.id}`),
  };
}

/** Read-only access to events for other areas. Pass `db` to read inside your own transaction. */
export const eventsService = {
  /** The event with this ID (any status), or undefined when it is not an event. */
  async getEvent(ctx: AppContext, id: number, db: Db = ctx.db): Promise<EventSummary | undefined> {
    const ev = (await getEventsByIds(db, [id])).get(id);
    return ev ? summary(ctx, ev) : undefined;
  },

  /** Several events in one query, by ID; IDs that are not events are absent. */
  async getEvents(ctx: AppContext, ids: readonly number[], db: Db = ctx.db): Promise<Map<number, EventSummary>> {
    const out = new Map<number, EventSummary>();
    for (const [id, ev] of await getEventsByIds(db, ids)) out.set(id, summary(ctx, ev));
    return out;
  },

  /** True when the ID is an event (any status). */
  async exists(ctx: AppContext, id: number, db: Db = ctx.db): Promise<boolean> {
    return (await existingEventIds(db, [id])).has(id);
  },

  /** Which of the IDs are events (any status), one query. */
  async existing(ctx: AppContext, ids: readonly number[], db: Db = ctx.db): Promise<Set<number>> {
    return existingEventIds(db, ids);
  },

  /** `read_post`: published events for everyone, others for those who may edit (or read private) them. */
  isReadable(event: Pick<EventSummary, 'status' | 'author'>, user: RestUser | null): boolean {
    return canReadPost(user, EVENT_TYPE, event);
  },

  /** `edit_post` on the event. */
  isEditable(event: Pick<EventSummary, 'status' | 'author'>, user: RestUser | null): boolean {
    return canEditPost(user, EVENT_TYPE, event);
  },

  /** True when `password` unlocks the event (constant-time); false for events without a password. */
  async passwordMatches(ctx: AppContext, id: number, password: unknown, db: Db = ctx.db): Promise<boolean> {
    const ev = (await getEventsByIds(db, [id])).get(id);
    return ev ? passwordMatches(ev, password) : false;
  },
} as const;
