/**
 * @module test-support/checkout-faults
 * For tests that kill servers in the middle of checkouts: an event with two offline-paid tickets of
 * limited seats, one two-line checkout (2 + 1 seats), and the consistency check run after a crash.
 */
import { expect } from 'vitest';
import type { App } from '../app.js';
import { OFFLINE_PAYMENTS_OPTION } from '../namespaces/tickets/settings.js';
import type { FaultSite } from './server-process.js';

export const TICKETS_NS = '/wp-json/eventsuite/tickets/v1';

async function addTicket(site: FaultSite, postId: number, name: string, capacity: number): Promise<number> {
  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    site.app.inject({ method, url, headers: { authorization: site.authorization, 'content-type': 'application/json' }, ...(payload ? { payload: JSON.stringify(payload) } : {}) });
  const list = await inject('GET', `${TICKETS_NS}/tickets?include_post=${postId}&status=any&post_status=any`);
  const nonce = JSON.parse(list.body).add_ticket_nonce;
  const res = await inject('POST', `${TICKETS_NS}/tickets`, { post_id: postId, provider: 'tribe-commerce', price: '5', name, add_ticket_nonce: nonce, ticket: { mode: 'own', capacity } });
  if (res.statusCode !== 202) throw new Error(`ticket: ${res.statusCode} ${res.body}`);
  return JSON.parse(res.body).id;
}

/** With the site's in-process app: offline payments on, an event, and its two tickets of `capacity` seats each. */
export async function ticketedEvent(site: FaultSite, capacity: number): Promise<number[]> {
  await site.app.ctx.options.set(OFFLINE_PAYMENTS_OPTION, true);
  const post = await site.db
    .insertInto('posts')
    .values({ type: 'tribe_events', status: 'publish', slug: 'crash-concert', title: 'Crash concert', content: '', excerpt: '', author: 1, parent: 0, password: '', menu_order: 0, date: '2026-01-01 10:00:00', date_gmt: '2026-01-01 10:00:00', modified: '2026-01-01 10:00:00', modified_gmt: '2026-01-01 10:00:00', image_url: '' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return [await addTicket(site, Number(post.id), 'Stalls', capacity), await addTicket(site, Number(post.id), 'Balcony', capacity)];
}

/**
 * One order of two lines (2 + 1 seats) from a server or an app in this process; the status, or the
 * network error of a killed server (or the timeout of a request it took down with it).
 */
export async function checkout(to: string | App, tickets: number[], i: number, timeoutMs = 30_000): Promise<{ status: number | string; id?: number }> {
  const payload = JSON.stringify({ tickets: [{ ticket_id: tickets[0], quantity: 2 }, { ticket_id: tickets[1], quantity: 1 }], purchaser_name: `Buyer ${i}`, purchaser_email: `b${i}@example.test`, gateway: 'offline' });
  if (typeof to !== 'string') {
    const res = await to.inject({ method: 'POST', url: `${TICKETS_NS}/orders`, headers: { 'content-type': 'application/json' }, payload });
    return { status: res.statusCode, id: JSON.parse(res.body).id };
  }
  try {
    const res = await fetch(`${to}${TICKETS_NS}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload, signal: AbortSignal.timeout(timeoutMs) });
    const body = await res.json();
    return { status: res.status, id: body.id };
  } catch (e) {
    return { status: (e as Error).message };
  }
}

/**
 * Orders whole or absent, seats matching attendees and never more than the capacity, nothing twice;
 * every `acknowledged` order there. Returns the number of orders.
 */
export async function expectConsistent(site: FaultSite, tickets: number[], acknowledged: number[]): Promise<number> {
  const db = site.db;
  const orders = await db.selectFrom('ticket_orders').select(['order_id', 'quantity', 'order_key', 'status']).execute();
  const items = await db.selectFrom('ticket_order_items').select(['order_id', 'ticket_id', 'quantity']).execute();
  const attendees = await db.selectFrom('ticket_attendees').select(['attendee_id', 'order_id', 'ticket_id']).execute();
  const orderIds = new Set(orders.map((o) => Number(o.order_id)));
  for (const o of orders) {
    const id = Number(o.order_id);
    const mine = items.filter((i) => Number(i.order_id) === id);
    expect(mine.map((i) => [Number(i.ticket_id), Number(i.quantity)]).sort()).toEqual([[tickets[0], 2], [tickets[1], 1]].sort());
    expect(attendees.filter((a) => Number(a.order_id) === id)).toHaveLength(Number(o.quantity));
    expect(Number(o.quantity)).toBe(3);
  }
  // No attendee or item without its order; no order twice.
  expect(attendees.filter((a) => !orderIds.has(Number(a.order_id)))).toEqual([]);
  expect(items.filter((i) => !orderIds.has(Number(i.order_id)))).toEqual([]);
  expect(new Set(orders.map((o) => o.order_key)).size).toBe(orders.length);
  // Every post of an order or attendee has its row, and the other way round.
  const posts = await db.selectFrom('posts').select(['id', 'type']).where('type', 'in', ['tribe_tpp_orders', 'tribe_tpp_attendees']).execute();
  expect(posts.filter((p) => p.type === 'tribe_tpp_orders').map((p) => Number(p.id)).sort()).toEqual([...orderIds].sort());
  expect(posts.filter((p) => p.type === 'tribe_tpp_attendees').map((p) => Number(p.id)).sort()).toEqual(attendees.map((a) => Number(a.attendee_id)).sort());
  // Each seat taken has its attendee (offline orders hold their seats as pending until paid), within the capacity.
  for (const t of tickets) {
    const row = await db.selectFrom('ticket_details').select(['sold', 'pending', 'capacity']).where('ticket_id', '=', t).executeTakeFirstOrThrow();
    const seats = attendees.filter((a) => Number(a.ticket_id) === t).length;
    expect({ ticket: t, sold: Number(row.sold), pending: Number(row.pending) }).toEqual({ ticket: t, sold: seats, pending: seats });
    expect(seats).toBeLessThanOrEqual(Number(row.capacity));
  }
  for (const id of acknowledged) expect(orderIds).toContain(id);
  return orders.length;
}
