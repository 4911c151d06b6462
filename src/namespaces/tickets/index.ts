/**
 * @module namespaces/tickets
 * The ticketing namespace `eventsuite/tickets/v1` (the original `tribe/tickets/v1`): tickets for any
 * post, attendees, the cart, checkout and orders, QR check-in. Exports its routes and its public
 * service for other areas and the CLI.
 */
import { defineRoutes } from '../../rest/route.js';
import { TICKETS_NS } from './common.js';
import { TICKET_ROUTE_DEFS } from './routes.js';
import { registerTicketExtensions } from './events-integration.js';

export const ticketRoutes = defineRoutes(TICKETS_NS, [...TICKET_ROUTE_DEFS]);

// The `ticketed` filter and the ticket fields of event objects.
registerTicketExtensions();

export { TICKETS_NS } from './common.js';
export { CHECKIN_KEY_OPTION, generateCheckinApiKey, getCheckinApiKey, hasManageAccess, setCheckinApiKey } from './access.js';
export { issueAddTicketNonce, issueTicketNonces } from './ticket-nonces.js';
export { cancelStalePendingOrders, changeOrderStatus, completeOrder } from './orders.service.js';
export { getOrder } from './orders.repo.js';
export { checkinLink, qrPng, QR_ENABLED_OPTION } from './qr.service.js';
export { CURRENCY_OPTION } from './money.js';
export { registerTicketExtensions } from './events-integration.js';
