/**
 * Soak (issue 13 §4): `SOAK_SECONDS` (default 600) of mixed reads and writes on `SOAK_WORKERS`
 * (default 4) worker processes, on `BENCH_ENGINE` (default SQLite) with `SOAK_EVENTS` seeded events
 * (default 10,000). Each connection walks a cycle of ten requests: four public event lists (cached),
 * two signed-in lists (uncached; one of them searches a word of the seeded titles, whose matches do not
 * grow during the run: searching the soak's own "Soak event" titles made each search test thousands
 * more candidates by the end, so p99 measured the load's growth, not the server's), two single
 * events, one event creation and one checkout of a seat.
 *
 * Prints, per minute, requests, p99 latency and errors; per worker and minute, its resident memory
 * (RSS, read from /proc every 5 seconds) and its V8 heap after a full garbage collection (asked of the
 * app server's `/__bench/memory?gc=1` every `SOAK_GC_SECONDS`, default 60; each worker collects, then
 * reports `process.memoryUsage()` and the anonymous / file-backed split of its RSS); per worker, the
 * slopes of RSS, all of it and its anonymous part (the median of pairwise slopes, which a spike does
 * not tilt; least squares beside it), and of heap after GC (least squares) over the samples after the
 * first minute, in MB per minute, so
 * a growing heap (objects kept: a leak or a cache filling) can be told from native memory growing
 * under a flat heap (malloc, SQLite). With `SOAK_SNAPSHOTS=dir` every worker writes a V8 heap
 * snapshot into `dir` after the first minute and at the end (compare them with
 * `bench/heap-diff.ts`). The goals: no error at all (every answer 2xx, every checkout sold one seat),
 * anonymous RSS flat (each slope under 1 MB/min; the file-backed rest is the database's pages, which
 * grow with the file the load writes) and p99 stable (no minute after the first above twice the
 * first full minute's). A baseline (the bare Node server sending the list's bytes) is measured first
 * for `BENCH_SECONDS`, as in the other suites.
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { basicAuth, measure, report, requestJson, startServer, waitIdle, type Check, type Result, type Server } from './lib.js';
import type { MemorySample } from './app-server.js';
import { eventWithTicket, EVENTS_PATH, TICKETS_NS } from './ticket-setup.js';

const SAMPLE_MS = 5000;
const MB = 1024 * 1024;


/** One worker's memory as the soak saw it: minutes since the start, and the sample. */
interface HeapPoint {
  x: number;
  m: MemorySample;
}

/**
 * Resident memory of a process in MB, all of it and its anonymous part (the process's own memory: the
 * rest is files mapped, here the database pages `mmap_size` maps, which grow with the file as the load
 * writes and are the kernel's page cache), or undefined once it is gone.
 */
function rssMb(pid: number): { rss: number; anon: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(status);
    const anon = /RssAnon:\s+(\d+) kB/.exec(status);
    return rss && anon ? { rss: Number(rss[1]) / 1024, anon: Number(anon[1]) / 1024 } : undefined;
  } catch {
    return undefined;
  }
}

/** Least-squares slope of `y` over `x`. */
function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? 0 : points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
}

/**
 * Theil–Sen slope of `y` over `x`: the median of the slopes between every pair of samples. RSS moves in
 * a band with short spikes (an arena grows for one burst and is trimmed later), and one spike near an
 * end of a few minutes' samples tilts a least-squares line by more than 1 MB/min while the median of
 * the pairs follows the band: a drift moves every pair, a spike only the pairs that touch it.
 */
function medianSlope(points: readonly { x: number; y: number }[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const dx = points[j]!.x - points[i]!.x;
      if (dx > 0) slopes.push((points[j]!.y - points[i]!.y) / dx);
    }
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  const mid = slopes.length >> 1;
  return slopes.length % 2 === 1 ? slopes[mid]! : (slopes[mid - 1]! + slopes[mid]!) / 2;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function run(): Promise<void> {
  const seconds = Number(process.env.SOAK_SECONDS ?? 600);
  const workers = Number(process.env.SOAK_WORKERS ?? 4);
  const events = Number(process.env.SOAK_EVENTS ?? 10_000);
  const connections = Number(process.env.SOAK_CONNECTIONS ?? 16);
  const gcSeconds = Number(process.env.SOAK_GC_SECONDS ?? 60);
  const snapshots = process.env.SOAK_SNAPSHOTS;
  if (!(seconds > 0) || !Number.isInteger(workers) || workers < 1) throw new Error('SOAK_SECONDS and SOAK_WORKERS: positive numbers');
  const engine = process.env.BENCH_ENGINE ?? 'sqlite';
  const servers: Server[] = [];
  try {
    const app = await startServer('app-server.ts', { BENCH_WORKERS: String(workers), BENCH_SEED_EVENTS: String(events), BENCH_OFFLINE_PAYMENTS: '1', SMTP_URL: '', REMOTE_PAYMENTS_URL: '' }, { timeoutMs: 2 * 3600_000 });
    servers.push(app);
    const pids = (/WORKERS (\S+)/.exec(app.output)?.[1] ?? '').split(',').map(Number).filter((n) => n > 0);
    if (workers > 1 && pids.length !== workers) throw new Error(`soak: expected ${workers} worker PIDs, got ${pids.join(',') || 'none'}`);
    const watched = pids.length > 0 ? pids : [app.child.pid!];
    const admin = basicAuth(/ADMIN (\S+)/.exec(app.output)?.[1] ?? '');
    const listUrl = `${app.url}${EVENTS_PATH}`;
    const ids = (await requestJson<{ events: { id: number }[] }>(`${listUrl}?per_page=50`)).body.events.map((e) => e.id);
    const { ticket } = await eventWithTicket(app.url, admin, 0, 10_000_000);

    const bare = await startServer('bare-server.ts', { BARE_SOURCE_URLS: listUrl });
    servers.push(bare);
    const baseline = await measure({ name: 'bare node http (bytes of the event list)', url: `${bare.url}${EVENTS_PATH}` });
    const shortList = await measure({ name: `GET /events, ${workers} workers (${engine})`, url: listUrl });
    await bare.stop();
    servers.pop();
    await waitIdle(app.url);

    // ---- The mixed load.
    let n = 0;
    let checkoutsSent = 0;
    let createsSent = 0;
    const json = { 'content-type': 'application/json' };
    const cycle: ((req: autocannon.Request) => autocannon.Request)[] = [
      (req) => ({ ...req, method: 'GET', path: EVENTS_PATH, headers: {} }),
      (req) => ({ ...req, method: 'GET', path: `${EVENTS_PATH}/${ids[n % ids.length]}`, headers: {} }),
      (req) => ({ ...req, method: 'GET', path: EVENTS_PATH, headers: admin }),
      (req) => ({ ...req, method: 'GET', path: `${EVENTS_PATH}?per_page=5&page=2`, headers: {} }),
      (req) => {
        createsSent++;
        return { ...req, method: 'POST', path: EVENTS_PATH, headers: { ...admin, ...json }, body: JSON.stringify({ title: `Soak event ${n}`, status: 'publish', start_date: '2031-04-01 19:00:00', end_date: '2031-04-01 21:00:00' }) };
      },
      (req) => ({ ...req, method: 'GET', path: EVENTS_PATH, headers: {} }),
      (req) => ({ ...req, method: 'GET', path: `${EVENTS_PATH}/${ids[(n * 7) % ids.length]}`, headers: {} }),
      (req) => ({ ...req, method: 'GET', path: `${EVENTS_PATH}?per_page=10&search=jazz`, headers: admin }),
      (req) => {
        checkoutsSent++;
        return { ...req, method: 'POST', path: `${TICKETS_NS}/orders`, headers: json, body: JSON.stringify({ provider: 'tribe-commerce', gateway: 'offline', tickets: [{ ticket_id: ticket, quantity: 1 }], purchaser_name: `Soak buyer ${n}`, purchaser_email: `soak-${n}@example.test` }) };
      },
      (req) => ({ ...req, method: 'GET', path: EVENTS_PATH, headers: {} }),
    ];
    const seats = async () => (await requestJson<{ total: number }>(`${app.url}${TICKETS_NS}/attendees?ticket_id=${ticket}&per_page=1`, { headers: admin })).body.total;
    const seatsBefore = await seats();

    const started = Date.now();
    const minutes: { latencies: number[]; non2xx: number; statuses: Record<number, number> }[] = [];
    const bucket = () => {
      const m = Math.floor((Date.now() - started) / 60_000);
      while (minutes.length <= m) minutes.push({ latencies: [], non2xx: 0, statuses: {} });
      return minutes[m]!;
    };
    const samples = new Map<number, { x: number; y: number; anon: number }[]>(watched.map((p) => [p, []]));
    const sample = () => {
      const x = (Date.now() - started) / 60_000;
      for (const pid of watched) {
        const mb = rssMb(pid);
        if (mb !== undefined) samples.get(pid)!.push({ x, y: mb.rss, anon: mb.anon });
      }
    };
    const heaps = new Map<number, HeapPoint[]>(watched.map((p) => [p, []]));
    const snapshotFiles: string[] = [];
    const heapSample = async () => {
      const x = (Date.now() - started) / 60_000;
      const { processes } = (await requestJson<{ processes: MemorySample[] }>(`${app.url}/__bench/memory?gc=1`)).body;
      for (const m of processes) heaps.get(m.pid)?.push({ x, m });
    };
    const snapshot = async () => {
      if (snapshots) snapshotFiles.push(...(await requestJson<{ files: string[] }>(`${app.url}/__bench/heap-snapshot?dir=${encodeURIComponent(snapshots)}`)).body.files);
    };
    let heapBusy: Promise<void> = heapSample();
    await heapBusy;
    sample();
    const sampler = setInterval(sample, SAMPLE_MS);
    // Memory after GC (and the snapshot after the first minute) one at a time, never overlapping.
    const heapTimer = gcSeconds > 0 ? setInterval(() => {
      heapBusy = heapBusy.then(heapSample).catch((err) => void process.stderr.write(`soak: memory sample failed: ${String(err)}\n`));
    }, gcSeconds * 1000) : undefined;
    const firstSnapshot = snapshots ? setTimeout(() => {
      heapBusy = heapBusy.then(snapshot).catch((err) => void process.stderr.write(`soak: heap snapshot failed: ${String(err)}\n`));
    }, 61_000) : undefined;
    const progress = setInterval(() => process.stderr.write(`soak: ${Math.round((Date.now() - started) / 1000)} s of ${seconds}, ${n} requests\n`), 60_000);
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        { url: app.url, connections, duration: seconds, requests: [{ setupRequest: (req) => cycle[n++ % cycle.length]!(req) }] },
        (err, res) => (err ? reject(err) : resolve(res)),
      );
      instance.on('response', (_client, status, _bytes, ms) => {
        const b = bucket();
        b.latencies.push(ms);
        if (status < 200 || status >= 300) {
          b.non2xx++;
          b.statuses[status] = (b.statuses[status] ?? 0) + 1;
        }
      });
    });
    clearInterval(sampler);
    clearInterval(progress);
    clearInterval(heapTimer);
    clearTimeout(firstSnapshot);
    sample();
    await heapBusy;
    await waitIdle(app.url);
    await heapSample();
    await snapshot();
    const sold = (await seats()) - seatsBefore;
    const created = (await requestJson<{ total: number }>(`${listUrl}?per_page=1&search=${encodeURIComponent('Soak event')}&start_date=2031-04-01&end_date=2031-04-02`, { headers: admin })).body.total;

    // ---- Figures.
    const soakRow: Result = { name: `mixed soak, ${workers} workers (${engine}), ${seconds} s`, rps: result.requests.average, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx, total: result.requests.total };
    const lines = ['', '| minute | requests | p99 ms | non-2xx |', '|---:|---:|---:|---:|'];
    const p99s: number[] = [];
    minutes.forEach((b, i) => {
      const sorted = [...b.latencies].sort((a, c) => a - c);
      const p99 = percentile(sorted, 99);
      p99s.push(p99);
      const detail = Object.entries(b.statuses).map(([s, c]) => `${c}×${s}`).join(' ');
      lines.push(`| ${i + 1} | ${b.latencies.length} | ${Math.round(p99)} | ${b.non2xx}${detail ? ` (${detail})` : ''} |`);
    });
    // Per minute and worker: RSS (/proc), heap used after GC and malloc's resident arenas, each the sample nearest the minute.
    const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : (bytes / MB).toFixed(0));
    lines.push('', `| minute | ${watched.map((pid) => `${pid} RSS (anonymous) / heap after GC / malloc MB`).join(' | ')} |`, `|---:|${watched.map(() => '---:').join('|')}|`);
    /** The sample nearest to `minute` (within half a minute). */
    const lastIn = <T extends { x: number }>(points: readonly T[], minute: number) =>
      points.filter((p) => Math.abs(p.x - minute) <= 0.5).sort((p, q) => Math.abs(p.x - minute) - Math.abs(q.x - minute))[0];
    for (let minute = 0; minute <= Math.ceil(seconds / 60); minute++) {
      const cells = watched.map((pid) => {
        const r = lastIn(samples.get(pid)!, minute);
        const h = lastIn(heaps.get(pid)!, minute);
        const malloc = h?.m.mallocMain === undefined ? undefined : h.m.mallocMain + (h.m.mallocArenas ?? 0);
        return `${r ? `${r.y.toFixed(0)} (${r.anon.toFixed(0)})` : '-'} / ${mb(h?.m.heapUsed)} / ${mb(malloc)}`;
      });
      lines.push(`| ${minute} | ${cells.join(' | ')} |`);
    }
    lines.push(
      '',
      '| worker pid | RSS start MB | RSS end MB | RSS max MB | slope after minute 1, MB/min: anonymous RSS, median of pairs (least squares); all RSS, median of pairs | heap after GC start / end MB | heap slope MB/min | end: heap total (young + old) / external / RSS anon / RSS file MB | malloc main / thread arenas MB (start → end) |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    const slopes: number[] = [];
    const heapSlopes: number[] = [];
    for (const pid of watched) {
      const s = samples.get(pid)!;
      const late = s.filter((p) => p.x >= 1);
      const points = late.length >= 2 ? late : s;
      const anon = points.map((p) => ({ x: p.x, y: p.anon }));
      const k = medianSlope(anon);
      slopes.push(k);
      const h = heaps.get(pid)!.map((p) => ({ x: p.x, y: p.m.heapUsed / MB }));
      const hLate = h.filter((p) => p.x >= 1);
      const hk = slope(hLate.length >= 2 ? hLate : h);
      heapSlopes.push(hk);
      const first = heaps.get(pid)![0]?.m;
      const end = heaps.get(pid)!.at(-1)?.m;
      lines.push(
        `| ${pid} | ${s[0]?.y.toFixed(1) ?? '-'} | ${s.at(-1)?.y.toFixed(1) ?? '-'} | ${Math.max(...s.map((p) => p.y)).toFixed(1)} | ${k.toFixed(2)} (${slope(anon).toFixed(2)}); ${medianSlope(points).toFixed(2)} | ` +
          `${h[0]?.y.toFixed(1) ?? '-'} / ${h.at(-1)?.y.toFixed(1) ?? '-'} | ${hk.toFixed(2)} | ${mb(end?.heapTotal)} (${mb(end?.newSpace)} + ${mb(end?.otherSpaces)}) / ${mb(end?.external)} / ${mb(end?.rssAnon)} / ${mb(end?.rssFile)} | ` +
          `${mb(first?.mallocMain)} / ${mb(first?.mallocArenas)} (${first?.arenaCount ?? '-'}) → ${mb(end?.mallocMain)} / ${mb(end?.mallocArenas)} (${end?.arenaCount ?? '-'}) |`,
      );
    }
    if (heaps.get(watched[0]!)?.some((p) => !p.m.gc)) lines.push('', 'heap figures without a forced GC: the server runs without --expose-gc');
    if (snapshotFiles.length > 0) lines.push('', 'heap snapshots:', ...snapshotFiles.map((f) => `- ${f}`));
    const alive = watched.filter((pid) => rssMb(pid) !== undefined).length;
    const full = p99s.slice(0, Math.floor(seconds / 60));
    const firstFull = full[0] ?? p99s[0] ?? 0;
    const worstLater = Math.max(0, ...full.slice(1));
    const checks: Check[] = [
      { goal: 'no error: every answer 2xx, no socket error or timeout', measured: `${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts of ${result.requests.total}`, met: result.non2xx === 0 && result.errors === 0 && result.timeouts === 0 },
      { goal: 'every checkout sold one seat, every creation made one event', measured: `${sold} seats sold for ${checkoutsSent} checkouts sent; ${created} events for ${createsSent} creations sent`, met: sold <= checkoutsSent && created <= createsSent && sold >= checkoutsSent - connections && created >= createsSent - connections },
      { goal: 'every worker still up', measured: `${alive} of ${watched.length}`, met: alive === watched.length },
      { goal: 'anonymous RSS flat: each worker under 1 MB/min after the first minute (median of pairwise slopes)', measured: slopes.map((k) => k.toFixed(2)).join(', '), met: slopes.every((k) => k < 1) },
      { goal: 'heap after GC flat: each worker under 1 MB/min after the first minute', measured: heapSlopes.map((k) => k.toFixed(2)).join(', '), met: heapSlopes.every((k) => k < 1) },
      { goal: 'p99 stable: no later full minute above 2× the first', measured: full.length > 1 ? `first ${Math.round(firstFull)} ms, worst later ${Math.round(worstLater)} ms` : 'run shorter than two minutes', met: full.length < 2 || worstLater <= 2 * firstFull },
    ];
    report(`Soak: mixed reads and writes, ${workers} workers on ${engine}, ${seconds} s`, baseline, [shortList, soakRow], {}, checks);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const s of servers.reverse()) await s.stop();
  }
}
