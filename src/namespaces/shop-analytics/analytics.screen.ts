/**
 * @module namespaces/shop-analytics/analytics.screen
 * `admin.php?page=wc-admin&path=/analytics/<report>`: the analytics screens the leaderboards link to
 * (customers, products, categories, coupons), each a table of the report as its REST route answers
 * it, narrowed to one item with the links' `filter=single_<x>&<x>=<id>` and to their date window.
 */
import { esc } from '../../admin/html.js';
import type { AdminScreen } from '../../admin/screens.js';

interface ReportScreen {
  title: string;
  route: string;
  /** The link's `filter` value and item parameter, and the route's argument that narrows to the item. */
  filter: string;
  param: string;
  arg: string;
  columns: readonly (readonly [label: string, path: string])[];
}

const REPORTS: Readonly<Record<string, ReportScreen>> = Object.freeze({
  '/analytics/customers': {
    title: 'Customers', route: '/shop-analytics/reports/customers', filter: 'single_customer', param: 'customers', arg: 'include',
    columns: [['Name', 'name'], ['Email', 'email'], ['Orders', 'orders_count'], ['Total spend', 'total_spend'], ['Last order', 'date_last_order']],
  },
  '/analytics/products': {
    title: 'Products', route: '/shop-analytics/reports/products', filter: 'single_product', param: 'products', arg: 'products',
    columns: [['Product', 'extended_info.name'], ['Items sold', 'items_sold'], ['Net sales', 'net_revenue'], ['Orders', 'orders_count']],
  },
  '/analytics/categories': {
    title: 'Categories', route: '/shop-analytics/reports/categories', filter: 'single_category', param: 'categories', arg: 'categories',
    columns: [['Category', 'extended_info.name'], ['Items sold', 'items_sold'], ['Net sales', 'net_revenue'], ['Orders', 'orders_count']],
  },
  '/analytics/coupons': {
    title: 'Coupons', route: '/shop-analytics/reports/coupons', filter: 'single_coupon', param: 'coupons', arg: 'coupons',
    columns: [['Coupon', 'extended_info.code'], ['Orders', 'orders_count'], ['Amount discounted', 'amount']],
  },
});

function at(item: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), item);
}

export const analyticsScreen: AdminScreen = {
  page: 'wc-admin',
  title: 'Analytics',
  capability: 'view_woocommerce_reports',
  async handle(_ctx, request) {
    const path = typeof request.query.path === 'string' ? request.query.path : '';
    const report = REPORTS[path];
    const menu = Object.entries(REPORTS).map(([p, r]) => `<a href="${esc(request.url({ path: p }))}">${esc(r.title)}</a>`).join(' · ');
    if (!report) return { body: `<p>${menu}</p><p>Choose a report.</p>`, status: path ? 404 : 200 };
    const query: Record<string, unknown> = { per_page: 100, extended_info: true };
    for (const k of ['after', 'before', 'orderby', 'order']) if (typeof request.query[k] === 'string') query[k] = request.query[k];
    const item = request.query[report.param];
    if (request.query.filter === report.filter && typeof item === 'string' && /^\d+(,\d+)*$/.test(item)) query[report.arg] = item;
    const answer = await request.rest(report.route, query);
    if ('error' in answer) return { body: `<p>${menu}</p><p>${esc(answer.error)}</p>`, status: 400 };
    const items = Array.isArray(answer.data) ? answer.data : [];
    const head = report.columns.map(([label]) => `<th scope="col">${esc(label)}</th>`).join('');
    const rows = items.map((row) => `<tr>${report.columns.map(([, p]) => `<td>${esc(at(row, p) ?? '')}</td>`).join('')}</tr>`).join('');
    const table = items.length ? `<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>` : '<p>No data for the selected date range.</p>';
    return { body: `<p>${menu}</p><h2>${esc(report.title)}</h2>${table}` };
  },
};
