/**
 * Several instances starting at once on one empty database: migrations run once, one first
 * administrator is created, nobody fails ("Sorry, that username already exists!").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { ensureFirstAdmin, openDatabase } from './server.js';
import { DIALECTS, TEST_PG_URL, testSchemaPrefix } from './storage/test-db.js';
import { cliArgs } from './test-support/cli-build.js';
import { freePort } from './test-support/net.js';

async function emptyDatabase(engine: 'sqlite' | 'postgres'): Promise<{ url: string; pgSchema?: string; cleanup: () => void }> {
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-startup-'));
    return { url: path.join(dir, 'site.sqlite'), cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `${testSchemaPrefix()}${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return { url: TEST_PG_URL, pgSchema: schema, cleanup: () => {} };
}

/** `eventsuite serve` in a child process; resolves with its output once it listens (or exits). */
function serveProcess(env: Record<string, string>): { child: ChildProcess; ready: Promise<{ out: string; code: number | null }> } {
  const child = spawn(process.execPath, cliArgs('serve'), { env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ready = new Promise<{ out: string; code: number | null }>((resolve) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('eventsuite listening')) resolve({ out, code: null });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => resolve({ out, code }));
  });
  return { child, ready };
}

describe.skipIf(!DIALECTS.includes('sqlite'))('two `serve` processes starting together on one new SQLite file', () => {
  it('both start; one prints the first administrator', async () => {
    const target = await emptyDatabase('sqlite');
    const procs = await Promise.all([freePort(), freePort()]).then((ports) =>
      ports.map((port) => serveProcess({ DATABASE_URL: target.url, PORT: String(port), HOST: '127.0.0.1', WORKERS: '1' })),
    );
    try {
      const results = await Promise.all(procs.map((p) => p.ready));
      for (const r of results) expect(r.code, r.out).toBeNull();
      expect(results.filter((r) => r.out.includes('an administrator was created'))).toHaveLength(1);
      expect(results.map((r) => r.out).join('')).not.toContain('already exists');
    } finally {
      for (const p of procs) p.child.kill('SIGTERM');
      await Promise.all(procs.map((p) => new Promise((r) => (p.child.exitCode !== null ? r(null) : p.child.once('exit', r)))));
      target.cleanup();
    }
  }, 90_000);
});

describe.each(DIALECTS.filter((e) => e === 'postgres'))('instances starting together on %s', (engine) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('migrate once and create one first administrator', async () => {
    const target = await emptyDatabase(engine);
    cleanups.push(target.cleanup);
    const config = loadConfig({}, { databaseUrl: target.url, baseUrl: 'http://example.test', logLevel: 'silent' });
    const start = async () => {
      const db = await openDatabase(config, target.pgSchema ? { pgSchema: target.pgSchema } : {});
      const app = await buildApp({ config, db, logger: pino({ level: 'silent' }) });
      cleanups.push(async () => {
        await app.close();
        await db.destroy();
      });
      return { app, first: await ensureFirstAdmin(app.ctx) };
    };
    const started = await Promise.all([start(), start(), start()]);
    expect(started.filter((s) => s.first !== undefined)).toHaveLength(1);
    const users = await started[0]!.app.ctx.db.selectFrom('users').select(['login']).execute();
    expect(users).toEqual([{ login: 'admin' }]);
    // Every instance sees the current schema.
    for (const s of started) expect(JSON.parse((await s.app.inject({ method: 'GET', url: '/ready' })).body)).toEqual({ status: 'ok', database: 'ok', migrations: 'current' });
  }, 60_000);
});
