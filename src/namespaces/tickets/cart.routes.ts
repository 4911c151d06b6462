/**
 * @module namespaces/tickets/cart.routes
 * `/cart` (ET `REST/V1/Endpoints/Cart.php`): anyone reads and replaces their own cart. The cart is
 * found by the cart cookie (or the signed-in user); a first write without one sets the cookie.
 */
import type { AppContext } from '../../app-context.js';
import { allowAll } from '../../rest/permissions.js';
import { EDITABLE, READABLE, respond, type RestRequest, type RouteDef } from '../../rest/route.js';
import { cartKeyOf, newCartKey, readCart, writeCart } from './cart.service.js';
import { TicketErrors } from './errors.js';
import { providerFilter, resolveProvider } from './providers.js';
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
  const providers = req.has('provider') ? providerFilter(req.params.provider as string[]) : undefined;
  return readCart(ctx, req.user, cartKeyOf(req), providers, req.has('post_id') ? (req.params.post_id as number) : undefined);
}

/** `POST|PUT|PATCH /cart`: replaces the provider's lines; 200 with the cart. */
async function updateCart(req: RestRequest, ctx: AppContext) {
  if (await postWithoutTickets(req, ctx)) return TicketErrors.postHasNoTickets();
  await expireStaleReservationsNow(ctx);
  const provider = resolveProvider(req.params.provider);
  let key = cartKeyOf(req);
  const headers: Record<string, string> = {};
  // Providers of the originals not offered here (WooCommerce, EDD, Tickets Commerce) have no cart to write.
  if (provider) {
    if (!key) {
      const fresh = newCartKey();
      key = fresh.key;
      headers['Set-Cookie'] = fresh.setCookie;
    }
    const error = await writeCart(ctx, req.user, key, provider, req.params.tickets, req.params.meta);
    if (error) return error;
  }
  const body = await readCart(ctx, req.user, key, provider ? [provider.slug] : [], req.has('post_id') ? (req.params.post_id as number) : undefined);
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
