import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { addTicket, makePost, NS as TICKETS, startGateway, type FakeGateway, buyPaidOffline } from '../tickets/fixtures.case.js';

const NS = '/shop-analytics';

// Orders go through the real ticketing checkout; the analytics are read back over HTTP, so a change
// in checkout that breaks the numbers fails here.
describe.each(DIALECTS)('shop-analytics customers on %s', (engine) => {
  let t: TestApp;
  let gateway: FakeGateway;
  let buyer: TestUser;
  let manager: TestUser;
  let seat: any;
  let clock = new Date('2026-03-01T12:00:00Z');
  const ids: Record<string, number> = {};

  const buy = async (who: { name: string; email: string; as?: TestUser }, quantity: number, pay: 'offline' | 'remote' = 'offline') => {
    const json = { tickets: [{ ticket_id: seat.id, quantity }], purchaser_name: who.name, purchaser_email: who.email };
    const res = pay === 'offline' ? await buyPaidOffline(t, json, who.as ?? null) : await t.request('POST', `${TICKETS}/orders`, { json: { ...json, gateway: pay }, as: who.as ?? null });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const list = (query: Record<string, any> = {}, as: TestUser | null = t.admin) => t.request('GET', `${NS}/customers`, { query, as });
  const byEmail = (body: any[]) => Object.fromEntries(body.map((c) => [c.email, c]));

  beforeAll(async () => {
    gateway = await startGateway();
    t = await startTestApp(engine, { remotes: { payments: gateway.url } }, { now: () => clock });
    // Cy's pending order must stay pending while the test clock jumps months ahead.
    await t.ctx.options.set('tickets-reservation-minutes', 10_000_000);
    buyer = await t.createUser('customer', `buyer${engine}`);
    manager = await t.createUser('shop_manager');
    const event = await makePost(t, { title: 'Gala' });
    seat = await addTicket(t, event, { name: 'Seat', price: '20', ticket: { mode: 'own', capacity: 1000 } });
    // Ann (guest): two orders in March, one in May. Bob (registered): one order, refunded later.
    // Cy (guest): one pending remote order (excluded from the numbers). Di (guest): cancelled.
    clock = new Date('2026-03-02T10:00:00Z');
    ids.ann1 = await buy({ name: 'Ann Guest', email: 'ann@example.test' }, 1);
    clock = new Date('2026-03-05T10:00:00Z');
    ids.ann2 = await buy({ name: 'Ann Guest', email: 'ANN@example.test' }, 2);
    clock = new Date('2026-04-01T10:00:00Z');
    ids.bob = await buy({ name: 'Bob Member', email: buyer.email, as: buyer }, 3);
    gateway.next = { status: 201, body: { status: 'pending', redirect_url: 'https://pay.example/x' } };
    ids.cy = await buy({ name: 'Cy Pending', email: 'cy@example.test' }, 1, 'remote');
    gateway.next = { status: 201, body: { status: 'succeeded' } };
    ids.di = await buy({ name: 'Di Cancel', email: 'di@example.test' }, 4);
    clock = new Date('2026-05-10T10:00:00Z');
    ids.ann3 = await buy({ name: 'Ann Guest', email: 'ann@example.test' }, 1);
    expect((await t.request('POST', `${TICKETS}/orders/${ids.di}`, { json: { status: 'cancelled' }, as: t.admin })).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  it('keeps one row per customer (guests by e-mail, case-insensitively) with the original aggregates', async () => {
    const res = await list({ orderby: 'total_spend', per_page: 100 });
    expect(res.status).toBe(200);
    expect(res.headers['x-wp-total']).toBe('4');
    const c = byEmail(res.body);
    expect(c['ann@example.test']).toMatchObject({ user_id: 0, name: 'Ann Guest', orders_count: 3, total_spend: 80, avg_order_value: 80 / 3, date_last_order: '2026-05-10 10:00:00' });
    expect(c['ann@example.test']._links).toBeUndefined();
    expect(c['ann@example.test'].date_registered).toBeNull();
    const bob = c[buyer.email];
    expect(bob).toMatchObject({ user_id: buyer.id, username: buyer.login, orders_count: 1, total_spend: 60, avg_order_value: 60 });
    expect(bob.date_registered).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(bob._links.customer[0].href).toBe(`http://example.test/wp-json/shop-analytics/customers/${bob.id}`);
    // Pending and cancelled orders are excluded from the numbers; the customers still exist.
    expect(c['cy@example.test']).toMatchObject({ orders_count: 0, total_spend: 0, avg_order_value: 0, date_last_order: null });
    expect(c['di@example.test']).toMatchObject({ orders_count: 0, total_spend: 0 });
    expect(res.body.map((x: any) => x.email)).toEqual(['ann@example.test', buyer.email, 'di@example.test', 'cy@example.test']);
    expect(Object.keys(bob)).toEqual([
      'id', 'user_id', 'username', 'name', 'email', 'country', 'city', 'state', 'postcode', 'date_registered', 'date_registered_gmt',
      'date_last_active', 'date_last_active_gmt', 'date_last_order', 'orders_count', 'total_spend', 'avg_order_value', '_links',
    ]);
  });

  it('follows completion and refunds: a refund keeps the order counted and takes its amount off', async () => {
    gateway.payments.set([...gateway.payments.keys()].at(-1)!, 'succeeded');
    expect((await t.request('POST', `${TICKETS}/orders/${ids.cy}`, { json: { status: 'completed' }, as: t.admin })).status).toBe(200);
    expect((await t.request('POST', `${TICKETS}/orders/${ids.bob}`, { json: { status: 'refunded' }, as: t.admin })).status).toBe(200);
    const c = byEmail((await list({ per_page: 100 })).body);
    expect(c['cy@example.test']).toMatchObject({ orders_count: 1, total_spend: 20 });
    expect(c[buyer.email]).toMatchObject({ orders_count: 1, total_spend: 0, avg_order_value: 0 });
  });

  it('shows profile changes of registered customers at once', async () => {
    await t.db.updateTable('users').set({ display_name: 'Robert Member' }).where('id', '=', buyer.id).execute();
    const c = byEmail((await list({ search: 'robert' })).body);
    expect(c[buyer.email].name).toBe('Robert Member');
  });

  it('applies min/max strictly alone and inclusively together; _between sorted and inclusive', async () => {
    const emails = async (q: Record<string, any>) => (await list({ ...q, per_page: 100, orderby: 'orders_count', order: 'asc' })).body.map((x: any) => x.email).sort();
    expect(await emails({ orders_count_min: 1 })).toEqual(['ann@example.test']);
    expect(await emails({ orders_count_max: 1 })).toEqual(['di@example.test']);
    expect(await emails({ orders_count_min: 1, orders_count_max: 1 })).toEqual([buyer.email, 'cy@example.test'].sort());
    expect(await emails({ orders_count_between: [3, 1] })).toEqual(['ann@example.test', buyer.email, 'cy@example.test'].sort());
    expect(await emails({ total_spend_min: 20, total_spend_max: 20 })).toEqual(['cy@example.test']);
    expect(await emails({ avg_order_value_min: 26 })).toEqual(['ann@example.test']);
  });

  it('validates _between as exactly two values, per_page 1–100 and the enums (400 rest_invalid_param)', async () => {
    for (const query of [{ orders_count_between: [1] }, { orders_count_between: [1, 2, 3] }, { total_spend_between: ['a', 2] }, { registered_between: ['2020-01-01', 'nope'] }, { per_page: 101 }, { per_page: 0 }, { orderby: 'email' }, { filter_empty: ['phone'] }, { after: 'yesterday-ish' }]) {
      const res = await list(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
    const one = await list({ orders_count_between: [1] });
    expect(one.body.data.params.orders_count_between).toBe('orders_count_between must contain 2 numbers.');
  });

  it('joins the conditions with match=all or match=any; the order window drops customers without orders in it', async () => {
    const emails = async (q: Record<string, any>) => (await list({ ...q, per_page: 100 })).body.map((x: any) => x.email).sort();
    const ann = (await list({ search: 'ann' })).body[0];
    // The WHERE group and the HAVING group are each joined by `match`, and ANDed together.
    expect(await emails({ name_includes: String(ann.id), search: 'cy@', searchby: 'email' })).toEqual([]);
    expect(await emails({ name_includes: String(ann.id), search: 'cy@', searchby: 'email', match: 'any' })).toEqual(['ann@example.test', 'cy@example.test']);
    expect(await emails({ name_includes: String(ann.id), search: 'cy@', searchby: 'email', match: 'any', orders_count_min: 2 })).toEqual(['ann@example.test']);
    expect(await emails({ orders_count_min: 2, total_spend_max: 1, match: 'any' })).toEqual(['ann@example.test', buyer.email, 'di@example.test'].sort());
    expect(await emails({ name_excludes: String(ann.id) })).not.toContain('ann@example.test');
    // March window: only Ann's two March orders count.
    const march = await list({ after: '2026-03-01T00:00:00', before: '2026-03-31T23:59:59' });
    expect(march.body.map((x: any) => x.email)).toEqual(['ann@example.test']);
    expect(march.body[0]).toMatchObject({ orders_count: 2, total_spend: 60, date_last_order: '2026-03-05 10:00:00' });
    // Under match=any the window is OR-ed: a customer passing another condition keeps its full numbers.
    const any = await list({ after: '2026-03-01T00:00:00', before: '2026-03-31T23:59:59', email_includes: String(ann.id), search: 'cy', searchby: 'email', match: 'any' });
    expect(any.body.map((x: any) => x.email).sort()).toEqual(['ann@example.test', 'cy@example.test']);
    expect(byEmail(any.body)['ann@example.test'].orders_count).toBe(3);
    // Bob's refund (made on May 10) is his latest order row, as refunds are in the original.
    expect(await emails({ last_order_after: '2026-05-01T00:00:00' })).toEqual(['ann@example.test', buyer.email].sort());
    expect(await emails({ last_order_before: '2026-04-30T00:00:00' })).toEqual(['cy@example.test']);
  });

  it('searches by name, username, email or all; filter_empty; users and include', async () => {
    const emails = async (q: Record<string, any>) => (await list({ ...q, per_page: 100 })).body.map((x: any) => x.email).sort();
    expect(await emails({ search: 'GUEST' })).toEqual(['ann@example.test']);
    expect(await emails({ search: buyer.login, searchby: 'username' })).toEqual([buyer.email]);
    expect(await emails({ search: 'di@', searchby: 'email' })).toEqual(['di@example.test']);
    expect(await emails({ search: 'example.test', searchby: 'all' })).toHaveLength(4);
    expect(await emails({ search: '100%' })).toEqual([]);
    expect(await emails({ filter_empty: ['email', 'name'] })).toHaveLength(4);
    expect(await emails({ filter_empty: ['country'] })).toEqual([]);
    expect(await emails({ users: [buyer.id] })).toEqual([buyer.email]);
    const cy = (await list({ search: 'cy', searchby: 'email' })).body[0];
    expect(await emails({ include: [cy.id] })).toEqual(['cy@example.test']);
  });

  it('paginates with totals, Link headers and the id tie-break; pages past the end are [] with real totals', async () => {
    const first = await list({ per_page: 2, orderby: 'orders_count', order: 'desc' });
    expect(first.headers['x-wp-total']).toBe('4');
    expect(first.headers['x-wp-totalpages']).toBe('2');
    expect(first.headers.link).toBe('<http://example.test/wp-json/shop-analytics/customers?per_page=2&orderby=orders_count&order=desc&page=2>; rel="next"');
    const second = await list({ per_page: 2, orderby: 'orders_count', order: 'desc', page: 2 });
    expect(second.headers.link).toContain('rel="prev"');
    // Three customers have one order: they follow each other by id, descending.
    const all = [...first.body, ...second.body];
    const ones = all.filter((x: any) => x.orders_count === 1).map((x: any) => x.id);
    expect(ones).toEqual([...ones].sort((a, b) => b - a));
    const past = await list({ per_page: 2, page: 9 });
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    expect(past.headers['x-wp-total']).toBe('4');
    expect(past.headers['x-wp-totalpages']).toBe('2');
  });

  it('GET /customers/{id} answers an array (filters still apply); unknown ids answer []', async () => {
    const ann = (await list({ search: 'ann' })).body[0];
    const one = await t.request('GET', `${NS}/customers/${ann.id}`, { as: t.admin });
    expect(one.status).toBe(200);
    expect(one.body).toEqual([ann]);
    expect(one.headers['x-wp-total']).toBe('1');
    expect((await t.request('GET', `${NS}/customers/${ann.id}`, { query: { orders_count_max: 1 }, as: t.admin })).body).toEqual([]);
    expect((await t.request('GET', `${NS}/customers/999999`, { as: t.admin })).body).toEqual([]);
  });

  it('needs view_woocommerce_reports: 401 signed out, 403 for a customer, shop managers may read', async () => {
    const anon = await list({}, null);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ code: 'woocommerce_rest_cannot_view', message: 'Sorry, you cannot list resources.', data: { status: 401 } });
    expect((await list({}, buyer)).status).toBe(403);
    expect((await list({}, manager)).status).toBe(200);
  });
});
