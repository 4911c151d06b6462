/**
 * @module namespaces/tickets/cart.routes
 * `/cart` (ET `REST/V1/Endpoints/Cart.php`): anyone reads and changes their own cart. The cart is
 * found by the cart cookie (or the signed-in user); a first write without one sets the cookie.
 */
import type { AppContext } from '../../app-context.js';
import { allowAll } from '../../rest/permissions.js';
import { EDITABLE, READABLE, respond, type RestRequest, type RouteDef } from '../../rest/route.js';
import { cartKeyOf, cartProviders, newCartKey, readCart, writeCart } from './cart.service.js';
import { TicketErrors } from './errors.js';
import { csvArg, isPostId } from './ticket-args.js';
import { ticketCountsByPost } from './tickets.repo.js';
import { expireStaleReservationsNow } from './orders.service.js';

/** `post_id`, when sent, must name a post with tickets (else 403 `post-has-no-tickets`). */
async function postWithoutTickets(req: RestRequest, ctx: AppContext): Promise<boolean> {
  if (!req.has('post_id')) return false;
  const id = req.params.post_id as number;
  return !(await ticketCountsByPost(ctx.db, [id])).has(id);
}

/** `GET /cart`. */
async function getCart(req: RestRequest, ctx: AppContext) {
  if (await postWithoutTickets(req, ctx)) return TicketErrors.postHasNoTickets();
  await expireStaleReservationsNow(ctx);
  const providers = req.has('provider') ? cartProviders(req.params.provider as string[]) : undefined;
  return readCart(ctx, req.user, cartKeyOf(req), providers);
}

/** `POST|PUT|PATCH /cart`: sets the lines sent; 200 with the cart of the provider named. */
async function updateCart(req: RestRequest, ctx: AppContext) {
  if (await postWithoutTickets(req, ctx)) return TicketErrors.postHasNoTickets();
  await expireStaleReservationsNow(ctx);
  const headers: Record<string, string> = {};
  const existing = cartKeyOf(req);
  const fresh = existing ? undefined : newCartKey(ctx.config.baseUrl.startsWith('https://'));
  const key = existing ?? fresh!.key;
  const written = await writeCart(ctx, req.user, key, req.params.provider, req.params.tickets, req.params.meta);
  if (typeof written !== 'boolean') return written;
  if (written && fresh) headers['Set-Cookie'] = fresh.setCookie;
  // The original answers with its GET for the same request: the `provider` sent is the filter.
  const body = await readCart(ctx, req.user, existing ?? (written ? key : undefined), cartProviders([req.params.provider as string]));
  return respond(body, { headers });
}

const POST_ID = { description: 'The post ID', type: 'integer' } as const;

/** Route declarations of `/cart`. */
export const cartRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/cart',
    endpoints: [
      {
        methods: READABLE,
        args: {
          provider: csvArg('Limit results to tickets provided by one of the providers specified in the CSV list or array; defaults to all available.'),
          post_id: { ...POST_ID, check: isPostId },
        },
        permission: allowAll,
        handler: getCart,
      },
      {
        methods: EDITABLE,
        args: {
          provider: { description: 'The cart provider', type: 'string', required: true },
          tickets: { description: 'List of tickets with their ID and quantity', default: null },
          meta: { description: 'List of meta for each ticket to be saved for Attendee Registration', default: null },
          post_id: { ...POST_ID, check: isPostId },
        },
        permission: allowAll,
        handler: updateCart,
      },
    ],
  },
];
