import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestApp, type TestUser } from '../../test-support/harness.js';
import { startReportShop } from './fixtures.case.js';
import { signInForTest } from '../../auth/test-sessions.js';

const NS = '/shop-analytics';
const price = (amount: string) => `<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">&#x24;</span>${amount}</bdi></span>`;

describe.each(DIALECTS)('shop-analytics leaderboards and reports on %s', (engine) => {
  let t: TestApp;
  let customer: TestUser;
  let editor: TestUser;

  beforeAll(async () => {
    ({ t } = await startReportShop(engine));
    customer = await t.createUser('customer');
    editor = await t.createUser('editor');
  });
  afterAll(() => t.close());

  it('answers the four leaderboards in order, with links keeping persisted_query and money in the shop currency', async () => {
    const res = await t.request('GET', `${NS}/leaderboards`, { query: { persisted_query: JSON.stringify({ period: 'year' }) }, as: t.admin });
    expect(res.status).toBe(200);
    expect(res.body.map((l: any) => l.id)).toEqual(['customers', 'coupons', 'categories', 'products']);
    const [customers, coupons, categories, products] = res.body;
    expect(customers.label).toBe('Top Customers - Total Spend');
    expect(customers.headers).toEqual([{ label: 'Customer Name' }, { label: 'Orders' }, { label: 'Total Spend' }]);
    expect(customers.rows[0][0].value).toBe('zed');
    expect(customers.rows[0][0].display).toMatch(/^<a href='http:\/\/example\.test\/wp-admin\/admin\.php\?page=wc-admin&amp;path=\/analytics\/customers&amp;period=year&amp;filter=single_customer&amp;customers=\d+'>zed<\/a>$/);
    expect(customers.rows[0].slice(1)).toEqual([{ display: '1', value: 1, format: 'number' }, { display: price('55.00'), value: 55, format: 'currency' }]);
    expect(customers.rows[1].slice(1).map((c: any) => c.value)).toEqual([2, 35]);
    expect(coupons.rows).toEqual([[expect.objectContaining({ value: 'five' }), { display: '2', value: 2, format: 'number' }, { display: price('10.00'), value: 10, format: 'currency' }]]);
    expect(categories.rows).toEqual([[expect.objectContaining({ value: 'Music' }), expect.objectContaining({ value: 2 }), expect.objectContaining({ value: 60 })]]);
    expect(products.rows.map((r: any) => [r[0].value, r[1].value, r[2].value])).toEqual([['Lecture', 4, 40], ['Stalls', 2, 60]]);
  });

  it('each leaderboard link opens the analytics screen narrowed to that one item', async () => {
    const res = await t.request('GET', `${NS}/leaderboards`, { as: t.admin });
    const { cookie } = await signInForTest(t.ctx, t.admin.id);
    const expected: Record<string, string> = { customers: 'zed', coupons: 'five', categories: 'Music', products: 'Lecture' };
    for (const board of res.body) {
      const href = /href='([^']+)'/.exec(board.rows[0][0].display)![1]!.replace(/&amp;/g, '&');
      const screen = await t.app.inject({ method: 'GET', url: href.replace('http://example.test', ''), headers: { cookie } });
      expect(screen.statusCode, href).toBe(200);
      const cells = [...screen.body.matchAll(/<tr><td>([^<]*)<\/td>/g)].map((m) => m[1]);
      expect(cells, board.id).toEqual([expected[board.id]]);
    }
    const all = await t.app.inject({ method: 'GET', url: '/wp-admin/admin.php?page=wc-admin&path=/analytics/products', headers: { cookie } });
    expect([...all.body.matchAll(/<tr><td>([^<]*)<\/td>/g)].map((m) => m[1]).sort()).toEqual(['Lecture', 'Stalls']);
  });

  it('restricts to after/before and per_page; one leaderboard by name; allowed lists them without rows', async () => {
    const march = await t.request('GET', `${NS}/leaderboards/products`, { query: { after: '2026-02-15T00:00:00', per_page: 1 }, as: t.admin });
    expect(march.body).toHaveLength(1);
    expect(march.body[0].rows.map((r: any) => [r[0].value, r[1].value])).toEqual([['Lecture', 1]]);
    const allowed = await t.request('GET', `${NS}/leaderboards/allowed`, { as: t.admin });
    expect(allowed.body.map((l: any) => Object.keys(l))).toEqual(Array(4).fill(['id', 'label', 'headers']));
    expect(allowed.headers['x-wp-total']).toBe('4');
    expect(allowed.headers['x-wp-totalpages']).toBe('1');
    for (const query of [{ per_page: 21 }, { per_page: 0 }, { page: 0 }] as Record<string, number>[]) expect((await t.request('GET', `${NS}/leaderboards`, { query, as: t.admin })).status).toBe(400);
    expect((await t.request('GET', `${NS}/leaderboards/taxes`, { as: t.admin })).body.code).toBe('rest_invalid_param');
  });

  it('leaderboards need view_woocommerce_reports or manage_woocommerce', async () => {
    const anon = await t.request('GET', `${NS}/leaderboards`);
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('woocommerce_rest_cannot_view');
    expect((await t.request('GET', `${NS}/leaderboards`, { as: editor })).status).toBe(403);
    expect((await t.request('GET', `${NS}/leaderboards/allowed`, { as: customer })).status).toBe(403);
  });

  it('GET /reports lists the 17 report endpoints with their links', async () => {
    const res = await t.request('GET', `${NS}/reports`, { as: t.admin });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(17);
    expect(res.body.map((r: any) => r.slug).slice(0, 3)).toEqual(['performance-indicators', 'revenue/stats', 'orders/stats']);
    expect(res.body[1]).toEqual({
      slug: 'revenue/stats',
      description: 'Stats about revenue.',
      path: '/shop-analytics/reports/revenue/stats',
      _links: {
        self: [{ href: 'http://example.test/wp-json/shop-analytics/reports/revenue/stats' }],
        report: [{ href: '/analytics/revenue' }],
        collection: [{ href: 'http://example.test/wp-json/shop-analytics/reports' }],
      },
    });
    expect((await t.request('GET', `${NS}/reports`, { as: customer })).status).toBe(403);
  });

  it('revenue/stats and orders/stats: totals and every interval of the window (day, week, month), paginated', async () => {
    const q = { after: '2026-01-15T00:00:00', before: '2026-03-31T23:59:59', interval: 'month' };
    const rev = await t.request('GET', `${NS}/reports/revenue/stats`, { query: q, as: t.admin });
    expect(rev.status).toBe(200);
    expect(rev.body.totals).toEqual({ total_sales: 90, net_revenue: 90, gross_sales: 100, coupons: 10, coupons_count: 2, shipping: 0, taxes: 0, refunds: 0, orders_count: 3, num_items_sold: 6, products: 2, segments: [] });
    expect(rev.body.intervals.map((i: any) => [i.interval, i.subtotals.orders_count, i.subtotals.total_sales])).toEqual([['2026-03', 1, 5], ['2026-02', 2, 85], ['2026-01', 0, 0]]);
    expect(rev.body.intervals[2]).toMatchObject({ date_start: '2026-01-15 00:00:00', date_end: '2026-01-31 23:59:59', date_start_gmt: '2026-01-15 00:00:00' });
    expect(rev.headers['x-wp-total']).toBe('3');
    const orders = await t.request('GET', `${NS}/reports/orders/stats`, { query: { ...q, interval: 'week', order: 'asc', per_page: 2 }, as: t.admin });
    expect(orders.body.totals).toMatchObject({ orders_count: 3, avg_order_value: 30, avg_items_per_order: 2, total_customers: 2 });
    expect(orders.body.intervals.map((i: any) => i.interval)).toEqual(['2026-03', '2026-04']);
    expect(orders.headers['x-wp-totalpages']).toBe(String(Math.ceil(Number(orders.headers['x-wp-total']) / 2)));
    const days = await t.request('GET', `${NS}/reports/orders/stats`, { query: { after: '2026-02-01T00:00:00', before: '2026-02-03T23:59:59', interval: 'day' }, as: t.admin });
    expect(days.body.intervals.map((i: any) => [i.interval, i.subtotals.orders_count])).toEqual([['2026-02-03', 0], ['2026-02-02', 0], ['2026-02-01', 2]]);
    expect((await t.request('GET', `${NS}/reports/orders/stats`, { query: { interval: 'fortnight' }, as: t.admin })).status).toBe(400);
    expect((await t.request('GET', `${NS}/reports/revenue/stats`, { as: customer })).status).toBe(403);
    const report = await t.request('GET', `${NS}/reports/customers`, { query: { orderby: 'total_spend' }, as: t.admin });
    expect(report.body.map((c: any) => c.name)).toEqual(['zed', 'amy']);
  });
});
