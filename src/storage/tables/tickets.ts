/**
 * @module storage/tables/tickets
 * Tables of the ticketing area (ticket, attendee and order details keyed by post ID).
 */

// The ticketing area declares its tables here.
export interface TicketTables {}
