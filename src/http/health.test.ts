import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { DIALECTS, createTestDb } from '../storage/test-db.js';

describe.each(DIALECTS)('GET /health and /ready on %s', (engine) => {
  it('answer ok; /ready answers 503 while migrations are pending or the database is gone', async () => {
    const testDb = await createTestDb(engine);
    const config = loadConfig({}, { baseUrl: 'http://example.test', logLevel: 'silent' });
    const app = await buildApp({ config, db: testDb.db, logger: pino({ level: 'silent' }) });
    try {
      const health = await app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      expect(health.headers['cache-control']).toBe('no-store');

      // A schema missing its latest migration is not ready (checked until it is current once).
      const last = await testDb.db.selectFrom('kysely_migration' as any).select('name').orderBy('name', 'desc').executeTakeFirstOrThrow() as { name: string };
      await testDb.db.deleteFrom('kysely_migration' as any).where('name', '=', last.name).execute();
      const pending = await app.inject({ method: 'GET', url: '/ready' });
      expect(pending.statusCode).toBe(503);
      expect(pending.json()).toEqual({ status: 'unavailable', database: 'ok', migrations: 'pending' });
      expect(pending.headers['retry-after']).toBe('5');
      await testDb.db.insertInto('kysely_migration' as any).values({ name: last.name, timestamp: new Date().toISOString() }).execute();
      const ready = await app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ok', database: 'ok', migrations: 'current' });

      await testDb.db.destroy();
      const gone = await app.inject({ method: 'GET', url: '/ready' });
      expect(gone.statusCode).toBe(503);
      expect(gone.json()).toEqual({ status: 'unavailable', database: 'unreachable' });
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
