/**
 * @module namespaces/calendar-views
 * The calendar views area: `eventsuite/views/v2` (the month, list and day views as server-rendered
 * HTML for the front-end's navigation) and the calendar's public pages (views, single event, venue
 * and organizer pages) rendered by the same code.
 */
import { defineArea } from '../../area.js';
import { calendarPages, registerCalendarPages } from './pages.js';
import { viewsRoutes } from './views.routes.js';

export const calendarViewsArea = defineArea({
  id: 'calendar-views',
  title: 'Calendar views',
  description: 'Month, list and day views of the events calendar, and its public pages.',
  requires: ['events'],
  namespaces: [viewsRoutes],
  settings: {
    viewOption: { default: 'month', description: 'The view /events/ shows.' },
    tribeEnableViews: { default: ['list', 'month', 'day'], description: 'Views visitors can switch to.' },
    postsPerPage: { default: 12, description: 'Events per page of the list view.' },
    monthEventAmount: { default: 12, description: 'Events shown per day in the month view before "more".' },
  },
  pages: (app, host) => registerCalendarPages(app, host),
  contributes: { calendarPages },
});

export { viewsRoutes } from './views.routes.js';
export { VIEWS_NS } from './views.service.js';
export type { EventPageSection } from './event-page-sections.js';
export type { Caller } from './events-source.js';
