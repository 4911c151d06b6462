/**
 * @module namespaces/tickets/orders.handlers
 * Handlers of the checkout and order routes declared in `orders.routes.ts`.
 */
import type { AppContext } from '../../app-context.js';
import { isRestError } from '../../rest/errors.js';
import { sanitizeTextField } from '../../rest/wp-sanitize.js';
import { respond, type RestRequest } from '../../rest/route.js';
import { defaultGatewayName, type GatewayName } from '../../remote/payment-gateway.js';
import { hasManageAccess, keysMatch } from './access.js';
import { attendeeIdsOfOrder, loadAttendees } from './attendees.repo.js';
import { cartKeyOf, checkLines, checkQuantities, metaByTicket, visibleCartLines } from './cart.service.js';
import { TICKET_MESSAGES, TicketErrors } from './errors.js';
import { getOrder, type OrderRecord } from './orders.repo.js';
import { couponProblem, getCouponByCode, type CouponRecord } from './coupons.repo.js';
import { nowGmt } from './common.js';
import { presentOrder } from './orders.present.js';
import { changeOrderStatus, checkout, expireStaleReservationsNow, refreshPendingOrder, type OrderChange } from './orders.service.js';
import { resolveProvider } from './providers.js';
import { offlinePaymentsEnabled } from './settings.js';
import { emailLimitAnswer } from './email-limits.js';
import { attendeeObjects, presentAttendees } from './views.js';

async function orderView(ctx: AppContext, order: OrderRecord) {
  const ids = await attendeeIdsOfOrder(ctx.db, order.id);
  const records = await loadAttendees(ctx.db, ids);
  return presentOrder(ctx, order, await attendeeObjects(ctx, ids, true, records), records);
}

/** The caller may see the order: manage access, the order's key, or its signed-in customer. */
async function ownsOrder(req: RestRequest, ctx: AppContext, order: OrderRecord): Promise<'manage' | 'buyer' | undefined> {
  if (await hasManageAccess(req, ctx)) return 'manage';
  if (keysMatch(req.params.key, order.key)) return 'buyer';
  if (req.user && order.customerUserId > 0 && req.user.id === order.customerUserId) return 'buyer';
  return undefined;
}

/** `POST /orders`: checkout; 201 with the order. */
export async function createOrder(req: RestRequest, ctx: AppContext) {
  const provider = resolveProvider(req.params.provider);
  if (!provider) return TicketErrors.badRequest();
  const quantities = await checkQuantities(ctx, req.has('tickets') ? req.params.tickets : undefined);
  if (quantities) return quantities;
  await expireStaleReservationsNow(ctx);
  const name = req.has('purchaser_name') ? sanitizeTextField(req.params.purchaser_name) : req.user?.displayName ?? '';
  const email = req.has('purchaser_email') ? String(req.params.purchaser_email) : req.user?.email ?? '';
  if (name === '' || email === '') return TicketErrors.missingPurchaser();
  const overLimit = await emailLimitAnswer(req, ctx, email);
  if (overLimit) return overLimit;

  // ---- Lines: the `tickets` sent, else the caller's cart for this provider.
  const cartKey = cartKeyOf(req) ?? '';
  const fromCart = !req.has('tickets');
  let entries: unknown = req.params.tickets;
  let meta = metaByTicket(req.params.meta);
  // The cart's lines as `GET /cart` shows them: a ticket that is gone since is left out, not an error.
  const inCart = fromCart && cartKey ? (await visibleCartLines(ctx, req.user, cartKey, [provider.slug])).lines : [];
  if (fromCart) {
    entries = inCart.map((l) => ({ ticket_id: l.ticketId, quantity: l.quantity, optout: l.optout }));
    if (!req.has('meta')) meta = new Map(inCart.map((l) => [l.ticketId, l.meta]));
  }
  const lines = await checkLines(ctx, req.user, provider, entries, meta);
  if (!Array.isArray(lines)) return lines;
  if (lines.length === 0) return TicketErrors.emptyCart();
  if (new Set(lines.map((l) => l.ticket.currency)).size > 1) return TicketErrors.badRequest(TICKET_MESSAGES.mixedCurrencies);

  let coupon: CouponRecord | undefined;
  if (req.has('coupon') && String(req.params.coupon).trim() !== '') {
    const code = String(req.params.coupon);
    coupon = await getCouponByCode(ctx.db, code);
    const problem = couponProblem(code, coupon, nowGmt(ctx));
    if (problem) return TicketErrors.invalidCoupon(problem);
  }

  // The site decides whether offline payment is offered, not the buyer.
  const offline = await offlinePaymentsEnabled(ctx);
  const gateway = (req.has('gateway') ? req.params.gateway : defaultGatewayName(ctx.config, offline)) as GatewayName;
  if (provider.paid && gateway === 'offline' && !offline) return TicketErrors.gatewayNotAllowed();
  const result = await checkout(ctx, {
    provider,
    lines,
    customer: { name, email, userId: req.user?.id ?? 0 },
    gateway,
    rsvpGoing: req.params.rsvp_going !== false,
    cartKey,
    ...(fromCart ? { fromCart: inCart.filter((l) => lines.some((c) => c.ticket.id === l.ticketId)) } : {}),
    returnUrl: req.has('return_url') ? String(req.params.return_url) : '',
    coupon,
  });
  if (isRestError(result)) return result;
  if (result.placed) {
    // Shown as written, with the tickets already loaded: nothing is read back.
    const { order, attendees } = result.placed;
    const tickets = new Map(lines.map((l) => [l.ticket.id, l.ticket]));
    return respond(presentOrder(ctx, order, await presentAttendees(ctx, attendees, true, tickets), new Map(attendees.map((a) => [a.id, a]))), { status: 201 });
  }
  const order = await getOrder(ctx.db, result.id);
  return respond(await orderView(ctx, order!), { status: 201 });
}

/** `GET /orders/{id}`. */
export async function getOrderHandler(req: RestRequest, ctx: AppContext) {
  let order = await getOrder(ctx.db, req.params.id as number);
  if (!order) return TicketErrors.orderNotFound();
  if (!(await ownsOrder(req, ctx, order))) return TicketErrors.orderNotAccessible(req.user !== null);
  if (order.status === 'pending') {
    await refreshPendingOrder(ctx, order);
    order = (await getOrder(ctx.db, order.id))!;
  }
  return orderView(ctx, order);
}

/** `POST|PUT|PATCH /orders/{id}`: status change. */
export async function updateOrderHandler(req: RestRequest, ctx: AppContext) {
  const order = await getOrder(ctx.db, req.params.id as number);
  if (!order) return TicketErrors.orderNotFound();
  const who = await ownsOrder(req, ctx, order);
  const to = req.params.status as OrderChange;
  if (!who || (who === 'buyer' && !(order.status === 'pending' && to === 'cancelled'))) {
    return TicketErrors.orderNotAccessible(req.user !== null);
  }
  const error = await changeOrderStatus(ctx, order, to);
  if (error) return error;
  return orderView(ctx, (await getOrder(ctx.db, order.id))!);
}

