/**
 * @module namespaces/tickets/orders.repo
 * Order and order-item queries. Status changes are conditional UPDATEs on the current status, so an
 * order is completed, refunded or cancelled exactly once even when requests race.
 */
import type { Db } from '../../storage/db.js';
import { getPost, type PostRecord } from '../../content/posts.js';
import type { ProviderSlug } from './providers.js';

export type OrderStatus = 'pending' | 'completed' | 'refunded' | 'cancelled';

export interface OrderItemRecord {
  ticketId: number;
  postId: number;
  ticketTitle: string;
  quantity: number;
  unitPrice: number;
  total: number;
}

export interface OrderRecord {
  id: number;
  key: string;
  provider: ProviderSlug;
  status: OrderStatus;
  gateway: string;
  gatewayRef: string;
  paymentUrl: string;
  currency: string;
  quantity: number;
  subtotal: number;
  total: number;
  customerName: string;
  customerEmail: string;
  customerUserId: number;
  cartKey: string;
  createdGmt: string;
  updatedGmt: string;
  completedGmt: string;
  refundedGmt: string;
  cancelledGmt: string;
  items: OrderItemRecord[];
  post: PostRecord;
}

export interface NewOrder {
  order_key: string;
  provider: ProviderSlug;
  status: OrderStatus;
  gateway: string;
  gateway_ref: string;
  currency: string;
  quantity: number;
  subtotal: number;
  total: number;
  customer_name: string;
  customer_email: string;
  customer_user_id: number;
  cart_key: string;
  created_gmt: string;
  /** 1 when paid through a gateway in test mode. */
  test_mode?: number;
}

export async function insertOrderDetails(db: Db, orderId: number, order: NewOrder, items: readonly OrderItemRecord[]): Promise<void> {
  await db
    .insertInto('ticket_orders')
    .values({ order_id: orderId, ...order, updated_gmt: order.created_gmt, completed_gmt: order.status === 'completed' ? order.created_gmt : '' })
    .execute();
  if (items.length === 0) return;
  await db
    .insertInto('ticket_order_items')
    .values(items.map((i) => ({
      order_id: orderId,
      ticket_id: i.ticketId,
      post_id: i.postId,
      ticket_title: i.ticketTitle,
      quantity: i.quantity,
      unit_price: i.unitPrice,
      total: i.total,
    })))
    .execute();
}

/** One order with its items and post row, or undefined. */
export async function getOrder(db: Db, id: number): Promise<OrderRecord | undefined> {
  const row = await db.selectFrom('ticket_orders').selectAll().where('order_id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const post = await getPost(db, id);
  if (!post) return undefined;
  const items = await db.selectFrom('ticket_order_items').selectAll().where('order_id', '=', id).orderBy('id').execute();
  return {
    id,
    key: row.order_key,
    provider: row.provider as ProviderSlug,
    status: row.status as OrderStatus,
    gateway: row.gateway,
    gatewayRef: row.gateway_ref,
    paymentUrl: row.payment_url,
    currency: row.currency,
    quantity: Number(row.quantity),
    subtotal: Number(row.subtotal),
    total: Number(row.total),
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    customerUserId: Number(row.customer_user_id),
    cartKey: row.cart_key,
    createdGmt: row.created_gmt,
    updatedGmt: row.updated_gmt,
    completedGmt: row.completed_gmt,
    refundedGmt: row.refunded_gmt,
    cancelledGmt: row.cancelled_gmt,
    items: items.map((i) => ({
      ticketId: Number(i.ticket_id),
      postId: Number(i.post_id),
      ticketTitle: i.ticket_title,
      quantity: Number(i.quantity),
      unitPrice: Number(i.unit_price),
      total: Number(i.total),
    })),
    post,
  };
}

/** Records the gateway's payment reference and payment page. */
export async function setOrderPayment(db: Db, orderId: number, ref: string, paymentUrl: string, nowGmt: string): Promise<void> {
  await db.updateTable('ticket_orders').set({ gateway_ref: ref, payment_url: paymentUrl, updated_gmt: nowGmt }).where('order_id', '=', orderId).execute();
}

const STAMP: Record<OrderStatus, 'completed_gmt' | 'refunded_gmt' | 'cancelled_gmt' | undefined> = {
  pending: undefined,
  completed: 'completed_gmt',
  refunded: 'refunded_gmt',
  cancelled: 'cancelled_gmt',
};

/**
 * Moves an order from `from` to `to`; true when this call made the change (one conditional UPDATE,
 * so of racing calls exactly one wins).
 */
export async function transitionOrder(db: Db, orderId: number, from: OrderStatus, to: OrderStatus, nowGmt: string): Promise<boolean> {
  const stamp = STAMP[to];
  const res = await db
    .updateTable('ticket_orders')
    .set({ status: to, updated_gmt: nowGmt, ...(stamp ? { [stamp]: nowGmt } : {}) })
    .where('order_id', '=', orderId)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
