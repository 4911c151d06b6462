/**
 * @module namespaces/events/linked.routes
 * Declarations of the venue and organizer routes: collection (GET, POST), single by ID and by slug
 * (GET, DELETE, then updates), in the original's registration order.
 */
import type { AppContext } from '../../app-context.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, type RouteDef } from '../../rest/route.js';
import { PUBLIC_READ_CACHE_MS } from './caps.js';
import { linkedArchiveArgs, linkedReadArgs, linkedSlugArgs, organizerWriteArgs, venueWriteArgs } from './event-args.js';
import {
  canCreateLinked, canDeleteLinked, canListLinked, canReadLinked, canUpdateLinked, createLinkedHandler, deleteLinkedHandler,
  getLinkedHandler, listLinkedHandler, updateLinkedHandler,
} from './linked.handlers.js';
import type { LinkedKind } from './linked.repo.js';
import { itemSchema } from './schemas.js';

function linkedRoutes(kind: LinkedKind): RouteDef<AppContext>[] {
  const plural = kind === 'venue' ? 'venues' : 'organizers';
  const write = (create: boolean) => (kind === 'venue' ? venueWriteArgs(create) : organizerWriteArgs(create));
  const schema = itemSchema(kind === 'venue' ? 'Venue' : 'Organizer', kind);
  return [
    {
      path: `/${plural}`,
      schema,
      endpoints: [
        { methods: READABLE, publicCacheMs: PUBLIC_READ_CACHE_MS, args: linkedArchiveArgs(kind), permission: canListLinked, handler: listLinkedHandler(kind) },
        { methods: CREATABLE, allowBatch: true, args: write(true), permission: canCreateLinked(kind), handler: createLinkedHandler(kind) },
      ],
    },
    {
      path: `/${plural}/{id:\\d+}`,
      schema,
      endpoints: [
        { methods: READABLE, publicCacheMs: PUBLIC_READ_CACHE_MS, args: linkedReadArgs(kind), permission: canReadLinked(kind), handler: getLinkedHandler(kind) },
        { methods: DELETABLE, allowBatch: true, args: linkedReadArgs(kind), permission: canDeleteLinked(kind), handler: deleteLinkedHandler(kind) },
        { methods: EDITABLE, allowBatch: true, args: { ...linkedReadArgs(kind), ...write(false) }, permission: canUpdateLinked(kind), handler: updateLinkedHandler(kind) },
      ],
    },
    {
      path: `/${plural}/by-slug/{slug:[^/]+}`,
      schema,
      endpoints: [
        { methods: READABLE, publicCacheMs: PUBLIC_READ_CACHE_MS, args: linkedSlugArgs(kind), permission: canReadLinked(kind), handler: getLinkedHandler(kind) },
        { methods: DELETABLE, allowBatch: true, args: linkedSlugArgs(kind), permission: canDeleteLinked(kind), handler: deleteLinkedHandler(kind) },
        { methods: EDITABLE, allowBatch: true, args: { ...linkedSlugArgs(kind), ...write(false) }, permission: canUpdateLinked(kind), handler: updateLinkedHandler(kind) },
      ],
    },
  ];
}

/** The venue routes. */
export const venueRouteDefs = linkedRoutes('venue');
/** The organizer routes. */
export const organizerRouteDefs = linkedRoutes('organizer');
