/**
 * @module namespaces/events/ical
 * iCalendar for the events calendar: the feed pages (`/events/?ical=1`, `/event/<slug>/?ical=1`) and
 * the reading of `.ics` files that the event-import area imports (`parseIcs`).
 */
export { registerIcalRoutes, type IcalRouteDeps } from './ical.routes.js';
export { FEED_DEFAULT_COUNT, feedCaller, feedCount, feedEvents, isFeedRequest, sendEventsFeed, sendFeed, sendFeedError, type FeedSpec } from './ical-response.js';
export { buildIcalFeed, type FeedCalendar, type FeedEvent } from './ical-feed.js';
export { parseIcs, IcsImportError } from './ical-parse.js';
