/**
 * @module namespaces/shop-analytics/report-items.repo
 * The product (ticket), category (event category) and coupon reports: one row per item with its
 * sums over the counted orders of a window, and the same sums per time interval for the `stats`
 * reports. Each answer is one grouped query plus one count; nothing runs per row.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../storage/db.js';
import { textOrder } from '../../storage/dialect.js';
import type { DateRange } from './customers.repo.js';
import { bucketKey, type Interval } from './intervals.js';
import { CATEGORY_TAXONOMY, statusAndWindow } from './leaderboards.repo.js';

export interface ItemFilter {
  excluded: readonly string[];
  window: DateRange;
  /** `match=any` ORs the id lists; `all` ANDs them. */
  match: 'all' | 'any';
  products?: number[];
  categories?: number[];
  coupons?: number[];
  /** Order statuses the orders must have / must not have (`status_is`, `status_is_not`). */
  statusIs?: string[];
  statusIsNot?: string[];
}

/** The status and window conditions of the filter on the lookup table `alias`. */
function baseConditions(alias: string, f: ItemFilter): RawBuilder<unknown> {
  const parts = [statusAndWindow(alias, f.excluded, f.window)];
  if (f.statusIs?.length) parts.push(sql`s.status IN (${sql.join(f.statusIs)})`);
  if (f.statusIsNot?.length) parts.push(sql`s.status NOT IN (${sql.join(f.statusIsNot)})`);
  return sql.join(parts, sql` AND `);
}

export interface ItemPage {
  orderby: string;
  order: 'asc' | 'desc';
  page: number;
  perPage: number;
}

type Sums = Record<string, number>;

const ids = (list: number[]) => sql.join(list.map((n) => sql`${n}`));

/** Product-lookup rows of the filter's tickets and categories. */
function productConditions(f: ItemFilter): RawBuilder<unknown> {
  const lists: RawBuilder<unknown>[] = [];
  if (f.products?.length) lists.push(sql`p.ticket_id IN (${ids(f.products)})`);
  if (f.categories?.length) {
    lists.push(sql`p.event_id IN (SELECT tr.post_id FROM term_relationships tr JOIN terms t ON t.id = tr.term_id AND t.taxonomy = ${CATEGORY_TAXONOMY} WHERE tr.term_id IN (${ids(f.categories)}))`);
  }
  const base = baseConditions('p', f);
  return lists.length ? sql`${base} AND (${sql.join(lists, f.match === 'any' ? sql` OR ` : sql` AND `)})` : base;
}

const PRODUCT_FROM = sql`shop_order_product_lookup p JOIN shop_order_stats s ON s.order_id = p.order_id AND s.is_refund = 0`;
const PRODUCT_SUMS = sql`sum(p.quantity) AS items_sold, sum(p.net_revenue) AS net_revenue, count(DISTINCT p.order_id) AS orders_count`;

/** Numbers of a row (PostgreSQL answers sums of numeric columns as strings), money to the cent. */
const numeric = (row: Record<string, unknown>, keys: readonly string[]): Sums => Object.fromEntries(keys.map((k) => [k, Math.round(Number(row[k] ?? 0) * 100) / 100]));

/** Sort keys by `orderby`: output columns, and the text ones case aside, as the original's collation sorts them. */
const PRODUCT_ORDER: Record<string, RawBuilder<unknown>> = {
  date: sql.ref('date'),
  net_revenue: sql.ref('net_revenue'),
  orders_count: sql.ref('orders_count'),
  items_sold: sql.ref('items_sold'),
  product_name: textOrder(sql`coalesce(max(po.title), '')`),
  sku: textOrder(sql`coalesce(max(td.sku), '')`),
  variations: sql.ref('product_id'),
};

export interface ProductRow { product_id: number; items_sold: number; net_revenue: number; orders_count: number }

/** Tickets sold in the window, one row each. */
export async function productRows(db: Db, f: ItemFilter, p: ItemPage): Promise<{ rows: ProductRow[]; total: number }> {
  const where = productConditions(f);
  const dir = sql.raw(p.order === 'asc' ? 'ASC' : 'DESC');
  const result = await sql<Record<string, unknown>>`SELECT p.ticket_id AS product_id, ${PRODUCT_SUMS}, max(p.date_created) AS date,
      coalesce(max(po.title), '') AS product_name, coalesce(max(td.sku), '') AS sku
    FROM ${PRODUCT_FROM} LEFT JOIN posts po ON po.id = p.ticket_id LEFT JOIN ticket_details td ON td.ticket_id = p.ticket_id
    WHERE ${where} GROUP BY p.ticket_id
    ORDER BY ${PRODUCT_ORDER[p.orderby] ?? PRODUCT_ORDER.date!} ${dir}, p.ticket_id ${dir} LIMIT ${p.perPage} OFFSET ${(p.page - 1) * p.perPage}`.execute(db);
  const count = await sql<{ n: number }>`SELECT count(DISTINCT p.ticket_id) AS n FROM ${PRODUCT_FROM} WHERE ${where}`.execute(db);
  return {
    rows: result.rows.map((r) => ({ product_id: Number(r.product_id), ...numeric(r, ['items_sold', 'net_revenue', 'orders_count']) }) as ProductRow),
    total: Number(count.rows[0]?.n ?? 0),
  };
}

const CATEGORY_FROM = sql`${PRODUCT_FROM} JOIN term_relationships tr ON tr.post_id = p.event_id JOIN terms t ON t.id = tr.term_id AND t.taxonomy = ${CATEGORY_TAXONOMY}`;
const CATEGORY_ORDER: Record<string, RawBuilder<unknown>> = {
  category_id: sql.ref('category_id'),
  items_sold: sql.ref('items_sold'),
  net_revenue: sql.ref('net_revenue'),
  orders_count: sql.ref('orders_count'),
  products_count: sql.ref('products_count'),
  category: textOrder(sql`max(t.name)`),
};

export interface CategoryRow { category_id: number; items_sold: number; net_revenue: number; orders_count: number; products_count: number; name: string }

/** Event categories whose events' tickets sold in the window. */
export async function categoryRows(db: Db, f: ItemFilter, p: ItemPage): Promise<{ rows: CategoryRow[]; total: number }> {
  const only = f.categories?.length ? sql` AND t.id IN (${ids(f.categories)})` : sql``;
  const where = sql`${baseConditions('p', f)}${only}`;
  const dir = sql.raw(p.order === 'asc' ? 'ASC' : 'DESC');
  const result = await sql<Record<string, unknown>>`SELECT t.id AS category_id, ${PRODUCT_SUMS}, count(DISTINCT p.ticket_id) AS products_count, max(t.name) AS category
    FROM ${CATEGORY_FROM} WHERE ${where} GROUP BY t.id
    ORDER BY ${CATEGORY_ORDER[p.orderby] ?? CATEGORY_ORDER.category_id!} ${dir}, t.id ${dir} LIMIT ${p.perPage} OFFSET ${(p.page - 1) * p.perPage}`.execute(db);
  const count = await sql<{ n: number }>`SELECT count(DISTINCT t.id) AS n FROM ${CATEGORY_FROM} WHERE ${where}`.execute(db);
  return {
    rows: result.rows.map((r) => ({ category_id: Number(r.category_id), ...numeric(r, ['items_sold', 'net_revenue', 'orders_count', 'products_count']), name: String(r.category ?? '') }) as CategoryRow),
    total: Number(count.rows[0]?.n ?? 0),
  };
}

const COUPON_FROM = sql`shop_order_coupon_lookup c JOIN shop_order_stats s ON s.order_id = c.order_id AND s.is_refund = 0`;
const COUPON_ORDER: Record<string, string> = { coupon_id: 'coupon_id', code: 'code', amount: 'amount', orders_count: 'orders_count' };

function couponConditions(f: ItemFilter): RawBuilder<unknown> {
  const base = baseConditions('c', f);
  return f.coupons?.length ? sql`${base} AND c.coupon_id IN (${ids(f.coupons)})` : base;
}

export interface CouponRow { coupon_id: number; amount: number; orders_count: number }

/** Coupons used in the window. */
export async function couponRows(db: Db, f: ItemFilter, p: ItemPage): Promise<{ rows: CouponRow[]; total: number }> {
  const where = couponConditions(f);
  const dir = sql.raw(p.order === 'asc' ? 'ASC' : 'DESC');
  const result = await sql<Record<string, unknown>>`SELECT c.coupon_id AS coupon_id, sum(c.discount_amount) AS amount, count(DISTINCT c.order_id) AS orders_count, max(c.coupon_code) AS code
    FROM ${COUPON_FROM} WHERE ${where} GROUP BY c.coupon_id
    ORDER BY ${sql.ref(COUPON_ORDER[p.orderby] ?? 'coupon_id')} ${dir}, c.coupon_id ${dir} LIMIT ${p.perPage} OFFSET ${(p.page - 1) * p.perPage}`.execute(db);
  const count = await sql<{ n: number }>`SELECT count(DISTINCT c.coupon_id) AS n FROM ${COUPON_FROM} WHERE ${where}`.execute(db);
  return {
    rows: result.rows.map((r) => ({ coupon_id: Number(r.coupon_id), ...numeric(r, ['amount', 'orders_count']) }) as CouponRow),
    total: Number(count.rows[0]?.n ?? 0),
  };
}

export interface IntervalSums {
  totals: Sums;
  buckets: Map<string, Sums>;
}

async function sumsByInterval(db: Db, select: RawBuilder<unknown>, from: RawBuilder<unknown>, where: RawBuilder<unknown>, dateColumn: string, interval: Interval, keys: readonly string[]): Promise<IntervalSums> {
  const key = bucketKey(db, dateColumn, interval);
  const grouped = await sql<Record<string, unknown>>`SELECT ${key} AS bucket, ${select} FROM ${from} WHERE ${where} GROUP BY ${key}`.execute(db);
  const total = await sql<Record<string, unknown>>`SELECT ${select} FROM ${from} WHERE ${where}`.execute(db);
  return {
    totals: numeric(total.rows[0] ?? {}, keys),
    buckets: new Map(grouped.rows.map((r) => [String(r.bucket), numeric(r, keys)])),
  };
}

export const PRODUCT_STATS_FIELDS = ['items_sold', 'net_revenue', 'orders_count', 'products_count', 'variations_count'] as const;

/** `products/stats` and `categories/stats`: tickets sold, net sales, orders and distinct tickets. */
export function productSums(db: Db, f: ItemFilter, interval: Interval): Promise<IntervalSums> {
  const select = sql`${PRODUCT_SUMS}, count(DISTINCT p.ticket_id) AS products_count, 0 AS variations_count`;
  return sumsByInterval(db, select, PRODUCT_FROM, productConditions(f), 'p.date_created', interval, PRODUCT_STATS_FIELDS);
}

export const COUPON_STATS_FIELDS = ['amount', 'coupons_count', 'orders_count'] as const;

/** `coupons/stats`: amount discounted, distinct coupons and orders using one. */
export function couponSums(db: Db, f: ItemFilter, interval: Interval): Promise<IntervalSums> {
  const select = sql`sum(c.discount_amount) AS amount, count(DISTINCT c.coupon_id) AS coupons_count, count(DISTINCT c.order_id) AS orders_count`;
  return sumsByInterval(db, select, COUPON_FROM, couponConditions(f), 'c.date_created', interval, COUPON_STATS_FIELDS);
}
