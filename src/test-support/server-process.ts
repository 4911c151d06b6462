/**
 * @module test-support/server-process
 * `eventsuite serve` in a child process on a database a test prepared, for fault tests: wait until it
 * answers, wait for a line of its output (a crash point reached), kill it with any signal, start it
 * again. Also the per-engine database such a test prepares in-process first (an app built on it with
 * an administrator), and the URL the child opens it with.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp, type App } from '../app.js';
import { createApplicationPassword, createUser } from '../auth/index.js';
import { loadConfig } from '../config.js';
import { createDb, type Db, type Engine } from '../storage/db.js';
import { migrateToLatest } from '../storage/migrate.js';
import { TEST_PG_URL, testSchemaPrefix } from '../storage/test-db.js';
import { cliArgs } from './cli-build.js';
import { freePort } from './net.js';
import { expect } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves once its output matches (rejects after `timeoutMs` or when it exits first). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends `signal` and resolves with how it ended. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `serve` on `databaseUrl` (extra environment in `env`) and resolves once `/health` answers. */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, cliArgs('serve'), {
    cwd: ROOT,
    // BASE_URL explicitly: vitest sets process.env.BASE_URL to '/'.
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', BASE_URL: base, LOG_LEVEL: 'warn', WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const l of listeners) l();
  });

  const waitFor = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(out);
        if (m) finish(() => resolve(m));
        else if (done) finish(() => reject(new Error(`server exited before ${pattern}:\n${out}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${out}`))), timeoutMs);
      const finish = (f: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        f();
      };
      listeners.add(check);
      check();
    });

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (done) throw new Error(`server exited while starting:\n${out}`);
    if (await fetch(`${base}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within 90 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    base,
    output: () => out,
    waitFor,
    kill: (signal) => {
      if (!done) child.kill(signal);
      return exited;
    },
    exited,
  };
}

export interface FaultSite {
  engine: Engine;
  /** What the child process opens (`DATABASE_URL`). */
  url: string;
  /** The test's own connection, for checks. */
  db: Db;
  /** The app built on it in-process (for setting up), and its administrator's `Basic` header. */
  app: App;
  authorization: string;
  /** Closes the in-process app (before a child serves the database); `db` stays open. */
  closeApp(): Promise<void>;
  destroy(): Promise<void>;
}

/** The app on `db` in this process (silent, no jobs runner): to set up, or to check after a crash. */
export async function appOn(db: Db): Promise<App> {
  const config = loadConfig({}, { baseUrl: 'http://example.test', logLevel: 'silent' });
  const app = await buildApp({ config, db, logger: pino({ level: 'silent' }) });
  await app.ready();
  return app;
}

/** A new, migrated database on `engine` (a file, or a schema) with an administrator. */
export async function createFaultSite(engine: Engine): Promise<FaultSite> {
  let url: string;
  let db: Db;
  let cleanup = () => {};
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-faults-'));
    url = path.join(dir, 'site.sqlite');
    db = createDb({ url });
    await migrateToLatest(db);
    cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const schema = `${testSchemaPrefix()}${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    db = createDb({ url: TEST_PG_URL, pgSchema: schema, poolSize: 3 });
    await migrateToLatest(db, schema);
    // The schema itself is dropped by the global teardown.
    url = `${TEST_PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }
  const app = await appOn(db);
  const user = await createUser(app.ctx, { login: 'admin', email: 'admin@example.test', password: 'admin-password', roles: ['administrator'] });
  const { password } = await createApplicationPassword(app.ctx, user.id, { name: 'tests' });
  let appOpen = true;
  const closeApp = async () => {
    if (appOpen) await app.close();
    appOpen = false;
  };
  return {
    engine,
    url,
    db,
    app,
    authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`,
    closeApp,
    async destroy() {
      await closeApp();
      await db.destroy();
      cleanup();
    },
  };
}

/**
 * Events are whole: each event post has its details, its venue link to a venue post that has its
 * details, and its category; no venue is left without its event; each category's count is the
 * number of published events carrying it. Returns the event titles (for duplicate checks).
 */
export async function expectWholeEvents(db: Db): Promise<string[]> {
  const events = await db.selectFrom('posts').select(['id', 'title']).where('type', '=', 'tribe_events').execute();
  const ids = events.map((e) => Number(e.id));
  if (ids.length === 0) return [];
  const details = new Set((await db.selectFrom('event_details').select('post_id').execute()).map((r) => Number(r.post_id)));
  const links = await db.selectFrom('event_venues').select(['event_id', 'venue_id']).execute();
  const venues = await db.selectFrom('posts').leftJoin('venue_details as d', 'd.post_id', 'posts.id').select(['posts.id', 'd.post_id as detail']).where('posts.type', '=', 'tribe_venue').execute();
  const broken: string[] = [];
  for (const id of ids) {
    if (!details.has(id)) broken.push(`event ${id} has no details`);
    if (!links.some((l) => Number(l.event_id) === id)) broken.push(`event ${id} has no venue`);
  }
  for (const v of venues) {
    if (v.detail === null) broken.push(`venue ${v.id} has no details`);
    if (!links.some((l) => Number(l.venue_id) === Number(v.id))) broken.push(`venue ${v.id} belongs to no event`);
  }
  const terms = await db.selectFrom('terms').select(['id', 'name', 'count']).where('taxonomy', '=', 'tribe_events_cat').execute();
  const rels = await db.selectFrom('term_relationships').select(['post_id', 'term_id']).execute();
  for (const t of terms) {
    const carrying = rels.filter((r) => Number(r.term_id) === Number(t.id) && ids.includes(Number(r.post_id))).length;
    if (carrying !== Number(t.count)) broken.push(`category ${t.name} counts ${t.count}, ${carrying} events carry it`);
  }
  for (const id of ids) if (!rels.some((r) => Number(r.post_id) === id)) broken.push(`event ${id} has no category`);
  expect(broken).toEqual([]);
  return events.map((e) => e.title);
}
