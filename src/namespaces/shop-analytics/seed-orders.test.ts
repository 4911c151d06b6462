/**
 * `seedOrders` (tickets) followed by `rebuildShopAnalytics`: the seeded orders are whole (items,
 * attendees, seats, coupon uses), and the rebuild's analytics writes give exactly what syncing the
 * queued orders (a batch at a time, as after checkouts) gives for the same orders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { seedOrders } from '../tickets/index.js';
import { rebuildShopAnalytics } from './import.service.js';
import { queueOrderSync, syncQueuedOrders } from './sync.service.js';

const ORDERS = 200;

describe.each(DIALECTS)('seed --orders and the analytics rebuild on %s', (engine) => {
  let t: TestApp;

  /** Analytics rows keyed by what identifies them (not by the customer IDs, which are assigned as met). */
  const snapshot = async () => {
    const customers = await sql<Record<string, unknown>>`SELECT coalesce(CAST(user_id AS varchar(20)), guest_email) AS k, name, email, date_registered_gmt, date_last_active_gmt, orders_count, CAST(total_spend AS varchar(20)) AS total_spend, date_last_order FROM shop_customer_lookup ORDER BY k`.execute(t.ctx.db);
    const stats = await sql<Record<string, unknown>>`SELECT s.order_id, s.is_refund, coalesce(CAST(c.user_id AS varchar(20)), c.guest_email) AS k, s.status, s.date_created, s.date_paid, s.num_items_sold, CAST(s.total_sales AS varchar(20)) AS total_sales, CAST(s.discount_amount AS varchar(20)) AS discount FROM shop_order_stats s JOIN shop_customer_lookup c ON c.customer_id = s.customer_id ORDER BY s.order_id, s.is_refund`.execute(t.ctx.db);
    const products = await sql`SELECT order_id, ticket_id, quantity FROM shop_order_product_lookup ORDER BY order_id, ticket_id`.execute(t.ctx.db);
    const coupons = await sql`SELECT order_id, coupon_id, coupon_code FROM shop_order_coupon_lookup ORDER BY order_id`.execute(t.ctx.db);
    return { customers: customers.rows, stats: stats.rows, products: products.rows, coupons: coupons.rows };
  };

  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('seeds whole orders: items, one attendee per seat, seats sold, coupon uses, a mix of customers and statuses', async () => {
    const result = await seedOrders(t.ctx, { orders: ORDERS, batchSize: 150 });
    expect(result).toMatchObject({ orders: ORDERS, customers: ORDERS / 5 });
    expect(result.registered).toBeGreaterThan(0);
    expect(result.registered).toBeLessThan(result.customers);
    const db = t.ctx.db;
    const statuses = Object.fromEntries((await db.selectFrom('ticket_orders').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute()).map((r) => [r.status, Number(r.n)]));
    expect(statuses.completed).toBeGreaterThan(ORDERS * 0.7);
    expect(statuses.refunded).toBeGreaterThan(0);
    expect(statuses.cancelled).toBeGreaterThan(0);
    const seats = await sql<{ n: number }>`SELECT coalesce(sum(quantity), 0) AS n FROM ticket_order_items`.execute(db);
    const attendees = await sql<{ n: number }>`SELECT count(*) AS n FROM ticket_attendees`.execute(db);
    expect(Number(attendees.rows[0]!.n)).toBe(Number(seats.rows[0]!.n));
    expect(result.attendees).toBe(Number(seats.rows[0]!.n));
    // Every order's total is its items less its discount.
    const wrong = await sql`SELECT o.order_id FROM ticket_orders o JOIN (SELECT order_id, sum(total) AS t FROM ticket_order_items GROUP BY order_id) i ON i.order_id = o.order_id WHERE abs(o.subtotal - i.t) > 0.001 OR abs(o.total - (o.subtotal - o.discount)) > 0.001`.execute(db);
    expect(wrong.rows).toEqual([]);
    const held = await sql<{ n: number }>`SELECT coalesce(sum(i.quantity), 0) AS n FROM ticket_order_items i JOIN ticket_orders o ON o.order_id = i.order_id WHERE o.status IN ('completed', 'pending')`.execute(db);
    const sold = await sql<{ n: number }>`SELECT coalesce(sum(sold), 0) AS n FROM ticket_details`.execute(db);
    expect(Number(sold.rows[0]!.n)).toBe(Number(held.rows[0]!.n));
    const uses = await sql<{ n: number }>`SELECT coalesce(sum(usage_count), 0) AS n FROM ticket_coupons`.execute(db);
    const withCoupon = await sql<{ n: number }>`SELECT count(*) AS n FROM ticket_orders WHERE coupon_id > 0 AND status <> 'cancelled'`.execute(db);
    expect(Number(uses.rows[0]!.n)).toBe(Number(withCoupon.rows[0]!.n));
    expect(Number(withCoupon.rows[0]!.n)).toBeGreaterThan(0);
    const span = await sql<{ a: string; b: string }>`SELECT min(created_gmt) AS a, max(created_gmt) AS b FROM ticket_orders`.execute(db);
    expect(Date.parse(`${span.rows[0]!.b}Z`) - Date.parse(`${span.rows[0]!.a}Z`)).toBeGreaterThan(300 * 86_400_000);
  });

  it('the batched rebuild writes what the queued sync writes', async () => {
    const rebuilt = await rebuildShopAnalytics(t.ctx, { pageSize: 70 });
    expect(rebuilt).toEqual({ orders: ORDERS, customers: ORDERS / 5 });
    const batched = await snapshot();
    expect(batched.customers).toHaveLength(ORDERS / 5);
    expect(batched.stats.length).toBeGreaterThan(ORDERS);
    expect(batched.coupons.length).toBeGreaterThan(0);

    for (const table of ['shop_order_coupon_lookup', 'shop_order_product_lookup', 'shop_order_stats', 'shop_customer_lookup'] as const) await t.ctx.db.deleteFrom(table).execute();
    const ids = await t.ctx.db.selectFrom('ticket_orders').select('order_id').orderBy('order_id').execute();
    for (const { order_id } of ids) await queueOrderSync(t.ctx.db, Number(order_id));
    // Batches that split a customer's orders, and an order queued twice.
    await queueOrderSync(t.ctx.db, Number(ids[3]!.order_id));
    expect(await syncQueuedOrders(t.ctx, { batchSize: 7 })).toBe(ids.length + 1);
    expect(await t.ctx.db.selectFrom('shop_order_sync_queue').select('id').execute()).toEqual([]);
    expect(await snapshot()).toEqual(batched);

    // Rebuilding over existing rows changes nothing.
    await rebuildShopAnalytics(t.ctx);
    expect(await snapshot()).toEqual(batched);
  }, 60_000);

  it('GET /customers answers over the seeded customers', async () => {
    const res = await t.request('GET', '/shop-analytics/customers', { query: { orders_count_min: 2, orderby: 'total_spend', per_page: 5 }, as: t.admin });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
    const spends = (res.body as { total_spend: number; orders_count: number }[]).map((c) => c.total_spend);
    expect(spends).toEqual([...spends].sort((a, b) => b - a));
    for (const c of res.body as { orders_count: number }[]) expect(c.orders_count).toBeGreaterThan(2);
    expect(Number(res.headers['x-wp-total'])).toBeGreaterThan(5);
  });
});
