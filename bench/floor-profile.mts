/**
 * The fixed per-request cost of the stack (the "floor" every route pays), in this process: CPU µs per
 * request (`process.cpuUsage` around rounds of N `app.inject` calls after a warm-up; the least of the
 * rounds counts, the machine being shared) for `/health`, an unknown REST route signed out and signed
 * in (application password), a small real route signed in, and two references: a bare Fastify app's
 * `/health` (what `inject` itself costs) and the same app sending the signed-in 404's very status,
 * headers and body (what those bytes cost without the stack).
 *
 * `npx tsx bench/floor-profile.mts` (env: `PROFILE_N` requests per round, default 50; `PROFILE_ROUNDS`,
 * default 150: short rounds, as the least of many is one no other process disturbed; `PROFILE_ONLY` a
 * comma list of loads; `PROFILE_CPU=dir` writes a V8 CPU profile of each load's first timed round,
 * `dir/<load>.cpuprofile`, so give it a long one: `PROFILE_N=4000 PROFILE_ROUNDS=1`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { destination, pino } from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ensureFirstAdmin, openDatabase } from '../src/server.js';
import { leastCpu, measureRounds } from './profile-rounds.js';

const N = Number(process.env.PROFILE_N ?? 50);
const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 150);
const ONLY = process.env.PROFILE_ONLY?.split(',');
const CPU_DIR = process.env.PROFILE_CPU;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'floor-profile-'));
const config = loadConfig({ ...process.env, DATABASE_URL: path.join(dir, 'p.sqlite'), LOG_LEVEL: 'warn', SMTP_URL: '', REMOTE_PAYMENTS_URL: '' });
const db = await openDatabase(config);
// The production log line is written (to /dev/null) so its cost counts.
const app = await buildApp({ config, db, logger: pino({ level: 'info' }, destination('/dev/null')) });
const admin = (await ensureFirstAdmin(app.ctx))!;
const auth = { authorization: `Basic ${Buffer.from(`${admin.login}:${admin.appPassword.replace(/ /g, '')}`).toString('base64')}` };
const CATEGORIES = '/wp-json/eventsuite/events/v1/categories';
await app.inject({ method: 'POST', url: CATEGORIES, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'Floor' }) });

// The references: a bare Fastify app answering `/health`, and the same app answering the signed-in
// 404 with the very status, headers and body the stack sends (what the bytes alone cost through inject).
const sample = await app.inject({ method: 'GET', url: '/wp-json/nonexistent/route', headers: auth });
const sameHeaders = Object.entries(sample.headers).filter(([name]) => !['content-length', 'date', 'connection', 'keep-alive'].includes(name));
const bare = Fastify();
bare.get('/health', async (_request, reply) => reply.type('application/json; charset=UTF-8').send('{"status":"ok"}'));
bare.get('/wp-json/*', async (_request, reply) => {
  reply.code(sample.statusCode);
  for (const [name, value] of sameHeaders) reply.header(name, value);
  return reply.send(sample.body);
});
await bare.ready();

async function call(target: { inject(opts: InjectOptions): Promise<LightMyRequestResponse> }, url: string, expect: number, headers: Record<string, string> = {}) {
  const res = await target.inject({ method: 'GET', url, headers });
  if (res.statusCode !== expect) throw new Error(`GET ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
}

const loads: Record<string, () => Promise<unknown>> = {
  bareFastify: () => call(bare, '/health', 200),
  bareSameBytes: () => call(bare, '/wp-json/nonexistent/route', 404, auth),
  health: () => call(app, '/health', 200),
  notFound: () => call(app, '/wp-json/nonexistent/route', 404),
  notFoundSignedIn: () => call(app, '/wp-json/nonexistent/route', 404, auth),
  categoriesSignedIn: () => call(app, `${CATEGORIES}?per_page=1`, 200, auth),
};

const chosen = Object.entries(loads).filter(([name]) => !ONLY || ONLY.includes(name));
for (const [, load] of chosen) for (let i = 0; i < 500; i++) await load();
const samples = await measureRounds(chosen, { rounds: ROUNDS, n: N, cpuDir: CPU_DIR });
for (const [name] of chosen) process.stdout.write(`${name.padEnd(20)} ${(leastCpu(samples.get(name)!).cpuMs * 1000).toFixed(1).padStart(7)} CPU µs/request (least of ${ROUNDS} rounds of ${N})\n`);

await app.close();
await bare.close();
await db.destroy();
fs.rmSync(dir, { recursive: true, force: true });
