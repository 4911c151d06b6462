/**
 * @module namespaces/tickets/errors
 * Error catalogue of the tickets namespace. Codes and messages are the originals' (ET
 * `REST/V1/Messages.php` and the ad-hoc errors of its endpoints). Where an original answers a client
 * mistake with a 500, the code is kept and the status is the fitting 4xx (marked `CASE:`).
 */
import { RestError } from '../../rest/errors.js';

export const TICKET_MESSAGES = {
  attendeeNotFound: 'The requested post ID does not exist or is not an attendee',
  attendeeNotAccessible: 'The requested attendee is not accessible',
  ticketNotFound: 'The requested ticket post could not be found',
  ticketNotAccessible: 'The requested ticket is not accessible',
  ticketDoesNotExist: (id: number | string) => `The ticket #${id} does not exist.`,
  ticketCapacityNotAvailable: (title: string) => `The ticket "${title}" does not have that many available for purchase.`,
  ticketNotOnSale: (title: string) => `The ticket "${title}" is not on sale at this time.`,
  invalidPageNumber: 'The page number requested is larger than the number of pages available.',
  invalidNonce: 'Invalid nonce',
  commerceModuleInvalid: 'Commerce Module invalid',
  notAcceptable: 'Ticket was not able to be updated',
  invalidPrice: 'Invalid price',
  invalidCapacity: 'Invalid capacity: use an integer of 0 or more, or leave it empty for unlimited.',
  cappedAboveShared: 'A capped ticket cannot have more capacity than the shared capacity of its post.',
  ticketPostMismatch: 'The ticket does not belong to that post.',
  invalidStartDate: (text: string) => `Invalid start date: ${text}`,
  invalidEndDate: (text: string) => `Invalid end date: ${text}`,
  saleEndsBeforeStart: 'The ticket sale cannot end before it starts.',
  invalidAttendeeId: 'Attendee ID is not valid.',
  orderStatusFollowsOrder: 'The status of an attendee with an order follows the order: change the order instead.',
  invalidEmail: 'Invalid email address.',
  mixedCurrencies: 'Tickets priced in different currencies cannot be bought in one order.',
  invalidAttendeeStatus: (statuses: readonly string[]) => `Supported statuses for this attendee are: ${statuses.join(' | ')}`,
  alreadyCheckedIn: 'Attendee is already checked in.',
  invalidCheckIn: 'Attendee Order status is not authorized for check-in.',
  emptyCart: 'There are no tickets to check out for this provider.',
  cartChanged: 'The cart changed while it was being checked out (checked out in another window, or edited): check it out again.',
  missingPurchaser: 'A purchaser name and a valid e-mail address are required to check out.',
  orderNotFound: 'The requested order does not exist.',
  orderNotAccessible: 'The requested order is not accessible.',
  invalidTransition: (from: string, to: string) => `An order that is ${from} cannot become ${to}.`,
  gatewayUnavailable: 'The payment gateway is not configured.',
  gatewayError: 'The payment gateway could not be reached or refused the request.',
  paymentFailed: 'The payment was declined.',
  gatewayNotAllowed: 'Offline payment is not offered on this site.',
  quantityTooLarge: (perLine: number, perOrder: number) => `At most ${perLine} tickets per line and ${perOrder} per order can be bought at once.`,
  tooManyEmails: 'Too many ticket e-mails were requested recently; try again later.',
} as const;

/** Factories for every error the namespace answers with. */
export const TicketErrors = {
  /** Single ticket GET: the message is the code string upstream. */
  ticketNotFound: () => new RestError('ticket-not-found', 'ticket-not-found', 404),
  ticketNotAccessible: () => new RestError('ticket-not-accessible', 'ticket-not-accessible', 401),
  /** `/qr/{id}` uses the catalogue message. */
  qrTicketNotAccessible: () => new RestError('ticket-not-accessible', TICKET_MESSAGES.ticketNotAccessible, 403),
  invalidPageNumber: () => new RestError('invalid-page-number', TICKET_MESSAGES.invalidPageNumber, 400),
  forbidden: () => new RestError('forbidden', TICKET_MESSAGES.invalidNonce, 403),
  invalidCoupon: (message: string) => new RestError('invalid-coupon', message, 400),
  badRequest: (message: string = TICKET_MESSAGES.commerceModuleInvalid) => new RestError('bad_request', message, 400),
  notAcceptable: () => new RestError('not_acceptable', TICKET_MESSAGES.notAcceptable, 406),
  invalidPrice: () => new RestError('tec-tickets-rest-invalid_price', TICKET_MESSAGES.invalidPrice, 400),
  attendeeNotFound: () => new RestError('attendee-not-found', TICKET_MESSAGES.attendeeNotFound, 404),
  attendeeNotAccessible: () => new RestError('attendee-not-accessible', TICKET_MESSAGES.attendeeNotAccessible, 401),
  invalidAttendeeStatus: (statuses: readonly string[]) =>
    new RestError('invalid-attendee-status', TICKET_MESSAGES.invalidAttendeeStatus(statuses), 400),
  // CASE: upstream sends these two without a status (500); an unknown attendee is the client's mistake.
  invalidAttendeeId: () => new RestError('invalid-attendee-id', TICKET_MESSAGES.invalidAttendeeId, 404),
  alreadyCheckedIn: () => new RestError('tec-et-attendee-already-checked-in', TICKET_MESSAGES.alreadyCheckedIn, 400),
  invalidCheckIn: () => new RestError('tec-et-attendee-invalid-check-in', TICKET_MESSAGES.invalidCheckIn, 400),
  // CASE: the legacy PayPal cart answers both with 500; an unknown ticket is a 400, a sold-out one a 409.
  ticketDoesNotExist: (id: number | string) => new RestError('ticket-does-not-exist', TICKET_MESSAGES.ticketDoesNotExist(id), 400),
  ticketCapacityNotAvailable: (title: string, ticketId: number) =>
    new RestError('ticket-capacity-not-available', TICKET_MESSAGES.ticketCapacityNotAvailable(title), 409, { ticket_id: ticketId }),
  // CASE: the legacy PayPal cart answers a ticket outside its sale dates with the capacity code; we keep
  // the code (clients match on it) and say why.
  ticketNotOnSale: (title: string, ticketId: number) =>
    new RestError('ticket-capacity-not-available', TICKET_MESSAGES.ticketNotOnSale(title), 409, { ticket_id: ticketId }),
  /** Upstream: 403 with an empty message (no catalogue entry). */
  postHasNoTickets: () => new RestError('post-has-no-tickets', '', 403),
  emptyCart: () => new RestError('tickets-cart-empty', TICKET_MESSAGES.emptyCart, 400),
  // Our own: the original has no guard for a cart checked out twice at once.
  cartChanged: () => new RestError('tickets-cart-changed', TICKET_MESSAGES.cartChanged, 409),
  gatewayNotAllowed: () => new RestError('payment-gateway-not-allowed', TICKET_MESSAGES.gatewayNotAllowed, 400),
  quantityTooLarge: (perLine: number, perOrder: number) =>
    new RestError('tickets-quantity-too-large', TICKET_MESSAGES.quantityTooLarge(perLine, perOrder), 400, { max_per_line: perLine, max_per_order: perOrder }),
  /** A checkout over the ticket e-mail limits (`email-limits.ts`). */
  tooManyEmails: () => new RestError('tickets-too-many-emails', TICKET_MESSAGES.tooManyEmails, 429),
  missingPurchaser: () => new RestError('tickets-missing-purchaser', TICKET_MESSAGES.missingPurchaser, 400),
  orderNotFound: () => new RestError('order-not-found', TICKET_MESSAGES.orderNotFound, 404),
  orderNotAccessible: (loggedIn: boolean) => new RestError('order-not-accessible', TICKET_MESSAGES.orderNotAccessible, loggedIn ? 403 : 401),
  invalidTransition: (from: string, to: string) => new RestError('order-invalid-transition', TICKET_MESSAGES.invalidTransition(from, to), 409),
  gatewayUnavailable: () => new RestError('payment-gateway-unavailable', TICKET_MESSAGES.gatewayUnavailable, 503),
  gatewayError: (detail?: string) => new RestError('payment-gateway-error', TICKET_MESSAGES.gatewayError, 502, detail ? { detail } : undefined),
  paymentFailed: () => new RestError('payment-failed', TICKET_MESSAGES.paymentFailed, 402),
} as const;
