/**
 * @module namespaces/shop-analytics/reports.routes
 * `GET /reports`: the index of the report endpoints with their links, in the original's order.
 */
import type { AppContext } from '../../app-context.js';
import { READABLE, respond, type RouteDef } from '../../rest/route.js';
import { ANALYTICS_NS, canViewReports } from './common.js';

const REPORTS: readonly [string, string][] = [
  ['performance-indicators', 'Batch endpoint for getting specific performance indicators from `stats` endpoints.'],
  ['revenue/stats', 'Stats about revenue.'],
  ['orders/stats', 'Stats about orders.'],
  ['products', 'Products detailed reports.'],
  ['products/stats', 'Stats about products.'],
  ['variations', 'Variations detailed reports.'],
  ['variations/stats', 'Stats about variations.'],
  ['categories', 'Product categories detailed reports.'],
  ['categories/stats', 'Stats about product categories.'],
  ['coupons', 'Coupons detailed reports.'],
  ['coupons/stats', 'Stats about coupons.'],
  ['taxes', 'Taxes detailed reports.'],
  ['taxes/stats', 'Stats about taxes.'],
  ['downloads', 'Product downloads detailed reports.'],
  ['downloads/files', 'Product download files detailed reports.'],
  ['downloads/stats', 'Stats about product downloads.'],
  ['customers', 'Customers detailed reports.'],
];

function reportsIndex(ctx: AppContext) {
  const body = REPORTS.map(([slug, description]) => {
    const path = `/${ANALYTICS_NS}/reports/${slug}`;
    return {
      slug,
      description,
      path,
      _links: {
        self: [{ href: ctx.urls.rest(path) }],
        report: [{ href: `/analytics/${slug.replace(/\/stats$/, '')}` }],
        collection: [{ href: ctx.urls.rest(`/${ANALYTICS_NS}/reports`) }],
      },
    };
  });
  return respond(body, { headers: { 'X-WP-Total': String(body.length), 'X-WP-TotalPages': '1' } });
}

export const reportIndexRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/reports',
    endpoints: [
      {
        methods: READABLE,
        args: { context: { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: ['view'], default: 'view' } },
        permission: canViewReports,
        handler: (_req, ctx) => reportsIndex(ctx),
      },
    ],
  },
];
