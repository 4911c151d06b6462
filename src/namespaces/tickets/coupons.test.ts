import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { createCoupon, COUPON_MESSAGES } from './coupons.repo.js';
import { addTicket, buyPaidOffline, makePost, NS } from './fixtures.case.js';

describe.each(DIALECTS)('checkout with coupons on %s', (engine) => {
  let t: TestApp;
  let seat: any;
  const now = '2026-01-01 00:00:00';

  beforeAll(async () => {
    t = await startTestApp(engine);
    seat = await addTicket(t, await makePost(t), { name: 'Seat', price: '40', ticket: { mode: 'own', capacity: 500 } });
  });
  afterAll(() => t.close());

  const order = (coupon: string | undefined, quantity = 1, i = 0) =>
    buyPaidOffline(t, { tickets: [{ ticket_id: seat.id, quantity }], purchaser_name: `C${i}`, purchaser_email: `c${i}@example.test`, ...(coupon === undefined ? {} : { coupon }) });

  it('applies percent and fixed coupons and stores them on the order', async () => {
    await createCoupon(t.db, { code: 'TENOFF', discountType: 'percent', amount: 10 }, now);
    await createCoupon(t.db, { code: 'big', discountType: 'fixed_cart', amount: 500 }, now);
    const pct = await order('tenoff', 2);
    expect(pct.status).toBe(201);
    expect(pct.body).toMatchObject({ subtotal: 80, coupon: 'tenoff', discount: 8, total: 72 });
    const fixed = await order('BIG');
    expect(fixed.body).toMatchObject({ subtotal: 40, discount: 40, total: 0 });
    expect((await order(undefined)).body).toMatchObject({ coupon: null, discount: 0, total: 40 });
  });

  it('refuses unknown, expired and used-up coupons with 400 invalid-coupon, selling nothing', async () => {
    await createCoupon(t.db, { code: 'old', discountType: 'percent', amount: 5, expiresGmt: '2020-01-01 00:00:00' }, now);
    await createCoupon(t.db, { code: 'once', discountType: 'percent', amount: 5, usageLimit: 1 }, now);
    const sold = async () => Number((await t.db.selectFrom('ticket_details').select('sold').where('ticket_id', '=', seat.id).executeTakeFirstOrThrow()).sold);
    const before = await sold();
    expect((await order('nope')).body).toEqual({ code: 'invalid-coupon', message: COUPON_MESSAGES.unknown('nope'), data: { status: 400 } });
    expect((await order('old')).body.message).toBe(COUPON_MESSAGES.expired);
    expect((await order('once')).status).toBe(201);
    const again = await order('once');
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(COUPON_MESSAGES.usedUp);
    expect(await sold()).toBe(before + 1);
  });

  it('never uses a coupon beyond its limit under concurrent checkouts; a cancelled order gives its use back', async () => {
    await createCoupon(t.db, { code: 'rush', discountType: 'fixed_cart', amount: 5, usageLimit: 5 }, now);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => order('rush', 1, i)));
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(5);
    expect(results.filter((r) => r.status === 400).every((r) => r.body.code === 'invalid-coupon')).toBe(true);
    const row = await t.db.selectFrom('ticket_coupons').select('usage_count').where('code', '=', 'rush').executeTakeFirstOrThrow();
    expect(Number(row.usage_count)).toBe(5);
    expect((await t.request('POST', `${NS}/orders/${ok[0]!.body.id}`, { json: { status: 'cancelled' }, as: t.admin })).status).toBe(200);
    expect((await order('rush')).status).toBe(201);
  });
});
