/**
 * @module namespaces/shop-analytics/import.service
 * `reports/import`: rebuilds the analytics tables from the ticketing orders as a background job, with
 * progress, cancellation and deletion as the original's report sync offers them. The run's state is
 * one site option; a run stops at its next page when it is cancelled or replaced by a newer run.
 */
import crypto from 'node:crypto';
import { DateTime } from 'luxon';
import { sql } from 'kysely';
import { refreshPlannerStatistics } from '../../storage/dialect.js';
import type { AppContext } from '../../app-context.js';
import { toDbDate } from '../../content/posts.js';
import { countOrders, listOrders } from '../tickets/index.js';
import { excludedStatuses, siteTimeZone } from './common.js';
import { ensureAggregatesBasis, refreshAggregates, writeOrders } from './sync.service.js';

export const IMPORT_JOB = 'shop-analytics.import';
const STATE_OPTION = 'shop_analytics_import';
const PAGE = 500;

export interface ImportPayload {
  run: string;
  days: number | null;
  skipExisting: boolean;
}

export interface ImportState {
  status: 'idle' | 'importing';
  run: string;
  /** Site-local start of the window (`YYYY-MM-DD 00:00:00`), or `beginning`. */
  importedFrom: string;
  orders: { imported: number; total: number };
  customers: { imported: number; total: number };
}

const IDLE: ImportState = { status: 'idle', run: '', importedFrom: '', orders: { imported: 0, total: 0 }, customers: { imported: 0, total: 0 } };

export const IMPORT_MESSAGES = {
  scheduled: 'Report table data is being rebuilt.  Please allow some time for data to fully populate.',
  inProgress: 'An import is already in progress.  Please allow the previous import to complete before beginning a new one.',
  cancelled: 'All pending and in-progress import actions have been cancelled.',
  deleted: 'Report table data is being deleted.',
} as const;

export async function importState(ctx: AppContext): Promise<ImportState> {
  return { ...IDLE, ...(await ctx.options.get<Partial<ImportState>>(STATE_OPTION, {})) };
}

/** Start of the window of the last `days` days (site-local midnight), in UTC and local text. */
async function windowStart(ctx: AppContext, days: number | null): Promise<{ gmt?: string; local: string }> {
  if (!days) return { local: 'beginning' };
  const zone = await siteTimeZone(ctx.options);
  const start = DateTime.fromJSDate(ctx.now()).setZone(zone).minus({ days }).startOf('day');
  return { gmt: toDbDate(start.toUTC()), local: toDbDate(start) };
}

/**
 * What a run of `days` would import. With `skipExisting`, as in the original, only the orders not in
 * the analytics tables yet, and of their customers those without a lookup row.
 */
export async function importTotals(ctx: AppContext, days: number | null, skipExisting = false): Promise<{ customers: number; orders: number }> {
  const from = await windowStart(ctx, days);
  if (!skipExisting) {
    const n = await countOrders(ctx.db, from.gmt);
    return { customers: n.customers, orders: n.orders };
  }
  const window = from.gmt ? sql`AND o.created_gmt >= ${from.gmt}` : sql``;
  const known = sql`EXISTS (SELECT 1 FROM shop_customer_lookup c WHERE (o.customer_user_id > 0 AND c.user_id = o.customer_user_id) OR (o.customer_user_id <= 0 AND c.guest_email = lower(o.customer_email)))`;
  const key = sql`CASE WHEN o.customer_user_id > 0 THEN CAST(o.customer_user_id AS varchar(20)) ELSE '@' || lower(o.customer_email) END`;
  const result = await sql<{ orders: number; customers: number }>`SELECT count(*) AS orders, count(DISTINCT CASE WHEN ${known} THEN NULL ELSE ${key} END) AS customers
    FROM ticket_orders o
    WHERE NOT EXISTS (SELECT 1 FROM shop_order_stats s WHERE s.order_id = o.order_id AND s.is_refund = 0) ${window}`.execute(ctx.db);
  const row = result.rows[0];
  return { customers: Number(row?.customers ?? 0), orders: Number(row?.orders ?? 0) };
}

/** How a run reaches the jobs runner (tests may hold it back). */
export type ImportScheduler = (ctx: AppContext, payload: ImportPayload) => Promise<void>;

export const enqueueImport: ImportScheduler = async (ctx, payload) => {
  await ctx.jobs.enqueue(IMPORT_JOB, payload, { dedupeKey: `${IMPORT_JOB}:${payload.run}`, maxAttempts: 3 });
};

/** Records a new run and schedules it; an error message when one is already running. */
export async function startImport(ctx: AppContext, days: number | null, skipExisting: boolean, schedule: ImportScheduler = enqueueImport): Promise<string | undefined> {
  if ((await importState(ctx)).status === 'importing') return IMPORT_MESSAGES.inProgress;
  const from = await windowStart(ctx, days);
  const totals = await importTotals(ctx, days, skipExisting);
  const payload: ImportPayload = { run: crypto.randomUUID(), days, skipExisting };
  const state: ImportState = {
    status: 'importing',
    run: payload.run,
    importedFrom: from.local,
    orders: { imported: 0, total: totals.orders },
    customers: { imported: 0, total: totals.customers },
  };
  await ctx.options.set(STATE_OPTION, state);
  await schedule(ctx, payload);
  return undefined;
}

/** The job handler: writes every order of the window, page by page, then the customers' aggregates. */
export async function runImport(ctx: AppContext, raw: unknown): Promise<void> {
  const payload = raw as ImportPayload;
  const current = async () => {
    ctx.options.clearCache();
    const s = await importState(ctx);
    return s.status === 'importing' && s.run === payload.run ? s : undefined;
  };
  let state = await current();
  if (!state) return;
  const zone = await siteTimeZone(ctx.options);
  const from = await windowStart(ctx, payload.days);
  const customers = new Set<number>();
  let afterId = 0;
  let imported = 0;
  for (;;) {
    const orders = await listOrders(ctx.db, { afterId, limit: PAGE, createdFromGmt: from.gmt });
    if (orders.length === 0) break;
    afterId = orders.at(-1)!.id;
    let todo = orders;
    if (payload.skipExisting) {
      const have = await ctx.db.selectFrom('shop_order_stats').select('order_id').where('is_refund', '=', 0).where('order_id', 'in', orders.map((o) => o.id)).execute();
      const skip = new Set(have.map((r) => Number(r.order_id)));
      todo = orders.filter((o) => !skip.has(o.id));
    }
    await ctx.db.transaction().execute(async (trx) => {
      for (const id of await writeOrders(trx, todo, zone)) customers.add(id);
    });
    imported += todo.length;
    state = await current();
    if (!state) return; // cancelled or replaced
    await ctx.options.set(STATE_OPTION, { ...state, orders: { ...state.orders, imported }, customers: { ...state.customers, imported: customers.size } });
  }
  await refreshAggregates(ctx.db, await excludedStatuses(ctx), 'all');
  state = await current();
  if (state) await ctx.options.set(STATE_OPTION, { ...state, status: 'idle', orders: { ...state.orders, imported }, customers: { ...state.customers, imported: customers.size } });
}

/**
 * Writes every order into the analytics tables at once, outside the jobs runner (seeding, scripts):
 * pages of orders, each page in one transaction, then every customer's aggregates.
 */
export async function rebuildShopAnalytics(ctx: AppContext, options: { pageSize?: number; onProgress?: (done: number, total: number) => void } = {}): Promise<{ orders: number; customers: number }> {
  const zone = await siteTimeZone(ctx.options);
  const total = (await countOrders(ctx.db)).orders;
  const customers = new Set<number>();
  let afterId = 0;
  let done = 0;
  for (;;) {
    const orders = await listOrders(ctx.db, { afterId, limit: options.pageSize ?? 2000 });
    if (orders.length === 0) break;
    afterId = orders.at(-1)!.id;
    await ctx.db.transaction().execute(async (trx) => {
      for (const id of await writeOrders(trx, orders, zone)) customers.add(id);
    });
    done += orders.length;
    options.onProgress?.(done, total);
  }
  await ensureAggregatesBasis(ctx);
  await refreshAggregates(ctx.db, await excludedStatuses(ctx), 'all');
  // The tables were rewritten wholesale: fresh planner statistics.
  await refreshPlannerStatistics(ctx.db, ['shop_customer_lookup', 'shop_order_stats', 'shop_order_product_lookup', 'shop_order_coupon_lookup']);
  return { orders: done, customers: customers.size };
}

/** Stops the current run (it ends at its next page). */
export async function cancelImport(ctx: AppContext): Promise<void> {
  const state = await importState(ctx);
  await ctx.options.set(STATE_OPTION, { ...state, status: 'idle' });
}

/** Stops any run and empties the analytics tables (and the sync queue: orders changed before the deletion stay out). */
export async function deleteReportData(ctx: AppContext): Promise<void> {
  await cancelImport(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    for (const table of ['shop_order_sync_queue', 'shop_order_coupon_lookup', 'shop_order_product_lookup', 'shop_order_stats', 'shop_customer_lookup'] as const) await trx.deleteFrom(table).execute();
  });
  await ctx.options.set(STATE_OPTION, IDLE);
}
