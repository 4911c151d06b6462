/**
 * @module namespaces/shop-analytics/customers.present
 * A customer row as the original's customer report object.
 */
import type { AppContext } from '../../app-context.js';
import { ANALYTICS_NS, gmtToLocal, isoDate } from './common.js';
import type { CustomerRow } from './customers.repo.js';

const money = (n: unknown) => Math.round(Number(n ?? 0) * 1e6) / 1e6;

export function presentCustomer(ctx: Pick<AppContext, 'urls'>, row: CustomerRow, zone: string): Record<string, unknown> {
  const registered = row.date_registered_gmt || null;
  const active = row.date_last_active_gmt || null;
  const id = Number(row.customer_id);
  const userId = Number(row.user_id ?? 0);
  const out: Record<string, unknown> = {
    id,
    user_id: userId,
    username: row.username,
    name: row.name.trim(),
    email: row.email,
    country: row.country,
    city: row.city,
    state: row.state,
    postcode: row.postcode,
    date_registered: isoDate(registered && gmtToLocal(registered, zone)),
    date_registered_gmt: isoDate(registered),
    date_last_active: isoDate(active && gmtToLocal(active, zone)),
    date_last_active_gmt: isoDate(active),
    date_last_order: row.date_last_order ?? null,
    orders_count: Number(row.orders_count ?? 0),
    total_spend: money(row.total_spend),
    // The original's float cast turns a null average into 0.
    avg_order_value: Number(row.avg_order_value ?? 0),
  };
  if (userId > 0) {
    out._links = {
      customer: [{ href: ctx.urls.rest(`/${ANALYTICS_NS}/customers/${id}`) }],
      collection: [{ href: ctx.urls.rest(`/${ANALYTICS_NS}/customers`) }],
    };
  }
  return out;
}
