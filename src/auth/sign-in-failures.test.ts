/**
 * The failed-sign-in limit is shared through the database: two app instances (own connection pools;
 * on SQLite two connections to one file) count one address's failures together, and a success writes
 * nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { loadConfig } from '../config.js';
import { createDb, type Db } from '../storage/db.js';
import { migrateToLatest } from '../storage/migrate.js';
import { createTestDb, DIALECTS, TEST_PG_URL, type TestDb } from '../storage/test-db.js';
import { createApplicationPassword } from './app-passwords.js';
import { SharedSignInFailures } from './sign-in-failures.js';
import { createUser } from './users.js';

/** Two databases handles on one store: a PostgreSQL schema, or a SQLite file. */
async function twoHandles(engine: 'sqlite' | 'postgres'): Promise<{ first: Db; second: Db; destroy(): Promise<void> }> {
  if (engine === 'postgres') {
    const testDb: TestDb = await createTestDb('postgres');
    const second = createDb({ url: TEST_PG_URL, pgSchema: testDb.pgSchema!, poolSize: 5 });
    return { first: testDb.db, second, destroy: async () => { await second.destroy(); await testDb.destroy(); } };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-signin-'));
  const file = path.join(dir, 'site.sqlite');
  const first = createDb({ url: file });
  await migrateToLatest(first);
  const second = createDb({ url: file });
  return { first, second, destroy: async () => { await first.destroy(); await second.destroy(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

describe.each(DIALECTS)('failed sign-ins shared by two instances on %s', (engine) => {
  let handles: Awaited<ReturnType<typeof twoHandles>>;
  let a: App;
  let b: App;
  let good: string;
  const bad = `Basic ${Buffer.from('pat:wrong wrong wrong wrong').toString('base64')}`;

  beforeAll(async () => {
    handles = await twoHandles(engine);
    const config = loadConfig({}, { baseUrl: 'http://example.test', logLevel: 'silent', trustProxy: true });
    a = await buildApp({ config, db: handles.first, logger: pino({ level: 'silent' }) });
    b = await buildApp({ config, db: handles.second, logger: pino({ level: 'silent' }) });
    const user = await createUser(a.ctx, { login: 'pat', email: 'pat@example.test', password: 'pat-password', roles: ['editor'] });
    const { password } = await createApplicationPassword(a.ctx, user.id, { name: 'laptop' });
    good = `Basic ${Buffer.from(`pat:${password}`).toString('base64')}`;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await handles?.destroy();
  });

  const me = (app: App, authorization: string, ip: string) =>
    app.inject({ method: 'GET', url: '/wp-json/core/v2/users/me', headers: { authorization, 'x-forwarded-for': ip } });

  it('refuses the right password on one instance after the limit was reached across both', async () => {
    const ip = '198.51.100.20';
    // The pair limit is 10: five failures on each instance, fewer than either would refuse alone.
    for (let i = 0; i < 5; i++) expect((await me(a, bad, ip)).statusCode).toBe(401);
    for (let i = 0; i < 5; i++) expect((await me(b, bad, ip)).statusCode).toBe(401);
    for (const app of [a, b]) {
      const refused = await me(app, good, ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('too_many_failed_logins');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another address is not locked out.
    expect((await me(a, good, '198.51.100.21')).statusCode).toBe(200);
  });

  it('writes nothing for a successful sign-in', async () => {
    const before = await handles.first.selectFrom('sign_in_failures').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect((await me(b, good, '198.51.100.30')).statusCode).toBe(200);
    const after = await handles.first.selectFrom('sign_in_failures').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('counts per window: the count starts again once the window is over, and old windows are swept', async () => {
    const store = new SharedSignInFailures(handles.first, { pairFailures: 2, addressFailures: 100, windowMs: 60_000 });
    const t0 = 1_000_000_000;
    await store.record('203.0.113.1', 'kim', t0);
    expect(await store.retryAfter('203.0.113.1', 'kim', t0)).toBe(0);
    await store.record('203.0.113.1', 'KIM ', t0 + 1000);
    expect(await store.retryAfter('203.0.113.1', 'kim', t0 + 1000)).toBe(59);
    expect(await store.retryAfter('203.0.113.1', 'lee', t0 + 1000)).toBe(0);
    expect(await store.retryAfter('203.0.113.1', 'kim', t0 + 60_000)).toBe(0);
    await store.record('203.0.113.1', 'kim', t0 + 60_000);
    expect(await store.retryAfter('203.0.113.1', 'kim', t0 + 60_000)).toBe(0);
    for (let i = 0; i < 100; i++) await store.record(`203.0.113.${100 + (i % 50)}`, `u${i}`, t0 + 200_000);
    const left = await handles.first.selectFrom('sign_in_failures').select('window_start').where('window_start', '<=', t0 + 60_000).execute();
    expect(left).toEqual([]);
  });
});
