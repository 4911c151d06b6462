/**
 * Ticketing benchmark (issue #4 item 8), in one run with the bare Node `http` baseline: listing
 * tickets and attendees, QR check-ins per second and checkouts per second.
 *
 * Setup goes through the routes a client uses: ten events with a paid ticket each (the first with
 * room for a million seats), then `POST /orders` checkouts that give the first ticket a pool of
 * attendees (`BENCH_QR_ATTENDEES`, default 2,000 per second of load). Each QR request checks in the
 * next attendee of that pool with its security code, as the check-in app does after a scan; each
 * checkout request buys one seat. Afterwards the attendees checked in and the seats sold are counted
 * against the 201s received. Mail and the remote payment gateway are off: checkouts are paid offline.
 *
 * `BENCH_TICKETS_SEED_EVENTS=N` runs the suite on a site that also holds N seeded events (the events
 * suite's cached databases), to see whether ticket routes depend on the size of the whole site.
 */
import crypto from 'node:crypto';
import type autocannon from 'autocannon';
import { basicAuth, measure, report, requestJson, startServer, waitIdle, type Check, type Result, type Server } from './lib.js';

const NS = '/wp-json/eventsuite/tickets/v1';
const EVENTS = '/wp-json/eventsuite/events/v1/events';
const EVENT_COUNT = 10;
const CAPACITY = 1_000_000;
/** Seats per setup checkout (one order, one attendee per seat). */
const ORDER_SIZE = 250;

interface Attendee {
  id: number;
  security_code: string;
}

interface Listing {
  total: number;
}

/** An event with a paid ticket (own capacity), created as the block editor does: nonce, then ticket. */
async function eventWithTicket(url: string, auth: Record<string, string>, i: number, capacity: number): Promise<{ event: number; ticket: number }> {
  const event = await requestJson<{ id: number }>(`${url}${EVENTS}`, {
    headers: auth,
    json: { title: `Ticketed bench event ${i}`, status: 'publish', start_date: '2030-06-01 19:00:00', end_date: '2030-06-01 23:00:00' },
    expect: 201,
  });
  const nonce = await requestJson<{ add_ticket_nonce?: string }>(`${url}${NS}/tickets?include_post=${event.body.id}`, { headers: auth });
  if (!nonce.body.add_ticket_nonce) throw new Error('GET /tickets?include_post gave no add_ticket_nonce to the administrator');
  const ticket = await requestJson<{ id: number }>(`${url}${NS}/tickets`, {
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

/** Buys `count` seats of `ticket` in orders of {@link ORDER_SIZE}; returns the attendees created. */
async function buyAttendees(url: string, ticket: number, count: number): Promise<Attendee[]> {
  const out: Attendee[] = [];
  for (let n = 0; out.length < count; n++) {
    const order = await requestJson<{ attendees: Attendee[] }>(`${url}${NS}/orders`, {
      json: {
        provider: 'tribe-commerce',
        tickets: [{ ticket_id: ticket, quantity: Math.min(ORDER_SIZE, count - out.length) }],
        purchaser_name: `Setup buyer ${n}`,
        purchaser_email: `setup-${n}@example.test`,
      },
      expect: 201,
    });
    out.push(...order.body.attendees.map((a) => ({ id: a.id, security_code: a.security_code })));
  }
  return out;
}

/** A request sequence, and how many requests it has sent so far. */
interface Sequence {
  requests: autocannon.Request[];
  sent(): number;
}

/** QR check-ins: each request takes the next attendee of the pool (past its end they repeat, and fail). */
function checkins(key: string, pool: readonly Attendee[]): Sequence {
  let next = 0;
  return {
    sent: () => next,
    requests: [{
      setupRequest: (req) => {
        const a = pool[next++ % pool.length]!;
        return { ...req, path: `${NS}/qr?api_key=${key}&ticket_id=${a.id}&security_code=${encodeURIComponent(a.security_code)}` };
      },
    }],
  };
}

/** Checkouts: each request buys one seat for a different buyer. */
function checkouts(ticket: number): Sequence {
  let n = 0;
  return {
    sent: () => n,
    requests: [{
      setupRequest: (req) => {
        n++;
        return {
          ...req,
          method: 'POST',
          path: `${NS}/orders`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ provider: 'tribe-commerce', tickets: [{ ticket_id: ticket, quantity: 1 }], purchaser_name: `Buyer ${n}`, purchaser_email: `buyer-${n}@example.test` }),
        };
      },
    }],
  };
}

/**
 * Requests that did their work: no answer other than 2xx, at least one change in the database per 2xx
 * answer, and no more than requests sent (a load stops with requests in flight, which the server
 * still completes).
 */
function accounted(name: string, load: Result, done: number, sent: number): Check {
  const ok = load.total - load.non2xx;
  return {
    goal: name,
    measured: `${ok} answered 2xx, ${load.non2xx} other, ${done} done in the database, ${sent} sent`,
    met: load.non2xx === 0 && done >= ok && done <= sent,
  };
}

export async function run(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const poolSize = Number(process.env.BENCH_QR_ATTENDEES ?? Math.ceil(seconds * 2000));
  const key = crypto.randomBytes(4).toString('hex');
  const servers: Server[] = [];
  try {
    const siteEvents = Number(process.env.BENCH_TICKETS_SEED_EVENTS ?? 0);
    const app = await startServer(
      'app-server.ts',
      { BENCH_CHECKIN_KEY: key, SMTP_URL: '', REMOTE_PAYMENTS_URL: '', ...(siteEvents > 0 ? { BENCH_SEED_EVENTS: String(siteEvents) } : {}) },
      { timeoutMs: 2 * 3600_000 },
    );
    servers.push(app);
    const auth = basicAuth(/ADMIN (\S+)/.exec(app.output)?.[1] ?? '');

    // ---- Data: events with a ticket each; the first ticket's pool of attendees.
    const created = [];
    for (let i = 0; i < EVENT_COUNT; i++) created.push(await eventWithTicket(app.url, auth, i, i === 0 ? CAPACITY : 1000));
    const main = created[0]!;
    const started = Date.now();
    const pool = await buyAttendees(app.url, main.ticket, poolSize);
    process.stderr.write(`bench: ${pool.length} attendees bought for the QR pool in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    const ticketsUrl = `${app.url}${NS}/tickets`;
    const attendeesPath = `${NS}/attendees?post_id=${main.event}&api_key=${key}`;
    const attendeeCount = async (query: string) => (await requestJson<Listing>(`${app.url}${NS}/attendees?api_key=${key}&ticket_id=${main.ticket}&per_page=1${query}`)).body.total;
    const firstList = (await requestJson<{ tickets: unknown[] }>(ticketsUrl)).body;
    if (firstList.tickets.length !== 10) throw new Error(`GET /tickets lists ${firstList.tickets.length} tickets, not 10`);

    const bare = await startServer('bare-server.ts', { BARE_SOURCE_URLS: ticketsUrl });
    servers.push(bare);

    // ---- Loads.
    const baseline = await measure({ name: 'bare node http (bytes of the ticket list)', url: `${bare.url}${NS}/tickets` });
    const listTickets = await measure({ name: 'GET /tickets (public, 10 a page)', url: ticketsUrl });
    const listAttendees = await measure({ name: `GET /attendees?post_id (check-in key, 10 a page of ${pool.length})`, url: `${app.url}${attendeesPath}` });
    const scans = checkins(key, pool);
    const qr = await measure({ name: 'GET /qr (check-in, a different attendee each)', url: `${app.url}${NS}/qr`, requests: scans.requests });
    await waitIdle(app.url);
    const checkedIn = await attendeeCount('&checkedin=1');
    const seatsBefore = await attendeeCount('');
    const buyers = checkouts(main.ticket);
    const buy = await measure({ name: 'POST /orders (checkout of one seat)', url: `${app.url}${NS}/orders`, method: 'POST', requests: buyers.requests });
    await waitIdle(app.url);
    const sold = (await attendeeCount('')) - seatsBefore;

    // ---- Every 2xx did its work, once.
    if (scans.sent() > pool.length) process.stderr.write(`bench: the QR pool ran out (${scans.sent()} scans, ${pool.length} attendees): raise BENCH_QR_ATTENDEES\n`);
    const checks: Check[] = [
      accounted('each QR scan checks in a different attendee', qr, checkedIn, Math.min(scans.sent(), pool.length)),
      accounted('each checkout sells one seat', buy, sold, buyers.sent()),
    ];
    report(`Tickets: lists, QR check-in, checkout${siteEvents > 0 ? ` (site with ${siteEvents.toLocaleString('en-US')} seeded events)` : ''}`, baseline, [listTickets, listAttendees, qr, buy], {}, checks);
  } finally {
    for (const s of servers.reverse()) await s.stop();
  }
}
