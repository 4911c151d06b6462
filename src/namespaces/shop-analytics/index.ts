/**
 * @module namespaces/shop-analytics
 * The shop analytics namespace `shop-analytics` (the original `wc-analytics`): customers,
 * leaderboards and reports computed from the ticket shop's orders, kept in step through the tickets
 * area's `orderChanging`/`orderChanged` extension points (a queue emptied by a job and before every
 * read: see `sync.service.ts`), and rebuilt on demand by `reports/import`.
 */
import type { AppContext } from '../../app-context.js';
import { defineArea } from '../../area.js';
import { defineRoutes, type RouteDef } from '../../rest/route.js';
import { ANALYTICS_NS, DEFAULT_EXCLUDED_STATUSES, EXCLUDED_STATUSES_OPTION } from './common.js';
import { customerRouteDefs } from './customers.routes.js';
import { IMPORT_JOB, runImport } from './import.service.js';
import { importRouteDefs } from './import.routes.js';
import { leaderboardRouteDefs } from './leaderboards.routes.js';
import { performanceIndicatorRouteDefs } from './performance-indicators.routes.js';
import { reportItemRouteDefs } from './report-items.routes.js';
import { reportIndexRouteDefs } from './reports.routes.js';
import { statsRouteDefs } from './stats.routes.js';
import { queueOrderSync, runSyncJob, scheduleOrderSync, syncQueuedOrders, SYNC_JOB } from './sync.service.js';
import { analyticsScreen } from './analytics.screen.js';

/**
 * The routes with every read syncing the queued orders first, so a report shows each committed order.
 * A sync that fails (a PostgreSQL deadlock with an import) is logged and the read answers from the
 * rows there; the queue keeps the orders for the job.
 */
function readingSynced(defs: readonly RouteDef<AppContext>[]): RouteDef<AppContext>[] {
  const synced = (ctx: AppContext) => syncQueuedOrders(ctx).catch((err: unknown) => ctx.log.warn({ err }, 'shop analytics: could not sync queued orders before a read'));
  return defs.map((def) => ({
    ...def,
    endpoints: def.endpoints.map((e) => (e.methods.includes('GET') ? { ...e, handler: async (req, ctx) => (await synced(ctx), e.handler(req, ctx)) } : e)),
  }));
}

export const shopAnalyticsRoutes = defineRoutes(
  ANALYTICS_NS,
  readingSynced([...customerRouteDefs, ...leaderboardRouteDefs, ...reportIndexRouteDefs, ...performanceIndicatorRouteDefs, ...statsRouteDefs, ...reportItemRouteDefs, ...importRouteDefs]),
);

export const shopAnalyticsArea = defineArea({
  id: 'shop-analytics',
  title: 'Shop analytics',
  description: 'Customers, leaderboards and reports of the ticket shop, computed from its orders.',
  requires: ['tickets'],
  namespaces: [shopAnalyticsRoutes],
  jobs: { [IMPORT_JOB]: runImport, [SYNC_JOB]: runSyncJob },
  // A sweep for orders queued by a process that stopped before it scheduled their sync.
  schedules: [{ name: SYNC_JOB, kind: SYNC_JOB, every: '5m' }],
  settings: { [EXCLUDED_STATUSES_OPTION]: { default: [...DEFAULT_EXCLUDED_STATUSES], description: 'Order statuses left out of analytics.' } },
  contributes: { adminScreens: analyticsScreen, orderChanging: (trx, change) => queueOrderSync(trx, change.orderId), orderChanged: (ctx) => scheduleOrderSync(ctx) },
});

export { rebuildShopAnalytics } from './import.service.js';
