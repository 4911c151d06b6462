/**
 * Crash safety through the real command line: `eventsuite import ics` is killed with SIGKILL in the
 * middle of an import; `eventsuite import run ID` then finishes it. Every event exists exactly once.
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

const EVENTS = 400;
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
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli.ts'), ...args], {
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
