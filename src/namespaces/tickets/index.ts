import { defineRoutes } from '../../rest/route.js';

export const ticketRoutes = defineRoutes('eventsuite/tickets/v1', []);
