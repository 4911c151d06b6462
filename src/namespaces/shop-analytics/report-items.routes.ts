/**
 * @module namespaces/shop-analytics/report-items.routes
 * The per-item reports the reports index links to: `products` (tickets), `categories` (event
 * categories), `coupons`, and `variations`, `taxes`, `downloads`, `downloads/files`. The ticket shop
 * sells no variations, charges no taxes and has no downloadable files, so those four answer, truthfully,
 * an empty list with zero totals — the same answer the original gives a store without them.
 * Links point at routes that exist here: a product at its ticket, a category at the events area's
 * category; coupons have no REST route in this product, so their rows carry no link.
 */
import type { AppContext } from '../../app-context.js';
import { toDbDate } from '../../content/posts.js';
import { paginationHeaders } from '../../rest/pagination.js';
import { READABLE, respond, type ArgSchema, type RestRequest, type RouteDef } from '../../rest/route.js';
import { EVENTS_NS } from '../events/index.js';
import { TICKETS_NS } from '../tickets/index.js';
import { ANALYTICS_NS, canViewReports, excludedStatuses, gmtToLocal, siteTimeZone } from './common.js';
import { categoryRows, couponRows, productRows, type ItemFilter, type ItemPage } from './report-items.repo.js';
import { dateBounds, idListArg as idList, idsOf as ids, reportArgs } from './report-stats.js';
import { productInfo } from './product-info.js';

const ORDER_STATUSES = ['pending', 'completed', 'refunded', 'cancelled'] as const;


const EXTENDED_INFO: ArgSchema = { description: 'Add additional piece of info about each item to the report.', type: 'boolean', default: false };
const MATCH: ArgSchema = { description: 'Indicates whether all the conditions should be true for the resulting set, or if any one of them is sufficient.', type: 'string', default: 'all', enum: ['all', 'any'] };
const statusList = (description: string): ArgSchema => ({ description, type: 'array', items: { type: 'string', enum: [...ORDER_STATUSES] } });

const PRODUCT_ARGS = reportArgs(['date', 'net_revenue', 'orders_count', 'items_sold', 'product_name', 'variations', 'sku'], 'date', {
  categories: idList('Limit result to items from the specified categories.'),
  match: MATCH,
  products: idList('Limit result to items with specified product ids.'),
  extended_info: EXTENDED_INFO,
});
const CATEGORY_ARGS = reportArgs(['category_id', 'items_sold', 'net_revenue', 'orders_count', 'products_count', 'category'], 'category_id', {
  status_is: statusList('Limit result set to items that have the specified order status.'),
  status_is_not: statusList("Limit result set to items that don't have the specified order status."),
  categories: idList('Limit result set to all items that have the specified term assigned in the categories taxonomy.'),
  extended_info: EXTENDED_INFO,
});
const COUPON_ARGS = reportArgs(['coupon_id', 'code', 'amount', 'orders_count'], 'coupon_id', {
  coupons: idList('Limit result set to coupons assigned specific coupon IDs.'),
  extended_info: EXTENDED_INFO,
});
const VARIATION_ARGS = reportArgs(['date', 'net_revenue', 'orders_count', 'items_sold', 'sku'], 'date', {
  match: MATCH,
  product_includes: idList('Limit result set to items that have the specified parent product(s).'),
  product_excludes: idList('Limit result set to items that don\'t have the specified parent product(s).'),
  variations: idList('Limit result to items with specified variation ids.'),
  extended_info: EXTENDED_INFO,
});
const TAX_ARGS = reportArgs(['name', 'tax_rate_id', 'tax_code', 'rate', 'order_tax', 'total_tax', 'shipping_tax', 'orders_count'], 'tax_rate_id', {
  taxes: idList('Limit result set to items assigned one or more tax rates.'),
});
const DOWNLOAD_ARGS = reportArgs(['date', 'product'], 'date', { match: MATCH, product_includes: idList('Limit result set to items that have the specified product(s) assigned.') });


/** The filters of an item report; without `after`/`before` it covers all history. */
async function filterOf(req: RestRequest, ctx: AppContext): Promise<ItemFilter> {
  const p = req.params;
  const { after, before } = await dateBounds(req, ctx);
  const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return {
    excluded: await excludedStatuses(ctx),
    window: { after: after && toDbDate(after), before: before && toDbDate(before) },
    match: p.match === 'any' ? 'any' : 'all',
    products: ids(p.products),
    categories: ids(p.categories),
    coupons: ids(p.coupons),
    statusIs: strings(p.status_is),
    statusIsNot: strings(p.status_is_not),
  };
}

const pageOf = (req: RestRequest): ItemPage => ({
  orderby: String(req.params.orderby),
  order: req.params.order === 'asc' ? 'asc' : 'desc',
  page: Number(req.params.page),
  perPage: Number(req.params.per_page),
});

function listResponse(req: RestRequest, ctx: AppContext, path: string, body: unknown[], total: number) {
  return respond(body, { headers: paginationHeaders(req, ctx.urls.rest(`/${ANALYTICS_NS}/reports/${path}`), { total, page: Number(req.params.page), perPage: Number(req.params.per_page) }) });
}

async function products(req: RestRequest, ctx: AppContext) {
  const { rows, total } = await productRows(ctx.db, await filterOf(req, ctx), pageOf(req));
  const info = req.params.extended_info === true ? await productInfo(ctx, rows.map((r) => r.product_id)) : undefined;
  const body = rows.map((r) => ({
    ...r,
    extended_info: info?.get(r.product_id) ?? {},
    _links: { product: [{ href: ctx.urls.rest(`/${TICKETS_NS}/tickets/${r.product_id}`) }] },
  }));
  return listResponse(req, ctx, 'products', body, total);
}

async function categories(req: RestRequest, ctx: AppContext) {
  const { rows, total } = await categoryRows(ctx.db, await filterOf(req, ctx), pageOf(req));
  const body = rows.map(({ name, ...r }) => ({
    ...r,
    extended_info: req.params.extended_info === true ? { name } : {},
    _links: { category: [{ href: ctx.urls.rest(`/${EVENTS_NS}/categories/${r.category_id}`) }] },
  }));
  return listResponse(req, ctx, 'categories', body, total);
}

async function coupons(req: RestRequest, ctx: AppContext) {
  const { rows, total } = await couponRows(ctx.db, await filterOf(req, ctx), pageOf(req));
  let info = new Map<number, Record<string, unknown>>();
  if (req.params.extended_info === true && rows.length > 0) {
    const zone = await siteTimeZone(ctx.options);
    const iso = (gmt: string, local: boolean) => (gmt ? (local ? gmtToLocal(gmt, zone) : gmt).replace(' ', 'T') : '');
    const found = await ctx.db.selectFrom('ticket_coupons').selectAll().where('id', 'in', rows.map((r) => r.coupon_id)).execute();
    info = new Map(found.map((c) => [Number(c.id), {
      code: c.code,
      date_created: iso(c.created_gmt, true),
      date_created_gmt: iso(c.created_gmt, false),
      date_expires: iso(c.expires_gmt, true),
      date_expires_gmt: iso(c.expires_gmt, false),
      discount_type: c.discount_type,
    }]));
  }
  return listResponse(req, ctx, 'coupons', rows.map((r) => ({ ...r, extended_info: info.get(r.coupon_id) ?? {} })), total);
}

/** A report of things the ticket shop does not have: always empty. */
const nothing = (path: string) => (req: RestRequest, ctx: AppContext) => listResponse(req, ctx, path, [], 0);

export const reportItemRouteDefs: RouteDef<AppContext>[] = [
  { path: '/reports/products', endpoints: [{ methods: READABLE, args: PRODUCT_ARGS, permission: canViewReports, handler: products }] },
  { path: '/reports/categories', endpoints: [{ methods: READABLE, args: CATEGORY_ARGS, permission: canViewReports, handler: categories }] },
  { path: '/reports/coupons', endpoints: [{ methods: READABLE, args: COUPON_ARGS, permission: canViewReports, handler: coupons }] },
  { path: '/reports/variations', endpoints: [{ methods: READABLE, args: VARIATION_ARGS, permission: canViewReports, handler: nothing('variations') }] },
  { path: '/reports/taxes', endpoints: [{ methods: READABLE, args: TAX_ARGS, permission: canViewReports, handler: nothing('taxes') }] },
  { path: '/reports/downloads', endpoints: [{ methods: READABLE, args: DOWNLOAD_ARGS, permission: canViewReports, handler: nothing('downloads') }] },
  { path: '/reports/downloads/files', endpoints: [{ methods: READABLE, args: DOWNLOAD_ARGS, permission: canViewReports, handler: nothing('downloads/files') }] },
];
