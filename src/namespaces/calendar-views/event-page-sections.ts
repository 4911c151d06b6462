/**
 * @module namespaces/calendar-views/event-page-sections
 * The `eventPageSections` extension point: markup other areas add to the single event page (the
 * tickets area lists the event's tickets), read as the visitor through the API.
 */
import type { PageHost } from '../../area.js';
import type { Caller } from './events-source.js';

/** A section of the single event page; answers '' to add nothing. The markup must be escaped. */
export type EventPageSection = (host: PageHost, caller: Caller, event: { id: number; title: string }) => Promise<string>;

declare module '../../area.js' {
  interface ExtensionPoints {
    eventPageSections: EventPageSection;
  }
}
