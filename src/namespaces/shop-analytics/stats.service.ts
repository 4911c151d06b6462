/**
 * @module namespaces/shop-analytics/stats.service
 * `revenue/stats` and `orders/stats`: totals and per-interval subtotals (day, week, month) of the
 * counted orders in a site-local date window, every interval of the window present (empty ones as
 * zeros), as the original's time-interval reports. One grouped query per day of the window.
 */
import { DateTime } from 'luxon';
import { sql } from 'kysely';
import type { Db } from '../../storage/db.js';
import { toDbDate } from '../../content/posts.js';

export const INTERVALS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

interface DayRow {
  day: string;
  orders_count: number;
  num_items_sold: number;
  total_sales: number;
  refunds: number;
  coupons: number;
  coupons_count: number;
}

type Sums = Omit<DayRow, 'day'>;

const ZERO: Sums = { orders_count: 0, num_items_sold: 0, total_sales: 0, refunds: 0, coupons: 0, coupons_count: 0 };
const cents = (n: number) => Math.round(n * 100) / 100;

/** The id and bounds of the interval holding `dt` (quarters `YYYY-Q`, ISO weeks start on Monday, ids `YYYY-WW`). */
function bucket(dt: DateTime, interval: Interval): { id: string; start: DateTime; end: DateTime } {
  const start = dt.startOf(interval);
  const id =
    interval === 'day' ? start.toFormat('yyyy-MM-dd')
    : interval === 'week' ? `${start.toFormat('kkkk')}-${start.toFormat('WW')}`
    : interval === 'month' ? start.toFormat('yyyy-MM')
    : interval === 'quarter' ? `${start.toFormat('yyyy')}-${start.quarter}`
    : start.toFormat('yyyy');
  return { id, start, end: dt.endOf(interval) };
}

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
  intervals: { id: string; start: DateTime; end: DateTime; sums: Sums }[];
}

/** Totals and intervals of [after, before] (site-local DateTimes in `zone`). */
export async function orderStats(db: Db, excluded: readonly string[], after: DateTime, before: DateTime, interval: Interval): Promise<StatsResult> {
  const from = toDbDate(after);
  const to = toDbDate(before);
  const notExcluded = excluded.length ? sql`s.status NOT IN (${sql.join(excluded)})` : sql`1 = 1`;
  const days = await sql<DayRow>`SELECT substr(s.date_created, 1, 10) AS day,
      sum(CASE WHEN s.is_refund = 0 THEN 1 ELSE 0 END) AS orders_count,
      sum(s.num_items_sold) AS num_items_sold,
      sum(s.total_sales) AS total_sales,
      sum(CASE WHEN s.is_refund = 1 THEN -s.total_sales ELSE 0 END) AS refunds,
      sum(s.discount_amount) AS coupons,
      sum(CASE WHEN s.discount_amount > 0 THEN 1 ELSE 0 END) AS coupons_count
    FROM shop_order_stats s WHERE ${notExcluded} AND s.date_created >= ${from} AND s.date_created <= ${to}
    GROUP BY substr(s.date_created, 1, 10)`.execute(db);
  const distinct = await sql<{ customers: number; products: number }>`SELECT
      (SELECT count(DISTINCT s.customer_id) FROM shop_order_stats s WHERE ${notExcluded} AND s.is_refund = 0 AND s.date_created >= ${from} AND s.date_created <= ${to}) AS customers,
      (SELECT count(DISTINCT p.ticket_id) FROM shop_order_product_lookup p JOIN shop_order_stats s ON s.order_id = p.order_id AND s.is_refund = 0
        WHERE ${notExcluded} AND p.date_created >= ${from} AND p.date_created <= ${to}) AS products`.execute(db);

  const byId = new Map<string, StatsResult['intervals'][number]>();
  for (let cursor = after; cursor <= before; cursor = bucket(cursor, interval).end.plus({ milliseconds: 1 })) {
    const b = bucket(cursor, interval);
    byId.set(b.id, { id: b.id, start: b.start < after ? after : b.start, end: b.end > before ? before : b.end, sums: { ...ZERO } });
  }
  let totals = { ...ZERO };
  for (const row of days.rows) {
    const dt = DateTime.fromFormat(row.day, 'yyyy-MM-dd', { zone: after.zone });
    const slot = byId.get(bucket(dt, interval).id);
    if (slot) slot.sums = add(slot.sums, row);
    totals = add(totals, row);
  }
  const d = distinct.rows[0];
  return { totals: { ...totals, customers: Number(d?.customers ?? 0), products: Number(d?.products ?? 0) }, intervals: [...byId.values()] };
}
