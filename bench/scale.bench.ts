/**
 * Scale-out benchmark (issue 13 §5): the events list (signed in, so the public read cache never
 * answers), checkouts of one seat and QR check-ins, on SQLite and on PostgreSQL, with 1 and with N
 * worker processes (`serve --workers N` style: Node's cluster on one port). Each configuration is
 * measured next to the bare Node baseline measured just before it, and the scaling factor is the
 * ratio of requests per second with N workers to 1 worker on the same engine.
 *
 * The site holds `BENCH_SCALE_EVENTS` seeded events (default 10,000; cached like the events suite's,
 * per engine). `BENCH_SCALE_ENGINES` (default `sqlite,postgres`) and `BENCH_SCALE_WORKERS` (default
 * `1,2`: the machines here have two cores) choose the configurations.
 */
import crypto from 'node:crypto';
import { basicAuth, measure, report, requestJson, startServer, waitIdle, type Check, type Result, type Server } from './lib.js';
import { accounted, attendeeCount, buyAttendees, checkins, checkouts, eventWithTicket, EVENTS_PATH, TICKETS_NS } from './ticket-setup.js';

const SEED_TIMEOUT_MS = 2 * 3600_000;

function list(name: string, fallback: string): string[] {
  return (process.env[name] ?? fallback).split(',').map((s) => s.trim()).filter(Boolean);
}

interface Row {
  engine: string;
  workers: number;
  baseline: Result;
  list: Result;
  checkout: Result;
  qr: Result;
}

/** One configuration: its server, its loads and their checks. */
async function measureConfig(engine: string, workers: number, events: number, seconds: number): Promise<Row> {
  const key = crypto.randomBytes(4).toString('hex');
  const servers: Server[] = [];
  try {
    const app = await startServer(
      'app-server.ts',
      { BENCH_ENGINE: engine, BENCH_WORKERS: String(workers), BENCH_SEED_EVENTS: String(events), BENCH_CHECKIN_KEY: key, BENCH_OFFLINE_PAYMENTS: '1', SMTP_URL: '', REMOTE_PAYMENTS_URL: '' },
      { timeoutMs: SEED_TIMEOUT_MS },
    );
    servers.push(app);
    const auth = basicAuth(/ADMIN (\S+)/.exec(app.output)?.[1] ?? '');
    const listUrl = `${app.url}${EVENTS_PATH}`;
    const page = (await requestJson<{ events: unknown[] }>(listUrl, { headers: auth })).body;
    if (page.events.length !== 10) throw new Error(`${engine}: the signed-in list holds ${page.events.length} events, not 10`);

    const main = await eventWithTicket(app.url, auth, 0, 1_000_000);
    const poolSize = Number(process.env.BENCH_QR_ATTENDEES ?? Math.ceil(seconds * 3000));
    const pool = await buyAttendees(app.url, auth, main.ticket, poolSize);

    const bare = await startServer('bare-server.ts', { BARE_SOURCE_URLS: listUrl });
    servers.push(bare);
    const label = `${engine}, ${workers} worker${workers > 1 ? 's' : ''}`;
    const baseline = await measure({ name: `bare node http (bytes of the event list) — ${label}`, url: `${bare.url}${EVENTS_PATH}` });
    const listLoad = await measure({ name: `GET /events signed in (uncached), ${label}`, url: listUrl, headers: auth });
    const scans = checkins(key, pool);
    const qr = await measure({ name: `GET /qr (check-in), ${label}`, url: `${app.url}${TICKETS_NS}/qr`, requests: scans.requests });
    await waitIdle(app.url);
    const checkedIn = await attendeeCount(app.url, key, main.ticket, true);
    const before = await attendeeCount(app.url, key, main.ticket);
    const buyers = checkouts(main.ticket);
    const buy = await measure({ name: `POST /orders (checkout of one seat, offline), ${label}`, url: `${app.url}${TICKETS_NS}/orders`, method: 'POST', requests: buyers.requests });
    await waitIdle(app.url);
    const sold = (await attendeeCount(app.url, key, main.ticket)) - before;

    if (scans.sent() > pool.length) process.stderr.write(`bench: the QR pool ran out (${scans.sent()} scans, ${pool.length} attendees): raise BENCH_QR_ATTENDEES\n`);
    const checks: Check[] = [
      { goal: 'the signed-in list answers without errors', measured: `${listLoad.non2xx} non-2xx, ${listLoad.errors} errors`, met: listLoad.non2xx === 0 && listLoad.errors === 0 },
      accounted('each QR scan checks in a different attendee', qr, checkedIn, Math.min(scans.sent(), pool.length)),
      accounted('each checkout sells one seat', buy, sold, buyers.sent()),
    ];
    report(`Scale: ${label} (${events.toLocaleString('en-US')} seeded events)`, baseline, [listLoad, qr, buy], {}, checks);
    return { engine, workers, baseline, list: listLoad, checkout: buy, qr };
  } finally {
    for (const s of servers.reverse()) await s.stop();
  }
}

export async function run(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const events = Number(process.env.BENCH_SCALE_EVENTS ?? 10_000);
  const engines = list('BENCH_SCALE_ENGINES', 'sqlite,postgres');
  const workerCounts = list('BENCH_SCALE_WORKERS', '1,2').map(Number);
  for (const e of engines) if (e !== 'sqlite' && e !== 'postgres') throw new Error(`BENCH_SCALE_ENGINES: sqlite or postgres, not ${e}`);
  for (const n of workerCounts) if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_SCALE_WORKERS: not a worker count: ${n}`);

  const rows: Row[] = [];
  for (const engine of engines) for (const workers of workerCounts) rows.push(await measureConfig(engine, workers, events, seconds));

  // ---- Scaling: N workers against 1 worker, per engine and load; raw, and with each figure taken as a
  // share of the baseline measured next to it (the shared machine's speed drifts between configurations).
  const many = workerCounts.filter((n) => n > 1);
  const lines = [
    '\n## Scale: requests per second by workers, and the factor against one worker',
    '',
    `| engine | load | ${workerCounts.map((n) => `${n} w req/s (% of bare)`).join(' | ')} | ${many.map((n) => `×${n} w raw | ×${n} w vs bare`).join(' | ')} |`,
    `|---|---|${workerCounts.map(() => '---:').join('|')}|${many.map(() => '---:|---:').join('|')}|`,
  ];
  const names = { list: 'GET /events (signed in)', checkout: 'POST /orders (checkout)', qr: 'GET /qr (check-in)' } as const;
  for (const engine of engines) {
    for (const load of ['list', 'checkout', 'qr'] as const) {
      const by = new Map(rows.filter((r) => r.engine === engine).map((r) => [r.workers, { rps: r[load].rps, share: r[load].rps / r.baseline.rps }]));
      const one = by.get(1);
      const cells = workerCounts.map((n) => {
        const v = by.get(n);
        return v ? `${Math.round(v.rps)} (${(v.share * 100).toFixed(0)}%)` : 'n/a';
      });
      const factors = many.map((n) => {
        const v = by.get(n);
        return one && v && one.rps > 0 ? `${(v.rps / one.rps).toFixed(2)} | ${(v.share / one.share).toFixed(2)}` : 'n/a | n/a';
      });
      lines.push(`| ${engine} | ${names[load]} | ${cells.join(' | ')} | ${factors.join(' | ')} |`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
