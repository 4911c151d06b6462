/**
 * @module namespaces/tickets/orders.present
 * An order as `/orders` shows it to its buyer or a manager. The originals have no order route in this
 * namespace, so this shape is this service's own: customer, items, totals, currency, status and
 * dates, and the attendees it produced with what their holders need (security code, QR image URL,
 * check-in link).
 */
import type { AppContext } from '../../app-context.js';
import { ticketsUrl } from './common.js';
import { formatCost } from './money.js';
import type { AttendeeRecord } from './attendees.repo.js';
import type { OrderRecord } from './orders.repo.js';
import { orderUrl } from './orders.service.js';
import { checkinLink } from './qr.service.js';

/** The order object; `attendees` are attendee objects (manage view) of the order, in ID order. */
export function presentOrder(
  ctx: Pick<AppContext, 'urls'>,
  order: OrderRecord,
  attendees: readonly Record<string, unknown>[],
  records: ReadonlyMap<number, AttendeeRecord>,
): Record<string, unknown> {
  return {
    id: order.id,
    key: order.key,
    status: order.status,
    provider: order.provider,
    gateway: order.gateway,
    payment_reference: order.gatewayRef,
    payment_url: order.paymentUrl,
    currency: order.currency,
    quantity: order.quantity,
    subtotal: order.subtotal,
    coupon: order.couponCode || null,
    discount: order.discount,
    total: order.total,
    formatted_total: formatCost(order.total, order.currency),
    customer: { name: order.customerName, email: order.customerEmail, user_id: order.customerUserId },
    items: order.items.map((i) => ({
      ticket_id: i.ticketId,
      post_id: i.postId,
      title: i.ticketTitle,
      quantity: i.quantity,
      unit_price: i.unitPrice,
      total: i.total,
    })),
    attendees: attendees.map((a) => {
      const r = records.get(a.id as number);
      if (!r) return a;
      return {
        ...a,
        security_code: r.securityCode,
        qr_code_url: `${ticketsUrl(ctx, `/attendees/${r.id}/qr`)}?security_code=${r.securityCode}`,
        checkin_url: checkinLink(ctx, r),
      };
    }),
    date: order.post.date,
    date_utc: order.createdGmt,
    modified_utc: order.updatedGmt,
    completed_utc: order.completedGmt,
    refunded_utc: order.refundedGmt,
    cancelled_utc: order.cancelledGmt,
    rest_url: orderUrl(ctx, order),
  };
}
