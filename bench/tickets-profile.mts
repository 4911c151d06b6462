/**
 * Per-request cost of the ticketing hot paths, in this process (no network, no load generator): CPU
 * ms per request (`process.cpuUsage` around N `app.inject` calls after a warm-up) and the SQL
 * statements one request runs (better-sqlite3's Statement methods timed), for the public and the manager ticket
 * list, the manager attendee list, a QR check-in (a different attendee each) and a checkout of one
 * seat, beside the stack's floor (a 404 signed out and in, a JSON checkout refused before any query).
 * The site is the tickets bench's (bench/ticket-setup.ts's shapes, built through the routes).
 *
 * `npx tsx bench/tickets-profile.mts` (env: `PROFILE_N` requests per round, default 100; `PROFILE_ROUNDS`, default 5;
 * `PROFILE_POOL` attendees of the main ticket, default 3000; `PROFILE_ONLY` a comma list of loads;
 * `PROFILE_CPU=dir` writes a V8 CPU profile of each load's timed requests, `dir/<load>.cpuprofile`;
 * `PROFILE_ENGINE=postgres` runs on a fresh schema of `BENCH_PG_URL` (default the local `test`
 * database), dropped at the end, and adds the CPU per request of that database's PostgreSQL backends,
 * read from `/proc` (other databases' work on a shared machine is left out); there each
 * statement's time is its round trip, from the call to the answer).
 * Jobs the requests queued (due or not: an analytics sync after checkouts) run inside each timed
 * round and are counted with it; their statements are shown apart, per request.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import { startRecording, stopRecording } from './sql-timing.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { OFFLINE_PAYMENTS_OPTION, setCheckinApiKey } from '../src/namespaces/tickets/index.js';
import { ensureFirstAdmin, openDatabase } from '../src/server.js';
import { EVENTS_PATH, TICKETS_NS as NS } from './ticket-setup.js';
import { leastCpu, measureRounds, postgresCpuMs } from './profile-rounds.js';

const N = Number(process.env.PROFILE_N ?? 100);
const POOL = Number(process.env.PROFILE_POOL ?? 3000);
const ONLY = process.env.PROFILE_ONLY?.split(',');
const CPU_DIR = process.env.PROFILE_CPU;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tickets-profile-'));
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgSchema = process.env.PROFILE_ENGINE === 'postgres' ? `tickets_profile_${process.pid}` : undefined;
if (pgSchema) await pgAdmin(`CREATE SCHEMA ${pgSchema}`);
const config = loadConfig({ ...process.env, DATABASE_URL: pgSchema ? PG_URL : path.join(dir, 'p.sqlite'), LOG_LEVEL: 'warn', SMTP_URL: '', REMOTE_PAYMENTS_URL: '' });
const db = await openDatabase(config, pgSchema ? { pgSchema } : {});

async function pgAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
const app = await buildApp({ config, db, logger: pino({ level: 'warn' }) });
const admin = (await ensureFirstAdmin(app.ctx))!;
const auth = { authorization: `Basic ${Buffer.from(`${admin.login}:${admin.appPassword.replace(/ /g, '')}`).toString('base64')}` };
const key = crypto.randomBytes(4).toString('hex');
await setCheckinApiKey(app.ctx, key);
await app.ctx.options.set(OFFLINE_PAYMENTS_OPTION, true);

async function call(method: string, url: string, opts: { headers?: Record<string, string>; json?: unknown; expect?: number } = {}) {
  const res = await app.inject({ method: method as 'GET', url, headers: { ...opts.headers, ...(opts.json !== undefined ? { 'content-type': 'application/json' } : {}) }, payload: opts.json === undefined ? undefined : JSON.stringify(opts.json) });
  if (opts.expect !== undefined && res.statusCode !== opts.expect) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res;
}

async function eventWithTicket(i: number, capacity: number) {
  const event = (await call('POST', EVENTS_PATH, { headers: auth, json: { title: `Ticketed bench event ${i}`, status: 'publish', start_date: '2030-06-01 19:00:00', end_date: '2030-06-01 23:00:00' }, expect: 201 })).json();
  const nonce = (await call('GET', `${NS}/tickets?include_post=${event.id}`, { headers: auth })).json().add_ticket_nonce;
  const ticket = (await call('POST', `${NS}/tickets`, { headers: auth, json: { post_id: event.id, provider: 'tribe-commerce', add_ticket_nonce: nonce, name: `General admission ${i}`, description: 'Benchmark ticket.', price: '12.50', ticket: { mode: 'own', capacity } }, expect: 202 })).json();
  return { event: event.id as number, ticket: ticket.id as number };
}

let buyer = 0;
async function buy(ticket: number, count: number) {
  const out: { id: number; security_code: string }[] = [];
  while (out.length < count) {
    const n = ++buyer;
    const order = (await call('POST', `${NS}/orders`, { json: { provider: 'tribe-commerce', gateway: 'offline', tickets: [{ ticket_id: ticket, quantity: Math.min(100, count - out.length) }], purchaser_name: `Setup buyer ${n}`, purchaser_email: `setup-${n}@example.test` }, expect: 201 })).json();
    await call('POST', `${NS}/orders/${order.id}`, { headers: auth, json: { status: 'completed' }, expect: 200 });
    out.push(...order.attendees);
  }
  return out;
}

const created = [];
for (let i = 0; i < 10; i++) created.push(await eventWithTicket(i, i === 0 ? 1_000_000 : 1000));
const main = created[0]!;
const pool = await buy(main.ticket, POOL);
for (const other of created.slice(1)) await buy(other.ticket, 3);
const soldOut = await eventWithTicket(10, 300);

/** Runs every queued job now: work the requests handed to the jobs runner is part of their cost. */
async function runQueuedJobs() {
  for (const job of await app.ctx.jobs.list({ status: 'queued', limit: 500 })) await app.ctx.jobs.runDue(job.id);
}

let scan = 0;
let checkout = 0;
const loads: Record<string, () => Promise<unknown>> = {
  // What the stack costs around a handler that runs no query (a ticket ID past any post ID: 404).
  floor: () => call('GET', `${NS}/tickets/3000000000`, { expect: 404 }),
  floorSignedIn: () => call('GET', `${NS}/tickets/3000000000`, { headers: auth, expect: 404 }),
  // The same for a JSON POST: a checkout body refused before any query (unknown provider).
  floorCheckout: () => call('POST', `${NS}/orders`, { json: { provider: 'none', gateway: 'offline', tickets: [{ ticket_id: main.ticket, quantity: 1 }], purchaser_name: 'Buyer', purchaser_email: 'buyer@example.test' }, expect: 400 }),
  publicTickets: () => call('GET', `${NS}/tickets`, { expect: 200 }),
  managerTickets: () => call('GET', `${NS}/tickets?exclude_post=${main.event}%2C${soldOut.event}`, { headers: auth, expect: 200 }),
  managerAttendees: () => call('GET', `${NS}/attendees?post_id=${main.event}`, { headers: auth, expect: 200 }),
  qr: () => {
    const a = pool[scan++]!;
    return call('GET', `${NS}/qr?api_key=${key}&ticket_id=${a.id}&security_code=${encodeURIComponent(a.security_code)}`, { expect: 201 });
  },
  checkout: () => {
    const n = ++checkout;
    return call('POST', `${NS}/orders`, { json: { provider: 'tribe-commerce', gateway: 'offline', tickets: [{ ticket_id: main.ticket, quantity: 1 }], purchaser_name: `Buyer ${n}`, purchaser_email: `buyer-${n}@example.test` }, expect: 201 });
  },
};

const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 5);
const chosen = Object.entries(loads).filter(([name]) => !ONLY || ONLY.includes(name));
for (const [, load] of chosen) for (let i = 0; i < 30; i++) await load();
await runQueuedJobs();
// Rounds of N requests of each load in turn; the least CPU time of a round counts (the machine is shared).
// As autovacuum leaves the tables (see app-server.ts's `/__bench/analyze`).
if (pgSchema) await sql`VACUUM ANALYZE`.execute(db);
const rounds = await measureRounds(chosen, { rounds: ROUNDS, n: N, cpuDir: CPU_DIR, afterRound: runQueuedJobs, ...(pgSchema ? { serverCpuMs: () => postgresCpuMs(new URL(PG_URL).pathname.slice(1)) } : {}) });
for (const [name, load] of chosen) {
  startRecording();
  const R = 20;
  for (let i = 0; i < R; i++) await load();
  const stats = [...stopRecording().entries()];
  startRecording();
  await runQueuedJobs();
  const deferred = [...stopRecording().values()].reduce((a, s) => a + s.n, 0) / R;
  const perRequest = stats.reduce((a, [, s]) => a + s.n, 0) / R;
  const sqlMs = stats.reduce((a, [, s]) => a + s.ms, 0) / R;
  const b = leastCpu(rounds.get(name)!);
  const server = b.serverCpuMs === undefined ? '' : `, PostgreSQL ${b.serverCpuMs.toFixed(3)} CPU ms/request`;
  process.stdout.write(`\n## ${name}: ${b.cpuMs.toFixed(3)} CPU ms/request (least of ${ROUNDS} rounds of ${N}; wall ${b.wallMs.toFixed(3)} ms${server}), ${perRequest.toFixed(1)} statements, ${sqlMs.toFixed(3)} SQL ms/request; queued jobs ${deferred.toFixed(1)} statements/request\n`);
  for (const [sqlText, s] of stats.sort((a, b) => b[1].ms - a[1].ms)) process.stdout.write(`  ${(s.n / R).toFixed(1)}× ${(s.ms / R).toFixed(3)} ms  ${sqlText}\n`);
}

await app.close();
await db.destroy();
if (pgSchema && !process.env.PROFILE_KEEP) await pgAdmin(`DROP SCHEMA ${pgSchema} CASCADE`);
if (process.env.PROFILE_KEEP) process.stdout.write(`kept ${dir}\n`);
else fs.rmSync(dir, { recursive: true, force: true });
