/**
 * @module namespaces/shop-analytics/common
 * What the analytics modules share: the namespace, the statuses left out of the numbers, the site's
 * time zone conversions and the permission checks with the original's error codes.
 */
import type { AppContext } from '../../app-context.js';
import { fromDbDate, siteTimeZone, toDbDate } from '../../content/posts.js';
import type { Permission } from '../../rest/route.js';
import { AnalyticsErrors } from './errors.js';

export const ANALYTICS_NS = 'shop-analytics';

/** Site option: order statuses left out of analytics (the original's `woocommerce_excluded_report_order_statuses`). */
export const EXCLUDED_STATUSES_OPTION = 'shop_excluded_report_order_statuses';
export const DEFAULT_EXCLUDED_STATUSES: readonly string[] = Object.freeze(['pending', 'failed', 'cancelled']);

/** The statuses left out of the aggregates. */
export async function excludedStatuses(ctx: Pick<AppContext, 'options'>): Promise<string[]> {
  const value = await ctx.options.get<unknown>(EXCLUDED_STATUSES_OPTION, [...DEFAULT_EXCLUDED_STATUSES]);
  return Array.isArray(value) ? value.map(String).sort() : [...DEFAULT_EXCLUDED_STATUSES];
}

/** A UTC `YYYY-MM-DD HH:MM:SS` in the site's time zone. */
export function gmtToLocal(gmt: string, zone: string): string {
  const dt = fromDbDate(gmt, 'UTC');
  return dt ? toDbDate(dt.setZone(zone)) : gmt;
}

/** A site-local `YYYY-MM-DD HH:MM:SS` in UTC. */
export function localToGmt(local: string, zone: string): string {
  const dt = fromDbDate(local, zone);
  return dt ? toDbDate(dt.toUTC()) : local;
}

export { siteTimeZone };

/** `YYYY-MM-DD HH:MM:SS` → `YYYY-MM-DDTHH:MM:SS`; null for empty or zero dates. */
export function isoDate(text: string | null | undefined): string | null {
  if (!text || text.startsWith('0000')) return null;
  return text.replace(' ', 'T');
}

/** Report routes: `view_woocommerce_reports`, else `woocommerce_rest_cannot_view` (401/403). */
export const canViewReports: Permission = (req) =>
  req.user?.can('view_woocommerce_reports') ? true : AnalyticsErrors.cannotList(req);

/** Leaderboards: `view_woocommerce_reports` or `manage_woocommerce`. */
export const canViewLeaderboards: Permission = (req) =>
  req.user?.can('view_woocommerce_reports') || req.user?.can('manage_woocommerce')
    ? true
    : AnalyticsErrors.cannotList(req);

/** Import routes: `manage_woocommerce`, else `woocommerce_rest_cannot_edit` (401/403). */
export const canManageImport: Permission = (req) =>
  req.user?.can('manage_woocommerce') ? true : AnalyticsErrors.cannotEdit(req);
