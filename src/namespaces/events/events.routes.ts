/**
 * @module namespaces/events/events.routes
 * Declarations of the event routes (`/events`, `/events/{id}`, `/events/by-slug/{slug}`), in the
 * original's registration order: the collection's GET then POST; single GET, DELETE, then updates.
 *
 * Beyond the original, every write of this namespace (events, venues, organizers, terms) opts in to
 * `/batch/v1`, so clients can send up to 25 writes in one call; discovery shows `allow_batch`.
 */
import type { AppContext } from '../../app-context.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, type RouteDef } from '../../rest/route.js';
import { withChecks } from '../../rest/checks.js';
import { endpoint } from '../../rest/typed.js';
import { PUBLIC_READ_CACHE_MS } from './caps.js';
import { EVENT_LIST_CHECKS, EVENT_SLUG_CHECKS, EVENT_TARGET_CHECKS, EVENT_WRITE_CHECKS } from './checks.js';
import { eventArchiveArgs, eventEditArgs, eventReadArgs, eventSlugArgs, eventWriteArgs } from './event-args.js';
import {
  canCreateEvent, canDeleteEvent, canListEvents, canReadEvent, canUpdateEvent, createEventHandler, deleteEventHandler,
  getEventHandler, listEventsHandler, updateEventHandler,
} from './events.handlers.js';
import { itemSchema } from './schemas.js';

const schema = itemSchema('Event', 'event');

/** The event routes. */
export const eventRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/events',
    schema,
    endpoints: [
      endpoint({ methods: READABLE, publicCacheMs: PUBLIC_READ_CACHE_MS, args: withChecks(eventArchiveArgs(), EVENT_LIST_CHECKS), permission: canListEvents, handler: listEventsHandler }),
      endpoint({ methods: CREATABLE, allowBatch: true, args: withChecks(eventWriteArgs(true), EVENT_WRITE_CHECKS), permission: canCreateEvent, handler: createEventHandler }),
    ],
  },
  {
    path: '/events/{id:\\d+}',
    schema,
    endpoints: [
      endpoint({ methods: READABLE, publicCacheMs: PUBLIC_READ_CACHE_MS, args: withChecks(eventReadArgs(), EVENT_TARGET_CHECKS), permission: canReadEvent, handler: getEventHandler }),
      endpoint({ methods: DELETABLE, allowBatch: true, args: withChecks(eventReadArgs(), EVENT_TARGET_CHECKS), permission: canDeleteEvent, handler: deleteEventHandler }),
      endpoint({ methods: EDITABLE, allowBatch: true, args: withChecks(eventEditArgs(), { ...EVENT_TARGET_CHECKS, ...EVENT_WRITE_CHECKS }), permission: canUpdateEvent, handler: updateEventHandler }),
    ],
  },
  {
    path: '/events/by-slug/{slug:[^/]+}',
    schema,
    endpoints: [
      endpoint({ methods: READABLE, publicCacheMs: PUBLIC_READ_CACHE_MS, args: withChecks(eventSlugArgs(), EVENT_SLUG_CHECKS), permission: canReadEvent, handler: getEventHandler }),
      endpoint({ methods: DELETABLE, allowBatch: true, args: withChecks(eventSlugArgs(), EVENT_SLUG_CHECKS), permission: canDeleteEvent, handler: deleteEventHandler }),
      endpoint({ methods: EDITABLE, allowBatch: true, args: withChecks(eventWriteArgs(false), { ...EVENT_SLUG_CHECKS, ...EVENT_WRITE_CHECKS }), permission: canUpdateEvent, handler: updateEventHandler }),
    ],
  },
];
