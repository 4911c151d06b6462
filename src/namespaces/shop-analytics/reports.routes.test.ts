import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type TestUser } from '../../test-support/harness.js';
import { startReportShop, type ReportShop } from './fixtures.case.js';

const NS = '/shop-analytics';
const WINDOW = { after: '2026-01-15T00:00:00', before: '2026-03-31T23:59:59' };

describe.each(DIALECTS)('shop-analytics item reports and performance indicators on %s', (engine) => {
  let s: ReportShop;
  let customer: TestUser;
  const get = (path: string, query: Record<string, any> = {}, as?: TestUser | null) => s.t.request('GET', `${NS}${path}`, { query, as: as === undefined ? s.t.admin : as });

  beforeAll(async () => {
    s = await startReportShop(engine);
    customer = await s.t.createUser('customer');
  });
  afterAll(() => s.t.close());

  it('every report the index links to answers', async () => {
    const index = await get('/reports');
    for (const report of index.body) {
      const path = new URL(report._links.self[0].href).pathname.replace('/wp-json', '');
      const res = await s.t.request('GET', path, { query: report.slug === 'performance-indicators' ? { stats: ['revenue/total_sales'] } : {}, as: s.t.admin });
      expect([report.slug, res.status]).toEqual([report.slug, 200]);
    }
  });

  it('products: one row per ticket with its sums, extended info on request, a link to the ticket', async () => {
    const res = await get('/reports/products', { ...WINDOW, orderby: 'items_sold' });
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => [r.product_id, r.items_sold, r.net_revenue, r.orders_count])).toEqual([[s.lecture.id, 4, 40, 2], [s.stalls.id, 2, 60, 1]]);
    expect(res.body[0].extended_info).toEqual({});
    expect(res.body[0]._links.product[0].href).toBe(`http://example.test/wp-json/eventsuite/tickets/v1/tickets/${s.lecture.id}`);
    expect((await s.t.request('GET', `/eventsuite/tickets/v1/tickets/${s.lecture.id}`)).status).toBe(200);
    expect(res.headers['x-wp-total']).toBe('2');

    const info = await get('/reports/products', { ...WINDOW, extended_info: 'true', categories: [s.music] });
    expect(info.body).toHaveLength(1);
    expect(info.body[0].extended_info).toMatchObject({ name: 'Stalls', price: 30, stock_status: 'instock', stock_quantity: 98, manage_stock: true, category_ids: [s.music], variations: [] });
    expect(info.body[0].extended_info.permalink).toMatch(/^http:\/\/example\.test\//);

    const paged = await get('/reports/products', { orderby: 'product_name', order: 'asc', per_page: 1, page: 2 });
    expect(paged.body.map((r: any) => r.product_id)).toEqual([s.stalls.id]);
    expect(paged.headers['x-wp-totalpages']).toBe('2');
    expect(paged.headers.link).toContain('rel="prev"');
    const march = await get('/reports/products', { after: '2026-02-15T00:00:00' });
    expect(march.body.map((r: any) => [r.product_id, r.items_sold])).toEqual([[s.lecture.id, 1]]);
    expect((await get('/reports/products', { orderby: 'price' })).status).toBe(400);
    expect((await get('/reports/products', { per_page: 101 })).status).toBe(400);
  });

  it('categories and coupons', async () => {
    const cats = await get('/reports/categories', { extended_info: true });
    expect(cats.body).toEqual([{ category_id: s.music, items_sold: 2, net_revenue: 60, orders_count: 1, products_count: 1, extended_info: { name: 'Music' }, _links: { category: [{ href: `http://example.test/wp-json/eventsuite/events/v1/categories/${s.music}` }] } }]);
    expect((await s.t.request('GET', `/eventsuite/events/v1/categories/${s.music}`)).status).toBe(200);
    expect((await get('/reports/categories', { status_is_not: ['completed'] })).body).toEqual([]);
    const coupons = await get('/reports/coupons', { extended_info: true });
    expect(coupons.body).toEqual([{ coupon_id: s.coupon, amount: 10, orders_count: 2, extended_info: { code: 'five', date_created: '2026-01-01T00:00:00', date_created_gmt: '2026-01-01T00:00:00', date_expires: '', date_expires_gmt: '', discount_type: 'fixed_cart' } }]);
    expect((await get('/reports/coupons', { coupons: [s.coupon + 1] })).body).toEqual([]);
  });

  it('the shop has no variations, taxes or downloads: empty lists and zero stats', async () => {
    for (const path of ['variations', 'taxes', 'downloads', 'downloads/files']) {
      const res = await get(`/reports/${path}`);
      expect([path, res.body, res.headers['x-wp-total']]).toEqual([path, [], '0']);
    }
    const taxes = await get('/reports/taxes/stats', WINDOW);
    expect(taxes.body.totals).toEqual({ total_tax: 0, order_tax: 0, shipping_tax: 0, orders_count: 0, tax_codes: 0, segments: [] });
  });

  it('products/stats, coupons/stats and categories/stats: totals and intervals, hourly too', async () => {
    const products = await get('/reports/products/stats', { ...WINDOW, interval: 'month' });
    expect(products.body.totals).toEqual({ items_sold: 6, net_revenue: 100, orders_count: 3, products_count: 2, variations_count: 0, segments: [] });
    expect(products.body.intervals.map((i: any) => [i.interval, i.subtotals.items_sold, i.subtotals.orders_count])).toEqual([['2026-03', 1, 1], ['2026-02', 5, 2], ['2026-01', 0, 0]]);
    const byRevenue = await get('/reports/products/stats', { ...WINDOW, interval: 'month', orderby: 'net_revenue', order: 'desc' });
    expect(byRevenue.body.intervals.map((i: any) => i.interval)).toEqual(['2026-02', '2026-03', '2026-01']);
    const hours = await get('/reports/products/stats', { after: '2026-02-01T10:00:00', before: '2026-02-01T13:59:59', interval: 'hour', order: 'asc' });
    expect(hours.body.intervals.map((i: any) => [i.interval, i.subtotals.items_sold])).toEqual([['2026-02-01 10', 0], ['2026-02-01 11', 0], ['2026-02-01 12', 5], ['2026-02-01 13', 0]]);
    expect(hours.body.intervals[2]).toMatchObject({ date_start: '2026-02-01 12:00:00', date_end: '2026-02-01 12:59:59' });
    const weeks = await get('/reports/coupons/stats', { ...WINDOW, interval: 'week', fields: ['amount'] });
    expect(weeks.body.totals).toEqual({ amount: 10, segments: [] });
    expect(weeks.body.intervals.find((i: any) => i.interval === '2026-05').subtotals).toEqual({ amount: 5, segments: [] });
    const music = await get('/reports/categories/stats', { ...WINDOW, categories: [s.music] });
    expect(music.body.totals).toMatchObject({ items_sold: 2, net_revenue: 60, orders_count: 1 });
    const revenueHours = await get('/reports/revenue/stats', { after: '2026-02-01T12:00:00', before: '2026-02-01T12:59:59', interval: 'hour' });
    expect(revenueHours.body.intervals).toHaveLength(1);
    expect(revenueHours.body.intervals[0].subtotals.total_sales).toBe(85);
    const decades = await get('/reports/products/stats', { after: '1990-01-01T00:00:00', before: '2026-01-01T00:00:00', interval: 'hour' });
    expect([decades.status, decades.body.code]).toEqual([400, 'rest_invalid_param']);
  });

  it('performance indicators: the asked totals in the original order, each with links', async () => {
    const res = await get('/reports/performance-indicators', { ...WINDOW, stats: ['coupons/amount', 'revenue/total_sales', 'products/items_sold', 'orders/avg_order_value'] });
    expect(res.status).toBe(200);
    expect(res.body.map((i: any) => [i.stat, i.value, i.format])).toEqual([
      ['revenue/total_sales', 90, 'currency'],
      ['orders/avg_order_value', 30, 'currency'],
      ['products/items_sold', 6, 'number'],
      ['coupons/amount', 10, 'currency'],
    ]);
    expect(res.body[0]).toMatchObject({ chart: 'total_sales', label: 'Total sales', _links: { api: [{ href: 'http://example.test/wp-json/shop-analytics/reports/revenue/stats' }], report: [{ href: '/analytics/revenue' }] } });
    const allowed = await get('/reports/performance-indicators/allowed');
    expect(allowed.body.slice(0, 3).map((i: any) => i.stat)).toEqual(['revenue/total_sales', 'revenue/net_revenue', 'orders/orders_count']);
    expect(allowed.headers['x-wp-total']).toBe(String(allowed.body.length));
    const empty = await get('/reports/performance-indicators');
    expect([empty.status, empty.body.code]).toEqual([400, 'woocommerce_analytics_performance_indicators_empty_query']);
    expect((await get('/reports/performance-indicators', { stats: ['jetpack/stats/views'] })).body.code).toBe('rest_invalid_param');
  });

  it('needs view_woocommerce_reports', async () => {
    for (const path of ['/reports/products', '/reports/coupons/stats', '/reports/performance-indicators/allowed']) {
      expect((await get(path, {}, null)).status).toBe(401);
      const denied = await get(path, {}, customer);
      expect([denied.status, denied.body.code]).toEqual([403, 'woocommerce_rest_cannot_view']);
    }
  });
});
