/**
 * @module namespaces/events/linked.routes
 * Declarations of the venue and organizer routes: collection (GET, POST), single by ID and by slug
 * (GET, DELETE, then updates), in the original's registration order.
 */
import type { AppContext } from '../../app-context.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, type RouteDef } from '../../rest/route.js';
import { withChecks } from '../../rest/checks.js';
import { endpoint } from '../../rest/typed.js';
import { PUBLIC_READ_CACHE_MS } from './caps.js';
import { LINKED_LIST_CHECKS, LINKED_WRITE_CHECKS, linkedTargetChecks } from './checks.js';
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
  const byId = linkedTargetChecks(kind, 'id');
  const bySlug = linkedTargetChecks(kind, 'slug');
  return [
    {
      path: `/${plural}`,
      schema,
      endpoints: [
        endpoint({ methods: READABLE, publicCacheMs: PUBLIC_READ_CACHE_MS, args: withChecks(linkedArchiveArgs(kind), LINKED_LIST_CHECKS), permission: canListLinked, handler: listLinkedHandler(kind) }),
        endpoint({ methods: CREATABLE, allowBatch: true, args: withChecks(write(true), LINKED_WRITE_CHECKS), permission: canCreateLinked(kind), handler: createLinkedHandler(kind) }),
      ],
    },
    {
      path: `/${plural}/{id:\\d+}`,
      schema,
      endpoints: [
        endpoint({ methods: READABLE, publicCacheMs: PUBLIC_READ_CACHE_MS, args: withChecks(linkedReadArgs(kind), byId), permission: canReadLinked(kind), handler: getLinkedHandler(kind) }),
        endpoint({ methods: DELETABLE, allowBatch: true, args: withChecks(linkedReadArgs(kind), byId), permission: canDeleteLinked(kind), handler: deleteLinkedHandler(kind) }),
        endpoint({ methods: EDITABLE, allowBatch: true, args: withChecks({ ...linkedReadArgs(kind), ...write(false) }, { ...byId, ...LINKED_WRITE_CHECKS }), permission: canUpdateLinked(kind), handler: updateLinkedHandler(kind) }),
      ],
    },
    {
      path: `/${plural}/by-slug/{slug:[^/]+}`,
      schema,
      endpoints: [
        endpoint({ methods: READABLE, publicCacheMs: PUBLIC_READ_CACHE_MS, args: withChecks(linkedSlugArgs(kind), bySlug), permission: canReadLinked(kind), handler: getLinkedHandler(kind) }),
        endpoint({ methods: DELETABLE, allowBatch: true, args: withChecks(linkedSlugArgs(kind), bySlug), permission: canDeleteLinked(kind), handler: deleteLinkedHandler(kind) }),
        endpoint({ methods: EDITABLE, allowBatch: true, args: withChecks({ ...linkedSlugArgs(kind), ...write(false) }, { ...bySlug, ...LINKED_WRITE_CHECKS }), permission: canUpdateLinked(kind), handler: updateLinkedHandler(kind) }),
      ],
    },
  ];
}

/** The venue routes. */
export const venueRouteDefs = linkedRoutes('venue');
/** The organizer routes. */
export const organizerRouteDefs = linkedRoutes('organizer');
