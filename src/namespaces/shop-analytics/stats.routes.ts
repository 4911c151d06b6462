/**
 * @module namespaces/shop-analytics/stats.routes
 * Every `reports/<report>/stats` route (revenue, orders, products, categories, coupons, and the
 * variations, taxes and downloads the ticket shop has none of), declared once in {@link STATS_REPORTS}
 * with the fields each report marks as a performance indicator; and `reports/customers` (the customer
 * report, as `/customers`).
 */
import type { AppContext } from '../../app-context.js';
import { READABLE, type ArgSchema, type RestRequest, type RouteDef } from '../../rest/route.js';
import { canViewReports, excludedStatuses } from './common.js';
import { customerRouteDefs } from './customers.routes.js';
import type { Interval } from './intervals.js';
import { couponSums, productSums, type ItemFilter } from './report-items.repo.js';
import { idListArg as idList, idsOf as ids, statsArgs, statsResponse, statsWindow, type StatsAnswer, type StatsWindow } from './report-stats.js';
import { orderStats } from './stats.service.js';

type Sums = Record<string, number>;

export interface Indicator {
  field: string;
  label: string;
  format: 'currency' | 'number';
}

export interface StatsReport {
  /** The report's name: its route is `reports/<name>/stats`. */
  name: string;
  args: Record<string, ArgSchema>;
  /** Totals and per-interval sums of the window, plus fields only the totals carry. */
  compute(req: RestRequest, ctx: AppContext, w: StatsWindow): Promise<StatsAnswer & { totalsExtra?: Record<string, unknown> }>;
  /** The report's fields, from its sums. */
  present(sums: Sums): Record<string, unknown>;
  indicators: Indicator[];
}

const div = (a: number, b: number) => (b > 0 ? a / b : 0);

async function itemFilter(req: RestRequest, ctx: AppContext, w: StatsWindow): Promise<ItemFilter> {
  return { excluded: await excludedStatuses(ctx), window: w.range, match: 'all', products: ids(req.params.products), categories: ids(req.params.categories), coupons: ids(req.params.coupons) };
}

async function orders(req: RestRequest, ctx: AppContext, w: StatsWindow) {
  const result = await orderStats(ctx.db, await excludedStatuses(ctx), w.range.after, w.range.before, req.params.interval as Interval);
  const { customers, products, ...totals } = result.totals;
  return { totals, buckets: result.buckets as Map<string, Sums>, customers, products };
}

/** Sums of something the ticket shop does not have: zeros. */
const none = (fields: readonly string[]) => async (): Promise<StatsAnswer> => ({ totals: Object.fromEntries(fields.map((f) => [f, 0])), buckets: new Map() });
const same = (fields: readonly string[]) => (s: Sums) => Object.fromEntries(fields.map((f) => [f, s[f] ?? 0]));

const PRODUCT_FIELDS = ['items_sold', 'net_revenue', 'orders_count', 'products_count', 'variations_count'] as const;
const PRODUCT_FILTERS = {
  categories: idList('Limit result to items from the specified categories.'),
  products: idList('Limit result to items with specified product ids.'),
};

export const STATS_REPORTS: readonly StatsReport[] = [
  {
    name: 'revenue',
    args: statsArgs(['date', 'total_sales', 'coupons', 'refunds', 'shipping', 'taxes', 'net_revenue', 'orders_count', 'items_sold', 'gross_sales']),
    compute: async (req, ctx, w) => {
      const { products, ...answer } = await orders(req, ctx, w);
      return { ...answer, totalsExtra: { products } };
    },
    present: (s) => ({
      total_sales: s.total_sales,
      net_revenue: s.total_sales,
      gross_sales: Math.round(((s.total_sales ?? 0) + (s.refunds ?? 0) + (s.coupons ?? 0)) * 100) / 100,
      coupons: s.coupons,
      coupons_count: s.coupons_count,
      shipping: 0,
      taxes: 0,
      refunds: s.refunds,
      orders_count: s.orders_count,
      num_items_sold: s.num_items_sold,
    }),
    indicators: [
      { field: 'total_sales', label: 'Total sales', format: 'currency' },
      { field: 'net_revenue', label: 'Net sales', format: 'currency' },
      { field: 'gross_sales', label: 'Gross sales', format: 'currency' },
      { field: 'refunds', label: 'Returns', format: 'currency' },
      { field: 'shipping', label: 'Shipping', format: 'currency' },
    ],
  },
  {
    name: 'orders',
    args: statsArgs(['date', 'net_revenue', 'orders_count', 'avg_order_value']),
    compute: async (req, ctx, w) => {
      const { customers, products, ...answer } = await orders(req, ctx, w);
      return { ...answer, totalsExtra: { total_customers: customers, products } };
    },
    present: (s) => ({
      net_revenue: s.total_sales,
      avg_order_value: div(s.total_sales ?? 0, s.orders_count ?? 0),
      orders_count: s.orders_count,
      avg_items_per_order: div(s.num_items_sold ?? 0, s.orders_count ?? 0),
      num_items_sold: s.num_items_sold,
      coupons: s.coupons,
      coupons_count: s.coupons_count,
    }),
    indicators: [
      { field: 'orders_count', label: 'Orders', format: 'number' },
      { field: 'avg_order_value', label: 'Average order value', format: 'currency' },
    ],
  },
  {
    name: 'products',
    args: statsArgs(['date', 'net_revenue', 'coupons', 'refunds', 'shipping', 'taxes', 'orders_count', 'items_sold'], { ...PRODUCT_FILTERS, variations: idList('Limit result to items with specified variation ids.') }),
    compute: async (req, ctx, w) => productSums(ctx.db, await itemFilter(req, ctx, w), req.params.interval as Interval),
    present: same(PRODUCT_FIELDS),
    indicators: [{ field: 'items_sold', label: 'Products sold', format: 'number' }],
  },
  {
    // Not a route of the original, though its reports index lists it: the products report of the
    // given event categories.
    name: 'categories',
    args: statsArgs(['date', 'net_revenue', 'orders_count', 'items_sold'], { categories: PRODUCT_FILTERS.categories }),
    compute: async (req, ctx, w) => productSums(ctx.db, await itemFilter(req, ctx, w), req.params.interval as Interval),
    present: same(['items_sold', 'net_revenue', 'orders_count', 'products_count']),
    indicators: [],
  },
  {
    name: 'variations',
    args: statsArgs(['date', 'net_revenue', 'orders_count', 'items_sold'], { ...PRODUCT_FILTERS, variations: idList('Limit result to items with specified variation ids.') }),
    compute: none(['items_sold', 'net_revenue', 'orders_count']),
    present: same(['items_sold', 'net_revenue', 'orders_count']),
    indicators: [{ field: 'items_sold', label: 'Variations Sold', format: 'number' }],
  },
  {
    name: 'coupons',
    args: statsArgs(['date', 'amount', 'coupons_count', 'orders_count'], { coupons: idList('Limit result set to coupons assigned specific coupon IDs.') }),
    compute: async (req, ctx, w) => couponSums(ctx.db, await itemFilter(req, ctx, w), req.params.interval as Interval),
    present: same(['amount', 'coupons_count', 'orders_count']),
    indicators: [
      { field: 'orders_count', label: 'Discounted orders', format: 'number' },
      { field: 'amount', label: 'Amount', format: 'currency' },
    ],
  },
  {
    name: 'taxes',
    args: statsArgs(['date', 'items_sold', 'total_sales', 'orders_count'], { taxes: idList('Limit result set to all items that have the specified term assigned in the taxes taxonomy.') }),
    compute: none(['total_tax', 'order_tax', 'shipping_tax', 'orders_count', 'tax_codes']),
    present: same(['total_tax', 'order_tax', 'shipping_tax', 'orders_count', 'tax_codes']),
    indicators: [
      { field: 'total_tax', label: 'Total tax', format: 'currency' },
      { field: 'order_tax', label: 'Order tax', format: 'currency' },
      { field: 'shipping_tax', label: 'Shipping tax', format: 'currency' },
    ],
  },
  {
    name: 'downloads',
    args: statsArgs(['date', 'download_count']),
    compute: none(['download_count']),
    present: same(['download_count']),
    indicators: [{ field: 'download_count', label: 'Downloads', format: 'number' }],
  },
];

/** The totals of one stats report over the request's window (as its route answers them). */
export async function reportTotals(report: StatsReport, req: RestRequest, ctx: AppContext): Promise<Record<string, unknown>> {
  const w = await statsWindow(req, ctx);
  const { totals, totalsExtra } = await report.compute(req, ctx, w);
  return { ...report.present(totals), ...totalsExtra };
}

async function stats(report: StatsReport, req: RestRequest, ctx: AppContext) {
  const w = await statsWindow(req, ctx);
  const { totalsExtra, ...answer } = await report.compute(req, ctx, w);
  return statsResponse(req, ctx, `reports/${report.name}/stats`, w, answer, report.present, totalsExtra);
}

export const statsRouteDefs: RouteDef<AppContext>[] = [
  ...STATS_REPORTS.map((report): RouteDef<AppContext> => ({
    path: `/reports/${report.name}/stats`,
    endpoints: [{ methods: READABLE, args: report.args, permission: canViewReports, handler: (req, ctx) => stats(report, req, ctx) }],
  })),
  { path: '/reports/customers', endpoints: customerRouteDefs[0]!.endpoints },
];
