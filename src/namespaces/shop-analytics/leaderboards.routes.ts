/**
 * @module namespaces/shop-analytics/leaderboards.routes
 * `leaderboards`, `leaderboards/allowed` and `leaderboards/{leaderboard}`: top customers, coupons,
 * event categories and tickets, with links into the analytics app that keep the `persisted_query`.
 */
import type { AppContext } from '../../app-context.js';
import { buildPhpQuery } from '../../rest/pagination.js';
import { READABLE, respond, type ArgSchema, type RestRequest, type RouteDef } from '../../rest/route.js';
import { canViewLeaderboards, excludedStatuses, siteTimeZone } from './common.js';
import { queryCustomers, type DateRange } from './customers.repo.js';
import { topCategories, topCoupons, topProducts, type BoardRow } from './leaderboards.repo.js';
import { shopCurrency, wcPrice } from './money.js';
import { parseDateTime, toDbDate } from '../../content/posts.js';
import { ensureAggregatesBasis } from './sync.service.js';

const BOARDS = ['customers', 'coupons', 'categories', 'products'] as const;
type Board = (typeof BOARDS)[number];

const DEFS: Record<Board, { label: string; headers: string[]; path: string; filter: string; param: string }> = {
  customers: { label: 'Top Customers - Total Spend', headers: ['Customer Name', 'Orders', 'Total Spend'], path: '/analytics/customers', filter: 'single_customer', param: 'customers' },
  coupons: { label: 'Top Coupons - Number of Orders', headers: ['Coupon code', 'Orders', 'Amount discounted'], path: '/analytics/coupons', filter: 'single_coupon', param: 'coupons' },
  categories: { label: 'Top categories - Items sold', headers: ['Category', 'Items sold', 'Net sales'], path: '/analytics/categories', filter: 'single_category', param: 'categories' },
  products: { label: 'Top products - Items sold', headers: ['Product', 'Items sold', 'Net sales'], path: '/analytics/products', filter: 'single_product', param: 'products' },
};

export const LEADERBOARD_ARGS: Record<string, ArgSchema> = {
  page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
  per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 5, minimum: 1, maximum: 20 },
  after: { description: 'Limit response to resources published after a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
  before: { description: 'Limit response to resources published before a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
  persisted_query: { description: 'URL query to persist across links.', type: 'string' },
};

const escAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/'/g, '&#039;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `json_decode($persisted_query, true)` when it is an object, else nothing. */
function persisted(value: unknown): Record<string, unknown> {
  if (typeof value !== 'string' || value === '') return {};
  try {
    const parsed = JSON.parse(value) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function link(ctx: AppContext, board: Board, id: number, query: Record<string, unknown>): string {
  const d = DEFS[board];
  const extra = buildPhpQuery({ ...query, filter: d.filter, [d.param]: id });
  return `${ctx.urls.admin}admin.php?page=wc-admin&path=${d.path}&${extra}`;
}

const number = (n: number) => ({ display: new Intl.NumberFormat('en-US').format(n), value: n, format: 'number' });

async function rowsOf(ctx: AppContext, board: Board, perPage: number, window: DateRange, query: Record<string, unknown>): Promise<unknown[][]> {
  const currency = await shopCurrency(ctx);
  const money = (n: number) => ({ display: wcPrice(n, currency), value: n, format: 'currency' });
  const excluded = await excludedStatuses(ctx);
  const named = (r: BoardRow, label: string) => ({ display: `<a href='${escAttr(link(ctx, board, Number(r.id), query))}'>${escHtml(label)}</a>`, value: label });
  if (board === 'customers') {
    await ensureAggregatesBasis(ctx);
    const { rows } = await queryCustomers(ctx.db, {
      match: 'all', page: 1, perPage, order: 'desc', orderby: 'total_spend', searchby: 'name', registered: {}, lastActive: {}, lastOrder: {}, orderWindow: window,
      idIncludes: [], idExcludes: [], ordersCount: {}, totalSpend: {}, avgOrderValue: {}, excluded,
    });
    return rows.map((c) => [named({ id: c.customer_id } as BoardRow, c.name), number(Number(c.orders_count)), money(Number(c.total_spend))]);
  }
  const list = await (board === 'coupons' ? topCoupons : board === 'categories' ? topCategories : topProducts)(ctx.db, excluded, window, perPage);
  return list.map((r) => [named(r, r.label), number(Number(r.count)), money(Number(r.amount))]);
}

/** The `after`/`before` window; relative dates count from `now` (the app's clock). */
function windowOf(p: Record<string, unknown>, zone: string, now: Date): DateRange {
  const at = (v: unknown) => {
    const dt = typeof v === 'string' && v !== '' ? parseDateTime(v, zone, now) : undefined;
    return dt ? toDbDate(dt.setZone(zone)) : undefined;
  };
  return { after: at(p.after), before: at(p.before) };
}

async function boards(req: RestRequest, ctx: AppContext, only?: Board) {
  const window = windowOf(req.params, await siteTimeZone(ctx.options), ctx.now());
  const query = persisted(req.params.persisted_query);
  const out = [];
  for (const id of only ? [only] : BOARDS) {
    const d = DEFS[id];
    out.push({ id, label: d.label, headers: d.headers.map((label) => ({ label })), rows: await rowsOf(ctx, id, Number(req.params.per_page), window, query) });
  }
  return out;
}

export const leaderboardRouteDefs: RouteDef<AppContext>[] = [
  { path: '/leaderboards', endpoints: [{ methods: READABLE, args: LEADERBOARD_ARGS, permission: canViewLeaderboards, handler: (req, ctx) => boards(req, ctx) }] },
  {
    path: '/leaderboards/allowed',
    endpoints: [
      {
        methods: READABLE,
        args: {},
        permission: canViewLeaderboards,
        handler: () => respond(BOARDS.map((id) => ({ id, label: DEFS[id].label, headers: DEFS[id].headers.map((label) => ({ label })) })), { headers: { 'X-WP-Total': String(BOARDS.length), 'X-WP-TotalPages': '1' } }),
      },
    ],
  },
  {
    path: '/leaderboards/{leaderboard:\\w+}',
    endpoints: [
      {
        methods: READABLE,
        args: { leaderboard: { type: 'string', enum: [...BOARDS] }, ...LEADERBOARD_ARGS },
        permission: canViewLeaderboards,
        handler: (req, ctx) => boards(req, ctx, req.params.leaderboard as Board),
      },
    ],
  },
];
