/**
 * @module namespaces/tickets
 * The ticketing namespace `eventsuite/tickets/v1` (the original `tribe/tickets/v1`): tickets for any
 * post, attendees, the cart, checkout and orders, QR check-in. Exports its routes and its public
 * service for other areas and the CLI.
 */
import { defineRoutes } from '../../rest/route.js';
import { TICKETS_NS } from './common.js';
import { TICKET_ROUTE_DEFS } from './routes.js';

export const ticketRoutes = defineRoutes(TICKETS_NS, [...TICKET_ROUTE_DEFS]);

export { TICKETS_NS } from './common.js';
export { CHECKIN_KEY_OPTION, generateCheckinApiKey, getCheckinApiKey, hasManageAccess, setCheckinApiKey } from './access.js';
export { issueAddTicketNonce, issueTicketNonces } from './ticket-nonces.js';
export { changeOrderStatus, completeOrder } from './orders.service.js';
export { getOrder } from './orders.repo.js';
export { checkinLink, qrPng, QR_ENABLED_OPTION } from './qr.service.js';
export { CURRENCY_OPTION } from './money.js';
