/**
 * @module namespaces/shop-analytics/stats.service
 * `revenue/stats` and `orders/stats`: totals and per-interval subtotals (day, week, month) of the
 * counted orders in a site-local date window, every interval of the window present (empty ones as
 * zeros), as the original's time-interval reports. One query grouped by interval.
 */
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { bucketKey, type Interval } from './intervals.js';

export { INTERVALS, type Interval } from './intervals.js';

interface BucketRow {
  bucket: string;
  orders_count: number;
  num_items_sold: number;
  total_sales: number;
  refunds: number;
  coupons: number;
  coupons_count: number;
}

export type Sums = Omit<BucketRow, 'bucket'>;

const ZERO: Sums = { orders_count: 0, num_items_sold: 0, total_sales: 0, refunds: 0, coupons: 0, coupons_count: 0 };
const cents = (n: number) => Math.round(n * 100) / 100;

function add(a: Sums, b: Sums): Sums {
  return {
    orders_count: a.orders_count + Number(b.orders_count),
    num_items_sold: a.num_items_sold + Number(b.num_items_sold),
    total_sales: cents(a.total_sales + Number(b.total_sales)),
    refunds: cents(a.refunds + Number(b.refunds)),
    coupons: cents(a.coupons + Number(b.coupons)),
    coupons_count: a.coupons_count + Number(b.coupons_count),
  };
}

export interface StatsResult {
  totals: Sums & { customers: number; products: number };
  /** Sums of each interval with orders, by interval id. */
  buckets: Map<string, Sums>;
}

/** Totals and per-interval sums of [after, before] (site-local `YYYY-MM-DD HH:MM:SS` bounds). */
export async function orderStats(db: Db, excluded: readonly string[], from: string, to: string, interval: Interval): Promise<StatsResult> {
  const notExcluded = excluded.length ? sql`s.status NOT IN (${sql.join(excluded)})` : sql`1 = 1`;
  const key = bucketKey(db, 's.date_created', interval);
  const buckets = await sql<BucketRow>`SELECT ${key} AS bucket,
      sum(CASE WHEN s.is_refund = 0 THEN 1 ELSE 0 END) AS orders_count,
      sum(s.num_items_sold) AS num_items_sold,
      sum(s.total_sales) AS total_sales,
      sum(CASE WHEN s.is_refund = 1 THEN -s.total_sales ELSE 0 END) AS refunds,
      sum(s.discount_amount) AS coupons,
      sum(CASE WHEN s.discount_amount > 0 THEN 1 ELSE 0 END) AS coupons_count
    FROM shop_order_stats s WHERE ${notExcluded} AND s.date_created >= ${from} AND s.date_created <= ${to}
    GROUP BY ${key}`.execute(db);
  const distinct = await sql<{ customers: number; products: number }>`SELECT
      (SELECT count(DISTINCT s.customer_id) FROM shop_order_stats s WHERE ${notExcluded} AND s.is_refund = 0 AND s.date_created >= ${from} AND s.date_created <= ${to}) AS customers,
      (SELECT count(DISTINCT p.ticket_id) FROM shop_order_product_lookup p JOIN shop_order_stats s ON s.order_id = p.order_id AND s.is_refund = 0
        WHERE ${notExcluded} AND p.date_created >= ${from} AND p.date_created <= ${to}) AS products`.execute(db);
  let totals = { ...ZERO };
  const byId = new Map<string, Sums>();
  for (const row of buckets.rows) {
    byId.set(row.bucket, add(ZERO, row));
    totals = add(totals, row);
  }
  const d = distinct.rows[0];
  return { totals: { ...totals, customers: Number(d?.customers ?? 0), products: Number(d?.products ?? 0) }, buckets: byId };
}
