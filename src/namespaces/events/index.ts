/**
 * @module namespaces/events
 * The events calendar namespace `eventsuite/events/v1`: its routes (in the original's registration
 * order), the read-only {@link eventsService} other areas use, and the {@link eventExtensions} point
 * through which the tickets area adds the `ticketed` filter and extra event fields.
 */
import type { AppContext } from '../../app-context.js';
import { defineRoutes, type NamespaceRoutes } from '../../rest/route.js';
import { docRoute } from './doc.js';
import { eventRouteDefs } from './events.routes.js';
import { organizerRouteDefs, venueRouteDefs } from './linked.routes.js';
import { categoryRouteDefs, tagRouteDefs } from './terms.routes.js';

/** The namespace name. */
export const EVENTS_NS = 'eventsuite/events/v1';

/** Every route of the namespace. */
export const eventRoutes: NamespaceRoutes<AppContext> = defineRoutes<AppContext>(EVENTS_NS, [
  docRoute(() => eventRoutes),
  ...eventRouteDefs,
  ...venueRouteDefs,
  ...organizerRouteDefs,
  ...categoryRouteDefs,
  ...tagRouteDefs,
]);

export { eventsService, type EventSummary } from './events.public.js';
export {
  eventExtensions, type EventExtensions, type EventFieldProvider, type EventFieldTarget, type EventFieldsContext,
  type ManageAccessCheck, type TicketedSubquery,
} from './extensions.js';
export { seedEvents, type SeedOptions, type SeedResult } from './seed.js';
export { CATEGORY_TAXONOMY, EVENT_TYPE, ORGANIZER_TYPE, TAG_TAXONOMY, VENUE_TYPE } from './caps.js';
export { getEventsByIds, saveEvent, type EventInput } from './events.service.js';
