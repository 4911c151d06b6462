/**
 * @module namespaces/events
 * The events calendar area: the `eventsuite/events/v1` namespace (routes in the original's
 * registration order), its post types, the iCalendar feed pages, the read-only {@link eventsService}
 * other areas use, and the extension points (`eventFields`, `eventTicketed`, `eventManageAccess`,
 * see `extensions.ts`) through which the tickets area adds the `ticketed` filter and event fields, and
 * the API discovery of the site's pages (`discovery.ts`).
 */
import { defineArea } from '../../area.js';
import type { AppContext } from '../../app-context.js';
import { defineRoutes, type NamespaceRoutes } from '../../rest/route.js';
import { docRoute } from './doc.js';
import { eventRouteDefs } from './events.routes.js';
import { organizerRouteDefs, venueRouteDefs } from './linked.routes.js';
import { categoryRouteDefs, tagRouteDefs } from './terms.routes.js';
import { EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from './caps.js';
import { registerIcalRoutes } from './ical/index.js';
import { PUBLISH_DUE_JOB, publishDueEvents } from './events.service.js';
import { sitePageDiscovery } from './discovery.js';

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

export const eventsArea = defineArea({
  id: 'events',
  title: 'Events calendar',
  description: 'Events, venues, organizers, categories and tags, and the iCalendar feed.',
  namespaces: [eventRoutes],
  postTypes: [
    { type: EVENT_TYPE, label: 'Events', public: true, permalinkBase: 'event', capabilityType: 'tribe_event' },
    { type: VENUE_TYPE, label: 'Venues', public: true, permalinkBase: 'venue', capabilityType: 'tribe_venue' },
    { type: ORGANIZER_TYPE, label: 'Organizers', public: true, permalinkBase: 'organizer', capabilityType: 'tribe_organizer' },
  ],
  settings: {
    defaultCurrencyCode: { default: 'USD', description: 'Currency code of event costs entered without a currency symbol (set by the onboarding wizard).' },
    defaultCurrencySymbol: { default: '$', description: 'Currency symbol of event costs entered without one (set by the onboarding wizard).' },
  },
  pages: (app, host) => registerIcalRoutes(app, host.ctx, host),
  jobs: {
    [PUBLISH_DUE_JOB]: async (ctx) => {
      await publishDueEvents(ctx);
    },
  },
  // Each scheduled event has its own job at its time; the sweep catches events stored otherwise (imports, seeds).
  schedules: [{ name: PUBLISH_DUE_JOB, kind: PUBLISH_DUE_JOB, every: '1m' }],
  contributes: { pageDiscovery: sitePageDiscovery },
});

export { eventsService, type EventSummary } from './events.public.js';
export {
  type CalendarPageHandlers, type EventFieldProvider, type EventFieldTarget, type EventFieldsContext, type ManageAccessCheck, type TicketedSubquery,
} from './extensions.js';
export { seedEvents, type SeedOptions, type SeedResult } from './seed.js';
export { CATEGORY_TAXONOMY, EVENT_TYPE, ORGANIZER_TYPE, TAG_TAXONOMY, VENUE_TYPE } from './caps.js';
export { getEventsByIds, saveEvent, type EventInput } from './events.service.js';
export type { EventRecord } from './events.repo.js';
export { setLinkedImages } from './linked.service.js';
export { attachmentByUrl } from './post-write.js';
export { discoveryHeaders, discoveryMeta, pageApiRoot } from './discovery.js';
export { FEED_DEFAULT_COUNT, feedCaller, feedCount, feedEvents, isFeedRequest, sendEventsFeed, sendFeed, sendFeedError, type FeedSpec } from './ical/index.js';
