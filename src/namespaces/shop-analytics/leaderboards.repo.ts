/**
 * @module namespaces/shop-analytics/leaderboards.repo
 * Top coupons, event categories and tickets over the counted orders of a date window (one grouped
 * query each). Refunded orders count for nothing, as their refund rows cancel them in the original.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../storage/db.js';
import type { DateRange } from './customers.repo.js';

export interface BoardRow {
  id: number;
  label: string;
  count: number;
  amount: number;
}

export const CATEGORY_TAXONOMY = 'tribe_events_cat';

/** Counted orders (not refunded, not excluded) of a site-local window, on `alias.date_created`. */
export function statusAndWindow(alias: string, excluded: readonly string[], window: DateRange): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`s.status <> 'refunded'`];
  if (excluded.length) parts.push(sql`s.status NOT IN (${sql.join(excluded)})`);
  if (window.after) parts.push(sql`${sql.ref(`${alias}.date_created`)} >= ${window.after}`);
  if (window.before) parts.push(sql`${sql.ref(`${alias}.date_created`)} <= ${window.before}`);
  return sql.join(parts, sql` AND `);
}

/** Tickets by items sold (net sales as the second key). */
export async function topProducts(db: Db, excluded: readonly string[], window: DateRange, limit: number): Promise<BoardRow[]> {
  const r = await sql<BoardRow>`SELECT p.ticket_id AS id, coalesce(max(po.title), '') AS label, sum(p.quantity) AS count, sum(p.net_revenue) AS amount
    FROM shop_order_product_lookup p JOIN shop_order_stats s ON s.order_id = p.order_id AND s.is_refund = 0 LEFT JOIN posts po ON po.id = p.ticket_id
    WHERE ${statusAndWindow('p', excluded, window)}
    GROUP BY p.ticket_id ORDER BY count DESC, amount DESC, p.ticket_id ASC LIMIT ${limit}`.execute(db);
  return r.rows;
}

/** Event categories by items sold of their events' tickets. */
export async function topCategories(db: Db, excluded: readonly string[], window: DateRange, limit: number): Promise<BoardRow[]> {
  const r = await sql<BoardRow>`SELECT t.id AS id, max(t.name) AS label, sum(p.quantity) AS count, sum(p.net_revenue) AS amount
    FROM shop_order_product_lookup p JOIN shop_order_stats s ON s.order_id = p.order_id AND s.is_refund = 0
      JOIN term_relationships tr ON tr.post_id = p.event_id JOIN terms t ON t.id = tr.term_id AND t.taxonomy = ${CATEGORY_TAXONOMY}
    WHERE ${statusAndWindow('p', excluded, window)}
    GROUP BY t.id ORDER BY count DESC, amount DESC, t.id ASC LIMIT ${limit}`.execute(db);
  return r.rows;
}

/** Coupons by number of orders (amount discounted as the second key). */
export async function topCoupons(db: Db, excluded: readonly string[], window: DateRange, limit: number): Promise<BoardRow[]> {
  const r = await sql<BoardRow>`SELECT c.coupon_id AS id, max(c.coupon_code) AS label, count(*) AS count, sum(c.discount_amount) AS amount
    FROM shop_order_coupon_lookup c JOIN shop_order_stats s ON s.order_id = c.order_id AND s.is_refund = 0
    WHERE ${statusAndWindow('c', excluded, window)}
    GROUP BY c.coupon_id ORDER BY count DESC, amount DESC, c.coupon_id ASC LIMIT ${limit}`.execute(db);
  return r.rows;
}
