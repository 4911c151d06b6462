/**
 * @module namespaces/shop-analytics/performance-indicators.routes
 * `reports/performance-indicators` (the store's key numbers over a window, each the total of one
 * stats report) and `reports/performance-indicators/allowed`, in the original's fixed order: the
 * indicators every stats report marks, each report computed once per request.
 */
import type { AppContext } from '../../app-context.js';
import { READABLE, respond, type ArgSchema, type RestRequest, type RouteDef } from '../../rest/route.js';
import { ANALYTICS_NS, canViewReports } from './common.js';
import { AnalyticsErrors } from './errors.js';
import { reportTotals, STATS_REPORTS, type Indicator, type StatsReport } from './stats.routes.js';

/** The original's display order; indicators it does not list follow in report order. */
const ORDER = [
  'revenue/total_sales', 'revenue/net_revenue', 'orders/orders_count', 'orders/avg_order_value', 'products/items_sold', 'revenue/refunds',
  'coupons/orders_count', 'coupons/amount', 'taxes/total_tax', 'taxes/order_tax', 'taxes/shipping_tax', 'revenue/shipping', 'downloads/download_count',
];

interface Allowed extends Indicator {
  stat: string;
  report: StatsReport;
}

const rank = (stat: string) => (ORDER.includes(stat) ? ORDER.indexOf(stat) : ORDER.length);
const ALLOWED: readonly Allowed[] = STATS_REPORTS.flatMap((report) => report.indicators.map((i) => ({ ...i, stat: `${report.name}/${i.field}`, report })))
  .map((a, n) => ({ a, n }))
  .sort((x, y) => rank(x.a.stat) - rank(y.a.stat) || x.n - y.n)
  .map(({ a }) => a);

const ARGS: Record<string, ArgSchema> = {
  context: { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: ['view'], default: 'view' },
  stats: {
    description: `Limit response to specific report stats. Allowed values: ${ALLOWED.map((a) => a.stat).join(', ')}.`,
    type: 'array',
    items: { type: 'string', enum: ALLOWED.map((a) => a.stat) },
  },
  after: { description: 'Limit response to resources published after a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
  before: { description: 'Limit response to resources published before a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
};

function links(ctx: AppContext, a: Allowed) {
  return {
    api: [{ href: ctx.urls.rest(`/${ANALYTICS_NS}/reports/${a.report.name}/stats`) }],
    report: [{ href: `/analytics/${a.report.name}` }],
  };
}

const headers = (n: number) => ({ 'X-WP-Total': String(n), 'X-WP-TotalPages': '1' });

async function indicators(req: RestRequest, ctx: AppContext) {
  const asked = Array.isArray(req.params.stats) ? new Set((req.params.stats as unknown[]).map(String)) : new Set<string>();
  if (asked.size === 0) throw AnalyticsErrors.emptyIndicatorQuery();
  const totals = new Map<StatsReport, Record<string, unknown>>();
  const body = [];
  for (const a of ALLOWED.filter((x) => asked.has(x.stat))) {
    if (!totals.has(a.report)) totals.set(a.report, await reportTotals(a.report, { ...req, params: { ...req.params, interval: 'year', page: 1, per_page: 1 } }, ctx));
    const value = totals.get(a.report)![a.field];
    body.push({ stat: a.stat, chart: a.field, label: a.label, format: a.format, value: value ?? null, _links: links(ctx, a) });
  }
  return respond(body, { headers: headers(body.length) });
}

function allowed(ctx: AppContext) {
  const body = ALLOWED.map((a) => ({ stat: a.stat, chart: a.field, label: a.label, _links: links(ctx, a) }));
  return respond(body, { headers: headers(body.length) });
}

export const performanceIndicatorRouteDefs: RouteDef<AppContext>[] = [
  { path: '/reports/performance-indicators', endpoints: [{ methods: READABLE, args: ARGS, permission: canViewReports, handler: indicators }] },
  { path: '/reports/performance-indicators/allowed', endpoints: [{ methods: READABLE, args: ARGS, permission: canViewReports, handler: (_req, ctx) => allowed(ctx) }] },
];
