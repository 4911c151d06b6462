import { defineRoutes } from '../../rest/route.js';

export const eventRoutes = defineRoutes('eventsuite/events/v1', []);
