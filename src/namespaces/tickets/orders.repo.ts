/**
 * @module namespaces/tickets/orders.repo
 * Order and order-item queries. Status changes are conditional UPDATEs on the current status, so an
 * order is completed, refunded or cancelled exactly once even when requests race.
 */
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../storage/db.js';
import { insertParts } from './compiled-rows.js';
import type { NewAttendee } from './attendees.repo.js';
import type { TicketOrderItemsTable, TicketOrdersTable } from '../../storage/tables/tickets.js';
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
  couponId: number;
  couponCode: string;
  discount: number;
  items: OrderItemRecord[];
  post: PostRecord;
}

export interface NewOrder {
  order_key: string;
  provider: ProviderSlug;
  status: OrderStatus;
  gateway: string;
  gateway_ref: string;
  /** Where the buyer pays (a gateway's page), when known at checkout. */
  payment_url?: string;
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
  coupon_id?: number;
  coupon_code?: string;
  discount?: number;
}

/**
 * Writes an order's row, its items and the detail rows of its attendees (whose posts exist): one
 * statement on PostgreSQL for all but the largest orders ({@link insertParts}).
 */
export async function insertOrderRows(db: Db, orderId: number, order: NewOrder, items: readonly OrderItemRecord[], attendees: readonly (NewAttendee & { attendee_id: number })[]): Promise<void> {
  const row = { order_id: orderId, ...order, updated_gmt: order.created_gmt, completed_gmt: order.status === 'completed' ? order.created_gmt : '' };
  const itemRows = items.map((i) => ({
    order_id: orderId,
    ticket_id: i.ticketId,
    post_id: i.postId,
    ticket_title: i.ticketTitle,
    quantity: i.quantity,
    unit_price: i.unitPrice,
    total: i.total,
  }));
  await insertParts(db, [
    { table: 'ticket_orders', rows: [row] },
    { table: 'ticket_order_items', rows: itemRows, whole: true },
    { table: 'ticket_attendees', rows: attendees },
  ]);
}

type OrderRow = Selectable<TicketOrdersTable>;
type ItemRow = Selectable<TicketOrderItemsTable>;

function orderOf(row: OrderRow, items: readonly ItemRow[]): Omit<OrderRecord, 'post'> {
  return {
    id: Number(row.order_id),
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
    couponId: Number(row.coupon_id),
    couponCode: row.coupon_code,
    discount: Number(row.discount),
    items: items.map((i) => ({
      ticketId: Number(i.ticket_id),
      postId: Number(i.post_id),
      ticketTitle: i.ticket_title,
      quantity: Number(i.quantity),
      unitPrice: Number(i.unit_price),
      total: Number(i.total),
    })),
  };
}

/** One order with its items and post row, or undefined. */
export async function getOrder(db: Db, id: number): Promise<OrderRecord | undefined> {
  const row = await db.selectFrom('ticket_orders').selectAll().where('order_id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const post = await getPost(db, id);
  if (!post) return undefined;
  const items = await db.selectFrom('ticket_order_items').selectAll().where('order_id', '=', id).orderBy('id').execute();
  return { ...orderOf(row, items), post };
}

/**
 * A page of orders in ID order after `afterId` (created at or after `createdFromGmt` when given),
 * with their items: two queries per page, for readers that walk every order (reports rebuilds).
 */
export async function listOrders(db: Db, page: { afterId: number; limit: number; createdFromGmt?: string }): Promise<Omit<OrderRecord, 'post'>[]> {
  let q = db.selectFrom('ticket_orders').selectAll().where('order_id', '>', page.afterId);
  if (page.createdFromGmt) q = q.where('created_gmt', '>=', page.createdFromGmt);
  return withItems(db, await q.orderBy('order_id').limit(page.limit).execute());
}

/** The orders of `ids` that exist, in ID order, with their items (without post rows): two queries. */
export async function ordersByIds(db: Db, ids: readonly number[]): Promise<Omit<OrderRecord, 'post'>[]> {
  if (ids.length === 0) return [];
  return withItems(db, await db.selectFrom('ticket_orders').selectAll().where('order_id', 'in', [...ids]).orderBy('order_id').execute());
}

async function withItems(db: Db, rows: readonly OrderRow[]): Promise<Omit<OrderRecord, 'post'>[]> {
  if (rows.length === 0) return [];
  const items = await db.selectFrom('ticket_order_items').selectAll().where('order_id', 'in', rows.map((r) => r.order_id)).orderBy('id').execute();
  const byOrder = new Map<number, ItemRow[]>();
  for (const i of items) byOrder.set(Number(i.order_id), [...(byOrder.get(Number(i.order_id)) ?? []), i]);
  return rows.map((r) => orderOf(r, byOrder.get(Number(r.order_id)) ?? []));
}

/** How many orders, and distinct purchasers (users by ID, guests by e-mail), were created at or after `createdFromGmt` (all without it). */
export async function countOrders(db: Db, createdFromGmt?: string): Promise<{ orders: number; customers: number }> {
  let q = db
    .selectFrom('ticket_orders')
    .select((eb) => [
      eb.fn.countAll<number>().as('orders'),
      sql<number>`count(DISTINCT CASE WHEN customer_user_id > 0 THEN CAST(customer_user_id AS varchar(20)) ELSE '@' || lower(customer_email) END)`.as('customers'),
    ]);
  if (createdFromGmt) q = q.where('created_gmt', '>=', createdFromGmt);
  const row = await q.executeTakeFirstOrThrow();
  return { orders: Number(row.orders), customers: Number(row.customers) };
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
