/**
 * Shop analytics benchmark (issue 14 §1 "Scale"): `GET /shop-analytics/customers` on a shop of
 * `BENCH_ANALYTICS_ORDERS` orders (default 100,000) of the seeder's one customer per five orders
 * (20,000), made by `seedOrders` and written into the analytics tables by
 * `rebuildShopAnalytics` (cached per engine like the events suite's databases), on SQLite and on
 * PostgreSQL (`BENCH_ANALYTICS_ENGINES`, default both), against a bare Node server sending the same
 * bytes. Loads, signed in as the administrator:
 * - a typical filter: more than 2 orders, active in the last 90 days, by total spend, 25 a page;
 * - the default list (by registration date, 10 a page);
 * - the same filter over an order-date window (`after`/`before`: aggregates computed over the window).
 * Checks: one request of each answers within `BENCH_ANALYTICS_MS` (default 10) milliseconds (median of
 * 20, one at a time), and a page of 100 runs as many queries as a page of 5 (no per-row queries).
 */
import { basicAuth, measure, report, requestJson, startServer, type Check, type Result, type Server } from './lib.js';

const CUSTOMERS = '/wp-json/shop-analytics/customers';
const SEED_TIMEOUT_MS = 2 * 3600_000;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 19);

function queryString(params: Record<string, string | number>): string {
  return Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
}

/** Median time of `n` requests made one after the other, in milliseconds. */
async function medianMs(url: string, headers: Record<string, string>, n = 20): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)]!;
}

async function queriesOf(server: Server, path: string, headers: Record<string, string>): Promise<number> {
  const counter = `${server.url}/__bench/queries`;
  const before = (await requestJson<{ queries: number }>(counter)).body.queries;
  await requestJson(`${server.url}${path}`, { headers });
  return (await requestJson<{ queries: number }>(counter)).body.queries - before;
}

async function runEngine(engine: string, orders: number, limitMs: number): Promise<void> {
  const servers: Server[] = [];
  try {
    const app = await startServer('app-server.ts', { BENCH_ENGINE: engine, BENCH_WORKERS: '1', BENCH_SEED_ORDERS: String(orders) }, { timeoutMs: SEED_TIMEOUT_MS });
    servers.push(app);
    const auth = basicAuth(/ADMIN (\S+)/.exec(app.output)?.[1] ?? '');
    const typical = `${CUSTOMERS}?${queryString({ orders_count_min: 2, last_active_after: day(-90), last_active_before: day(1), orderby: 'total_spend', order: 'desc', per_page: 25 })}`;
    const plain = CUSTOMERS;
    const windowed = `${CUSTOMERS}?${queryString({ orders_count_min: 2, after: day(-90), before: day(0), orderby: 'total_spend', order: 'desc', per_page: 25 })}`;

    // ---- What the shop holds, and what the typical filter finds.
    const all = await requestJson<unknown[]>(`${app.url}${CUSTOMERS}?per_page=1`, { headers: auth });
    const found = await requestJson<{ orders_count: number; total_spend: number }[]>(`${app.url}${typical}`, { headers: auth });
    const customers = Number(all.headers.get('x-wp-total'));
    const matching = Number(found.headers.get('x-wp-total'));
    if (found.body.length !== 25) throw new Error(`${engine}: the typical filter found ${found.body.length} customers on its first page, not 25`);

    const bare = await startServer('bare-server.ts', { BARE_SOURCE_URLS: `${app.url}${typical}`, BARE_SOURCE_HEADERS: JSON.stringify(auth) });
    servers.push(bare);

    // ---- Single requests: time and queries.
    const singles: { name: string; path: string }[] = [
      { name: 'typical filter', path: typical },
      { name: 'default list', path: plain },
      { name: 'order-date window', path: windowed },
    ];
    const times = [];
    for (const s of singles) times.push({ ...s, ms: await medianMs(`${app.url}${s.path}`, auth) });
    const bareMs = await medianMs(`${bare.url}${CUSTOMERS}`, {});
    // Fewest queries of three requests each (settings are cached for a few seconds, so one may run more).
    const fewest = async (path: string) => Math.min(...[await queriesOf(app, path, auth), await queriesOf(app, path, auth), await queriesOf(app, path, auth)]);
    const q5 = await fewest(typical.replace('per_page=25', 'per_page=5'));
    const q100 = await fewest(typical.replace('per_page=25', 'per_page=100'));

    // ---- Loads.
    const label = `${engine}, ${orders.toLocaleString('en-US')} orders, ${customers.toLocaleString('en-US')} customers`;
    const baseline = await measure({ name: `bare node http (bytes of the typical filter's page) — ${engine}`, url: `${bare.url}${CUSTOMERS}` });
    const rows: Result[] = [
      await measure({ name: `GET /customers typical filter (${matching.toLocaleString('en-US')} match), ${label}`, url: `${app.url}${typical}`, headers: auth }),
      await measure({ name: `GET /customers default list, ${engine}`, url: `${app.url}${plain}`, headers: auth }),
      await measure({ name: `GET /customers order-date window, ${engine}`, url: `${app.url}${windowed}`, headers: auth }),
    ];
    const checks: Check[] = [
      ...times.map((t) => ({ goal: `${t.name}: one request within ${limitMs} ms (median of 20)`, measured: `${t.ms.toFixed(1)} ms (bare server ${bareMs.toFixed(1)} ms)`, met: t.ms <= limitMs })),
      { goal: 'a page of 100 customers runs as many queries as a page of 5', measured: `${q100} vs ${q5}`, met: q100 === q5 },
    ];
    report(`Shop analytics: customers, ${label}`, baseline, rows, {}, checks);
  } finally {
    for (const s of servers.reverse()) await s.stop();
  }
}

export async function run(): Promise<void> {
  const orders = Number(process.env.BENCH_ANALYTICS_ORDERS ?? 100_000);
  const limitMs = Number(process.env.BENCH_ANALYTICS_MS ?? 10);
  if (!Number.isSafeInteger(orders) || orders < 1) throw new Error(`BENCH_ANALYTICS_ORDERS: not a count: ${process.env.BENCH_ANALYTICS_ORDERS}`);
  const engines = (process.env.BENCH_ANALYTICS_ENGINES ?? 'sqlite,postgres').split(',').map((s) => s.trim()).filter(Boolean);
  for (const engine of engines) await runEngine(engine, orders, limitMs);
}
