/**
 * Events calendar benchmark (issue #3 item 9), in one run against the bare Node `http` baseline:
 * listing events (default filters, 10 a page) on 10,000 and on `BENCH_EVENTS_LARGE` (default
 * 1,000,000) seeded events, fetching one event, and creating events. Goals: the list of 10 at 40% or
 * more of the baseline on 10,000 events; on the large database no more than 1.5 times slower than on
 * 10,000 (indexes, not scans); a page of 50 events runs as many queries as a page of 5.
 *
 * Signed in (issue #12; an application password, so the signed-out response cache never answers):
 * the list of 10, one event (a different one each request) and filtered pages of 50 (category ×
 * start date × page, a different combination each request, so neither the page nor its total is
 * reused). Each is compared with a bare server sending the same bytes: list ≥ 15%, single ≥ 25%,
 * filtered ≥ 8% on 10,000 events; list and single on the large database ≤ 1.2× slower than on 10,000.
 *
 * Seeded databases are cached under `bench/.cache/` (see `app-server.ts`); the first run of a size
 * seeds it (a million events take several minutes).
 */
import type autocannon from 'autocannon';
import { basicAuth, measure, report, requestJson, startServer, type Check, type Result, type Server } from './lib.js';

const SMALL = 10_000;
const EVENTS = '/wp-json/eventsuite/events/v1/events';
/** Seeding a million events on a busy machine can take a long while. */
const SEED_TIMEOUT_MS = 2 * 3600_000;

interface EventList {
  events: { id: number }[];
  total: number;
}

/** A seeded server, what its default window holds, 50 event IDs from it and the admin's credentials. */
interface Fact {
  server: Server;
  seeded: number;
  inWindow: number;
  ids: number[];
  auth: Record<string, string>;
}

let nonce = 0;

/**
 * Queries one request runs: the server's counter before and after it (no load running). A distinct
 * extra parameter keeps the signed-out response cache from answering, so the page is really built.
 */
async function queriesOf(server: Server, path: string): Promise<number> {
  const counter = `${server.url}/__bench/queries`;
  const before = (await requestJson<{ queries: number }>(counter)).body.queries;
  await requestJson(`${server.url}${path}${path.includes('?') ? '&' : '?'}bench_nonce=${++nonce}`);
  return (await requestJson<{ queries: number }>(counter)).body.queries - before;
}

/**
 * Fewest and most queries over three requests of `path` after a warm-up (settings are cached for a
 * couple of seconds and the scheduled-event sweep runs at most once a minute, so the first request
 * may run a few more).
 */
async function queryCount(server: Server, path: string): Promise<{ min: number; max: number }> {
  await queriesOf(server, path);
  const counts = [await queriesOf(server, path), await queriesOf(server, path), await queriesOf(server, path)];
  return { min: Math.min(...counts), max: Math.max(...counts) };
}

/** A request sequence walking `paths` (each request takes the next one). */
function walk(paths: readonly string[]): autocannon.Request[] {
  let next = 0;
  return [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length]! }) }];
}

/** Each request creates a different event (unique titles, dates outside the default list window). */
function creates(auth: Record<string, string>): autocannon.Request[] {
  let n = 0;
  return [
    {
      setupRequest: (req) => {
        n++;
        return {
          ...req,
          method: 'POST',
          path: EVENTS,
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `Bench concert ${n}`, description: 'Created by the benchmark.', start_date: '2030-03-01 19:00:00', end_date: '2030-03-01 22:00:00', status: 'publish' }),
        };
      },
    },
  ];
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** Filtered archive pages of 50: every category × start date × page, in a shuffled but fixed order. */
function filteredPaths(categories: readonly number[], days: number): string[] {
  const paths: string[] = [];
  const start = Date.now();
  for (let d = 0; d < days; d++) {
    const date = new Date(start + d * 86_400_000).toISOString().slice(0, 10);
    for (const c of categories) for (const page of [1, 2]) paths.push(`${EVENTS}?per_page=50&categories=${c}&start_date=${date}&page=${page}`);
  }
  // Deterministic shuffle, so consecutive requests differ in every parameter.
  let seed = 42;
  for (let i = paths.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [paths[i], paths[j]] = [paths[j]!, paths[i]!];
  }
  return paths;
}

const pct = (r: Result, base: Result) => `${Math.round(r.rps)} vs ${Math.round(base.rps)} req/s: ${((100 * r.rps) / base.rps).toFixed(1)}% (p99 ${r.p99} ms)`;

export async function run(): Promise<void> {
  const large = Number(process.env.BENCH_EVENTS_LARGE ?? 1_000_000);
  if (!Number.isSafeInteger(large) || large < 1) throw new Error(`BENCH_EVENTS_LARGE: not a count: ${process.env.BENCH_EVENTS_LARGE}`);
  const servers: Server[] = [];
  try {
    const small = await startServer('app-server.ts', { BENCH_SEED_EVENTS: String(SMALL) }, { timeoutMs: SEED_TIMEOUT_MS });
    servers.push(small);
    const big = await startServer('app-server.ts', { BENCH_SEED_EVENTS: String(large) }, { timeoutMs: SEED_TIMEOUT_MS });
    servers.push(big);
    const bare = await startServer('bare-server.ts', { BARE_SOURCE_URLS: `${small.url}${EVENTS}` });
    servers.push(bare);
    const label = (n: number) => (n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

    // ---- What each database holds, and the events fetched one by one.
    const sizes = [
      { server: small, seeded: SMALL },
      { server: big, seeded: large },
    ];
    const facts: Fact[] = [];
    for (const { server, seeded } of sizes) {
      const page = (await requestJson<EventList>(`${server.url}${EVENTS}`)).body;
      if (page.events.length !== 10) throw new Error(`the default list of ${label(seeded)} events holds ${page.events.length} events, not 10`);
      const fifty = (await requestJson<EventList>(`${server.url}${EVENTS}?per_page=50`)).body;
      if (fifty.events.length !== 50) throw new Error(`a page of 50 of ${label(seeded)} events holds ${fifty.events.length}`);
      const auth = basicAuth(/ADMIN (\S+)/.exec(server.output)?.[1] ?? '');
      facts.push({ server, seeded, inWindow: page.total, ids: fifty.events.map((e) => e.id), auth });
    }

    // ---- Queries per page: a page of 50 against a page of 5.
    const counts: { seeded: number; fifty: { min: number; max: number }; five: { min: number; max: number } }[] = [];
    for (const f of facts) {
      counts.push({ seeded: f.seeded, fifty: await queryCount(f.server, `${EVENTS}?per_page=50`), five: await queryCount(f.server, `${EVENTS}?per_page=5`) });
    }

    // ---- Loads.
    const baseline = await measure({ name: 'bare node http (bytes of the 10-event list)', url: `${bare.url}${EVENTS}` });
    const listRows: Result[] = [];
    for (const f of facts) {
      listRows.push(await measure({ name: `GET /events, ${label(f.seeded)} seeded (${fmt(f.inWindow)} in the default window)`, url: `${f.server.url}${EVENTS}` }));
    }
    const rows: Result[] = [...listRows];
    for (const f of facts) {
      rows.push(await measure({ name: `GET /events/{id}, ${label(f.seeded)} seeded`, url: `${f.server.url}${EVENTS}/${f.ids[0]}`, requests: walk(f.ids.map((id) => `${EVENTS}/${id}`)) }));
    }
    for (const f of facts) {
      rows.push(await measure({ name: `POST /events (create), ${label(f.seeded)} seeded`, url: `${f.server.url}${EVENTS}`, method: 'POST', requests: creates(f.auth) }));
    }

    // ---- Verdicts.
    const [list10k, listLarge] = listRows as [Result, Result];
    const slowdown = list10k.rps / listLarge.rps;
    // The same count for 50 events and for 5, on both databases.
    const fixed = new Set(counts.flatMap((c) => [c.fifty.min, c.five.min])).size === 1;
    const countText = counts
      .map((c) => {
        const range = (r: { min: number; max: number }) => (r.min === r.max ? String(r.min) : `${r.min}–${r.max}`);
        return `${label(c.seeded)}: page of 50 → ${range(c.fifty)} queries, page of 5 → ${range(c.five)}`;
      })
      .join('; ');
    const checks: Check[] = [
      {
        goal: `list at ${label(large)} no more than 1.5× slower than at 10k`,
        measured: `${Math.round(list10k.rps)} vs ${Math.round(listLarge.rps)} req/s: ${slowdown.toFixed(2)}× slower (p99 ${list10k.p99} vs ${listLarge.p99} ms)`,
        met: slowdown <= 1.5,
      },
      { goal: 'a page of 50 events runs a fixed number of queries', measured: countText, met: fixed },
    ];
    report('Events: list, single, create', baseline, rows, { [list10k.name]: 0.4 }, checks);

    // ---- Signed in (issue #12): the public cache never answers, so every page is built.
    const [f10k, fLarge] = facts as [Fact, Fact];
    const categories = (await requestJson<{ categories: { id: number }[] }>(`${small.url}/wp-json/eventsuite/events/v1/categories?per_page=50`)).body.categories.map((c) => c.id);
    const filtered = filteredPaths(categories, 60);
    const largeCategories = (await requestJson<{ categories: { id: number }[] }>(`${fLarge.server.url}/wp-json/eventsuite/events/v1/categories?per_page=50`)).body.categories.map((c) => c.id);
    const filteredLarge = filteredPaths(largeCategories, 60);
    // One bare server per body: each answers by path, and the filtered page shares the list's path.
    const signedIn = [
      { path: `${EVENTS}?per_page=10`, name: 'list of 10' },
      { path: `${EVENTS}/${f10k.ids[0]}`, name: 'one event' },
      { path: filtered[0]!, name: 'filtered page of 50' },
    ];
    const bareRows: Result[] = [];
    for (const s of signedIn) {
      const bytes = await fetch(`${small.url}${s.path}`, { headers: f10k.auth });
      if (bytes.status !== 200) throw new Error(`GET ${s.path} signed in: ${bytes.status}`);
      const bare = await startServer('bare-server.ts', { BARE_SOURCE_URLS: `${small.url}${s.path}`, BARE_SOURCE_HEADERS: JSON.stringify({ authorization: f10k.auth.authorization! }) });
      servers.push(bare);
      bareRows.push(await measure({ name: `bare node http (bytes of the signed-in ${s.name})`, url: `${bare.url}${s.path.split('?')[0]}` }));
    }
    const singleWalk = (f: Fact) => walk(f.ids.map((id) => `${EVENTS}/${id}`));
    const signedLoads: { f: Fact; name: string; path: string; requests?: autocannon.Request[] }[] = [
      { f: f10k, name: `signed in: GET /events?per_page=10, ${label(SMALL)}`, path: `${EVENTS}?per_page=10` },
      { f: f10k, name: `signed in: GET /events/{id} (a different one each), ${label(SMALL)}`, path: `${EVENTS}/${f10k.ids[0]}`, requests: singleWalk(f10k) },
      { f: f10k, name: `signed in: GET /events?per_page=50&categories=…&start_date=…&page=… (varied), ${label(SMALL)}`, path: filtered[0]!, requests: walk(filtered) },
      { f: fLarge, name: `signed in: GET /events?per_page=10, ${label(large)}`, path: `${EVENTS}?per_page=10` },
      { f: fLarge, name: `signed in: GET /events/{id}, ${label(large)}`, path: `${EVENTS}/${fLarge.ids[0]}`, requests: singleWalk(fLarge) },
      // Reported, no goal: a category holds 5% of the events, so its total grows with the site.
      { f: fLarge, name: `signed in: filtered pages of 50 (varied), ${label(large)}`, path: filteredLarge[0]!, requests: walk(filteredLarge) },
    ];
    const signedRows: Result[] = [];
    for (const l of signedLoads) signedRows.push(await measure({ name: l.name, url: `${l.f.server.url}${l.path}`, headers: l.f.auth, ...(l.requests ? { requests: l.requests } : {}) }));
    const [sList, sSingle, sFiltered, sListLarge, sSingleLarge] = signedRows as [Result, Result, Result, Result, Result, Result];
    const [bList, bSingle, bFiltered] = bareRows as [Result, Result, Result];
    const signedChecks: Check[] = [
      { goal: 'signed-in list of 10 ≥ 15% of bare (same bytes)', measured: pct(sList, bList), met: sList.rps / bList.rps >= 0.15 },
      { goal: 'signed-in single ≥ 25% of bare (same bytes)', measured: pct(sSingle, bSingle), met: sSingle.rps / bSingle.rps >= 0.25 },
      { goal: 'signed-in filtered page of 50 ≥ 8% of bare (same bytes)', measured: pct(sFiltered, bFiltered), met: sFiltered.rps / bFiltered.rps >= 0.08 },
      {
        goal: `signed-in list and single at ${label(large)} ≤ 1.2× slower than at 10k`,
        measured: `list ${(sList.rps / sListLarge.rps).toFixed(2)}×, single ${(sSingle.rps / sSingleLarge.rps).toFixed(2)}×`,
        met: sList.rps / sListLarge.rps <= 1.2 && sSingle.rps / sSingleLarge.rps <= 1.2,
      },
    ];
    report('Events signed in (uncached); ratios in the checks are against the bare server sending the same bytes', bList, [bSingle, bFiltered, ...signedRows], {}, signedChecks);
  } finally {
    for (const s of servers.reverse()) await s.stop();
  }
}
