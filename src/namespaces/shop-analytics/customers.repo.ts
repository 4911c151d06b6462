/**
 * @module namespaces/shop-analytics/customers.repo
 * The customer report query, after the original's data store: one WHERE group (customer columns,
 * the order-date window) and one HAVING group (aggregates), each joined by `match` (AND for `all`,
 * OR for `any`), and both groups ANDed. Without an order-date window the aggregates are the ones
 * stored on the lookup row (kept current by the sync), so a page is one indexed query plus a count.
 * With a window they are computed over the window's orders in a grouped subquery, and under `any`
 * a customer passing the other WHERE conditions keeps its full aggregates, as in the original.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../storage/db.js';
import { ilike, containsPattern, textOrder } from '../../storage/dialect.js';

export type Range<T> = { min?: T; max?: T };
export type DateRange = { after?: string; before?: string };

export const ORDERBY = ['username', 'name', 'country', 'city', 'state', 'postcode', 'date_registered', 'date_last_active', 'orders_count', 'total_spend', 'avg_order_value'] as const;
export const FILTER_EMPTY = ['email', 'name', 'country', 'city', 'state', 'postcode'] as const;
export const SEARCHBY = ['name', 'username', 'email', 'all'] as const;

export interface CustomerQuery {
  match: 'all' | 'any';
  page: number;
  perPage: number;
  order: 'asc' | 'desc';
  orderby: (typeof ORDERBY)[number];
  search?: string;
  searchby: (typeof SEARCHBY)[number];
  /** UTC bounds. */
  registered: DateRange;
  lastActive: DateRange;
  /** Site-local bounds. */
  lastOrder: DateRange;
  orderWindow: DateRange;
  /** Customer-ID lists (`name_includes` …). */
  idIncludes: number[][];
  idExcludes: number[][];
  countryIncludes?: string[];
  countryExcludes?: string[];
  ordersCount: Range<number>;
  totalSpend: Range<number>;
  avgOrderValue: Range<number>;
  include?: number[];
  users?: number[];
  filterEmpty?: string[];
  /** Statuses left out of the aggregates. */
  excluded: string[];
}

export interface CustomerRow {
  customer_id: number;
  user_id: number | null;
  username: string;
  name: string;
  email: string;
  country: string;
  city: string;
  state: string;
  postcode: string;
  date_registered_gmt: string | null;
  date_last_active_gmt: string | null;
  date_last_order: string | null;
  orders_count: number;
  total_spend: number;
  avg_order_value: number | null;
}

const ref = (col: string) => sql.ref(col);
const join = (conds: RawBuilder<unknown>[], op: 'all' | 'any') => sql`(${sql.join(conds, op === 'all' ? sql` AND ` : sql` OR `)})`;

/** Numeric range: min alone strict, max alone strict, both inclusive. */
function rangeConds(expr: RawBuilder<unknown>, r: Range<number>): RawBuilder<unknown> | undefined {
  if (r.min !== undefined && r.max !== undefined) return sql`(${expr} >= ${r.min} AND ${expr} <= ${r.max})`;
  if (r.min !== undefined) return sql`${expr} > ${r.min}`;
  if (r.max !== undefined) return sql`${expr} < ${r.max}`;
  return undefined;
}

/** Date family: `_after` → `>=`, `_before` → `<=`, the two always ANDed. */
function dateConds(expr: RawBuilder<unknown>, r: DateRange): RawBuilder<unknown> | undefined {
  const parts: RawBuilder<unknown>[] = [];
  if (r.after !== undefined) parts.push(sql`${expr} >= ${r.after}`);
  if (r.before !== undefined) parts.push(sql`${expr} <= ${r.before}`);
  return parts.length ? join(parts, 'all') : undefined;
}

function notExcluded(excluded: readonly string[]): RawBuilder<unknown> {
  return excluded.length ? sql`s.status NOT IN (${sql.join(excluded)})` : sql`1 = 1`;
}

/** The FROM clause, the stats expressions and the conditions of a query. */
function build(db: Db, q: CustomerQuery) {
  const username = sql`coalesce(u.login, '')`;
  const name = sql`coalesce(u.display_name, c.name)`;
  const email = sql`coalesce(u.email, c.email)`;

  // ---- WHERE group (customer columns)
  const where: RawBuilder<unknown>[] = [];
  const push = (c: RawBuilder<unknown> | undefined) => c && where.push(c);
  push(dateConds(ref('c.date_registered_gmt'), q.registered));
  push(dateConds(ref('c.date_last_active_gmt'), q.lastActive));
  for (const ids of q.idIncludes) where.push(ids.length ? sql`c.customer_id IN (${sql.join(ids)})` : sql`1 = 0`);
  for (const ids of q.idExcludes) if (ids.length) where.push(sql`c.customer_id NOT IN (${sql.join(ids)})`);
  if (q.countryIncludes) where.push(q.countryIncludes.length ? sql`c.country IN (${sql.join(q.countryIncludes)})` : sql`1 = 0`);
  if (q.countryExcludes?.length) where.push(sql`c.country NOT IN (${sql.join(q.countryExcludes)})`);
  if (q.search !== undefined && q.search !== '') {
    const target = q.searchby === 'username' ? username : q.searchby === 'email' ? email : q.searchby === 'all' ? sql`${name} || ' ' || ${username} || ' ' || ${email}` : name;
    where.push(ilike(db, target, containsPattern(q.search)));
  }
  if (q.filterEmpty?.length) {
    const cols: Record<string, RawBuilder<unknown>> = { email, name, country: ref('c.country'), city: ref('c.city'), state: ref('c.state'), postcode: ref('c.postcode') };
    where.push(join(q.filterEmpty.map((f) => sql`${cols[f]!} <> ''`), 'all'));
  }
  if (q.include) where.push(q.include.length ? sql`c.customer_id IN (${sql.join(q.include)})` : sql`1 = 0`);
  if (q.users) where.push(q.users.length ? sql`c.user_id IN (${sql.join(q.users)})` : sql`1 = 0`);

  // ---- Aggregates: stored, or over the order-date window.
  const window = q.orderWindow.after !== undefined || q.orderWindow.before !== undefined;
  // The users join (live profile fields) is needed to count only when a condition reads them.
  const readsProfile = (q.search !== undefined && q.search !== '') || (q.filterEmpty ?? []).some((f) => f === 'name' || f === 'email');
  let from = sql`shop_customer_lookup c LEFT JOIN users u ON u.id = c.user_id`;
  let countFrom = readsProfile ? from : sql`shop_customer_lookup c`;
  let stat = (col: 'orders_count' | 'total_spend' | 'date_last_order') => ref(`c.${col}`) as RawBuilder<unknown>;
  if (window) {
    const bounds = dateConds(ref('s.date_created'), q.orderWindow)!;
    from = sql`${from} LEFT JOIN (SELECT s.customer_id, sum(CASE WHEN s.is_refund = 0 THEN 1 ELSE 0 END) AS orders_count, sum(s.total_sales) AS total_spend, max(s.date_created) AS date_last_order
      FROM shop_order_stats s WHERE ${notExcluded(q.excluded)} AND ${bounds} GROUP BY s.customer_id) w ON w.customer_id = c.customer_id`;
    countFrom = from;
    const others = where.length ? join(where, q.match) : undefined;
    const windowed = (col: string) => (col === 'date_last_order' ? ref(`w.${col}`) : sql`coalesce(${ref(`w.${col}`)}, 0)`);
    stat = others && q.match === 'any' ? (col) => sql`CASE WHEN ${others} THEN ${ref(`c.${col}`)} ELSE ${windowed(col)} END` : windowed;
    where.push(sql`w.customer_id IS NOT NULL`);
  }
  const ordersCount = stat('orders_count');
  const totalSpend = stat('total_spend');
  const avg = sql`CASE WHEN ${ordersCount} = 0 THEN NULL ELSE ${totalSpend} * 1.0 / ${ordersCount} END`;
  const lastOrder = stat('date_last_order');

  // ---- HAVING group (aggregates)
  const having: RawBuilder<unknown>[] = [];
  for (const c of [dateConds(lastOrder, q.lastOrder), rangeConds(ordersCount, q.ordersCount), rangeConds(totalSpend, q.totalSpend), rangeConds(avg, q.avgOrderValue)]) if (c) having.push(c);

  const conds = [...(where.length ? [join(where, q.match)] : []), ...(having.length ? [join(having, q.match)] : [])];
  const whereSql = conds.length ? sql`WHERE ${sql.join(conds, sql` AND `)}` : sql``;
  const sortable: Record<string, RawBuilder<unknown>> = {
    username: textOrder(username),
    name: textOrder(name),
    country: textOrder(ref('c.country')),
    city: textOrder(ref('c.city')),
    state: textOrder(ref('c.state')),
    postcode: textOrder(ref('c.postcode')),
    date_registered: ref('c.date_registered_gmt'),
    date_last_active: ref('c.date_last_active_gmt'),
    orders_count: ordersCount,
    total_spend: totalSpend,
    avg_order_value: avg,
  };
  return { from, countFrom, whereSql, username, name, email, ordersCount, totalSpend, avg, lastOrder, sortable };
}

/** One page of customers and the total matching. */
export async function queryCustomers(db: Db, q: CustomerQuery): Promise<{ rows: CustomerRow[]; total: number }> {
  const b = build(db, q);
  const countRow = await sql<{ n: number }>`SELECT count(*) AS n FROM ${b.countFrom} ${b.whereSql}`.execute(db);
  const total = Number(countRow.rows[0]?.n ?? 0);
  if (total === 0 || (q.page - 1) * q.perPage >= total) return { rows: [], total };
  // MySQL's order for NULLs (smallest), on both engines.
  const dir = q.order === 'asc' ? sql`ASC NULLS FIRST` : sql`DESC NULLS LAST`;
  const tie = q.order === 'asc' ? sql`ASC` : sql`DESC`;
  const result = await sql<CustomerRow>`SELECT c.customer_id, c.user_id, ${b.username} AS username, ${b.name} AS name, ${b.email} AS email,
      c.country, c.city, c.state, c.postcode, c.date_registered_gmt, c.date_last_active_gmt,
      ${b.lastOrder} AS date_last_order, ${b.ordersCount} AS orders_count, ${b.totalSpend} AS total_spend, ${b.avg} AS avg_order_value
    FROM ${b.from} ${b.whereSql}
    ORDER BY ${b.sortable[q.orderby]!} ${dir}, c.customer_id ${tie}
    LIMIT ${q.perPage} OFFSET ${(q.page - 1) * q.perPage}`.execute(db);
  return { rows: result.rows, total };
}
