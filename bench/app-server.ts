/**
 * The real server for benchmarks: a fresh SQLite file (or `BENCH_DATABASE_URL`), migrated, with an
 * administrator whose application password is printed for the load generator.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, ensureFirstAdmin } from '../src/server.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-bench-'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? path.join(dir, 'bench.sqlite');
const config = { ...loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }) };
const db = await openDatabase(config);
const app = await buildApp({ config, db, logger: pino({ level: 'warn' }) });
const admin = await ensureFirstAdmin(app.ctx);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
if (admin) process.stdout.write(`ADMIN ${admin.login}:${admin.appPassword.replace(/ /g, '')}\n`);
process.stdout.write(`DATABASE ${databaseUrl}\n`);
process.stdout.write(`LISTENING ${address}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => db.destroy()).then(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
