/**
 * @module namespaces/shop-analytics/common
 * What the analytics modules share: the namespace, the statuses left out of the numbers, the site's
 * time zone conversions and the permission checks with the original's error codes.
 */
import { DateTime } from 'luxon';
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
  // As the original: saved slugs are trimmed and blank ones dropped; a saved empty list stays empty.
  return Array.isArray(value) ? value.map((v) => String(v).trim()).filter((v) => v !== '').sort() : [...DEFAULT_EXCLUDED_STATUSES];
}

const DB_TEXT = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A UTC `YYYY-MM-DD HH:MM:SS` in the site's time zone. Well-formed text takes a direct path (the
 * order sync converts three dates an order, and luxon's format parser is most of that cost); anything
 * else goes through the parser as before, with the same answer.
 */
export function gmtToLocal(gmt: string, zone: string): string {
  const m = DB_TEXT.exec(gmt);
  if (m) {
    const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
    const ms = Date.UTC(year, month - 1, day, hour, minute, second);
    const utc = new Date(ms);
    // Date.UTC rolls impossible dates over (Feb 30): those, and years before 100, which it reads as 19xx, take the parser.
    if (year >= 100 && utc.getUTCDate() === day && utc.getUTCMonth() === month - 1 && hour < 24 && minute < 60 && second < 60) {
      const dt = DateTime.fromMillis(ms, { zone });
      if (dt.isValid) return `${pad(dt.year, 4)}-${pad(dt.month)}-${pad(dt.day)} ${pad(dt.hour)}:${pad(dt.minute)}:${pad(dt.second)}`;
    }
  }
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
