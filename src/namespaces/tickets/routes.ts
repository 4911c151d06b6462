/**
 * @module namespaces/tickets/routes
 * Every route of the tickets namespace, in the interface's order, then this service's additions
 * (the attendee QR image and the `/orders` checkout). `/doc` is generated from this same list.
 */
import type { AppContext } from '../../app-context.js';
import { allowAll } from '../../rest/permissions.js';
import { READABLE, type RestRequest, type RouteDef } from '../../rest/route.js';
import { attendeeRouteDefs } from './attendees.routes.js';
import { cartRouteDefs } from './cart.routes.js';
import { ticketsDocument } from './doc.js';
import { orderRouteDefs } from './orders.routes.js';
import { qrRouteDefs } from './qr.routes.js';
import { ticketRouteDefs } from './tickets.routes.js';

const byPath = (defs: readonly RouteDef<AppContext>[], path: string): RouteDef<AppContext> => {
  const def = defs.find((d) => d.path === path);
  if (!def) throw new Error(`tickets: no route ${path}`);
  return def;
};

/** `GET /doc`: the OpenAPI document of the namespace. */
function getDoc(_req: RestRequest, ctx: AppContext) {
  return ticketsDocument(ctx, TICKET_ROUTE_DEFS, ctx.now());
}

/** All route declarations of `eventsuite/tickets/v1`. */
export const TICKET_ROUTE_DEFS: readonly RouteDef<AppContext>[] = [
  { path: '/doc', endpoints: [{ methods: READABLE, args: {}, permission: allowAll, handler: getDoc }] },
  byPath(ticketRouteDefs, '/tickets/{id}'),
  byPath(ticketRouteDefs, '/tickets'),
  byPath(attendeeRouteDefs, '/attendees/{id}'),
  byPath(attendeeRouteDefs, '/attendees'),
  ...cartRouteDefs,
  ...qrRouteDefs,
  byPath(attendeeRouteDefs, '/attendees/{id}/qr'),
  ...orderRouteDefs,
];
