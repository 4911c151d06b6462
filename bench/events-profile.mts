/**
 * Per-request cost of the signed-in event reads (issue 12), in this process (no network, no load
 * generator): CPU ms per request (`process.cpuUsage` around rounds of `app.inject`) and the SQL
 * statements one request runs (better-sqlite3's Statement methods timed), for the list of 10 (default
 * filters), one event (a different one each request) and filtered pages of 50 (`categories` ×
 * `start_date` × `page`, a different combination each request, as the events suite sends them, so the
 * count cache never answers) and a search for one word of the seeded titles (`search`, spelled anew
 * each request, for the same reason; meant for the million-event file, as the search suite runs it).
 * Runs on a private copy of the events suite's seeded 10,000-event file.
 *
 * `npx tsx bench/events-profile.mts` (env: `PROFILE_DB` the seeded SQLite file, default the newest
 * `bench/.cache/events-10000-*.sqlite` (`npm run bench -- events` makes it); `PROFILE_N` requests per
 * round, default 50; `PROFILE_ROUNDS`, default 10; `PROFILE_ONLY` a comma list of loads;
 * `PROFILE_CPU=dir` writes a V8 CPU profile of each load's first round, `dir/<load>.cpuprofile`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { startRecording, stopRecording } from './sql-timing.js';
import { buildApp } from '../src/app.js';
import { createApplicationPassword } from '../src/auth/index.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/server.js';
import { measureRounds } from './profile-rounds.js';

const N = Number(process.env.PROFILE_N ?? 50);
const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 10);
const ONLY = process.env.PROFILE_ONLY?.split(',');
const CPU_DIR = process.env.PROFILE_CPU;
const EVENTS = '/wp-json/eventsuite/events/v1/events';

function seededFile(): string {
  if (process.env.PROFILE_DB) return process.env.PROFILE_DB;
  const cache = path.join(path.dirname(fileURLToPath(import.meta.url)), '.cache');
  const files = fs.existsSync(cache) ? fs.readdirSync(cache).filter((f) => /^events-10000-.*\.sqlite$/.test(f)) : [];
  const newest = files.map((f) => path.join(cache, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  if (!newest) throw new Error('no seeded 10,000-event database: run `npm run bench -- events` once, or set PROFILE_DB');
  return newest;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-profile-'));
const file = path.join(dir, 'p.sqlite');
fs.copyFileSync(seededFile(), file);
const config = loadConfig({ ...process.env, DATABASE_URL: file, LOG_LEVEL: 'warn', SMTP_URL: '', REMOTE_PAYMENTS_URL: '' });
const db = await openDatabase(config);
const app = await buildApp({ config, db, logger: pino({ level: 'warn' }) });
const admin = await db.selectFrom('users').select(['id', 'login']).where('roles', 'like', '%administrator%').orderBy('id').executeTakeFirstOrThrow();
const { password } = await createApplicationPassword(app.ctx, Number(admin.id), { name: 'events-profile' });
const auth = { authorization: `Basic ${Buffer.from(`${admin.login}:${password.replace(/ /g, '')}`).toString('base64')}` };

async function get(url: string) {
  const res = await app.inject({ method: 'GET', url, headers: auth });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res;
}

const ids: number[] = [];
for (let page = 1; ids.length < 3000; page++) {
  const { events } = (await get(`${EVENTS}?per_page=50&page=${page}`)).json() as { events: { id: number }[] };
  ids.push(...events.map((e) => e.id));
  if (events.length < 50) break;
}
const categories = ((await get('/wp-json/eventsuite/events/v1/categories?per_page=50')).json() as { categories: { id: number }[] }).categories.map((c) => c.id);
const filtered: string[] = [];
for (let d = 0; d < 60; d++) {
  const date = new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  for (const c of categories) for (const page of [1, 2]) filtered.push(`${EVENTS}?per_page=50&categories=${c}&start_date=${date}&page=${page}`);
}
// A fixed stride through them, so consecutive requests differ in every parameter.
let single = 0;
let next = 0;
// Words of the seeded titles, each spelled in a new upper/lower-case way by every request (the
// search is case-insensitive), so the count cache never answers: 24 words × 64 spellings.
const WORDS = ['spring', 'summer', 'autumn', 'winter', 'harbour', 'riverside', 'downtown', 'village', 'poetry', 'pottery', 'robotics', 'photography', 'garden', 'cycling', 'history', 'science', 'comedy', 'festival', 'meetup', 'market', 'concert', 'screening', 'tasting', 'showcase'];
let searches = 0;
const spelled = (word: string, mask: number) => [...word].map((c, i) => (i < 6 && mask & (1 << i) ? c.toUpperCase() : c)).join('');
const loads: Record<string, () => Promise<unknown>> = {
  search: () => {
    const n = searches++;
    return get(`${EVENTS}?search=${spelled(WORDS[n % WORDS.length]!, Math.floor(n / WORDS.length) % 64)}`);
  },
  list10: () => get(`${EVENTS}?per_page=10`),
  single: () => get(`${EVENTS}/${ids[single++ % ids.length]}`),
  filtered50: () => get(filtered[(next = (next + 7919) % filtered.length)]!),
};

const chosen = Object.entries(loads).filter(([name]) => !ONLY || ONLY.includes(name));
for (const [, load] of chosen) for (let i = 0; i < 30; i++) await load();
// Rounds of N requests of each load in turn; the least and the median CPU time of a round are shown (the machine is shared).
const rounds = await measureRounds(chosen, { rounds: ROUNDS, n: N, cpuDir: CPU_DIR });
for (const [name, load] of chosen) {
  startRecording();
  const R = 20;
  for (let i = 0; i < R; i++) await load();
  const stats = [...stopRecording().entries()];
  const perRequest = stats.reduce((a, [, s]) => a + s.n, 0) / R;
  const sqlMs = stats.reduce((a, [, s]) => a + s.ms, 0) / R;
  const sorted = rounds.get(name)!.map((r) => r.cpuMs).sort((a, b) => a - b);
  process.stdout.write(`\n## ${name}: ${sorted[0]!.toFixed(3)} CPU ms/request least, ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)} median (${ROUNDS} rounds of ${N}), ${perRequest.toFixed(1)} statements, ${sqlMs.toFixed(3)} SQL ms/request\n`);
  for (const [sqlText, s] of stats.sort((a, b) => b[1].ms - a[1].ms)) process.stdout.write(`  ${(s.n / R).toFixed(1)}× ${(s.ms / R).toFixed(3)} ms  ${sqlText}\n`);
}

await app.close();
await db.destroy();
fs.rmSync(dir, { recursive: true, force: true });
