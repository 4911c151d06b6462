/**
 * @module namespaces/tickets/orders.service
 * Checkout and the order lifecycle. A checkout writes the order, its items and its attendees, then
 * reserves every seat with one conditional UPDATE per row (tickets in ID order, then shared
 * capacity; on PostgreSQL sent with the COMMIT when nothing follows them), all in one transaction,
 * and only then talks to a payment gateway that calls out, outside the transaction. Orders go `pending` → `completed`, `refunded` or `cancelled`; each change is one
 * conditional UPDATE on the current status, and seats go back to sale when an order is cancelled or
 * refunded.
 */
import type { AppContext } from '../../app-context.js';
import type { PostRecord } from '../../content/posts.js';
import type { RestError } from '../../rest/errors.js';
import { PAYMENTS_TEST_MODE_OPTION } from './common.js';
import { PaymentGatewayError, paymentGateway, type GatewayName, type PaymentResult } from '../../remote/payment-gateway.js';
import { attendeeIdsOfOrder, parseInformation, setOrderAttendeesStatus, touchAttendees, type AttendeeRecord, type NewAttendee } from './attendees.repo.js';
import { claimCartLines, restoreCartLines, type CartLine } from './cart.repo.js';
import { newSecurityCode } from './attendees.service.js';
import { gmtText, nowGmt, nowPair, randomHex, ticketsUrl } from './common.js';
import { TicketErrors } from './errors.js';
import { lineTotal, priceValue, sumAmounts } from './money.js';
import { getOrder, insertOrderRows, setOrderPayment, transitionOrder, type OrderRecord, type OrderStatus } from './orders.repo.js';
import { insertPostRecords } from './posts.repo.js';
import type { TicketProvider } from './providers.js';
import { reservationMinutes } from './settings.js';
import { queueOrderTickets } from './ticket-email.js';
import { claimCoupon, CouponError, discountOf, releaseCoupon, type CouponRecord } from './coupons.repo.js';
import { notifyOrderChanged, recordOrderChange } from './extensions.js';
import type { TicketRecord } from './tickets.repo.js';
import { releaseSeats, reserveSeats, reserveSeatsAndCommit, settlePendingSeats, SoldOutError } from './seats.repo.js';
import { crashPoint } from '../../storage/crash-point.js';

export interface CheckoutLine {
  ticket: TicketRecord;
  quantity: number;
  optout: boolean;
  /** Registration answers, one object per attendee (may be shorter than `quantity`). */
  meta: readonly Record<string, unknown>[];
  /** Cart extras kept on the line (individual attendee collection mode, provider extras). */
  iac?: string;
  extra?: Record<string, unknown>;
}

export interface CheckoutInput {
  provider: TicketProvider;
  lines: readonly CheckoutLine[];
  customer: { name: string; email: string; userId: number };
  /** Paid providers: how the order is paid. */
  gateway: GatewayName;
  /** RSVP: the guests are going (`yes`) or not (`no`). */
  rsvpGoing: boolean;
  cartKey: string;
  /**
   * The cart lines being checked out, when the order comes from the cart: they are taken out of it in
   * the order's transaction (so two checkouts of one cart make one order) and put back when the
   * payment then fails.
   */
  fromCart?: readonly CartLine[];
  /** Where a remote gateway sends the buyer back. */
  returnUrl: string;
  /** A coupon to apply (checked by the caller; its use is claimed with the seats). */
  coupon?: CouponRecord;
}

const NAME_KEYS = ['full_name', 'name', 'holder_name'];
const EMAIL_KEYS = ['email', 'holder_email'];

function pick(meta: Record<string, unknown> | undefined, keys: readonly string[]): string {
  for (const k of keys) {
    const v = meta?.[k];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return '';
}

/** The holder of seat `i` of a line: registration answers first, the purchaser otherwise. */
function holderOf(line: CheckoutLine, i: number, customer: CheckoutInput['customer']) {
  const meta = line.meta[i];
  return {
    name: pick(meta, NAME_KEYS) || customer.name,
    email: pick(meta, EMAIL_KEYS) || customer.email,
    information: meta ?? {},
  };
}

/** An order as checkout wrote it, with its attendees: what a read right after would find. */
export interface PlacedOrder {
  order: OrderRecord;
  attendees: AttendeeRecord[];
}

/** What checkout made: the order's ID and, unless a gateway changed it afterwards, the order as written. */
export interface CheckoutResult {
  id: number;
  placed?: PlacedOrder;
}

/** Thrown inside checkout's transaction when the cart's lines changed since they were read (a concurrent checkout or cart write). */
class CartTakenError extends Error {}

/** True when `n` has no more than cents, so a `numeric(14, 2)` column gives it back unchanged. */
function cents(n: number): boolean {
  return Math.round(n * 100) / 100 === n;
}

/**
 * Turns lines into an order. Returns the order (its ID and, when nothing changed it after the
 * transaction, the rows as written), or an error: `ticket-capacity-not-available` (409) when any line
 * no longer fits (nothing is written then), `payment-gateway-unavailable` (503),
 * `payment-gateway-error` (502) or `payment-failed` (402) — the last two cancel the order and give
 * its seats back.
 */
export async function checkout(ctx: AppContext, input: CheckoutInput): Promise<CheckoutResult | RestError> {
  const { provider } = input;
  const gateway = provider.paid ? paymentGateway(input.gateway, ctx.config) : undefined;
  if (provider.paid && !gateway) return TicketErrors.gatewayUnavailable();
  const lines = [...input.lines].sort((a, b) => a.ticket.id - b.ticket.id);
  const currency = lines[0]!.ticket.currency;
  const items = lines.map((l) => {
    const unit = provider.paid ? priceValue(l.ticket.price) : 0;
    return { ticketId: l.ticket.id, postId: l.ticket.postId, ticketTitle: l.ticket.post.title, quantity: l.quantity, unitPrice: unit, total: lineTotal(unit, l.quantity) };
  });
  const subtotal = sumAmounts(items.map((i) => i.total));
  const discount = input.coupon ? discountOf(input.coupon, subtotal) : 0;
  const total = sumAmounts([subtotal, -discount]);
  const quantity = lines.reduce((n, l) => n + l.quantity, 0);
  // Free RSVPs are settled at checkout; paid orders start pending (offline ones until a manager marks them paid).
  const settled = !gateway || gateway.settlesAtCheckout;
  // A gateway that makes no call out (settling or offline) is asked inside the transaction.
  const paysInside = gateway !== undefined && (settled || gateway.callsOut === false);
  const attendeeStatus = provider.paid ? (settled ? 'completed' : 'pending') : input.rsvpGoing ? 'yes' : 'no';
  const holdsSeats = provider.paid || input.rsvpGoing;
  const now = await nowPair(ctx);
  const key = randomHex(16);
  const paymentRequest = (orderId: number) => ({
    orderId,
    reference: key,
    amount: total,
    currency,
    description: items.map((i) => `${i.quantity} × ${i.ticketTitle}`).join(', '),
    customer: { name: input.customer.name, email: input.customer.email },
    returnUrl: input.returnUrl || orderUrl(ctx, { id: orderId, key }),
  });

  const testMode = (await ctx.options.get<string>(PAYMENTS_TEST_MODE_OPTION, 'no')) === 'yes';

  // ---- Write the order and reserve its seats, all or nothing. The seats are reserved last: on
  // PostgreSQL the reservation's row lock on each ticket is held until the commit, so every statement
  // after it would keep the checkouts of that ticket waiting. Nothing is charged before the seats are
  // held: a gateway asked inside the transaction before them makes no call out.
  let written: PlacedOrder & { payment: PaymentResult | undefined };
  try {
    written = await ctx.db.transaction().execute(async (trx) => {
      if (input.fromCart && !(await claimCartLines(trx, input.cartKey, input.fromCart))) throw new CartTakenError();
      // The order's post and its attendees' posts in one statement, the order's first.
      const seats = lines.flatMap((l) => Array.from({ length: l.quantity }, (_, i) => ({ line: l, holder: holderOf(l, i, input.customer) })));
      const inserted = await insertPostRecords(trx, [
        { type: provider.orderType, status: 'publish', title: `Order for ${input.customer.name}`.trim(), author: input.customer.userId, when: now },
        ...seats.map(({ holder }) => ({ type: provider.attendeeType, status: 'publish', title: holder.name, author: input.customer.userId, when: now })),
      ]);
      const post = inserted[0]!;
      const attendeePosts = inserted.slice(1);
      const id = post.id;
      const paysBeforeSeats = paysInside && gateway.callsOut === false;
      let payment = paysBeforeSeats ? await gateway.createPayment(paymentRequest(id)) : undefined;
      const status: OrderStatus = settled ? 'completed' : 'pending';
      const details = {
        order_key: key,
        provider: provider.slug,
        status,
        gateway: gateway ? gateway.id : 'free',
        gateway_ref: payment?.ref ?? '',
        payment_url: payment?.redirectUrl ?? '',
        currency,
        quantity,
        subtotal,
        total,
        coupon_id: input.coupon?.id ?? 0,
        coupon_code: input.coupon?.code ?? '',
        discount,
        customer_name: input.customer.name,
        customer_email: input.customer.email,
        customer_user_id: input.customer.userId,
        cart_key: input.cartKey,
        created_gmt: now.gmt,
        test_mode: gateway?.id === 'remote' && testMode ? 1 : 0,
      };
      const attendeeRows = seats.map(({ line: l, holder }, i) => ({
        attendee_id: attendeePosts[i]!.id,
        ticket_id: l.ticket.id,
        post_id: l.ticket.postId,
        provider: provider.slug,
        order_id: id,
        order_status: attendeeStatus,
        holder_name: holder.name,
        holder_email: holder.email,
        purchaser_name: input.customer.name,
        purchaser_email: input.customer.email,
        user_id: input.customer.userId,
        optout: l.optout ? 1 : 0,
        security_code: newSecurityCode(),
        price: provider.paid ? priceValue(l.ticket.price) : 0,
        currency,
        information: JSON.stringify(holder.information),
        source: 'checkout',
      }));
      await insertOrderRows(trx, id, details, items, attendeeRows);
      await crashPoint('checkout.order-written');
      const attendees = attendeeRows.map((values, i) => newAttendeeRecord(attendeePosts[i]!, values, post.date));
      // The tickets e-mail of a settled order is queued with it (sent by the jobs runner, retried).
      if (holdsSeats && settled) await queueOrderTickets(ctx, id, trx);
      await recordOrderChange(ctx, trx, { orderId: id, from: null, to: status });
      const reservations = holdsSeats ? lines.map((l) => ({ ticketId: l.ticket.id, quantity: l.quantity, pending: !settled })) : [];
      // Without a coupon to claim or a payment to take after them, the seats are the transaction's
      // last writes and go with its COMMIT (one round trip on PostgreSQL), below.
      const seatsLast = !input.coupon && !(paysInside && !paysBeforeSeats);
      if (!seatsLast) await reserveSeats(trx, reservations);
      if (input.coupon) await claimCoupon(trx, input.coupon, now.gmt);
      if (paysInside && !paysBeforeSeats) {
        payment = await gateway.createPayment(paymentRequest(id));
        await setOrderPayment(trx, id, payment.ref, payment.redirectUrl, now.gmt);
        details.gateway_ref = payment.ref;
        details.payment_url = payment.redirectUrl;
      }
      const order: OrderRecord = {
        id,
        key,
        provider: provider.slug,
        status,
        gateway: details.gateway,
        gatewayRef: details.gateway_ref,
        paymentUrl: details.payment_url,
        currency,
        quantity,
        subtotal,
        total,
        customerName: details.customer_name,
        customerEmail: details.customer_email,
        customerUserId: details.customer_user_id,
        cartKey: details.cart_key,
        createdGmt: now.gmt,
        updatedGmt: now.gmt,
        completedGmt: status === 'completed' ? now.gmt : '',
        refundedGmt: '',
        cancelledGmt: '',
        couponId: details.coupon_id,
        couponCode: details.coupon_code,
        discount,
        items,
        post,
      };
      if (seatsLast) await reserveSeatsAndCommit(trx, reservations);
      return { order, attendees, payment };
    });
  } catch (e) {
    if (e instanceof SoldOutError) {
      const t = lines.find((l) => l.ticket.id === e.ticketId)?.ticket;
      return TicketErrors.ticketCapacityNotAvailable(t?.post.title ?? String(e.ticketId), e.ticketId);
    }
    if (e instanceof CouponError) return TicketErrors.invalidCoupon(e.message);
    if (e instanceof CartTakenError) return TicketErrors.cartChanged();
    throw e;
  }
  /** The payment failed after the order was written: the cart's lines go back for another try. */
  const failed = async (error: RestError) => {
    if (input.fromCart) await restoreCartLines(ctx.db, input.cartKey, input.fromCart, nowGmt(ctx));
    return error;
  };
  const orderId = written.order.id;
  // Amounts with more than cents come back rounded from some engines: those orders are read back.
  const exact = [subtotal, total, discount, ...items.flatMap((i) => [i.unitPrice, i.total]), ...written.attendees.map((a) => a.price)].every(cents);
  const placed = exact ? { order: written.order, attendees: written.attendees } : undefined;
  await notifyOrderChanged(ctx, { orderId, from: null, to: settled ? 'completed' : 'pending', ...(placed ? { order: placed.order } : {}) });

  if (!gateway || settled) return { id: orderId, ...(placed ? { placed } : {}) };
  if (written.payment) {
    const outcome = await applyPaymentStatus(ctx, orderId, 'pending', written.payment);
    if (outcome === 'cancelled') return failed(TicketErrors.paymentFailed());
    return { id: orderId, ...(placed && outcome === 'pending' ? { placed } : {}) };
  }

  // ---- Payment, outside the transaction.
  let result: PaymentResult;
  try {
    result = await gateway.createPayment(paymentRequest(orderId));
  } catch (e) {
    await closeOrder(ctx, orderId, 'pending', 'cancelled');
    if (e instanceof PaymentGatewayError) return failed(TicketErrors.gatewayError(e.message));
    throw e;
  }
  await setOrderPayment(ctx.db, orderId, result.ref, result.redirectUrl, nowGmt(ctx));
  const outcome = await applyPaymentStatus(ctx, orderId, 'pending', result);
  if (outcome === 'cancelled') return failed(TicketErrors.paymentFailed());
  return { id: orderId };
}

/** The attendee record of a row checkout just inserted (defaults as the table gives them). */
function newAttendeeRecord(post: PostRecord, v: NewAttendee & { order_id: number }, orderDate: string): AttendeeRecord {
  return {
    id: post.id,
    ticketId: v.ticket_id,
    postId: v.post_id,
    provider: v.provider,
    orderId: v.order_id,
    orderStatus: v.order_status,
    holderName: v.holder_name,
    holderEmail: v.holder_email,
    purchaserName: v.purchaser_name,
    purchaserEmail: v.purchaser_email,
    userId: v.user_id,
    optout: v.optout === 1,
    securityCode: v.security_code,
    price: v.price,
    currency: v.currency,
    checkedIn: false,
    checkinLocal: '',
    checkinGmt: '',
    checkinSource: '',
    checkinAuthor: 0,
    qrStatus: false,
    information: parseInformation(v.information),
    source: v.source,
    post,
    orderDate,
  };
}

/** Moves a pending order along what the gateway reports. Returns the order's status afterwards. */
async function applyPaymentStatus(ctx: AppContext, orderId: number, current: OrderStatus, result: PaymentResult): Promise<OrderStatus> {
  if (current !== 'pending') return current;
  if (result.status === 'succeeded') return (await completeOrder(ctx, orderId)) ? 'completed' : current;
  if (result.status === 'pending') return current;
  return (await closeOrder(ctx, orderId, 'pending', 'cancelled')) ? 'cancelled' : current;
}

/** pending → completed: pending seats become sales, attendees become `completed`, tickets are e-mailed. */
export async function completeOrder(ctx: AppContext, orderId: number): Promise<boolean> {
  const order = await getOrder(ctx.db, orderId);
  if (!order) return false;
  const now = await nowPair(ctx);
  const won = await ctx.db.transaction().execute(async (trx) => {
    if (!(await transitionOrder(trx, orderId, 'pending', 'completed', now.gmt))) return false;
    for (const item of order.items) await settlePendingSeats(trx, item.ticketId, item.quantity);
    await setOrderAttendeesStatus(trx, orderId, 'completed');
    await touchAttendees(trx, await attendeeIdsOfOrder(trx, orderId), now);
    await queueOrderTickets(ctx, orderId, trx);
    await recordOrderChange(ctx, trx, { orderId, from: 'pending', to: 'completed' });
    return true;
  });
  if (won) await notifyOrderChanged(ctx, { orderId, from: 'pending', to: 'completed' });
  return won;
}

/** `from` → `cancelled`/`refunded`: the order's seats go back on sale and its attendees follow. */
async function closeOrder(ctx: AppContext, orderId: number, from: OrderStatus, to: 'cancelled' | 'refunded'): Promise<boolean> {
  const order = await getOrder(ctx.db, orderId);
  if (!order) return false;
  const now = await nowPair(ctx);
  const won = await ctx.db.transaction().execute(async (trx) => {
    if (!(await transitionOrder(trx, orderId, from, to, now.gmt))) return false;
    const seatsHeld = order.provider !== 'rsvp' || (await trx.selectFrom('ticket_attendees').select('order_status').where('order_id', '=', orderId).executeTakeFirst())?.order_status === 'yes';
    if (seatsHeld) {
      await releaseSeats(trx, order.items.map((item) => ({ ticketId: item.ticketId, quantity: item.quantity, wasPending: from === 'pending' })));
    }
    if (to === 'cancelled' && order.couponId > 0) await releaseCoupon(trx, order.couponId);
    await setOrderAttendeesStatus(trx, orderId, order.provider === 'rsvp' ? 'no' : to);
    await touchAttendees(trx, await attendeeIdsOfOrder(trx, orderId), now);
    await recordOrderChange(ctx, trx, { orderId, from, to });
    return true;
  });
  if (won) await notifyOrderChanged(ctx, { orderId, from, to });
  return won;
}

/** Cancels an order whatever it was (seats back on sale, attendees follow); false when it was already closed. */
export async function cancelOrder(ctx: AppContext, orderId: number): Promise<boolean> {
  const order = await getOrder(ctx.db, orderId);
  if (!order || (order.status !== 'pending' && order.status !== 'completed')) return false;
  return closeOrder(ctx, orderId, order.status, 'cancelled');
}

/** Status changes a client may ask for. */
export type OrderChange = 'completed' | 'refunded' | 'cancelled';

/**
 * Applies a requested status change: pending → completed (payment confirmed outside the gateway) or
 * cancelled; completed → refunded, or cancelled when nothing was charged online (offline and free
 * orders). Remote payments are refunded or cancelled at the gateway first; if that fails nothing
 * changes. Refused changes answer 409 `order-invalid-transition`.
 */
export async function changeOrderStatus(ctx: AppContext, order: OrderRecord, to: OrderChange): Promise<RestError | undefined> {
  const from = order.status;
  const remote = order.gateway === 'remote';
  const allowed =
    (from === 'pending' && (to === 'completed' || to === 'cancelled')) ||
    (from === 'completed' && ((to === 'refunded' && order.gateway !== 'free') || (to === 'cancelled' && !remote)));
  if (!allowed) return TicketErrors.invalidTransition(from, to);
  if (remote && to !== 'completed' && order.gatewayRef) {
    const gateway = paymentGateway('remote', ctx.config);
    if (!gateway) return TicketErrors.gatewayUnavailable();
    try {
      await (to === 'refunded' ? gateway.refund(order.gatewayRef, order.total) : gateway.cancel(order.gatewayRef));
    } catch (e) {
      if (e instanceof PaymentGatewayError) return TicketErrors.gatewayError(e.message);
      throw e;
    }
  }
  const done = to === 'completed' ? await completeOrder(ctx, order.id) : await closeOrder(ctx, order.id, from, to);
  return done ? undefined : TicketErrors.invalidTransition(from, to);
}

/** Asks the gateway about a pending remote order and applies the answer. */
export async function refreshPendingOrder(ctx: AppContext, order: OrderRecord): Promise<void> {
  if (order.status !== 'pending' || order.gateway !== 'remote' || !order.gatewayRef) return;
  const gateway = paymentGateway('remote', ctx.config);
  if (!gateway) return;
  try {
    await applyPaymentStatus(ctx, order.id, order.status, await gateway.getPayment(order.gatewayRef));
  } catch (e) {
    if (!(e instanceof PaymentGatewayError)) throw e;
    ctx.log.warn({ err: e, order: order.id }, 'could not refresh a pending payment');
  }
}

/**
 * Cancels orders still pending `minutes` after checkout (asking the gateway first, so payments that
 * did go through complete instead), giving their seats back. For a periodic job; returns how many
 * orders were cancelled.
 */
export async function cancelStalePendingOrders(ctx: AppContext, minutes: number): Promise<number> {
  const cutoff = gmtText(new Date(ctx.now().getTime() - minutes * 60_000));
  const rows = await ctx.db.selectFrom('ticket_orders').select('order_id').where('status', '=', 'pending').where('created_gmt', '<=', cutoff).execute();
  let cancelled = 0;
  for (const row of rows) {
    const order = await getOrder(ctx.db, Number(row.order_id));
    if (!order) continue;
    await refreshPendingOrder(ctx, order);
    const current = await getOrder(ctx.db, order.id);
    if (current?.status === 'pending' && !(await changeOrderStatus(ctx, current, 'cancelled'))) cancelled++;
  }
  return cancelled;
}

const lastExpiry = new WeakMap<AppContext, { at: number; running?: Promise<number> }>();

/**
 * Cancels the orders pending for longer than the reservation setting (default 15 minutes), giving
 * their seats back; returns how many. The jobs runner schedules this; until it does, checkout and
 * ticket reads call {@link expireStaleReservationsNow} so seats never stay held forever.
 */
export async function expireStaleReservations(ctx: AppContext): Promise<number> {
  return cancelStalePendingOrders(ctx, await reservationMinutes(ctx));
}

/** {@link expireStaleReservations} at read time: at most once every few seconds per process, one at a time. */
export async function expireStaleReservationsNow(ctx: AppContext): Promise<void> {
  const now = ctx.now().getTime();
  const last = lastExpiry.get(ctx);
  if (last?.running) {
    await last.running;
    return;
  }
  if (last && now - last.at >= 0 && now - last.at < 5_000) return;
  const running = expireStaleReservations(ctx);
  lastExpiry.set(ctx, { at: now, running });
  try {
    await running;
  } finally {
    lastExpiry.set(ctx, { at: now });
  }
}

/** The URL of an order for its buyer (the key proves ownership). */
export function orderUrl(ctx: Pick<AppContext, 'urls'>, order: Pick<OrderRecord, 'id' | 'key'>): string {
  return `${ticketsUrl(ctx, `/orders/${order.id}`)}?key=${order.key}`;
}
