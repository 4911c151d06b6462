/**
 * @module namespaces/shop-analytics
 * The shop analytics namespace `shop-analytics` (the original `wc-analytics`): customers,
 * leaderboards and reports computed from the ticket shop's orders, kept in step through the tickets
 * area's `orderChanged` extension point, and rebuilt on demand by `reports/import`.
 */
import { defineArea } from '../../area.js';
import { defineRoutes } from '../../rest/route.js';
import { ANALYTICS_NS, DEFAULT_EXCLUDED_STATUSES, EXCLUDED_STATUSES_OPTION } from './common.js';
import { customerRouteDefs } from './customers.routes.js';
import { IMPORT_JOB, runImport } from './import.service.js';
import { importRouteDefs } from './import.routes.js';
import { leaderboardRouteDefs } from './leaderboards.routes.js';
import { performanceIndicatorRouteDefs } from './performance-indicators.routes.js';
import { reportItemRouteDefs } from './report-items.routes.js';
import { reportIndexRouteDefs } from './reports.routes.js';
import { statsRouteDefs } from './stats.routes.js';
import { syncOrderById } from './sync.service.js';

export const shopAnalyticsRoutes = defineRoutes(ANALYTICS_NS, [...customerRouteDefs, ...leaderboardRouteDefs, ...reportIndexRouteDefs, ...performanceIndicatorRouteDefs, ...statsRouteDefs, ...reportItemRouteDefs, ...importRouteDefs]);

export const shopAnalyticsArea = defineArea({
  id: 'shop-analytics',
  title: 'Shop analytics',
  description: 'Customers, leaderboards and reports of the ticket shop, computed from its orders.',
  requires: ['tickets'],
  namespaces: [shopAnalyticsRoutes],
  jobs: { [IMPORT_JOB]: runImport },
  settings: { [EXCLUDED_STATUSES_OPTION]: { default: [...DEFAULT_EXCLUDED_STATUSES], description: 'Order statuses left out of analytics.' } },
  contributes: { orderChanged: (ctx, change) => syncOrderById(ctx, change.orderId, change.order) },
});

export { rebuildShopAnalytics } from './import.service.js';
