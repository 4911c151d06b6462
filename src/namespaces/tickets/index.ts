/**
 * @module namespaces/tickets
 * The ticketing namespace `eventsuite/tickets/v1` (the original `tribe/tickets/v1`): tickets for any
 * post, attendees, the cart, checkout and orders, QR check-in. Exports its routes and its public
 * service for other areas and the CLI.
 */
import { defineArea } from '../../area.js';
import { defineRoutes } from '../../rest/route.js';
import { TICKETS_NS } from './common.js';
import { TICKET_ROUTE_DEFS } from './routes.js';
import { ticketEventContributions } from './events-integration.js';
import { ticketsSection } from './event-page.js';
import { DEFAULT_PROVIDER_OPTION, DEFAULT_PROVIDER_SLUG, PROVIDERS } from './providers.js';
import { ticketJobs, ticketSchedules } from './jobs.js';
import './extensions.js';
import { SHOP_SETTINGS } from './settings.js';

export const ticketRoutes = defineRoutes(TICKETS_NS, [...TICKET_ROUTE_DEFS]);

export const ticketsArea = defineArea({
  id: 'tickets',
  title: 'Tickets',
  description: 'Tickets, attendees, cart, checkout and orders, and QR check-in.',
  requires: ['events'],
  namespaces: [ticketRoutes],
  postTypes: PROVIDERS.flatMap((p) => [
    { type: p.ticketType, label: `${p.slug} tickets`, public: false },
    { type: p.attendeeType, label: `${p.slug} attendees`, public: false },
    { type: p.orderType, label: `${p.slug} orders`, public: false },
  ]),
  capabilities: { administrator: ['tribe_manage_attendees'] },
  // The `ticketed` filter, the ticket fields of event objects and check-in key access; the tickets on the event page.
  contributes: { ...ticketEventContributions, eventPageSections: ticketsSection },
  jobs: ticketJobs,
  schedules: ticketSchedules,
  settings: {
    ...SHOP_SETTINGS,
    [DEFAULT_PROVIDER_OPTION]: { default: DEFAULT_PROVIDER_SLUG, description: 'Provider of tickets created without one (`rsvp` or `tribe-commerce`).' },
  },
});

export { TICKETS_NS } from './common.js';
export { CHECKIN_KEY_OPTION, generateCheckinApiKey, getCheckinApiKey, hasManageAccess, setCheckinApiKey } from './access.js';
export { issueAddTicketNonce, issueTicketNonces } from './ticket-nonces.js';
export { cancelStalePendingOrders, changeOrderStatus, completeOrder, expireStaleReservations } from './orders.service.js';
export { countOrders, getOrder, listOrders, ordersByIds, type OrderRecord, type OrderStatus } from './orders.repo.js';
export { type OrderChangeEvent, type OrderChangedHook, type OrderChangingHook } from './extensions.js';
export { checkinLink, qrPng, QR_ENABLED_OPTION } from './qr.service.js';
export { DEFAULT_PROVIDER_OPTION } from './providers.js';
export { TICKET_TYPES as TICKET_POST_TYPES } from './providers.js';
export { addTicket, type NewTicket } from './tickets.public.js';
export { loadTickets, type TicketRecord } from './tickets.repo.js';
export { ticketStock } from './tickets.present.js';
export { countTestOrders, deleteTestOrders } from './test-orders.js';
export { PAYMENTS_TEST_MODE_OPTION } from './common.js';
export { createCoupon, getCouponByCode, type CouponRecord, type NewCoupon } from './coupons.repo.js';
export { CURRENCY_OPTION, DEFAULT_CURRENCY, currencyConfig, formatNumber } from './money.js';
export { OFFLINE_PAYMENTS_OPTION, offlinePaymentsEnabled } from './settings.js';
export { seedOrders, type OrderSeedOptions, type OrderSeedResult } from './seed-orders.js';
