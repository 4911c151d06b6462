/**
 * Crash safety through the real command line: `eventsuite import ics` is killed with SIGKILL in the
 * middle of an import; `eventsuite import run ID` then finishes it. Every event exists exactly once.
 * And through the server: `serve` is killed with SIGKILL while it applies a batch of the remote import
 * service, between an event's creation and its mapping to the item (test-only crash point); the
 * service sends the unacknowledged batch again and every event exists exactly once, whole.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../storage/db.js';
import { migrateToLatest } from '../../storage/migrate.js';
import { DIALECTS, TEST_PG_URL, testSchemaPrefix } from '../../storage/test-db.js';
import { cliArgs } from '../../test-support/cli-build.js';
import { appOn, createFaultSite, expectWholeEvents, startServer, type FaultSite } from '../../test-support/server-process.js';
import type { App } from '../../app.js';
import { insertRecord, newBatchHash } from './records.repo.js';

// Enough that the kill (after the 40th event) lands well before the end; each event is its own write.
const EVENTS = 160;
const root = path.resolve(import.meta.dirname, '../../..');

function calendar(): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0'];
  for (let i = 0; i < EVENTS; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    lines.push('BEGIN:VEVENT', `UID:crash-${i}@example.org`, `SUMMARY:Crash event ${i}`, `DTSTART:202610${day}T100000Z`, `DTEND:202610${day}T110000Z`, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n');
}

function cli(args: string[], databaseUrl: string): ChildProcess {
  return spawn(process.execPath, cliArgs(...args), {
    cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function finished(child: ChildProcess): Promise<{ code: number | null; out: string; err: string }> {
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

describe.each(DIALECTS)('kill -9 in the middle of an import on %s', (engine) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-crash-'));
  let db: Db | undefined;
  afterAll(async () => {
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loses nothing and duplicates nothing; running again finishes the job', async () => {
    let url: string;
    if (engine === 'sqlite') {
      url = path.join(dir, 'site.sqlite');
      db = createDb({ url });
      await migrateToLatest(db);
    } else {
      const schema = `${testSchemaPrefix()}${crypto.randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: TEST_PG_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      db = createDb({ url: TEST_PG_URL, pgSchema: schema, poolSize: 2 });
      await migrateToLatest(db, schema);
      url = `${TEST_PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    }
    const file = path.join(dir, 'big.ics');
    fs.writeFileSync(file, calendar());
    const count = async () => Number((await db!.selectFrom('import_origin_ids').select(db!.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    const child = cli(['import', 'ics', file], url);
    const exit = finished(child);
    const deadline = Date.now() + 90_000;
    while ((await count()) < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    const killed = await exit;
    expect(killed.code).toBeNull();
    const before = await count();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(EVENTS);

    const record = await db.selectFrom('import_records').select(['id', 'status']).executeTakeFirstOrThrow();
    expect(record.status).toBe('pending');
    const again = await finished(cli(['import', 'run', record.id, '--json'], url));
    expect(again.err).toBe('');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ status: 'success' });

    expect(await count()).toBe(EVENTS);
    const events = await db.selectFrom('posts').select(['title']).where('type', '=', 'tribe_events').execute();
    expect(events).toHaveLength(EVENTS);
    expect(new Set(events.map((e) => e.title)).size).toBe(EVENTS);
    expect(await db.selectFrom('import_claims').selectAll().execute()).toEqual([]);
    expect((await db.selectFrom('import_records').select('status').where('id', '=', record.id).executeTakeFirstOrThrow()).status).toBe('success');
  }, 180_000);
});

function serviceEvent(n: number) {
  return {
    global_id: `crash.example.net?uid=ev-${n}`, title: `Aggregated ${n}`, start_date: '2026-09-01', start_hour: '7', start_minute: '00', start_meridian: 'PM',
    end_date: '2026-09-01', end_hour: '9', end_minute: '00', end_meridian: 'PM', timezone: 'UTC', venue: { venue: `Aggregated hall ${n % 2}` }, categories: ['Aggregated'],
  };
}

describe.each(DIALECTS)('kill -9 of the server during an import batch on %s', (engine) => {
  let site: FaultSite;
  let again: App | undefined;
  afterAll(async () => {
    await again?.close();
    await site?.destroy();
  });

  it('adopts the event created before the crash when the batch comes again: every item once, whole', async () => {
    site = await createFaultSite(engine);
    await site.closeApp();
    const hash = newBatchHash();
    const record = await insertRecord(site.db, { origin: 'remote', source: '', frequency: 'on_demand', status: 'pending', nextBatchHash: hash }, new Date());
    const batch = JSON.stringify({ batch_hash: hash, status: { data: { total: 5, done: 0 }, batch: { total: 1, done: 0 } }, percentage_complete: 100, events: [0, 1, 2, 3, 4].map(serviceEvent) });
    const url = `/wp-json/eventsuite/event-aggregator/v1/import/${record.id}/batch`;

    const server = await startServer(site.url, { EVENTSUITE_TEST_CRASH_POINT: 'import.event-saved', EVENTSUITE_TEST_CRASH_SKIP: '2' });
    const sent = fetch(`${server.base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: batch }).then((r) => r.status, (e: Error) => e.message);
    await server.waitFor(/crash point import\.event-saved reached/);
    await server.kill('SIGKILL');
    expect(typeof (await sent)).toBe('string');
    // Two items mapped; the third's event exists, unmapped, its claim left behind.
    expect((await expectWholeEvents(site.db)).sort()).toEqual(['Aggregated 0', 'Aggregated 1', 'Aggregated 2']);
    expect(await site.db.selectFrom('import_origin_ids').select('origin_id').execute()).toHaveLength(2);
    expect(await site.db.selectFrom('import_claims').select('origin_id').execute()).toEqual([{ origin_id: 'crash.example.net?uid=ev-2' }]);

    // The service had no answer, so it sends the same batch under the same hash.
    again = await appOn(site.db);
    const res = await again.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: batch });
    expect(res.statusCode).toBe(200);
    const activity = JSON.parse(res.body).activity.tribe_events;
    expect(activity.created).toHaveLength(3);
    expect(activity.skipped).toHaveLength(2);
    const titles = await expectWholeEvents(site.db);
    expect(titles.sort()).toEqual([0, 1, 2, 3, 4].map((n) => `Aggregated ${n}`));
    expect(await site.db.selectFrom('import_origin_ids').select('origin_id').execute()).toHaveLength(5);
    expect(await site.db.selectFrom('import_claims').selectAll().execute()).toEqual([]);
    expect((await site.db.selectFrom('import_records').select('status').where('id', '=', record.id).executeTakeFirstOrThrow()).status).toBe('success');
  }, 180_000);
});
