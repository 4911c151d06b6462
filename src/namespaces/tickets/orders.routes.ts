/**
 * @module namespaces/tickets/orders.routes
 * `/orders` and `/orders/{id}`: checkout and orders. The originals have no checkout route in this
 * namespace (their carts hand over to the provider's checkout page, the cart's `checkout_url`), so
 * this is the smallest one that turns a cart into an order: `POST /orders` checks out the caller's
 * cart (or the `tickets` it is given) for one provider; `GET /orders/{id}` shows an order to its
 * buyer (`key`) or a manager, asking the gateway about pending payments; `POST /orders/{id}` changes
 * its status (managers; buyers may cancel a pending order).
 */
import type { AppContext } from '../../app-context.js';
import { allowAll } from '../../rest/permissions.js';
import { CREATABLE, EDITABLE, READABLE, type RouteDef } from '../../rest/route.js';
import { GATEWAY_NAMES } from '../../remote/payment-gateway.js';
import { emailArg, positiveIntArg } from './ticket-args.js';
import { createOrder, getOrderHandler, updateOrderHandler } from './orders.handlers.js';

const KEY_ARG = { description: 'The order key returned at checkout (not needed with manage access).', type: 'string' } as const;

/** Route declarations of `/orders` and `/orders/{id}`. */
export const orderRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/orders',
    endpoints: [
      {
        methods: CREATABLE,
        args: {
          provider: { description: 'The provider whose tickets to check out (`tribe-commerce` or `rsvp`).', type: 'string', default: 'tribe-commerce' },
          tickets: { description: 'Tickets to buy now, `[{ticket_id, quantity, optout?}]`; defaults to the cart of the provider.' },
          meta: { description: 'Attendee registration answers, `[{ticket_id, items: [{full_name?, email?, …}, …]}]`; defaults to those in the cart.' },
          purchaser_name: { description: "The purchaser's name; defaults to the signed-in user's.", type: 'string' },
          purchaser_email: emailArg("The purchaser's e-mail; defaults to the signed-in user's."),
          gateway: {
            description: 'How a paid order is paid: `remote` (the configured payment gateway, the default when configured) or `offline` (at the door, only when the site offers it; the order stays pending until a manager marks it paid).',
            type: 'string',
            enum: [...GATEWAY_NAMES],
          },
          rsvp_going: { description: 'RSVP only: whether the guests are going.', type: 'boolean', default: true },
          coupon: { description: 'A coupon code to apply to the order.', type: 'string', maxLength: 50 },
          return_url: { description: 'Where the remote gateway sends the buyer back after paying.', type: 'string', format: 'uri' },
        },
        permission: allowAll,
        handler: createOrder,
      },
    ],
  },
  {
    path: '/orders/{id}',
    endpoints: [
      { methods: READABLE, args: { id: positiveIntArg('The order ID.', true), key: KEY_ARG }, permission: allowAll, handler: getOrderHandler },
      {
        methods: EDITABLE,
        args: {
          id: positiveIntArg('The order ID.', true),
          status: { description: 'The new status.', type: 'string', enum: ['completed', 'refunded', 'cancelled'], required: true },
          key: KEY_ARG,
        },
        permission: allowAll,
        handler: updateOrderHandler,
      },
    ],
  },
];
