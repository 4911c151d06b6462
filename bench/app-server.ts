/**
 * The real server for benchmarks: a fresh SQLite file (or `BENCH_DATABASE_URL`), migrated, with an
 * administrator whose application password is printed for the load generator (`ADMIN login:password`).
 *
 * Options, from the environment:
 * - `BENCH_SEED_EVENTS=N`: start from a copy of a SQLite database holding N events seeded by the events
 *   area's `seedEvents`. Seeded databases are cached under `bench/.cache/`, keyed by N, the migrations
 *   and the seeder, so only the first run pays for seeding (a million events take minutes). The copy
 *   is private to this server: loads that write never change the cached file.
 *
 * The server counts the SQL queries the app executes (a Kysely plugin): `GET /__bench/queries` answers
 * `{"queries": n}`, the total so far. The load generator diffs it around single requests, and waits
 * for it to stand still before a load (see `waitIdle` in `lib.ts`).
 * - `BENCH_CHECKIN_KEY=key`: store the tickets area's QR check-in API key.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type KyselyPlugin } from 'kysely';
import { pino } from 'pino';
import { buildApp, type App } from '../src/app.js';
import { createApplicationPassword } from '../src/auth/index.js';
import { loadConfig } from '../src/config.js';
import { seedEvents } from '../src/namespaces/events/index.js';
import { setCheckinApiKey } from '../src/namespaces/tickets/index.js';
import { openDatabase, ensureFirstAdmin } from '../src/server.js';
import type { Db } from '../src/storage/db.js';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const SRC_DIR = path.join(BENCH_DIR, '..', 'src');
const CACHE_DIR = path.join(BENCH_DIR, '.cache');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-bench-'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? path.join(dir, 'bench.sqlite');
const seedCount = process.env.BENCH_SEED_EVENTS ? Number(process.env.BENCH_SEED_EVENTS) : undefined;
if (seedCount !== undefined && (!Number.isSafeInteger(seedCount) || seedCount < 0)) throw new Error(`BENCH_SEED_EVENTS: not a count: ${process.env.BENCH_SEED_EVENTS}`);
if (seedCount !== undefined && process.env.BENCH_DATABASE_URL) throw new Error('BENCH_SEED_EVENTS works on SQLite files only; unset BENCH_DATABASE_URL');

/** The cache file of a seeded database: its size, plus a hash of every migration and of the seeder. */
function seedCacheFile(events: number): string {
  const hash = crypto.createHash('sha256');
  const migrations = path.join(SRC_DIR, 'storage', 'migrations');
  for (const f of fs.readdirSync(migrations).filter((n) => /\.(ts|js)$/.test(n) && !n.includes('.test.')).sort()) {
    hash.update(f).update('\0').update(fs.readFileSync(path.join(migrations, f))).update('\0');
  }
  hash.update(fs.readFileSync(path.join(SRC_DIR, 'namespaces', 'events', 'seed.ts')));
  return path.join(CACHE_DIR, `events-${events}-${hash.digest('hex').slice(0, 16)}.sqlite`);
}

// Until it listens, a stop request only removes the temporary directory.
let stopping: (() => Promise<void>) | undefined;
process.on('SIGTERM', () => {
  const stop = stopping ?? (async () => undefined);
  void stop().finally(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});

const cacheFile = seedCount !== undefined ? seedCacheFile(seedCount) : undefined;
const cached = cacheFile !== undefined && fs.existsSync(cacheFile);
if (cached) fs.copyFileSync(cacheFile, databaseUrl);

// ---- Query counter: a plugin sees every query's result once, transactions included.
let queries = 0;
const counter: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => {
    queries++;
    return args.result;
  },
};

const config = { ...loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }) };
const baseDb = await openDatabase(config);
const db: Db = baseDb.withPlugin(counter);
const app: App = await buildApp({ config, db, logger: pino({ level: 'warn' }) });

// ---- Administrator: created on an empty site; a seeded copy gets a new application password.
let admin = await ensureFirstAdmin(app.ctx);
let adminLogin = admin?.login;
let adminPassword = admin?.appPassword;
if (!admin) {
  const user = await db.selectFrom('users').select(['id', 'login']).where('roles', 'like', '%administrator%').orderBy('id').executeTakeFirstOrThrow();
  const created = await createApplicationPassword(app.ctx, Number(user.id), { name: 'bench' });
  adminLogin = user.login;
  adminPassword = created.password;
}

// ---- Seeding (first run of a size only).
if (seedCount !== undefined && !cached) {
  const started = Date.now();
  let lastShown = 0;
  const result = await seedEvents(app.ctx, {
    events: seedCount,
    batchSize: 2000,
    onProgress: (done, total) => {
      const now = Date.now();
      if (done === total || now - lastShown > 10_000) {
        lastShown = now;
        process.stderr.write(`bench: seeding ${done}/${total} events (${Math.round((now - started) / 1000)} s)\n`);
      }
    },
  });
  // Everything into the main file, then publish it to the cache atomically.
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const partial = `${cacheFile!}.${process.pid}.partial`;
  fs.copyFileSync(databaseUrl, partial);
  fs.renameSync(partial, cacheFile!);
  process.stdout.write(`SEEDED ${result.events} events in ${Math.round(result.ms / 1000)} s -> ${path.relative(process.cwd(), cacheFile!)}\n`);
} else if (cached) {
  process.stdout.write(`SEEDED ${seedCount} events (cached ${path.relative(process.cwd(), cacheFile!)})\n`);
}

if (process.env.BENCH_CHECKIN_KEY) await setCheckinApiKey(app.ctx, process.env.BENCH_CHECKIN_KEY);
app.get('/__bench/queries', async () => ({ queries }));

const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`ADMIN ${adminLogin}:${adminPassword!.replace(/ /g, '')}\n`);
process.stdout.write(`DATABASE ${databaseUrl}\n`);
process.stdout.write(`LISTENING ${address}\n`);
stopping = () => app.close().then(() => db.destroy());
