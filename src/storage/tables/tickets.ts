/**
 * @module storage/tables/tickets
 * Tables of the ticketing area. Tickets, attendees and orders are posts (one ID sequence with every
 * other kind); each has a typed detail table keyed by its post ID. Money is `numeric(14,2)`, dates are
 * text `YYYY-MM-DD HH:MM:SS` (`*_local` in the site's time zone, `*_gmt` in UTC, `''` when unset),
 * booleans are 0/1.
 */
import type { Generated } from 'kysely';

/** One ticket (posts.type `tribe_rsvp_tickets` or `tribe_tpp_tickets`). */
export interface TicketDetailsTable {
  ticket_id: number;
  /** The post (usually an event) the ticket is sold for. */
  post_id: number;
  /** `rsvp` or `tribe-commerce`. */
  provider: string;
  /** `default` unless a special ticket type. */
  type: string;
  /** Raw price as entered (`"12"`, `"12.50"`); `"0"` for free tickets. */
  price: string;
  currency: string;
  show_description: number;
  start_local: string;
  start_gmt: string;
  end_local: string;
  end_gmt: string;
  sku: string;
  /** Individual attendee collection mode (`none`, `allowed`, `required`). */
  iac: string;
  /**
   * The ticket's own seat limit, checked by the reservation UPDATE: -1 = no own limit (unlimited or
   * `global` mode, where only the shared row limits).
   */
  capacity: number;
  /** `own`, `global`, `capped` or `''` (unlimited). */
  capacity_mode: string;
  /** Seats taken: completed plus pending. */
  sold: number;
  /** Seats held by pending orders (a subset of `sold`). */
  pending: number;
}

/** The capacity an event's `global`/`capped` tickets share. */
export interface TicketSharedCapacityTable {
  post_id: number;
  capacity: number;
  sold: number;
}

/** One attendee (posts.type `tribe_rsvp_attendees` or `tribe_tpp_attendees`). */
export interface TicketAttendeesTable {
  attendee_id: number;
  ticket_id: number;
  post_id: number;
  provider: string;
  /** The order that produced the attendee; null for attendees added by hand. */
  order_id: number | null;
  /** RSVP: `yes`/`no`; paid: the order status (`completed`, `pending`, `refunded`, `cancelled`). */
  order_status: string;
  holder_name: string;
  holder_email: string;
  purchaser_name: string;
  purchaser_email: string;
  user_id: number;
  optout: number;
  security_code: string;
  /** Price paid for this seat. */
  price: number;
  currency: string;
  checked_in: Generated<number>;
  checkin_local: Generated<string>;
  checkin_gmt: Generated<string>;
  /** `site` or `app`. */
  checkin_source: Generated<string>;
  checkin_author: Generated<number>;
  /** Set by QR (app) check-ins. */
  qr_status: Generated<number>;
  /** Attendee registration answers (JSON object). */
  information: string;
  /** `rest-api`, `checkout`, ... */
  source: string;
}

/**
 * Attendee rows per event and ticket: the sum of `n` over a (post_id, ticket_id) is the number of
 * `ticket_attendees` rows with them. Kept by triggers; on PostgreSQL as delta rows (`settled` 0)
 * until settled (`attendee-counts.repo`). The manager attendee list reads its total from it.
 */
export interface TicketAttendeeCountsTable {
  post_id: number;
  ticket_id: number;
  n: number;
  /** 1: the count so far; 0: a delta (+1 or -1) not yet settled. */
  settled: Generated<number>;
}

/** One order (posts.type `tribe_tpp_orders` or `tribe_rsvp_orders`). */
export interface TicketOrdersTable {
  order_id: number;
  /** Secret that lets the buyer read the order. */
  order_key: string;
  provider: string;
  /** `pending`, `completed`, `refunded`, `cancelled`. */
  status: string;
  /** `offline`, `remote`, `free`. */
  gateway: string;
  gateway_ref: Generated<string>;
  payment_url: Generated<string>;
  currency: string;
  quantity: number;
  subtotal: number;
  total: number;
  customer_name: string;
  customer_email: string;
  customer_user_id: number;
  cart_key: string;
  created_gmt: string;
  updated_gmt: string;
  completed_gmt: string;
  refunded_gmt: Generated<string>;
  cancelled_gmt: Generated<string>;
  /** The coupon applied at checkout (0 = none), its code and the discount it gave. */
  coupon_id: Generated<number>;
  coupon_code: Generated<string>;
  discount: Generated<number>;
  /** 1 when paid while the payment gateway was in test mode (`eventsuite_payments_test_mode`). */
  test_mode: Generated<number>;
}

/** A coupon of the ticket shop (migration 2026-11-23T1710). Codes are stored lower-case. */
export interface TicketCouponsTable {
  id: Generated<number>;
  code: string;
  /** `percent` or `fixed_cart`. */
  discount_type: string;
  amount: number;
  /** 0 = unlimited. */
  usage_limit: number;
  /** Orders holding the coupon (cancelled orders give their use back). */
  usage_count: Generated<number>;
  /** UTC; '' = never expires. */
  expires_gmt: string;
  created_gmt: string;
}

export interface TicketOrderItemsTable {
  id: Generated<number>;
  order_id: number;
  ticket_id: number;
  post_id: number;
  ticket_title: string;
  quantity: number;
  unit_price: number;
  total: number;
}

/** A visitor's cart line, keyed by the cart cookie. */
export interface TicketCartItemsTable {
  cart_key: string;
  ticket_id: number;
  provider: string;
  post_id: number;
  quantity: number;
  optout: number;
  iac: string;
  /** JSON object of provider extras. */
  extra: string;
  /** JSON array of per-attendee registration answers. */
  meta: string;
  updated_gmt: string;
}

export interface TicketTables {
  ticket_details: TicketDetailsTable;
  ticket_shared_capacity: TicketSharedCapacityTable;
  ticket_attendees: TicketAttendeesTable;
  ticket_attendee_counts: TicketAttendeeCountsTable;
  ticket_orders: TicketOrdersTable;
  ticket_order_items: TicketOrderItemsTable;
  ticket_cart_items: TicketCartItemsTable;
  ticket_coupons: TicketCouponsTable;
}
