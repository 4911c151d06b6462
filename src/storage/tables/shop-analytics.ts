/**
 * @module storage/tables/shop-analytics
 * The shop analytics tables (migration 2026-11-23T1700): a customer lookup (one row per registered
 * customer or guest e-mail) with its aggregates over the counted orders, and per-order stats,
 * product and coupon lookups, all derived from the ticketing orders. Dates `date_*` are site-local,
 * `*_gmt` UTC, text `YYYY-MM-DD HH:MM:SS`.
 */
import type { Generated } from 'kysely';

export interface ShopCustomerLookupTable {
  customer_id: Generated<number>;
  /** The user's ID; null for guests. */
  user_id: number | null;
  /** Lower-cased e-mail of a guest (the guest's key); null for registered customers. */
  guest_email: string | null;
  /** Name and e-mail from the customer's latest order (registered customers show their profile's). */
  name: string;
  email: string;
  country: Generated<string>;
  city: Generated<string>;
  state: Generated<string>;
  postcode: Generated<string>;
  /** Registration moment (registered customers only). */
  date_registered_gmt: string | null;
  date_last_active_gmt: string | null;
  /** Aggregates over the customer's counted orders (statuses not excluded from analytics). */
  orders_count: Generated<number>;
  total_spend: Generated<number>;
  date_last_order: string | null;
}

/** One order (`is_refund` 0) or the refund of one (`is_refund` 1, negative amounts). */
export interface ShopOrderStatsTable {
  order_id: number;
  is_refund: number;
  customer_id: number;
  /** `pending`, `completed`, `refunded`, `cancelled`. */
  status: string;
  /** Lifecycle rank of `status` (pending 0, completed 1, refunded/cancelled 2): a late writer never moves a row back. */
  status_rank: number;
  date_created: string;
  date_created_gmt: string;
  date_paid: string | null;
  date_completed: string | null;
  num_items_sold: number;
  total_sales: number;
  net_total: number;
  discount_amount: number;
  currency: string;
}

/** One ticket line of an order. */
export interface ShopOrderProductLookupTable {
  order_id: number;
  ticket_id: number;
  /** The event (post) the ticket is for. */
  event_id: number;
  customer_id: number;
  quantity: number;
  net_revenue: number;
  date_created: string;
}

/** A coupon applied to an order. */
export interface ShopOrderCouponLookupTable {
  order_id: number;
  coupon_id: number;
  coupon_code: string;
  discount_amount: number;
  date_created: string;
}

/** An order due an analytics sync (migration 2026-11-24T0400): written with the order change, deleted by the sync. */
export interface ShopOrderSyncQueueTable {
  id: Generated<number>;
  order_id: number;
}

export interface ShopAnalyticsTables {
  shop_customer_lookup: ShopCustomerLookupTable;
  shop_order_sync_queue: ShopOrderSyncQueueTable;
  shop_order_stats: ShopOrderStatsTable;
  shop_order_product_lookup: ShopOrderProductLookupTable;
  shop_order_coupon_lookup: ShopOrderCouponLookupTable;
}
