/**
 * @module namespaces/shop-analytics/stats.routes
 * `reports/revenue/stats`, `reports/orders/stats` (totals and paginated intervals) and
 * `reports/customers` (the customer report, as `/customers`).
 */
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import { parseDateTime, toDbDate } from '../../content/posts.js';
import { paginationHeaders } from '../../rest/pagination.js';
import { READABLE, respond, type ArgSchema, type RestRequest, type RouteDef } from '../../rest/route.js';
import { ANALYTICS_NS, canViewReports, excludedStatuses, localToGmt, siteTimeZone } from './common.js';
import { customerRouteDefs } from './customers.routes.js';
import { INTERVALS, orderStats, type Interval, type StatsResult } from './stats.service.js';

const STATS_ARGS: Record<string, ArgSchema> = {
  context: { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: ['view'], default: 'view' },
  page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
  per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 },
  after: { description: 'Limit response to resources published after a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
  before: { description: 'Limit response to resources published before a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
  order: { description: 'Order sort attribute ascending or descending.', type: 'string', default: 'desc', enum: ['asc', 'desc'] },
  orderby: { description: 'Sort collection by object attribute.', type: 'string', default: 'date', enum: ['date'] },
  interval: { description: 'Time interval to use for buckets in the returned data.', type: 'string', default: 'week', enum: [...INTERVALS] },
};

type Sums = StatsResult['intervals'][number]['sums'];

const div = (a: number, b: number) => (b > 0 ? a / b : 0);

const revenueFields = (s: Sums) => ({
  total_sales: s.total_sales,
  net_revenue: s.total_sales,
  gross_sales: Math.round((s.total_sales + s.refunds + s.coupons) * 100) / 100,
  coupons: s.coupons,
  coupons_count: s.coupons_count,
  shipping: 0,
  taxes: 0,
  refunds: s.refunds,
  orders_count: s.orders_count,
  num_items_sold: s.num_items_sold,
});

const orderFields = (s: Sums) => ({
  net_revenue: s.total_sales,
  avg_order_value: div(s.total_sales, s.orders_count),
  orders_count: s.orders_count,
  avg_items_per_order: div(s.num_items_sold, s.orders_count),
  num_items_sold: s.num_items_sold,
  coupons: s.coupons,
  coupons_count: s.coupons_count,
});

async function stats(req: RestRequest, ctx: AppContext, report: 'revenue' | 'orders') {
  const zone = await siteTimeZone(ctx.options);
  const at = (v: unknown) => (typeof v === 'string' && v !== '' ? parseDateTime(v, zone, ctx.now())?.setZone(zone) : undefined);
  const before = at(req.params.before) ?? DateTime.fromJSDate(ctx.now()).setZone(zone);
  const after = at(req.params.after) ?? before.minus({ days: 7 }).startOf('day');
  const result = await orderStats(ctx.db, await excludedStatuses(ctx), after, before, req.params.interval as Interval);
  const fields = report === 'revenue' ? revenueFields : orderFields;
  const totals =
    report === 'revenue'
      ? { ...fields(result.totals), products: result.totals.products, segments: [] }
      : { ...fields(result.totals), total_customers: result.totals.customers, products: result.totals.products, segments: [] };
  const all = req.params.order === 'asc' ? result.intervals : [...result.intervals].reverse();
  const page = Number(req.params.page);
  const perPage = Number(req.params.per_page);
  const intervals = all.slice((page - 1) * perPage, page * perPage).map((i) => {
    const start = toDbDate(i.start);
    const end = toDbDate(i.end);
    return { interval: i.id, date_start: start, date_start_gmt: localToGmt(start, zone), date_end: end, date_end_gmt: localToGmt(end, zone), subtotals: { ...fields(i.sums), segments: [] } };
  });
  return respond({ totals, intervals }, { headers: paginationHeaders(req, ctx.urls.rest(`/${ANALYTICS_NS}/reports/${report}/stats`), { total: all.length, page, perPage }) });
}

export const statsRouteDefs: RouteDef<AppContext>[] = [
  { path: '/reports/revenue/stats', endpoints: [{ methods: READABLE, args: STATS_ARGS, permission: canViewReports, handler: (req, ctx) => stats(req, ctx, 'revenue') }] },
  { path: '/reports/orders/stats', endpoints: [{ methods: READABLE, args: STATS_ARGS, permission: canViewReports, handler: (req, ctx) => stats(req, ctx, 'orders') }] },
  { path: '/reports/customers', endpoints: customerRouteDefs[0]!.endpoints },
];
