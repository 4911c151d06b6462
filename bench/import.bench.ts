/**
 * Event import and calendar views benchmark (issue #9 item 5), ratios within one run:
 * - import throughput: a generated .ics file of `BENCH_IMPORT_EVENTS` events (default 10,000) through
 *   the import service, and the same events as batches of 25 through `POST /import/{id}/batch`,
 *   against plain inserts of the same rows with the events service (events per second, in process);
 * - the month view HTML of a month holding `BENCH_MONTH_EVENTS` events (default 500), and the list view,
 *   against a bare Node server sending the same bytes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { fromServiceItem } from '../src/namespaces/event-import/service-items.js';
import { createInput, type ImportedItem } from '../src/namespaces/event-import/fields.js';
import { siteImporter } from '../src/namespaces/event-import/import.service.js';
import { insertRecord, newBatchHash } from '../src/namespaces/event-import/records.repo.js';
import { runRecord } from '../src/namespaces/event-import/runs.js';
import { saveEvent } from '../src/namespaces/events/index.js';
import { openDatabase } from '../src/server.js';
import { basicAuth, measure, report, requestJson, startServer, type Server } from './lib.js';

const IMPORT_EVENTS = Number(process.env.BENCH_IMPORT_EVENTS ?? 10_000);
const MONTH_EVENTS = Number(process.env.BENCH_MONTH_EVENTS ?? 500);
const PER_BATCH = 25;

function day(i: number): string {
  return `2031-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
}

function serviceEvent(i: number, prefix: string) {
  return { global_id: `${prefix}-${i}`, title: `${prefix} event ${i}`, description: 'Imported by the benchmark.', start_date: day(i), start_hour: '19', start_minute: '00', end_date: day(i), end_hour: '21', end_minute: '00', timezone: 'UTC', venue: { venue: `Hall ${i % 20}` }, categories: [`Cat ${i % 10}`], cost: '5' };
}

function ics(n: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0'];
  for (let i = 0; i < n; i++) {
    const d = day(i).replace(/-/g, '');
    lines.push('BEGIN:VEVENT', `UID:ics-${i}@bench`, `SUMMARY:ics event ${i}`, `DTSTART:${d}T190000Z`, `DTEND:${d}T210000Z`, `LOCATION:Hall ${i % 20}`, `CATEGORIES:Cat ${i % 10}`, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n');
}

async function importThroughput(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-import-bench-'));
  try {
    const config = loadConfig({}, { baseUrl: 'http://bench.test', logLevel: 'silent', databaseUrl: path.join(dir, 'bench.sqlite') });
    const db = await openDatabase(config);
    const app = await buildApp({ config, db, logger: pino({ level: 'silent' }) });
    await app.ready();
    const rows: { name: string; seconds: number }[] = [];

    const file = path.join(dir, 'bench.ics');
    fs.writeFileSync(file, ics(IMPORT_EVENTS));
    let t0 = performance.now();
    const record = await insertRecord(app.ctx.db, { origin: 'ics', source: file, frequency: 'on_demand', status: 'draft' }, new Date());
    const result = await runRecord(app.ctx, record);
    if (result.created !== IMPORT_EVENTS) throw new Error(`ics import created ${result.created}`);
    rows.push({ name: `.ics file, ${IMPORT_EVENTS} events`, seconds: (performance.now() - t0) / 1000 });

    let hash = newBatchHash();
    const remote = await insertRecord(app.ctx.db, { origin: 'remote', source: '', frequency: 'on_demand', status: 'pending', nextBatchHash: hash }, new Date());
    const batches = Math.ceil(IMPORT_EVENTS / PER_BATCH);
    t0 = performance.now();
    for (let b = 0; b < batches; b++) {
      const events = Array.from({ length: Math.min(PER_BATCH, IMPORT_EVENTS - b * PER_BATCH) }, (_, k) => serviceEvent(b * PER_BATCH + k, 'batch'));
      const res = await app.inject({ method: 'POST', url: `/wp-json/eventsuite/event-aggregator/v1/import/${remote.id}/batch`, payload: { batch_hash: hash, status: { data: { total: IMPORT_EVENTS, done: b * PER_BATCH }, batch: { total: batches, done: b } }, percentage_complete: Math.floor((b * 100) / batches), events } });
      if (res.statusCode !== 200) throw new Error(`batch ${b}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      hash = (JSON.parse(res.body) as { next_batch_hash?: string }).next_batch_hash ?? '';
    }
    rows.push({ name: `${batches} batches of ${PER_BATCH} through POST /import/{id}/batch`, seconds: (performance.now() - t0) / 1000 });

    const user = await siteImporter(app.ctx);
    const items = Array.from({ length: IMPORT_EVENTS }, (_, i) => fromServiceItem(serviceEvent(i, 'plain')) as ImportedItem);
    t0 = performance.now();
    for (const item of items) await saveEvent(app.ctx, createInput(item.fields), user);
    const plain = (performance.now() - t0) / 1000;

    const lines = ['\n## Event import throughput', '', '| import | events/s | vs plain inserts |', '|---|---:|---:|', `| plain inserts (events service, same rows) | ${Math.round(IMPORT_EVENTS / plain)} | 100% |`];
    for (const r of rows) lines.push(`| ${r.name} | ${Math.round(IMPORT_EVENTS / r.seconds)} | ${((plain / r.seconds) * 100).toFixed(0)}% |`);
    process.stdout.write(`${lines.join('\n')}\n`);
    await app.close();
    await db.destroy();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function viewLoads(): Promise<void> {
  const servers: Server[] = [];
  try {
    const app = await startServer('app-server.ts');
    servers.push(app);
    const auth = basicAuth(/ADMIN (\S+)/.exec(app.output)?.[1] ?? '');
    for (let i = 0; i < MONTH_EVENTS; i++) {
      const d = `2031-03-${String((i % 31) + 1).padStart(2, '0')}`;
      await requestJson(`${app.url}/wp-json/eventsuite/events/v1/events`, { headers: auth, json: { title: `Month event ${i}`, start_date: `${d} ${String(8 + (i % 12)).padStart(2, '0')}:00:00`, end_date: `${d} 23:00:00`, status: 'publish' }, expect: 201 });
    }
    const month = '/events/month/2031-03/';
    const list = '/events/list/';
    const bare = await startServer('bare-server.ts', { BARE_SOURCE_URLS: `${app.url}${month},${app.url}${list}` });
    servers.push(bare);
    const baseline = await measure({ name: 'bare node http (bytes of the month page)', url: `${bare.url}${month}` });
    const rows = [
      await measure({ name: `GET ${month} (${MONTH_EVENTS} events in the month)`, url: `${app.url}${month}` }),
      await measure({ name: `GET ${list} (list view)`, url: `${app.url}${list}` }),
    ];
    report('Calendar views HTML', baseline, rows);
  } finally {
    for (const s of servers) await s.stop();
  }
}

export async function run(): Promise<void> {
  await importThroughput();
  await viewLoads();
}
