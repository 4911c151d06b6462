/**
 * The area commands through the command line: `seed --events N` and `import ics FILE|URL`.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from './cli.js';
import { createDb } from './storage/db.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-cli-commands-'));
const dbPath = path.join(dir, 'cli.sqlite');
const dbFlag = ['--database-url', dbPath];

const CALENDAR = [
  'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//cli//EN',
  'BEGIN:VEVENT', 'UID:cli-1@example.org', 'DTSTART;TZID=Europe/Paris:20270310T200000', 'DTEND;TZID=Europe/Paris:20270310T220000', 'SUMMARY:Concert', 'LOCATION:Salle Pleyel', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:cli-2@example.org', 'DTSTART;VALUE=DATE:20270401', 'SUMMARY:Open day', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:cli-3@example.org', 'DTSTART:20270402T100000Z', 'DTEND:20270402T090000Z', 'SUMMARY:Backwards', 'END:VEVENT',
  'END:VCALENDAR', '',
].join('\r\n');

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await main(args);
    return { code, out };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

async function countEvents(): Promise<number> {
  const db = createDb({ url: dbPath });
  try {
    const row = await db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', 'tribe_events').executeTakeFirst();
    return Number(row?.n ?? 0);
  } finally {
    await db.destroy();
  }
}

describe('eventsuite seed and import', () => {
  let server: http.Server;
  let url: string;
  const file = path.join(dir, 'calendar.ics');

  beforeAll(async () => {
    fs.writeFileSync(file, CALENDAR);
    server = http.createServer((req, res) => {
      if (req.url === '/cal.ics') res.writeHead(200, { 'content-type': 'text/calendar' }).end(CALENDAR.replace(/cli-/g, 'web-'));
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal.ics`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists both commands in the help', async () => {
    const { out } = await run(['--help']);
    expect(out).toContain('seed --events N');
    expect(out).toContain('import ics FILE|URL');
  });

  it('seeds events and prints the summary as JSON', async () => {
    const { code, out } = await run(['seed', '--events', '40', '--json', ...dbFlag]);
    expect(code).toBe(0);
    const summary = JSON.parse(out);
    expect(summary).toMatchObject({ events: 40, categories: 20, tags: 40 });
    expect(summary.venues).toBeGreaterThan(0);
    expect(summary.organizers).toBeGreaterThan(0);
    expect(await countEvents()).toBe(40);
    // (Another database: two seed runs within one second would pick the same slugs.)
    const human = await run(['seed', '--events', '5', '--database-url', path.join(dir, 'other.sqlite')]);
    expect(human.out).toMatch(/^seeded 5 events, \d+ venues, \d+ organizers, 20 categories and 40 tags in \d+\.\d s\n$/);
  });

  it('imports a file by UID: created, then unchanged', async () => {
    const first = await run(['import', 'ics', file, '--json', ...dbFlag]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ created: 2, updated: 0, unchanged: 0, skipped: [{ uid: 'cli-3@example.org', reason: 'DTEND is before DTSTART' }], status: 'success' });
    expect(await countEvents()).toBe(42);
    const second = await run(['import', 'ics', file, ...dbFlag]);
    expect(second.out).toBe(`imported ${file}: 0 created, 0 updated, 2 unchanged, 1 skipped\n  skipped cli-3@example.org: DTEND is before DTSTART\n`);
    expect(await countEvents()).toBe(42);
  });

  it('imports from a URL (private addresses are allowed for a loopback site)', async () => {
    // The test runner sets BASE_URL=/ in the environment; the flag gives the site a loopback URL.
    const res = await run(['import', 'ics', url, '--json', '--base-url', 'http://localhost:8080', ...dbFlag]);
    expect(JSON.parse(res.out)).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    expect(await countEvents()).toBe(44);
  });

  it('reports bad input as errors', async () => {
    await expect(run(['seed', ...dbFlag])).rejects.toThrow('seed needs --events N');
    await expect(run(['seed', '--events', 'many', ...dbFlag])).rejects.toThrow('seed needs --events N');
    await expect(run(['import', ...dbFlag])).rejects.toThrow('usage: eventsuite import ics|csv FILE|URL');
    await expect(run(['import', 'csv', file, ...dbFlag])).rejects.toThrow('not an events CSV');
    await expect(run(['import', 'ics', path.join(dir, 'missing.ics'), ...dbFlag])).rejects.toThrow(/cannot read .*missing\.ics: no such file/);
    fs.writeFileSync(path.join(dir, 'junk.ics'), 'not a calendar');
    await expect(run(['import', 'ics', path.join(dir, 'junk.ics'), ...dbFlag])).rejects.toThrow('not an iCalendar file');
    await expect(run(['import', 'ics', file, '--user', 'nobody', ...dbFlag])).rejects.toThrow('no user with login nobody');
    expect(await countEvents()).toBe(44);
  });
});
