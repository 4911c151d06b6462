/**
 * @module namespaces/shop-analytics/customers.routes
 * `GET /customers` and `GET /customers/{id}` (the original's `wc-analytics/customers`): the filter
 * arguments of the spec's table, turned into a {@link CustomerQuery}.
 */
import type { AppContext } from '../../app-context.js';
import { parseDateTime, toDbDate } from '../../content/posts.js';
import { paginationHeaders, totalPages } from '../../rest/pagination.js';
import { parseList } from '../../rest/php-query.js';
import { READABLE, respond, type ArgSchema, type RestRequest, type RouteDef } from '../../rest/route.js';
import { ANALYTICS_NS, canViewReports, excludedStatuses, siteTimeZone } from './common.js';
import { presentCustomer } from './customers.present.js';
import { FILTER_EMPTY, ORDERBY, queryCustomers, SEARCHBY, type CustomerQuery, type DateRange, type Range } from './customers.repo.js';
import { ensureAggregatesBasis } from './sync.service.js';

const dateTime = (description: string): ArgSchema => ({ description, type: 'string', format: 'date-time' });

/** `_between` of numbers: exactly two numeric values (the original's `rest_validate_between_numeric_arg`). */
function betweenNumbers(value: unknown, _req: RestRequest, name: string): true | string {
  const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.values(value) : undefined;
  if (!list) return `${name} is not a numerically indexed array.`;
  if (list.length !== 2 || !list.every((v) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))))) {
    return `${name} must contain 2 numbers.`;
  }
  return true;
}

/** `_between` of dates: exactly two dates (`rest_validate_between_date_arg`). */
function betweenDates(value: unknown, _req: RestRequest, name: string): true | string {
  const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.values(value) : undefined;
  if (!list) return `${name} is not a numerically indexed array.`;
  if (list.length !== 2 || !list.every((v) => typeof v === 'string' && parseDateTime(v, 'UTC', new Date(0)) !== undefined)) return `${name} must contain 2 valid dates.`;
  return true;
}

const idList = (description: string): ArgSchema => ({ description, type: 'string' });

/** The customer filters (the spec's table), in its order. */
export const CUSTOMER_ARGS: Record<string, ArgSchema> = {
  context: { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: ['view', 'edit'], default: 'view' },
  page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
  per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 },
  after: dateTime('Limit response to resources with orders published after a given ISO8601 compliant date.'),
  before: dateTime('Limit response to resources with orders published before a given ISO8601 compliant date.'),
  order: { description: 'Order sort attribute ascending or descending.', type: 'string', default: 'desc', enum: ['asc', 'desc'] },
  orderby: { description: 'Sort collection by object attribute.', type: 'string', default: 'date_registered', enum: [...ORDERBY] },
  force_cache_refresh: { description: 'Force retrieval of fresh data instead of from the cache.', type: 'boolean' },
  registered_before: dateTime('Limit response to objects registered before (or at) a given ISO8601 compliant datetime.'),
  registered_after: dateTime('Limit response to objects registered after (or at) a given ISO8601 compliant datetime.'),
  last_active_before: dateTime('Limit response to objects last active before (or at) a given ISO8601 compliant datetime.'),
  last_active_after: dateTime('Limit response to objects last active after (or at) a given ISO8601 compliant datetime.'),
  last_order_before: dateTime('Limit response to objects with last order before (or at) a given ISO8601 compliant datetime.'),
  last_order_after: dateTime('Limit response to objects with last order after (or at) a given ISO8601 compliant datetime.'),
  registered_between: { description: 'Limit response to objects last active between two given ISO8601 compliant datetime.', type: 'array', items: { type: 'string' }, validate: betweenDates },
  last_active_between: { description: 'Limit response to objects last active between two given ISO8601 compliant datetime.', type: 'array', items: { type: 'string' }, validate: betweenDates },
  match: { description: 'Indicates whether all the conditions should be true for the resulting set, or if any one of them is sufficient. Match affects the following parameters: status_is, status_is_not, product_includes, product_excludes, coupon_includes, coupon_excludes, customer, categories', type: 'string', default: 'all', enum: ['all', 'any'] },
  search: { description: 'Limit response to objects with a customer field containing the search term. Searches the field provided by `searchby`.', type: 'string' },
  searchby: { description: 'Limit results with `search` and `searchby` to specific fields containing the search term.', type: 'string', default: 'name', enum: [...SEARCHBY] },
  name_includes: idList('Limit response to objects with specfic names.'),
  name_excludes: idList('Limit response to objects excluding specfic names.'),
  username_includes: idList('Limit response to objects with specfic usernames.'),
  username_excludes: idList('Limit response to objects excluding specfic usernames.'),
  email_includes: idList('Limit response to objects including emails.'),
  email_excludes: idList('Limit response to objects excluding emails.'),
  country_includes: { description: 'Limit response to objects with specfic countries.', type: 'string' },
  country_excludes: { description: 'Limit response to objects excluding specfic countries.', type: 'string' },
  orders_count_min: { description: 'Limit response to objects with an order count greater than or equal to given integer.', type: 'integer' },
  orders_count_max: { description: 'Limit response to objects with an order count less than or equal to given integer.', type: 'integer' },
  orders_count_between: { description: 'Limit response to objects with an order count between two given integers.', type: 'array', items: { type: 'integer' }, validate: betweenNumbers },
  total_spend_min: { description: 'Limit response to objects with a total order spend greater than or equal to given number.', type: 'number' },
  total_spend_max: { description: 'Limit response to objects with a total order spend less than or equal to given number.', type: 'number' },
  total_spend_between: { description: 'Limit response to objects with a total order spend between two given numbers.', type: 'array', items: { type: 'integer' }, validate: betweenNumbers },
  avg_order_value_min: { description: 'Limit response to objects with an average order spend greater than or equal to given number.', type: 'number' },
  avg_order_value_max: { description: 'Limit response to objects with an average order spend less than or equal to given number.', type: 'number' },
  avg_order_value_between: { description: 'Limit response to objects with an average order spend between two given numbers.', type: 'array', items: { type: 'integer' }, validate: betweenNumbers },
  users: { description: 'Limit result to items with specified user ids.', type: 'array', items: { type: 'integer' } },
  include: { description: 'Limit result to items with specified customer ids.', type: 'array', items: { type: 'integer' } },
  filter_empty: { description: 'Filter out results where any of the passed fields are empty', type: 'array', items: { type: 'string', enum: [...FILTER_EMPTY] } },
};

/**
 * A date argument as a comparable `YYYY-MM-DD HH:MM:SS` in UTC (`gmt`) or in the site's zone;
 * relative dates count from `now` (the app's clock).
 */
function dateText(value: unknown, zone: string, as: 'gmt' | 'local', now: Date): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const dt = parseDateTime(String(value), zone, now);
  if (!dt) return undefined;
  return toDbDate(as === 'gmt' ? dt.toUTC() : dt.setZone(zone));
}

function dateRange(p: Record<string, unknown>, prefix: string, zone: string, as: 'gmt' | 'local', now: Date): DateRange {
  let after: unknown = p[`${prefix}_after`];
  let before: unknown = p[`${prefix}_before`];
  const between = p[`${prefix}_between`];
  if (Array.isArray(between) && between.length === 2) {
    const sorted = [...between].map(String).sort((a, b) => (parseDateTime(a, zone, now)?.toMillis() ?? 0) - (parseDateTime(b, zone, now)?.toMillis() ?? 0));
    [after, before] = sorted;
  }
  return { after: dateText(after, zone, as, now), before: dateText(before, zone, as, now) };
}

function numRange(p: Record<string, unknown>, prefix: string): Range<number> {
  const between = p[`${prefix}_between`];
  if (Array.isArray(between) && between.length === 2) {
    const [min, max] = between.map(Number).sort((a, b) => a - b) as [number, number];
    return { min, max };
  }
  const num = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : Number(v));
  return { min: num(p[`${prefix}_min`]), max: num(p[`${prefix}_max`]) };
}

/** `wp_parse_id_list`: comma-separated ids, `absint`-ed; undefined when empty. */
function ids(value: unknown): number[] | undefined {
  const list = parseList(value).map((s) => Math.abs(Math.trunc(Number.parseInt(String(s).trim(), 10) || 0)));
  return list.length ? [...new Set(list)] : undefined;
}

function strings(value: unknown): string[] | undefined {
  const list = parseList(value).map((s) => String(s).trim()).filter((s) => s !== '');
  return list.length ? list : undefined;
}

async function customerQuery(ctx: AppContext, p: Record<string, unknown>): Promise<CustomerQuery> {
  const zone = await siteTimeZone(ctx.options);
  const now = ctx.now();
  const idIncludes: number[][] = [];
  const idExcludes: number[][] = [];
  for (const field of ['name', 'username', 'email']) {
    const inc = ids(p[`${field}_includes`]);
    const exc = ids(p[`${field}_excludes`]);
    if (inc) idIncludes.push(inc);
    if (exc) idExcludes.push(exc);
  }
  const intList = (v: unknown) => (Array.isArray(v) && v.length ? v.map(Number) : undefined);
  return {
    match: p.match === 'any' ? 'any' : 'all',
    page: Number(p.page),
    perPage: Number(p.per_page),
    order: p.order === 'asc' ? 'asc' : 'desc',
    orderby: p.orderby as CustomerQuery['orderby'],
    search: typeof p.search === 'string' ? p.search : undefined,
    searchby: p.searchby as CustomerQuery['searchby'],
    registered: dateRange(p, 'registered', zone, 'gmt', now),
    lastActive: dateRange(p, 'last_active', 'UTC', 'gmt', now),
    lastOrder: dateRange(p, 'last_order', zone, 'local', now),
    orderWindow: { after: dateText(p.after, zone, 'local', now), before: dateText(p.before, zone, 'local', now) },
    idIncludes,
    idExcludes,
    countryIncludes: strings(p.country_includes),
    countryExcludes: strings(p.country_excludes),
    ordersCount: numRange(p, 'orders_count'),
    totalSpend: numRange(p, 'total_spend'),
    avgOrderValue: numRange(p, 'avg_order_value'),
    include: intList(p.include),
    users: intList(p.users),
    filterEmpty: Array.isArray(p.filter_empty) && p.filter_empty.length ? p.filter_empty.map(String) : undefined,
    excluded: await excludedStatuses(ctx),
  };
}

async function listCustomers(req: RestRequest, ctx: AppContext, only?: number) {
  await ensureAggregatesBasis(ctx);
  const q = await customerQuery(ctx, req.params);
  if (only !== undefined) q.include = [only];
  const { rows, total } = await queryCustomers(ctx.db, q);
  const zone = await siteTimeZone(ctx.options);
  const body = rows.map((r) => presentCustomer(ctx, r, zone));
  const info = { total, page: q.page, perPage: q.perPage };
  if (only !== undefined) return respond(body, { headers: { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages(info)) } });
  return respond(body, { headers: paginationHeaders(req, ctx.urls.rest(`/${ANALYTICS_NS}/customers`), info) });
}

export const customerRouteDefs: RouteDef<AppContext>[] = [
  { path: '/customers', endpoints: [{ methods: READABLE, args: CUSTOMER_ARGS, permission: canViewReports, handler: (req, ctx) => listCustomers(req, ctx) }] },
  {
    path: '/customers/{id:[\\d-]+}',
    endpoints: [
      {
        methods: READABLE,
        args: { id: { description: 'ID.', type: 'integer' }, ...CUSTOMER_ARGS },
        permission: canViewReports,
        handler: (req, ctx) => listCustomers(req, ctx, Number(req.params.id)),
      },
    ],
  },
];
