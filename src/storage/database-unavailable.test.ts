/**
 * The database failing under a running app. PostgreSQL: a proxy in front of the real server is cut
 * (every connection dropped, new ones refused, as in a restart) while writes are in flight, and its
 * backends are terminated (`pg_terminate_backend`). SQLite: the file turns read-only (`query_only`)
 * and fills up (`max_page_count` reached: SQLITE_FULL). Requests that need the database then answer
 * 503 `rest_database_unavailable` with `Retry-After` (never 500, and the process stays up); once the
 * database is back the same app serves again, and no acknowledged write is lost or half-written.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { createApplicationPassword, createUser } from '../auth/index.js';
import { loadConfig } from '../config.js';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy.js';
import { createDb, type Db } from './db.js';
import { migrateToLatest } from './migrate.js';
import { createTestDb, DIALECTS, TEST_PG_URL, type TestDb } from './test-db.js';

const EVENTS = '/wp-json/eventsuite/events/v1/events';

interface Running {
  app: App;
  authorization: string;
}

/** The app on `db` with an administrator (its `Basic` header). */
async function appOn(db: Db): Promise<Running> {
  const config = loadConfig({}, { baseUrl: 'http://example.test', logLevel: 'silent' });
  const app = await buildApp({ config, db, logger: pino({ level: 'silent' }) });
  await app.ready();
  const login = `admin${crypto.randomBytes(3).toString('hex')}`;
  const user = await createUser(app.ctx, { login, email: `${login}@example.test`, password: `${login}-pw`, roles: ['administrator'] });
  const { password } = await createApplicationPassword(app.ctx, user.id, { name: 'tests' });
  return { app, authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
}

interface Outcome {
  status: number;
  retryAfter: string | undefined;
  body: any;
  title: string;
}

async function createEvent(r: Running, title: string): Promise<Outcome> {
  const res = await r.app.inject({
    method: 'POST', url: EVENTS, headers: { authorization: r.authorization, 'content-type': 'application/json' },
    payload: JSON.stringify({ title, start_date: '2027-03-01 10:00', end_date: '2027-03-01 11:00', status: 'publish', venue: { venue: `Hall of ${title}` } }),
  });
  return { status: res.statusCode, retryAfter: res.headers['retry-after'] as string | undefined, body: JSON.parse(res.body), title };
}

const UNAVAILABLE = {
  code: 'rest_database_unavailable',
  message: 'The site’s database is unavailable at the moment. Please try again shortly.',
  data: { status: 503, retry_after: 5 },
};

function expectUnavailable(o: { status: number; retryAfter: string | undefined; body: unknown }): void {
  expect(o.status).toBe(503);
  expect(o.retryAfter).toBe('5');
  expect(o.body).toEqual(UNAVAILABLE);
}

/** Every event post has its details row and its venue link: nothing half-written. */
async function expectWholeEvents(db: Db): Promise<void> {
  const orphans = await db
    .selectFrom('posts')
    .leftJoin('event_details as d', 'd.post_id', 'posts.id')
    .leftJoin('event_venues as v', 'v.event_id', 'posts.id')
    .select('posts.id')
    .where('posts.type', '=', 'tribe_events')
    .where((eb) => eb.or([eb('d.post_id', 'is', null), eb('v.event_id', 'is', null)]))
    .execute();
  expect(orphans).toEqual([]);
}

async function titlesOf(db: Db, prefix: string): Promise<string[]> {
  const rows = await db.selectFrom('posts').select('title').where('type', '=', 'tribe_events').where('title', 'like', `${prefix}%`).execute();
  return rows.map((r) => r.title);
}

describe.skipIf(!DIALECTS.includes('postgres'))('PostgreSQL going away under load', () => {
  let direct: TestDb;
  let proxy: TcpProxy;
  let viaProxy: Db;
  let r: Running;
  beforeAll(async () => {
    direct = await createTestDb('postgres', { poolSize: 2 });
    proxy = await startTcpProxy(Number(new URL(TEST_PG_URL).port || 5432), new URL(TEST_PG_URL).hostname);
    const url = new URL(TEST_PG_URL);
    url.host = `127.0.0.1:${proxy.port}`;
    viaProxy = createDb({ url: url.toString(), pgSchema: direct.pgSchema!, poolSize: 5 });
    r = await appOn(viaProxy);
  });
  afterAll(async () => {
    await r?.app.close();
    await viaProxy?.destroy();
    await proxy?.close();
    await direct?.destroy();
  });

  it('answers 503 with Retry-After while the server is down, reconnects when it is back, loses nothing', async () => {

    // Writers keep creating events; the database goes away under them and comes back.
    const outcomes: Outcome[] = [];
    let phase: 'before' | 'down' | 'after' = 'before';
    let afterCount = 0;
    const writer = async (w: number) => {
      for (let i = 0; phase !== 'after' || afterCount < 8; i++) {
        const o = await createEvent(r, `Restart ${w}-${i}`);
        outcomes.push(o);
        if (phase === 'after' && o.status === 201) afterCount++;
      }
    };
    const writers = Promise.all([0, 1, 2, 3].map(writer));
    while (outcomes.filter((o) => o.status === 201).length < 4) await new Promise((res) => setTimeout(res, 10));
    await proxy.cut();
    phase = 'down';
    const whileDown = outcomes.length;
    // While down: the API answers 503, signed out and signed in (authentication needs the database
    // too), liveness stays up, readiness says why.
    const anonymous = await r.app.inject({ method: 'GET', url: `${EVENTS}?per_page=3&search=nothing-cached` });
    expectUnavailable({ status: anonymous.statusCode, retryAfter: anonymous.headers['retry-after'] as string, body: JSON.parse(anonymous.body) });
    const stranger = await r.app.inject({ method: 'GET', url: '/wp-json/wp/v2/users/me', headers: { authorization: `Basic ${Buffer.from('nobody:abcd efgh ijkl mnop qrst uvwx').toString('base64')}` } });
    expectUnavailable({ status: stranger.statusCode, retryAfter: stranger.headers['retry-after'] as string, body: JSON.parse(stranger.body) });
    expect((await r.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect((await r.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(503);
    while (outcomes.length < whileDown + 8) await new Promise((res) => setTimeout(res, 10));
    await proxy.restore();
    phase = 'after';
    await writers;

    expect(outcomes.filter((o) => o.status !== 201 && o.status !== 503)).toEqual([]);
    const refused = outcomes.filter((o) => o.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(8);
    for (const o of refused) expectUnavailable(o);
    expect(afterCount).toBeGreaterThanOrEqual(8);
    expect((await r.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);

    // Every acknowledged event is there, whole, once.
    const stored = await titlesOf(direct.db, 'Restart ');
    for (const o of outcomes.filter((x) => x.status === 201)) expect(stored).toContain(o.title);
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.length).toBeLessThanOrEqual(outcomes.length);
    await expectWholeEvents(direct.db);
  });

  it('answers 503 for requests whose connection is terminated, and serves again at once', async () => {
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    try {
      // Each backend of this app's pool (reached through the proxy) is terminated while requests run.
      const terminate = () => admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND client_port IN (SELECT unnest($1::int[]))`, [proxy.upstreamPorts()]);
      const inFlight = Array.from({ length: 12 }, (_, i) => createEvent(r, `Terminated ${i}`));
      await new Promise((res) => setTimeout(res, 5));
      const killed = (await terminate()).rowCount ?? 0;
      const outcomes = await Promise.all(inFlight);
      expect(killed).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o.status !== 201 && o.status !== 503)).toEqual([]);
      for (const o of outcomes.filter((x) => x.status === 503)) expectUnavailable(o);
      const after = await Promise.all(Array.from({ length: 6 }, (_, i) => createEvent(r, `Terminated after ${i}`)));
      expect(after.map((o) => o.status)).toEqual([201, 201, 201, 201, 201, 201]);
      const stored = await titlesOf(direct.db, 'Terminated ');
      for (const o of [...outcomes, ...after].filter((x) => x.status === 201)) expect(stored).toContain(o.title);
      await expectWholeEvents(direct.db);
    } finally {
      await admin.end();
    }
  });
});

describe.skipIf(!DIALECTS.includes('sqlite'))('SQLite read-only or full', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-sqlite-faults-'));
  let db: Db;
  let r: Running;
  afterAll(async () => {
    await r?.app.close();
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After for writes, keeps reading, and the file stays sound', async () => {
    db = createDb({ url: path.join(dir, 'site.sqlite') });
    await migrateToLatest(db);
    r = await appOn(db);
    expect((await createEvent(r, 'Sound 1')).status).toBe(201);

    // Read-only (a read-only mount, a file the process may not write): writes refused, reads served.
    await sql`PRAGMA query_only = 1`.execute(db);
    expectUnavailable(await createEvent(r, 'Refused read-only'));
    const list = await r.app.inject({ method: 'GET', url: `${EVENTS}?search=Sound`, headers: { authorization: r.authorization } });
    expect(list.statusCode).toBe(200);
    expect(JSON.parse(list.body).events.map((e: { title: string }) => e.title)).toEqual(['Sound 1']);
    await sql`PRAGMA query_only = 0`.execute(db);
    expect((await createEvent(r, 'Sound 2')).status).toBe(201);

    // Disk full: the file may not grow by one page; SQLite rolls the transaction back itself.
    const pages = Number((await sql<{ page_count: number }>`PRAGMA page_count`.execute(db)).rows[0]!.page_count);
    await sql.raw(`PRAGMA max_page_count = ${pages}`).execute(db);
    const full: Outcome[] = [];
    for (let i = 0; i < 40; i++) full.push(await createEvent(r, `Filling ${i} ${'x'.repeat(3000)}`));
    expect(full.filter((o) => o.status !== 201 && o.status !== 503)).toEqual([]);
    const refused = full.filter((o) => o.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) expectUnavailable(o);
    await sql.raw(`PRAGMA max_page_count = ${2 ** 30}`).execute(db);
    expect((await createEvent(r, 'Sound 3')).status).toBe(201);

    expect((await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db)).rows).toEqual([{ integrity_check: 'ok' }]);
    expect((await sql`PRAGMA foreign_key_check`.execute(db)).rows).toEqual([]);
    await expectWholeEvents(db);
    const stored = await titlesOf(db, '');
    expect(stored.filter((t) => t.startsWith('Refused'))).toEqual([]);
    for (const o of full.filter((x) => x.status === 201)) expect(stored).toContain(o.title);
    expect(stored.filter((t) => t.startsWith('Sound')).sort()).toEqual(['Sound 1', 'Sound 2', 'Sound 3']);
  });
});
