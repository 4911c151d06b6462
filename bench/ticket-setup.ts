/**
 * Ticketing set-up and request sequences shared by suites that sell and scan tickets (the scale and
 * soak suites): an event with a paid ticket, a pool of attendees bought through `POST /orders`, and
 * autocannon sequences where each request checks in the next attendee or buys one seat.
 */
import type autocannon from 'autocannon';
import { requestJson, type Check, type Result } from './lib.js';

export const TICKETS_NS = '/wp-json/eventsuite/tickets/v1';
export const EVENTS_PATH = '/wp-json/eventsuite/events/v1/events';
/** Seats per set-up checkout (one order, one attendee per seat; the checkout allows 100 at most). */
const ORDER_SIZE = 100;

export interface Attendee {
  id: number;
  security_code: string;
}

/** An event with a paid ticket (own capacity), created as the block editor does: nonce, then ticket. */
export async function eventWithTicket(url: string, auth: Record<string, string>, i: number, capacity: number): Promise<{ event: number; ticket: number }> {
  const event = await requestJson<{ id: number }>(`${url}${EVENTS_PATH}`, {
    headers: auth,
    json: { title: `Ticketed bench event ${i}`, status: 'publish', start_date: '2030-06-01 19:00:00', end_date: '2030-06-01 23:00:00' },
    expect: 201,
  });
  const nonce = await requestJson<{ add_ticket_nonce?: string }>(`${url}${TICKETS_NS}/tickets?include_post=${event.body.id}`, { headers: auth });
  if (!nonce.body.add_ticket_nonce) throw new Error('GET /tickets?include_post gave no add_ticket_nonce to the administrator');
  const ticket = await requestJson<{ id: number }>(`${url}${TICKETS_NS}/tickets`, {
    headers: auth,
    json: {
      post_id: event.body.id,
      provider: 'tribe-commerce',
      add_ticket_nonce: nonce.body.add_ticket_nonce,
      name: `General admission ${i}`,
      description: 'Benchmark ticket.',
      price: '12.50',
      ticket: { mode: 'own', capacity },
    },
    expect: 202,
  });
  return { event: event.body.id, ticket: ticket.body.id };
}

/** Set-up buyers so far: each order has its own purchaser, across calls. */
let buyer = 0;

/**
 * Buys `count` seats of `ticket` in orders of {@link ORDER_SIZE}, paid offline (the server must allow
 * it: `BENCH_OFFLINE_PAYMENTS=1`) and marked paid by the administrator, as the door staff would;
 * returns the attendees created.
 */
export async function buyAttendees(url: string, auth: Record<string, string>, ticket: number, count: number): Promise<Attendee[]> {
  const out: Attendee[] = [];
  while (out.length < count) {
    const n = ++buyer;
    const order = await requestJson<{ id: number; attendees: Attendee[] }>(`${url}${TICKETS_NS}/orders`, {
      json: {
        provider: 'tribe-commerce',
        gateway: 'offline',
        tickets: [{ ticket_id: ticket, quantity: Math.min(ORDER_SIZE, count - out.length) }],
        purchaser_name: `Setup buyer ${n}`,
        purchaser_email: `setup-${n}@example.test`,
      },
      expect: 201,
    });
    await requestJson(`${url}${TICKETS_NS}/orders/${order.body.id}`, { headers: auth, json: { status: 'completed' }, expect: 200 });
    out.push(...order.body.attendees.map((a) => ({ id: a.id, security_code: a.security_code })));
  }
  return out;
}

/** A request sequence, and how many requests it has sent so far. */
export interface Sequence {
  requests: autocannon.Request[];
  sent(): number;
}

/** QR check-ins: each request takes the next attendee of the pool (past its end they repeat, and fail). */
export function checkins(key: string, pool: readonly Attendee[]): Sequence {
  let next = 0;
  return {
    sent: () => next,
    requests: [{
      setupRequest: (req) => {
        const a = pool[next++ % pool.length]!;
        return { ...req, path: `${TICKETS_NS}/qr?api_key=${key}&ticket_id=${a.id}&security_code=${encodeURIComponent(a.security_code)}` };
      },
    }],
  };
}

/** Checkouts paid offline: each request buys one seat for a different buyer (`prefix` keeps buyers of several loads apart). */
export function checkouts(ticket: number, prefix = 'buyer'): Sequence {
  let n = 0;
  return {
    sent: () => n,
    requests: [{
      setupRequest: (req) => {
        n++;
        return {
          ...req,
          method: 'POST',
          path: `${TICKETS_NS}/orders`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ provider: 'tribe-commerce', gateway: 'offline', tickets: [{ ticket_id: ticket, quantity: 1 }], purchaser_name: `Buyer ${n}`, purchaser_email: `${prefix}-${n}@example.test` }),
        };
      },
    }],
  };
}

/** Attendees of `ticket` (all, or checked in only), read with the check-in key. */
export async function attendeeCount(url: string, key: string, ticket: number, checkedIn = false): Promise<number> {
  return (await requestJson<{ total: number }>(`${url}${TICKETS_NS}/attendees?api_key=${key}&ticket_id=${ticket}&per_page=1${checkedIn ? '&checkedin=1' : ''}`)).body.total;
}

/**
 * Requests that did their work: no answer other than 2xx, at least one change in the database per 2xx
 * answer, and no more than requests sent (a load stops with requests in flight, which the server
 * still completes).
 */
export function accounted(name: string, load: Result, done: number, sent: number): Check {
  const ok = load.total - load.non2xx;
  return {
    goal: name,
    measured: `${ok} answered 2xx, ${load.non2xx} other, ${done} done in the database, ${sent} sent`,
    met: load.non2xx === 0 && load.errors === 0 && done >= ok && done <= sent,
  };
}
