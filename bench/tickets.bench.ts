/**
 * Ticketing benchmark (issues #4 item 8 and #12), in one run with bare Node `http` baselines: listing
 * tickets and attendees (public, and signed in as a manager so nothing is served from a cache), QR
 * check-ins per second and checkouts per second.
 *
 * Setup goes through the routes a client uses: ten events with a paid ticket each (the first with
 * room for a million seats), then `POST /orders` checkouts paid offline and marked paid by the
 * administrator, which give the first ticket a pool of attendees (`BENCH_QR_ATTENDEES`, default 6,000
 * per second of load) and each other ticket a few. Each QR request checks in the next attendee of that
 * pool with its security code, as the check-in app does after a scan; each checkout request buys one
 * seat. Afterwards the attendees checked in and the seats sold are counted against the 201s received,
 * and a last load of checkouts on a small ticket must sell it out exactly, never beyond. Mail and the
 * remote payment gateway are off: checkouts are paid offline (switched on through the shop options).
 *
 * The manager rows are compared with a second baseline sending the manager's bytes (the same lists
 * fetched with the check-in key, which the bench checks are the signed-in bytes) and a check-in answer.
 *
 * `BENCH_TICKETS_SEED_EVENTS=N` runs the suite on a site that also holds N seeded events (the events
 * suite's cached databases), to see whether ticket routes depend on the size of the whole site.
 */
import crypto from 'node:crypto';
import { basicAuth, measure, report, requestJson, startServer, waitIdle, type Check, type Server } from './lib.js';
import { accounted, buyAttendees, checkins, checkouts, eventWithTicket, TICKETS_NS as NS } from './ticket-setup.js';

const SHOP_OPTIONS = '/wp-json/shop-admin/options';
const EVENT_COUNT = 10;
const CAPACITY = 1_000_000;
/** Attendees of each ticket but the first, embedded in the manager's ticket list. */
const LISTED_ATTENDEES = 3;
/** Seats of the ticket the last load sells out. */
const SELL_OUT_CAPACITY = 300;
/** Issue #12: least ratio to the bare server (manager lists, QR) and least checkouts per second. */
const GOALS = { managerList: 0.15, qr: 0.2, checkoutsPerSecond: 1500 };

interface Listing {
  total: number;
}

/** Seats a ticket has taken (sold and pending), as its manager view counts them. */
async function seatsTaken(url: string, auth: Record<string, string>, ticket: number): Promise<number> {
  const t = (await requestJson<{ capacity_details: { sold: number; pending: number } }>(`${url}${NS}/tickets/${ticket}`, { headers: auth })).body;
  return t.capacity_details.sold + t.capacity_details.pending;
}

/**
 * SQL queries one request runs: the app server's counter before and after it (no load running), the
 * fewest of three after a warm-up (settings are cached for a moment, so one may run a few more).
 */
async function queriesOf(url: string, path: string, headers: Record<string, string>): Promise<number> {
  const counter = `${url}/__bench/queries`;
  const once = async () => {
    const before = (await requestJson<{ queries: number }>(counter)).body.queries;
    await requestJson(`${url}${path}`, { headers });
    return (await requestJson<{ queries: number }>(counter)).body.queries - before;
  };
  await once();
  return Math.min(await once(), await once(), await once());
}

/** A check that two requests run as many queries (a page's cost does not grow with its items). */
async function sameQueries(goal: string, url: string, headers: Record<string, string>, small: string, large: string): Promise<Check> {
  const a = await queriesOf(url, small, headers);
  const b = await queriesOf(url, large, headers);
  return { goal, measured: `${a} and ${b} queries`, met: a === b };
}

export async function run(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const poolSize = Number(process.env.BENCH_QR_ATTENDEES ?? Math.ceil(seconds * 6000));
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
    await requestJson(`${app.url}${SHOP_OPTIONS}`, { method: 'POST', headers: auth, json: { 'tickets-offline-payments-enabled': true } });

    // ---- Data: events with a ticket each; the first ticket's pool of attendees, a few for the others.
    const created = [];
    for (let i = 0; i < EVENT_COUNT; i++) created.push(await eventWithTicket(app.url, auth, i, i === 0 ? CAPACITY : 1000));
    const main = created[0]!;
    const started = Date.now();
    const pool = await buyAttendees(app.url, auth, main.ticket, poolSize);
    process.stderr.write(`bench: ${pool.length} attendees bought for the QR pool in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    for (const other of created.slice(1)) await buyAttendees(app.url, auth, other.ticket, LISTED_ATTENDEES);
    const [sample] = await buyAttendees(app.url, auth, main.ticket, 1);
    const soldOut = await eventWithTicket(app.url, auth, EVENT_COUNT, SELL_OUT_CAPACITY);
    await fetch(new URL('/__bench/analyze', app.url), { method: 'POST' });

    const ticketsUrl = `${app.url}${NS}/tickets`;
    // The manager's ticket list leaves out the first event, whose ticket holds the whole pool.
    const managerTicketsPath = `${NS}/tickets?exclude_post=${main.event}%2C${soldOut.event}`;
    const managerAttendeesPath = `${NS}/attendees?post_id=${main.event}`;
    const withKey = (path: string) => `${path}${path.includes('?') ? '&' : '?'}api_key=${key}`;
    const attendeeCount = async (ticket: number, query: string) => (await requestJson<Listing>(`${app.url}${NS}/attendees?api_key=${key}&ticket_id=${ticket}&per_page=1${query}`)).body.total;
    const firstList = (await requestJson<{ tickets: unknown[] }>(ticketsUrl)).body;
    if (firstList.tickets.length !== 10) throw new Error(`GET /tickets lists ${firstList.tickets.length} tickets, not 10`);
    const managerList = (await requestJson<{ tickets: { attendees: unknown[] }[] }>(`${app.url}${managerTicketsPath}`, { headers: auth })).body;
    const embedded = managerList.tickets.map((t) => t.attendees.length);
    if (embedded.length !== EVENT_COUNT - 1 || embedded.some((n) => n !== LISTED_ATTENDEES)) throw new Error(`the manager's ticket list embeds ${embedded.join(',')} attendees`);

    // ---- Baselines: the public list's bytes; the manager lists' bytes and a check-in answer.
    const bare = await startServer('bare-server.ts', { BARE_SOURCE_URLS: ticketsUrl });
    servers.push(bare);
    const qrSample = `${NS}/qr?api_key=${key}&ticket_id=${sample!.id}&security_code=${encodeURIComponent(sample!.security_code)}`;
    const bareManager = await startServer('bare-server.ts', {
      BARE_SOURCE_URLS: [withKey(managerTicketsPath), withKey(managerAttendeesPath), qrSample].map((p) => `${app.url}${p}`).join(','),
    });
    servers.push(bareManager);
    const sameBytes: Check[] = [];
    for (const path of [managerTicketsPath, managerAttendeesPath]) {
      const signedIn = await (await fetch(`${app.url}${path}`, { headers: auth })).text();
      const baselineBytes = await (await fetch(`${bareManager.url}${path.split('?')[0]}`)).text();
      sameBytes.push({ goal: `baseline sends the signed-in bytes of ${path.split('?')[0]!.slice(NS.length)}`, measured: `${baselineBytes.length} and ${signedIn.length} bytes`, met: baselineBytes === signedIn });
    }
    const queryChecks = [
      await sameQueries('GET /tickets (manager): 2 tickets a page run as many queries as 9', app.url, auth, `${managerTicketsPath}&per_page=2`, managerTicketsPath),
      await sameQueries('GET /attendees (manager): 5 attendees a page run as many queries as 50', app.url, auth, `${managerAttendeesPath}&per_page=5`, `${managerAttendeesPath}&per_page=50`),
    ];

    // ---- Loads.
    const baseline = await measure({ name: 'bare node http (bytes of the public ticket list)', url: `${bare.url}${NS}/tickets` });
    const listTickets = await measure({ name: 'GET /tickets (public, 10 a page)', url: ticketsUrl });
    const baselineManager = await measure({ name: 'bare node http (bytes of the manager lists, of a check-in)', url: `${bareManager.url}${NS}/tickets` });
    const managerTickets = await measure({ name: `GET /tickets (manager signed in, ${EVENT_COUNT - 1} tickets of ${LISTED_ATTENDEES} attendees)`, url: `${app.url}${managerTicketsPath}`, headers: auth });
    const baselineAttendees = await measure({ name: 'bare node http (bytes of the manager attendee list)', url: `${bareManager.url}${NS}/attendees` });
    const managerAttendees = await measure({ name: `GET /attendees?post_id (manager signed in, 10 a page of ${pool.length + 1})`, url: `${app.url}${managerAttendeesPath}`, headers: auth });
    const keyAttendees = await measure({ name: 'GET /attendees?post_id (check-in key)', url: `${app.url}${withKey(managerAttendeesPath)}` });
    const baselineQr = await measure({ name: 'bare node http (bytes of a check-in answer)', url: `${bareManager.url}${NS}/qr` });
    const checkedInBefore = await attendeeCount(main.ticket, '&checkedin=1');
    const scans = checkins(key, pool);
    const qr = await measure({ name: 'GET /qr (check-in, a different attendee each)', url: `${app.url}${NS}/qr`, requests: scans.requests });
    await waitIdle(app.url);
    const checkedIn = (await attendeeCount(main.ticket, '&checkedin=1')) - checkedInBefore;
    const seatsBefore = await attendeeCount(main.ticket, '');
    const takenBefore = await seatsTaken(app.url, auth, main.ticket);
    const buyers = checkouts(main.ticket);
    const buy = await measure({ name: 'POST /orders (checkout of one seat)', url: `${app.url}${NS}/orders`, method: 'POST', requests: buyers.requests });
    await waitIdle(app.url);
    const sold = (await attendeeCount(main.ticket, '')) - seatsBefore;
    const taken = (await seatsTaken(app.url, auth, main.ticket)) - takenBefore;
    const lastBuyers = checkouts(soldOut.ticket);
    const sellOut = await measure({ name: `POST /orders (checkouts of a ticket with ${SELL_OUT_CAPACITY} seats)`, url: `${app.url}${NS}/orders`, method: 'POST', requests: lastBuyers.requests, seconds: Math.min(seconds, 2) });
    await waitIdle(app.url);
    const soldOutAttendees = await attendeeCount(soldOut.ticket, '');
    const soldOutTaken = await seatsTaken(app.url, auth, soldOut.ticket);

    // ---- Every 2xx did its work, once; no seat was sold twice.
    if (scans.sent() > pool.length) process.stderr.write(`bench: the QR pool ran out (${scans.sent()} scans, ${pool.length} attendees): raise BENCH_QR_ATTENDEES\n`);
    const checks: Check[] = [
      ...sameBytes,
      ...queryChecks,
      accounted('each QR scan checks in a different attendee', qr, checkedIn, Math.min(scans.sent(), pool.length)),
      accounted('each checkout sells one seat', buy, sold, buyers.sent()),
      { goal: 'the seats counted sold equal the attendees created', measured: `${taken} seats, ${sold} attendees`, met: taken === sold },
      {
        goal: `checkouts of a ticket with ${SELL_OUT_CAPACITY} seats sell it out (when sent as many), never beyond`,
        measured: `${sellOut.total - sellOut.non2xx} answered 2xx, ${soldOutAttendees} attendees, ${soldOutTaken} seats counted, ${lastBuyers.sent()} sent`,
        // Sold out once the load sent as many requests as there are seats.
        met: soldOutAttendees === Math.min(SELL_OUT_CAPACITY, lastBuyers.sent()) && soldOutTaken === soldOutAttendees && sellOut.total - sellOut.non2xx <= soldOutAttendees,
      },
      { goal: `checkouts of one seat ≥ ${GOALS.checkoutsPerSecond.toLocaleString('en-US')}/s`, measured: `${Math.round(buy.rps)}/s`, met: buy.rps >= GOALS.checkoutsPerSecond },
    ];
    const title = `Tickets: lists, QR check-in, checkout${siteEvents > 0 ? ` (site with ${siteEvents.toLocaleString('en-US')} seeded events)` : ''}`;
    report(title, baseline, [listTickets, buy, sellOut]);
    report(`${title}: manager lists`, baselineManager, [managerTickets], { [managerTickets.name]: GOALS.managerList });
    report(`${title}: manager attendee list`, baselineAttendees, [managerAttendees, keyAttendees], { [managerAttendees.name]: GOALS.managerList, [keyAttendees.name]: GOALS.managerList });
    report(`${title}: QR check-in`, baselineQr, [qr], { [qr.name]: GOALS.qr }, checks);
  } finally {
    for (const s of servers.reverse()) await s.stop();
  }
}
