import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { saveEvent } from '../events/index.js';
import { parseEventsCsv } from './csv.js';
import { applyItems, siteImporter } from './import.service.js';
import { importJobs, RUN_DUE_JOB, RUN_RECORD_JOB } from './jobs.js';
import { createInput } from './fields.js';
import { getRecord, insertRecord, listRecords } from './records.repo.js';
import { runImportCommand } from './cli.js';
import { nextRunAfter, runRecord } from './runs.js';

const CSV = `Event Name,Event Description,Event Start Date,Event Start Time,Event End Date,Event End Time,All Day Event,Event Venue Name,Event Organizer Name(s) or ID(s),Event Category,Event Tags,Event Cost,Event Website
"Jazz, late",A night of jazz,2026-07-03,8:00 PM,2026-07-03,11:00 PM,,Blue Room,"Ann, Bob",Music,"jazz,late",10,https://jazz.example/
Market,,07/04/2026,,,,yes,Square,,Food,,,
,,2026-07-05,,,,,,,,,,
Broken,,someday,,,,,,,,,,
`;

describe('CSV with the original column names', () => {
  it('parses quoted fields, 12-hour times, all-day rows and reports bad rows', () => {
    const { items, skipped } = parseEventsCsv(CSV);
    expect(items).toHaveLength(2);
    expect(items[0]!.fields).toMatchObject({
      title: 'Jazz, late', start_date: '2026-07-03 20:00:00', end_date: '2026-07-03 23:00:00', all_day: false, venue: { venue: 'Blue Room' },
      organizers: [{ organizer: 'Ann' }, { organizer: 'Bob' }], categories: ['Music'], tags: ['jazz', 'late'], cost: '10', website: 'https://jazz.example/',
    });
    expect(items[1]!.fields).toMatchObject({ title: 'Market', start_date: '2026-07-04 00:00:00', end_date: '2026-07-04 23:59:59', all_day: true });
    expect(skipped).toEqual([{ uid: 'row 4', reason: 'no Event Name' }, { uid: 'row 5', reason: 'invalid Event Start Date or Event End Date' }]);
    expect(() => parseEventsCsv('a,b\n1,2\n')).toThrow('not an events CSV');
  });
});

describe.each(DIALECTS)('import runs on %s', (engine) => {
  let t: TestApp;
  let dir: string;
  let server: http.Server;
  let base = '';
  let feedStatus = 200;
  let feedHits = 0;
  beforeAll(async () => {
    t = await startTestApp(engine, { environment: 'local' } as never);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-runs-'));
    server = http.createServer((req, res) => {
      feedHits++;
      if (feedStatus !== 200) return res.writeHead(feedStatus).end('down');
      res.writeHead(200, { 'content-type': 'text/calendar' }).end(
        'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:feed-1@example.org\r\nSUMMARY:Feed event\r\nDTSTART:20260801T100000Z\r\nDTEND:20260801T110000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('runs a CSV record: events created, then unchanged; progress and activity on the record', async () => {
    const file = path.join(dir, 'events.csv');
    fs.writeFileSync(file, CSV);
    const record = await insertRecord(t.db, { origin: 'csv', source: file, frequency: 'on_demand', status: 'draft' }, new Date());
    const progress: number[] = [];
    const first = await runRecord(t.ctx, record, { onProgress: (done) => progress.push(done) });
    expect(first).toMatchObject({ status: 'success', created: 2, updated: 0, unchanged: 0 });
    expect(progress).toEqual([0, 1, 2]);
    const stored = (await getRecord(t.db, record.id))!;
    expect(stored).toMatchObject({ status: 'success', percentageComplete: 100, totalEvents: 2 });
    expect(stored.activity.tribe_events.created).toHaveLength(2);
    const again = await runRecord(t.ctx, stored);
    expect(again).toMatchObject({ status: 'success', created: 0, unchanged: 2 });
    const list = await t.request('GET', '/eventsuite/events/v1/events', { query: { search: 'Jazz', start_date: '2026-01-01' } });
    expect(list.body.events[0]).toMatchObject({ title: 'Jazz, late', cost: '$10', venue: { venue: 'Blue Room' } });
  });

  it('a missing file fails the record with the reason', async () => {
    const record = await insertRecord(t.db, { origin: 'ics', source: path.join(dir, 'nope.ics'), frequency: 'on_demand', status: 'draft' }, new Date());
    const result = await runRecord(t.ctx, record);
    expect(result.status).toBe('failed');
    expect(await getRecord(t.db, record.id)).toMatchObject({ status: 'failed', messageSlug: 'unreadable_source' });
  });

  it('adopts the event a crashed run created instead of creating a second one', async () => {
    const [item] = parseEventsCsv('Event Name,Event Start Date,Event Start Time,Event End Time\nCrash test,2026-09-01,10:00,11:00\n').items;
    const record = await insertRecord(t.db, { origin: 'csv', source: 'x', frequency: 'on_demand', status: 'pending' }, new Date());
    // The state a kill -9 between the event's insert and its mapping leaves behind.
    await t.db.insertInto('import_claims').values({ origin_id: item!.key, record_id: record.id, claimed_gmt: '2026-01-01 00:00:00' }).execute();
    const orphan = await saveEvent(t.ctx, createInput(item!.fields), await siteImporter(t.ctx));
    const result = await applyItems(t.ctx, record.id, [item!]);
    expect(result.activity.tribe_events.created).toEqual([orphan]);
    const rows = await t.db.selectFrom('posts').select('id').where('title', '=', 'Crash test').execute();
    expect(rows).toHaveLength(1);
    expect(await t.db.selectFrom('import_claims').selectAll().execute()).toEqual([]);
  });

  it('scheduled URL imports run through the job handlers; failures back off', async () => {
    const now = t.ctx.now();
    const schedule = await insertRecord(t.db, { origin: 'url', source: `${base}/feed.ics`, frequency: 'daily', status: 'schedule', nextRunGmt: '2000-01-01 00:00:00' }, now);
    await importJobs[RUN_DUE_JOB](t.ctx, null);
    let s = (await getRecord(t.db, schedule.id))!;
    expect(s.failures).toBe(0);
    expect(s.nextRunGmt! > '2000-01-01').toBe(true);
    const runs = await listRecords(t.db, { parentId: schedule.id });
    expect(runs.map((r) => r.status)).toEqual(['success']);
    // Not due again yet: nothing runs.
    const hits = feedHits;
    await importJobs[RUN_DUE_JOB](t.ctx, null);
    expect(feedHits).toBe(hits);

    feedStatus = 503;
    await t.db.updateTable('import_records').set({ next_run_gmt: '2000-01-01 00:00:00' }).where('id', '=', schedule.id).execute();
    await importJobs[RUN_DUE_JOB](t.ctx, null);
    s = (await getRecord(t.db, schedule.id))!;
    expect(s.failures).toBe(1);
    expect(s.message).toContain('HTTP 503');
    const failedRuns = (await listRecords(t.db, { parentId: schedule.id })).filter((r) => r.status === 'failed');
    expect(failedRuns).toHaveLength(1);
    expect(failedRuns[0]!.message).toContain('HTTP 503');
    feedStatus = 200;
    const events = await t.request('GET', '/eventsuite/events/v1/events', { query: { search: 'Feed event', start_date: '2026-01-01' } });
    expect(events.body.total).toBe(1);
  });

  it('backoff: 5 minutes doubling, never beyond the period', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(nextRunAfter('daily', at, 0)).toBe('2026-01-02 00:00:00');
    expect(nextRunAfter('daily', at, 1)).toBe('2026-01-01 00:05:00');
    expect(nextRunAfter('daily', at, 2)).toBe('2026-01-01 00:10:00');
    expect(nextRunAfter('hourly', at, 10)).toBe('2026-01-01 01:00:00');
    expect(nextRunAfter('on_demand', at, 0)).toBeNull();
  });

  it('the run job runs a record once; the command line manages records', async () => {
    const out: Record<string, unknown>[] = [];
    const io = (args: string[], values: Record<string, string | boolean> = {}) =>
      runImportCommand({ ctx: t.ctx, args, values, print: (d) => out.push(d), progress: () => {} });
    await io(['create'], { origin: 'remote' });
    const remote = out.pop() as { import_id: string; next_batch_hash: string };
    expect(remote.next_batch_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(await getRecord(t.db, remote.import_id)).toMatchObject({ status: 'pending', origin: 'remote', nextBatchHash: remote.next_batch_hash });

    await io(['create'], { origin: 'url', source: `${base}/feed.ics` });
    const created = out.pop() as { import_id: string; status: string };
    expect(created.status).toBe('draft');
    await importJobs[RUN_RECORD_JOB](t.ctx, { import_id: created.import_id });
    expect((await getRecord(t.db, created.import_id))!.status).toBe('success');

    await io(['schedule', created.import_id], { frequency: 'weekly' });
    expect(out.pop()).toMatchObject({ status: 'schedule', frequency: 'weekly' });
    await io(['list']);
    expect((out.pop() as { imports: unknown[] }).imports.length).toBeGreaterThan(2);
    await io(['show', created.import_id]);
    expect(out.pop()).toMatchObject({ import_id: created.import_id, origin: 'url' });
    await expect(io(['run', remote.import_id])).rejects.toThrow('remote service');
    await expect(io(['create'], { origin: 'ftp' })).rejects.toThrow('--origin must be one of');
    await expect(io(['schedule', created.import_id], { frequency: 'yearly' })).rejects.toThrow('--frequency');
    await io(['delete', created.import_id]);
    expect(await getRecord(t.db, created.import_id)).toBeUndefined();
    await expect(io(['show', 'nope!'])).rejects.toThrow('no import record');
  });
});
