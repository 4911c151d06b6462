/**
 * `serve --workers 4` on one database, SQLite and PostgreSQL: four processes answer concurrent writes
 * (event creations and checkouts racing for the last seats) with no SQLITE_BUSY or other server error
 * reaching a client, every write lands once, and no seat is sold twice across processes.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DIALECTS, TEST_PG_URL, testSchemaPrefix } from './storage/test-db.js';
import { cliArgs } from './test-support/cli-build.js';
import { freePort } from './test-support/net.js';

const WORKERS = 4;
const CREATES = 40;
const SEATS = 15;
const BUYERS = 25;
const TICKETS = '/wp-json/eventsuite/tickets/v1';
const EVENTS = '/wp-json/eventsuite/events/v1/events';

/** A database URL for the engine: a new SQLite file, or a new schema selected through the URL. */
async function database(engine: 'sqlite' | 'postgres', dir: string): Promise<string> {
  if (engine === 'sqlite') return path.join(dir, 'site.sqlite');
  const schema = `${testSchemaPrefix()}${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return `${TEST_PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

describe.each(DIALECTS)(`serve --workers ${WORKERS} on %s`, (engine) => {
  it('answers concurrent writes from every process without a server error; no seat sold twice', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-workers-'));
    const port = await freePort();
    const child = spawn(process.execPath, cliArgs('serve', '--workers', String(WORKERS)), {
      // BASE_URL explicitly: vitest sets process.env.BASE_URL to '/'.
      env: { ...process.env, DATABASE_URL: await database(engine, dir), PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'info', SMTP_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const listeners = () => new Set([...out.matchAll(/"pid":(\d+)[^\n]*"msg":"eventsuite listening"/g)].map((m) => m[1])).size;
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 150_000;
      while (Date.now() < deadline && listeners() < WORKERS && child.exitCode === null) await new Promise((r) => setTimeout(r, 200));
      expect(listeners(), out).toBe(WORKERS);
      const appPassword = /Application password: (.+)/.exec(out)?.[1]?.trim();
      expect(appPassword, out).toBeTruthy();
      const auth = { authorization: `Basic ${Buffer.from(`admin:${appPassword}`).toString('base64')}`, 'content-type': 'application/json' };
      const post = (url: string, body: unknown, headers: Record<string, string> = auth) => fetch(`${base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });

      // A (free, RSVP) ticket with fewer seats than guests.
      const event = (await (await post(EVENTS, { title: 'Last seats', status: 'publish', start_date: '2027-02-01 19:00', end_date: '2027-02-01 22:00' })).json()) as { id: number };
      const nonce = ((await (await fetch(`${base}${TICKETS}/tickets?include_post=${event.id}`, { headers: auth })).json()) as { add_ticket_nonce: string }).add_ticket_nonce;
      const ticketRes = await post(`${TICKETS}/tickets`, { post_id: event.id, provider: 'rsvp', add_ticket_nonce: nonce, name: 'Seat', price: '0', ticket: { mode: 'own', capacity: SEATS } });
      expect(ticketRes.status, await ticketRes.clone().text()).toBe(202);
      const ticket = ((await ticketRes.json()) as { id: number }).id;

      // A signed-in client sending many requests at once from one address may be asked to wait (429 with
      // Retry-After: the sign-in limiter allows a few credential checks at a time until one is cached);
      // it waits and sends again, as a client should. Anything else is a failure.
      const create = async (i: number): Promise<number | string> => {
        for (let attempt = 0; ; attempt++) {
          const r = await post(EVENTS, { title: `Concurrent ${i}`, start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00', status: 'publish', categories: ['Load'] });
          if (r.status === 201) return 201;
          const text = await r.text();
          if (r.status !== 429 || attempt >= 10) return `${r.status} ${text}`;
          await new Promise((w) => setTimeout(w, 1000 * Number(r.headers.get('retry-after') ?? 1)));
        }
      };
      const creates = Array.from({ length: CREATES }, (_, i) => create(i));
      const buys = Array.from({ length: BUYERS }, (_, i) =>
        post(`${TICKETS}/orders`, { provider: 'rsvp', tickets: [{ ticket_id: ticket, quantity: 1 }], purchaser_name: `Buyer ${i}`, purchaser_email: `buyer-${i}@example.test` }, { 'content-type': 'application/json' })
          .then(async (r) => ({ status: r.status, text: await r.text() })),
      );
      const [created, bought] = await Promise.all([Promise.all(creates), Promise.all(buys)]);

      expect(created.filter((s) => s !== 201)).toEqual([]);
      // Exactly the seats there were; the others are told it is sold out (409), never a 5xx.
      expect(bought.filter((b) => b.status === 201)).toHaveLength(SEATS);
      expect(bought.filter((b) => b.status !== 201 && b.status !== 409).map((b) => `${b.status} ${b.text}`)).toEqual([]);
      expect(out).not.toContain('SQLITE_BUSY');
      expect(out).not.toMatch(/"level":50/);

      const list = await fetch(`${base}${EVENTS}?per_page=50&search=Concurrent`, { headers: auth });
      expect(((await list.json()) as { events: unknown[] }).events).toHaveLength(CREATES);
      const attendees = await fetch(`${base}${TICKETS}/attendees?ticket_id=${ticket}&per_page=1`, { headers: auth });
      expect(((await attendees.json()) as { total: number }).total).toBe(SEATS);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
