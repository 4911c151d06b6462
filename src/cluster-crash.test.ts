/**
 * `kill -9` of one worker of `serve --workers 2` in the middle of a checkout, on each engine. Worker 1
 * is held inside its second checkout's transaction (order and items written, no attendee and no
 * seat yet: a test-only crash point armed in that worker only) while concurrent checkouts load
 * both workers, and is killed there. The primary forks a replacement; the other worker answers all
 * along; only requests in flight on the killed worker's connections fail (a network error, never a
 * 5xx); the replacement sells the last seats and then says sold out. After: every order whole or
 * absent, seats sold equal attendees, nothing twice, exactly the capacity sold; SQLite's file intact.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './storage/test-db.js';
import { checkout, expectConsistent, ticketedEvent, TICKETS_NS } from './test-support/checkout-faults.js';
import { Connection, serverPidOf } from './test-support/connection-owner.js';
import { createFaultSite, startServer, type FaultSite, type ServerProcess } from './test-support/server-process.js';

/** Seats of each ticket: an order takes 2 of the first, so ORDERS orders sell it out. */
const CAPACITY = 48;
const ORDERS = CAPACITY / 2;
const LOOPS = 6;
/** How long a client waits for an answer (a loaded machine answers a checkout in well under it). */
const CLIENT_TIMEOUT_MS = 10_000;

interface Sent {
  status: number | string;
  id?: number;
  startedAt: number;
}

/** The JSON log lines a server printed (other lines skipped). */
function logLines(server: ServerProcess): Record<string, unknown>[] {
  return server.output().split('\n').flatMap((l) => {
    try {
      return l.startsWith('{') ? [JSON.parse(l) as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}

const listening = (server: ServerProcess) => [...new Set(logLines(server).filter((l) => l.msg === 'eventsuite listening').map((l) => Number(l.pid)))];

async function until<T>(what: string, server: ServerProcess, check: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function parentOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

describe.skipIf(process.platform !== 'linux').each(DIALECTS)('kill -9 of one worker of serve --workers 2 on %s', (engine) => {
  let site: FaultSite;
  let tickets: number[];
  beforeAll(async () => {
    site = await createFaultSite(engine);
    tickets = await ticketedEvent(site, CAPACITY);
    await site.closeApp();
  });
  afterAll(() => site?.destroy());

  it('replaces the worker, keeps answering, and leaves every order whole or absent', async () => {
    const server = await startServer(site.url, {
      WORKERS: '2',
      LOG_LEVEL: 'info',
      EVENTSUITE_TEST_CRASH_POINT: 'checkout.order-written',
      EVENTSUITE_TEST_CRASH_WORKER: '1',
      EVENTSUITE_TEST_CRASH_SKIP: '1',
    });
    const primary = server.child.pid!;
    const pids = new Set<number>();
    let over = false;
    try {
      const workers = await until('two workers listening', server, () => (listening(server).length === 2 ? listening(server) : undefined));
      workers.forEach((p) => pids.add(p));

      // Concurrent checkouts until the worker was killed and all but a few orders are sold (the
      // replacement sells those).
      const sent: Sent[] = [];
      let n = 0;
      let killed = false;
      const acknowledged = () => sent.filter((s) => s.status === 201).length;
      const loop = async () => {
        while (!over && (!killed || acknowledged() < ORDERS - LOOPS - 1)) {
          const startedAt = performance.now();
          const r = await checkout(server.base, tickets, n++, CLIENT_TIMEOUT_MS);
          sent.push({ ...r, startedAt });
        }
      };
      const loops = Promise.all(Array.from({ length: LOOPS }, loop));

      const reached = await server.waitFor(/crash point checkout\.order-written reached \(pid (\d+)\)/, 60_000);
      const victim = Number(reached[1]);
      expect(workers).toContain(victim);
      process.kill(victim, 'SIGKILL');
      killed = true;
      const exit = await until('the primary sees the worker exit', server, () => logLines(server).find((l) => l.msg === 'worker exited; starting another'));
      const noticedAt = performance.now();
      expect(exit).toMatchObject({ pid: victim, signal: 'SIGKILL' });
      await loops;

      const replacement = await until('a replacement worker listening', server, () => listening(server).find((p) => !workers.includes(p)));
      pids.add(replacement);
      expect(parentOf(replacement)).toBe(primary);
      expect(server.child.exitCode).toBeNull();

      // Only requests sent to the killed worker failed (at least the one it held), none with a server
      // error. Those include any connection the primary handed to it as it died: that one is never
      // answered nor closed (Node's round-robin hand-off waits forever for the dead worker's
      // acknowledgement), so the client's own timeout ends it.
      const failed = sent.filter((s) => typeof s.status === 'string');
      expect(failed.length).toBeGreaterThanOrEqual(1);
      expect(failed.filter((s) => s.startedAt > noticedAt)).toEqual([]);
      expect(sent.filter((s) => typeof s.status === 'number' && s.status !== 201 && s.status !== 409)).toEqual([]);

      // The replacement answers: a connection it serves sells the seats left, then says sold out.
      const port = Number(new URL(server.base).port);
      let onReplacement: Connection | undefined;
      for (let i = 0; i < 8 && !onReplacement; i++) {
        const c = new Connection(server.base);
        expect((await c.request('GET', '/health')).status).toBe(200);
        if (serverPidOf(port, c.localPort!, [...pids]) === replacement) onReplacement = c;
        else c.close();
      }
      expect(onReplacement, 'no connection reached the replacement worker').toBeDefined();
      const sold = await expectConsistent(site, tickets, sent.flatMap((s) => (s.status === 201 && s.id ? [s.id] : [])));
      expect(sold).toBeLessThan(ORDERS);
      const order = (i: number) => onReplacement!.request('POST', `${TICKETS_NS}/orders`, {
        tickets: [{ ticket_id: tickets[0], quantity: 2 }, { ticket_id: tickets[1], quantity: 1 }], purchaser_name: `Late ${i}`, purchaser_email: `late${i}@example.test`, gateway: 'offline',
      });
      const late = [];
      for (let i = 0; i <= ORDERS - sold; i++) late.push((await order(i)).status);
      onReplacement!.close();
      expect(late).toEqual([...Array(ORDERS - sold).fill(201), 409]);

      expect(await expectConsistent(site, tickets, [])).toBe(ORDERS);
      if (engine === 'sqlite') {
        const check = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(site.db);
        expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
      }
      expect(server.output()).not.toContain('SQLITE_BUSY');
    } finally {
      over = true;
      const stopped = await Promise.race([server.kill('SIGTERM'), new Promise((r) => setTimeout(r, 15_000))]);
      if (!stopped) {
        // Workers still the primary's children (not a pid reused since), then the primary.
        for (const pid of pids) {
          try {
            if (parentOf(pid) === primary) process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
        await server.kill('SIGKILL');
      }
          }
  }, 180_000);
});
