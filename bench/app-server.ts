/**
 * The real server for benchmarks: a fresh database, migrated, with an administrator whose application
 * password is printed for the load generator (`ADMIN login:password`).
 *
 * Options, from the environment:
 * - `BENCH_ENGINE=sqlite|postgres` (default sqlite): a SQLite file in a temporary folder, or a fresh
 *   schema of the PostgreSQL database at `BENCH_PG_URL` (default `postgres://postgres@127.0.0.1:5432/test`),
 *   dropped when the server stops. `BENCH_DATABASE_URL` names a database of your own instead.
 * - `BENCH_WORKERS=N` (default 1): N worker processes on one port behind Node's cluster, as
 *   `eventsuite serve --workers N` runs them; the primary only prepares the database and hands out
 *   connections. Prints `WORKERS pid,pid,…`.
 * - `BENCH_SEED_EVENTS=N`: start from a copy of a database holding N events seeded by the events
 *   area's `seedEvents`; `BENCH_SEED_ORDERS=N`: and N ticket-shop orders from `seedOrders` (customers,
 *   coupons, attendees, analytics tables). Seeded data is cached, keyed by the counts, the migrations
 *   and the seeders: a SQLite file under `bench/.cache/`, a PostgreSQL schema `bench_cache_…`. Only
 *   the first run pays for seeding; the copy is private to this server, so loads that write never
 *   change the cache.
 * - `BENCH_CHECKIN_KEY=key`: store the tickets area's QR check-in API key.
 * - `BENCH_OFFLINE_PAYMENTS=1`: let buyers pay offline (`gateway: offline`), so checkouts need no
 *   payment gateway.
 *
 * The server counts the SQL queries the app executes (a Kysely plugin): `GET /__bench/queries` answers
 * `{"queries": n}`, the total so far (over every worker). The load generator diffs it around single
 * requests, and waits for it to stand still before a load (see `waitIdle` in `lib.ts`).
 *
 * `GET /__bench/memory` answers `{"processes": [...]}`, one {@link MemorySample} per serving process
 * (every worker, or this process alone); with `?gc=1` each first runs a full garbage collection
 * (workers, and a single-process server, run with `--expose-gc` for this), so `heapUsed` is what is
 * still reachable. `GET /__bench/heap-snapshot?dir=D` has each of them write a V8 heap snapshot into
 * folder D (after a full collection) and answers the files' paths.
 */
import cluster, { type Worker } from 'node:cluster';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { sql, type KyselyPlugin } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp, type App } from '../src/app.js';
import { createApplicationPassword } from '../src/auth/index.js';
import { loadConfig } from '../src/config.js';
import { seedEvents } from '../src/namespaces/events/index.js';
import { rebuildShopAnalytics } from '../src/namespaces/shop-analytics/index.js';
import { OFFLINE_PAYMENTS_OPTION, seedOrders, setCheckinApiKey } from '../src/namespaces/tickets/index.js';
import { openDatabase, ensureFirstAdmin } from '../src/server.js';
import { engineOf, withDbPlugin, type Db } from '../src/storage/db.js';
import { freePort } from '../src/test-support/net.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const SRC_DIR = path.join(BENCH_DIR, '..', 'src');
const CACHE_DIR = path.join(BENCH_DIR, '.cache');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Where a server's data lives: a SQLite file, or a PostgreSQL URL and schema. */
interface Target {
  url: string;
  pgSchema?: string;
}

function count(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name}: not a count: ${raw}`);
  return n;
}

const quiet = () => pino({ level: 'warn' });
const configFor = (url: string) => ({ ...loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' }) });

// ---------------------------------------------------------------------------------------------------
// Worker: serve the prepared database (the primary passes it in the environment).

/** Queries this process ran (a plugin sees every query's result once, transactions included). */
let queries = 0;
const counter: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => {
    queries++;
    return args.result;
  },
};

/** The app on `target`, counting its queries. */
async function openApp(target: Target): Promise<{ app: App; db: Db }> {
  const config = configFor(target.url);
  const baseDb = await openDatabase(config, target.pgSchema ? { pgSchema: target.pgSchema } : {});
  const db = withDbPlugin(baseDb, counter);
  const app = await buildApp({ config, db, logger: quiet() });
  return { app, db };
}

/** One process's memory, in bytes (`/proc/self/status` splits the resident set on Linux). */
export interface MemorySample {
  pid: number;
  /** Whether a full garbage collection ran just before (needs `--expose-gc`). */
  gc: boolean;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Resident anonymous memory (malloc, V8 heap), file-backed pages and shared memory (SQLite's WAL index). */
  rssAnon?: number;
  rssFile?: number;
  rssShmem?: number;
  /**
   * Resident bytes of glibc malloc's main arena (the `[heap]` mapping) and of its per-thread arenas
   * (anonymous mappings starting on a 64 MB boundary, where glibc places them; a heuristic), with the
   * number of those: native allocations (SQLite, better-sqlite3, Node's C++) live there, V8's heap
   * does not.
   */
  mallocMain?: number;
  mallocArenas?: number;
  arenaCount?: number;
  /** Resident bytes of V8's young generation (`new_space`) and of its other spaces. */
  newSpace: number;
  otherSpaces: number;
}

/** Resident bytes of malloc's arenas, from `/proc/self/smaps` (Linux). */
function mallocResidency(): Pick<MemorySample, 'mallocMain' | 'mallocArenas' | 'arenaCount'> {
  const out = { mallocMain: 0, mallocArenas: 0, arenaCount: 0 };
  let current: 'main' | 'arena' | undefined;
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-[0-9a-f]+ (\S+) \S+ \S+ (\d+)\s*(\S*)/.exec(line);
    if (head) {
      const [, start, perms, inode, name] = head;
      current = name === '[heap]' ? 'main' : inode === '0' && name === '' && perms!.startsWith('rw') && BigInt(`0x${start}`) % 0x4000000n === 0n ? 'arena' : undefined;
      if (current === 'arena') out.arenaCount++;
      continue;
    }
    const rss = current && /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) {
      if (current === 'main') out.mallocMain += Number(rss[1]) * 1024;
      else out.mallocArenas += Number(rss[1]) * 1024;
    }
  }
  return out;
}

function memorySample(gc: boolean): MemorySample {
  const collect = gc ? (globalThis as { gc?: () => void }).gc : undefined;
  collect?.();
  const spaces = v8.getHeapSpaceStatistics();
  const newSpace = spaces.filter((sp) => sp.space_name === 'new_space').reduce((n, sp) => n + sp.physical_space_size, 0);
  const otherSpaces = spaces.filter((sp) => sp.space_name !== 'new_space').reduce((n, sp) => n + sp.physical_space_size, 0);
  const out: MemorySample = { pid: process.pid, gc: collect !== undefined, ...process.memoryUsage(), newSpace, otherSpaces };
  try {
    const status = fs.readFileSync('/proc/self/status', 'utf8');
    const kb = (field: string) => {
      const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
      return m ? Number(m[1]) * 1024 : undefined;
    };
    out.rssAnon = kb('RssAnon');
    out.rssFile = kb('RssFile');
    out.rssShmem = kb('RssShmem');
    Object.assign(out, mallocResidency());
  } catch {
    // not Linux: the portable figures only
  }
  return out;
}

/** Writes a heap snapshot (after a full collection) into `dir`; answers its path. */
function heapSnapshot(dir: string): string {
  (globalThis as { gc?: () => void }).gc?.();
  fs.mkdirSync(dir, { recursive: true });
  return v8.writeHeapSnapshot(path.join(dir, `worker-${process.pid}-${Date.now()}.heapsnapshot`));
}

/** What a serving process answers about itself, for the bench's `/__bench/*` routes. */
function answer(what: string, arg: string | undefined): unknown {
  if (what === 'queries') return queries;
  if (what === 'memory') return memorySample(arg === '1');
  if (what === 'heap-snapshot') return heapSnapshot(arg!);
  throw new Error(`unknown question ${what}`);
}

/** Every worker's answer, asked of the primary (which asks each worker). */
function askWorkers(what: string, arg?: string): Promise<unknown[]> {
  return new Promise((resolve) => {
    const id = crypto.randomBytes(6).toString('hex');
    const onMessage = (m: { type?: string; id?: string; values?: unknown[] }) => {
      if (m.type === 'answers' && m.id === id) {
        process.off('message', onMessage);
        resolve(m.values ?? []);
      }
    };
    process.on('message', onMessage);
    process.send!({ type: 'ask-all', id, what, arg });
  });
}

/** The bench's routes; `ask` answers for every serving process. */
function benchRoutes(app: App, ask: (what: string, arg?: string) => Promise<unknown[]>): void {
  app.get('/__bench/queries', async () => ({ queries: (await ask('queries')).reduce<number>((s, n) => s + Number(n), 0) }));
  app.get<{ Querystring: { gc?: string } }>('/__bench/memory', async (req) => ({ processes: await ask('memory', req.query.gc === '1' ? '1' : '0') }));
  // PostgreSQL's tables as autovacuum leaves them a minute after a bulk write: planner statistics, and
  // the visibility map that lets an index-only scan skip the table (a suite that buys thousands of
  // attendees just before its load asks for this; SQLite has neither; autovacuum is off on the bench
  // machines' PostgreSQL, and on in PostgreSQL's default configuration).
  app.post('/__bench/analyze', async () => {
    const postgres = engineOf(app.ctx.config.databaseUrl) === 'postgres';
    if (postgres) await sql`VACUUM ANALYZE`.execute(app.ctx.db);
    return { analyzed: postgres };
  });
  app.get<{ Querystring: { dir?: string } }>('/__bench/heap-snapshot', async (req, reply) => {
    if (!req.query.dir) return reply.code(400).send({ error: 'dir: a folder' });
    return { files: await ask('heap-snapshot', req.query.dir) };
  });
}

async function runWorker(): Promise<void> {
  const target: Target = JSON.parse(process.env.BENCH_TARGET!);
  const { app, db } = await openApp(target);
  process.on('message', (m: { type?: string; id?: string; what?: string; arg?: string }) => {
    if (m.type === 'ask') process.send!({ type: 'answer', id: m.id, value: answer(m.what!, m.arg) });
  });
  benchRoutes(app, askWorkers);
  await app.listen({ port: Number(process.env.BENCH_PORT), host: '127.0.0.1' });
  app.ctx.jobs.start();
  process.on('SIGTERM', () => {
    void app.close().then(() => db.destroy()).finally(() => process.exit(0));
  });
}

// ---------------------------------------------------------------------------------------------------
// Primary: prepare the database, then serve it here (one worker) or fork workers.

/** A hash of every migration and of the seeders: seeded data is reused only while these are unchanged. */
function seedHash(): string {
  const hash = crypto.createHash('sha256');
  const migrations = path.join(SRC_DIR, 'storage', 'migrations');
  for (const f of fs.readdirSync(migrations).filter((n) => /\.(ts|js)$/.test(n) && !n.includes('.test.')).sort()) {
    hash.update(f).update('\0').update(fs.readFileSync(path.join(migrations, f))).update('\0');
  }
  hash.update(fs.readFileSync(path.join(SRC_DIR, 'namespaces', 'events', 'seed.ts')));
  return hash.digest('hex').slice(0, 16);
}

/** The same plus the order seeder and the analytics rebuild (orders caches only, so events caches keep their names). */
function ordersHash(): string {
  const hash = crypto.createHash('sha256').update(seedHash());
  for (const f of ['namespaces/tickets/seed-orders.ts', 'namespaces/shop-analytics/sync.service.ts']) hash.update(fs.readFileSync(path.join(SRC_DIR, f)));
  return hash.digest('hex').slice(0, 16);
}

interface Seed {
  events: number;
  orders: number;
}

function cacheName(seed: Seed): string {
  return seed.orders > 0 ? `events-${seed.events}-orders-${seed.orders}-${ordersHash()}` : `events-${seed.events}-${seedHash()}`;
}

/** Seeds `target` (already migrated, with its administrator). */
async function seedInto(target: Target, seed: Seed): Promise<void> {
  const { app, db } = await openApp(target);
  try {
    await ensureFirstAdmin(app.ctx);
    const started = Date.now();
    let lastShown = 0;
    const progress = (what: string) => (done: number, total: number) => {
      const now = Date.now();
      if (done === total || now - lastShown > 10_000) {
        lastShown = now;
        process.stderr.write(`bench: seeding ${done}/${total} ${what} (${Math.round((now - started) / 1000)} s)\n`);
      }
    };
    if (seed.events > 0) await seedEvents(app.ctx, { events: seed.events, batchSize: 2000, onProgress: progress('events') });
    if (seed.orders > 0) {
      await seedOrders(app.ctx, { orders: seed.orders, onProgress: progress('orders') });
      await rebuildShopAnalytics(app.ctx, { onProgress: progress('orders into analytics') });
    }
    process.stdout.write(`SEEDED ${seed.events} events, ${seed.orders} orders in ${Math.round((Date.now() - started) / 1000)} s\n`);
  } finally {
    await app.close();
    await db.destroy();
  }
}

async function pgAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function schemaExists(c: pg.Client, schema: string): Promise<boolean> {
  return (await c.query('select 1 from information_schema.schemata where schema_name = $1', [schema])).rowCount === 1;
}

/** A new, migrated schema. */
async function newSchema(name: string): Promise<Target> {
  await pgAdmin((c) => c.query(`CREATE SCHEMA ${name}`));
  const db = await openDatabase(configFor(PG_URL), { pgSchema: name });
  await db.destroy();
  return { url: PG_URL, pgSchema: name };
}

/**
 * Copies every row of schema `from` into `to` (both migrated by the same migrations, so their tables
 * have the same columns in the same order), then moves each sequence past the copied IDs.
 */
async function copySchemaData(from: string, to: string): Promise<void> {
  await pgAdmin(async (c) => {
    const tables = (await c.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE' and table_name not like 'kysely_%'`,
      [from],
    )).rows.map((r) => r.table_name);
    await c.query('BEGIN');
    // Rows go in table by table; foreign keys are not checked meanwhile (the source satisfied them).
    await c.query('SET LOCAL session_replication_role = replica');
    for (const t of tables) {
      await c.query(`DELETE FROM ${to}."${t}"`);
      await c.query(`INSERT INTO ${to}."${t}" SELECT * FROM ${from}."${t}"`);
    }
    const serials = (await c.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns where table_schema = $1 and column_default like 'nextval(%'`,
      [to],
    )).rows;
    for (const s of serials) {
      await c.query(`SELECT setval(pg_get_serial_sequence('${to}."${s.table_name}"', '${s.column_name}'), coalesce((SELECT max("${s.column_name}") FROM ${to}."${s.table_name}"), 0) + 1, false)`);
    }
    await c.query('COMMIT');
    // Statistics and visibility as autovacuum would leave them on a database in use.
    for (const t of tables) await c.query(`VACUUM ANALYZE ${to}."${t}"`);
  });
}

/** A seeded PostgreSQL schema, from the cache (seeded first when missing; published by a rename). */
async function cachedSchema(seed: Seed): Promise<string> {
  const name = `bench_cache_${cacheName(seed).replace(/-/g, '_')}`;
  if (await pgAdmin((c) => schemaExists(c, name))) return name;
  const partial = `bench_partial_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  try {
    await seedInto(await newSchema(partial), seed);
    await pgAdmin((c) => c.query(`ALTER SCHEMA ${partial} RENAME TO ${name}`));
  } catch (err) {
    await pgAdmin((c) => c.query(`DROP SCHEMA IF EXISTS ${partial} CASCADE`)).catch(() => undefined);
    throw err;
  }
  process.stdout.write(`SEEDED into schema ${name}\n`);
  return name;
}

/** A seeded SQLite file from the cache (seeded first when missing; published by a rename). */
async function cachedFile(seed: Seed, dir: string): Promise<string> {
  const file = path.join(CACHE_DIR, `${cacheName(seed)}.sqlite`);
  if (fs.existsSync(file)) return file;
  const work = path.join(dir, 'seeding.sqlite');
  await seedInto({ url: work }, seed);
  // Everything into the main file, then publish it to the cache atomically.
  const db = await openDatabase(configFor(work));
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  await db.destroy();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  fs.copyFileSync(work, partial);
  fs.renameSync(partial, file);
  process.stdout.write(`SEEDED -> ${path.relative(process.cwd(), file)}\n`);
  return file;
}

/** The database this server serves, and how to remove it afterwards. */
async function prepareTarget(dir: string, seed: Seed | undefined): Promise<{ target: Target; cleanup: () => Promise<void> }> {
  const own = process.env.BENCH_DATABASE_URL;
  if (own) {
    if (seed) throw new Error('BENCH_SEED_EVENTS/BENCH_SEED_ORDERS need a database of the benchmark\'s own; unset BENCH_DATABASE_URL');
    return { target: { url: own }, cleanup: async () => undefined };
  }
  const engine = process.env.BENCH_ENGINE ?? 'sqlite';
  if (engine === 'sqlite') {
    const file = path.join(dir, 'bench.sqlite');
    if (seed) {
      fs.copyFileSync(await cachedFile(seed, dir), file);
      process.stdout.write(`SEEDED ${seed.events} events, ${seed.orders} orders (cached)\n`);
    }
    return { target: { url: file }, cleanup: async () => undefined };
  }
  if (engine !== 'postgres') throw new Error(`BENCH_ENGINE: sqlite or postgres, not ${engine}`);
  const source = seed ? await cachedSchema(seed) : undefined;
  const schema = `bench_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const target = await newSchema(schema);
  const cleanup = () => pgAdmin((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).then(() => undefined);
  try {
    if (source) {
      await copySchemaData(source, schema);
      process.stdout.write(`SEEDED ${seed!.events} events, ${seed!.orders} orders (copied from schema ${source})\n`);
    }
  } catch (err) {
    await cleanup();
    throw err;
  }
  return { target, cleanup };
}

/** Administrator credentials: created on an empty site; a seeded copy gets a new application password. */
async function adminCredentials(app: App, db: Db): Promise<string> {
  const admin = await ensureFirstAdmin(app.ctx);
  if (admin) return `${admin.login}:${admin.appPassword.replace(/ /g, '')}`;
  const user = await db.selectFrom('users').select(['id', 'login']).where('roles', 'like', '%administrator%').orderBy('id').executeTakeFirstOrThrow();
  const created = await createApplicationPassword(app.ctx, Number(user.id), { name: 'bench' });
  return `${user.login}:${created.password.replace(/ /g, '')}`;
}

/** Forks `n` workers on `port` (with `--expose-gc`); answers their questions about every worker; resolves once all listen. */
async function forkWorkers(n: number, target: Target, port: number): Promise<Worker[]> {
  const workers: Worker[] = [];
  const pending = new Map<string, { asker: Worker; left: number; values: unknown[] }>();
  cluster.on('message', (worker, m: { type?: string; id?: string; what?: string; arg?: string; value?: unknown }) => {
    if (m.type === 'ask-all' && m.id) {
      const alive = workers.filter((w) => w.isConnected());
      pending.set(m.id, { asker: worker, left: alive.length, values: [] });
      for (const w of alive) w.send({ type: 'ask', id: m.id, what: m.what, arg: m.arg });
    } else if (m.type === 'answer' && m.id) {
      const p = pending.get(m.id);
      if (!p) return;
      p.values.push(m.value);
      if (--p.left === 0) {
        pending.delete(m.id);
        if (p.asker.isConnected()) p.asker.send({ type: 'answers', id: m.id, values: p.values });
      }
    }
  });
  if (!process.execArgv.includes('--expose-gc')) cluster.setupPrimary({ execArgv: [...process.execArgv, '--expose-gc'] });
  const listening: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const w = cluster.fork({ BENCH_TARGET: JSON.stringify(target), BENCH_PORT: String(port) });
    workers.push(w);
    listening.push(new Promise((resolve, reject) => {
      w.once('listening', () => resolve());
      w.once('exit', (code) => reject(new Error(`worker ${w.process.pid} exited with ${code} before listening`)));
    }));
  }
  await Promise.all(listening);
  for (const w of workers) {
    w.on('exit', (code, signal) => {
      if (!stopping) process.stderr.write(`bench: worker ${w.process.pid} exited (${signal ?? code})\n`);
    });
  }
  return workers;
}

let stopping = false;

async function runPrimary(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-bench-'));
  const workerCount = count('BENCH_WORKERS') ?? 1;
  const events = count('BENCH_SEED_EVENTS');
  const orders = count('BENCH_SEED_ORDERS');
  const seed = events !== undefined || orders !== undefined ? { events: events ?? 0, orders: orders ?? 0 } : undefined;
  let stop: () => Promise<void> = async () => undefined;
  process.on('SIGTERM', () => {
    stopping = true;
    void stop().finally(() => {
      fs.rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });

  const { target, cleanup } = await prepareTarget(dir, seed);
  stop = cleanup;
  const { app, db } = await openApp(target);
  const credentials = await adminCredentials(app, db);
  if (process.env.BENCH_CHECKIN_KEY) await setCheckinApiKey(app.ctx, process.env.BENCH_CHECKIN_KEY);
  if (process.env.BENCH_OFFLINE_PAYMENTS === '1') await app.ctx.options.set(OFFLINE_PAYMENTS_OPTION, true);

  let url: string;
  if (workerCount <= 1) {
    benchRoutes(app, async (what, arg) => [answer(what, arg)]);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    // As `eventsuite serve` does: work requests hand to the jobs runner (the analytics sync after
    // checkouts) runs in the measured process.
    app.ctx.jobs.start();
    stop = () => app.close().then(() => db.destroy()).then(cleanup);
  } else {
    await app.close();
    await db.destroy();
    const port = await freePort();
    const workers = await forkWorkers(workerCount, target, port);
    url = `http://127.0.0.1:${port}`;
    stop = async () => {
      await Promise.all(workers.map((w) => new Promise<void>((r) => {
        if (w.isDead()) return r();
        w.once('exit', () => r());
        w.process.kill('SIGTERM');
      })));
      await cleanup();
    };
    process.stdout.write(`WORKERS ${workers.map((w) => w.process.pid).join(',')}\n`);
  }
  process.stdout.write(`ADMIN ${credentials}\n`);
  process.stdout.write(`DATABASE ${target.pgSchema ? `${target.url} schema ${target.pgSchema}` : target.url}\n`);
  process.stdout.write(`LISTENING ${url}\n`);
}

await (cluster.isWorker ? runWorker() : runPrimary());
