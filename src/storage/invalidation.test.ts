/**
 * Two app instances (two buildApp with their own connection pools) on one PostgreSQL schema: a
 * revoked application password is refused by the other at once, and writes reach the other's read
 * cache generation, over LISTEN/NOTIFY.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { createApplicationPassword, deleteApplicationPassword } from '../auth/app-passwords.js';
import { AUTH_CACHE_TTL_MS } from '../auth/auth-state.js';
import { createUser } from '../auth/users.js';
import { loadConfig } from '../config.js';
import { noteWrite, writeGeneration } from '../rest/write-generation.js';
import { createDb, type Db } from './db.js';
import { createTestDb, DIALECTS, TEST_PG_URL, type TestDb } from './test-db.js';

async function until(check: () => Promise<boolean> | boolean, ms = 3000): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - start;
}

describe.skipIf(!DIALECTS.includes('postgres'))('two instances on one PostgreSQL schema', () => {
  let first: TestDb;
  let secondDb: Db;
  let a: App;
  let b: App;
  beforeAll(async () => {
    first = await createTestDb('postgres');
    secondDb = createDb({ url: TEST_PG_URL, pgSchema: first.pgSchema!, poolSize: 5 });
    const config = loadConfig({}, { baseUrl: 'http://example.test', logLevel: 'silent' });
    a = await buildApp({ config, db: first.db, logger: pino({ level: 'silent' }) });
    b = await buildApp({ config, db: secondDb, logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await secondDb.destroy();
    await first.destroy();
  });

  it('refuses on one an application password deleted on the other, at once', async () => {
    const user = await createUser(a.ctx, { login: 'pat', email: 'pat@example.test', password: 'pat-password', roles: ['editor'] });
    const { password, item } = await createApplicationPassword(a.ctx, user.id, { name: 'laptop' });
    const authorization = `Basic ${Buffer.from(`pat:${password}`).toString('base64')}`;
    const me = () => b.inject({ method: 'GET', url: '/wp-json/core/v2/users/me', headers: { authorization } });
    expect((await me()).statusCode).toBe(200); // b now holds the verified credential in its cache
    await deleteApplicationPassword(a.ctx, user.id, item.uuid);
    const waited = await until(async () => (await me()).statusCode === 401);
    expect(waited).toBeLessThan(AUTH_CACHE_TTL_MS / 5);
  });

  it("lets each process's read cache hear the other's writes", async () => {
    // Both apps live in this process and share its generation counter: a write noted here bumps it
    // once locally and once more when the other instance's NOTIFY arrives.
    const before = writeGeneration();
    noteWrite();
    await until(() => writeGeneration() >= before + 2);
    expect(writeGeneration()).toBeGreaterThanOrEqual(before + 2);
  });
});
