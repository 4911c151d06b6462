/**
 * @module namespaces/shop-analytics/fixtures.case
 * A small shop for the report tests, bought through the real checkout on a fixed clock: two events
 * (Concert in category Music, Talk in none), tickets Stalls (30) and Lecture (10), coupon `five`
 * (5 off), and three orders — 2026-02-01: zed 2 × Stalls with `five` (55), amy 3 × Lecture (30);
 * 2026-03-01: amy 1 × Lecture with `five` (5).
 */
import type { TestApp } from '../../test-support/harness.js';
import { startTestApp } from '../../test-support/harness.js';
import type { Engine } from '../../storage/db.js';
import { createCoupon } from '../tickets/index.js';
import { addTicket, buyPaidOffline, makePost } from '../tickets/fixtures.case.js';

export interface ReportShop {
  t: TestApp;
  stalls: { id: number };
  lecture: { id: number };
  concert: number;
  music: number;
  coupon: number;
}

export async function startReportShop(engine: Engine): Promise<ReportShop> {
  let clock = new Date('2026-01-01T12:00:00Z');
  const t = await startTestApp(engine, {}, { now: () => clock });
  const concert = await makePost(t, { title: 'Concert' });
  const talk = await makePost(t, { title: 'Talk' });
  const stalls = await addTicket(t, concert, { name: 'Stalls', price: '30', ticket: { mode: 'own', capacity: 100 } });
  const lecture = await addTicket(t, talk, { name: 'Lecture', price: '10', ticket: { mode: 'own', capacity: 100 } });
  const music = Number((await t.db.insertInto('terms').values({ taxonomy: 'tribe_events_cat', name: 'Music', slug: 'music', description: '', parent: 0, count: 1 }).returning('id').executeTakeFirstOrThrow()).id);
  await t.db.insertInto('term_relationships').values({ post_id: concert, term_id: music }).execute();
  const coupon = await createCoupon(t.db, { code: 'five', discountType: 'fixed_cart', amount: 5 }, '2026-01-01 00:00:00');
  const buy = async (email: string, ticket: { id: number }, quantity: number, code?: string) => {
    const res = await buyPaidOffline(t, { tickets: [{ ticket_id: ticket.id, quantity }], purchaser_name: email.split('@')[0], purchaser_email: email, coupon: code });
    if (res.status !== 201) throw new Error(res.text);
  };
  clock = new Date('2026-02-01T12:00:00Z');
  await buy('zed@example.test', stalls, 2, 'five');
  await buy('amy@example.test', lecture, 3);
  clock = new Date('2026-03-01T12:00:00Z');
  await buy('amy@example.test', lecture, 1, 'five');
  return { t, stalls, lecture, concert, music, coupon };
}
