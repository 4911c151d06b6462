/**
 * @module namespaces/shop-analytics
 * The shop analytics namespace `shop-analytics` (the original `wc-analytics`): customers,
 * leaderboards and reports computed from the ticket shop's orders, kept in step through the tickets
 * area's `orderChanged` extension point, and rebuilt on demand by `reports/import`.
 */
import { defineArea } from '../../area.js';
import { defineRoutes } from '../../rest/route.js';
import { ANALYTICS_NS } from './common.js';
import { customerRouteDefs } from './customers.routes.js';
import { syncOrderById } from './sync.service.js';

export const shopAnalyticsRoutes = defineRoutes(ANALYTICS_NS, [...customerRouteDefs]);

export const shopAnalyticsArea = defineArea({
  id: 'shop-analytics',
  title: 'Shop analytics',
  description: 'Customers, leaderboards and reports of the ticket shop, computed from its orders.',
  requires: ['tickets'],
  namespaces: [shopAnalyticsRoutes],
  contributes: { orderChanged: (ctx, change) => syncOrderById(ctx, change.orderId) },
});
