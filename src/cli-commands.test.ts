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

  it('expands recurring series within --from/--until and reports series outside the window', async () => {
    const series = path.join(dir, 'series.ics');
    fs.writeFileSync(series, ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//cli//EN',
      'BEGIN:VEVENT', 'UID:club@example.org', 'DTSTART:20100105T180000Z', 'DTEND:20100105T190000Z', 'RRULE:FREQ=WEEKLY;COUNT=3', 'SUMMARY:Book club', 'END:VEVENT',
      'END:VCALENDAR', ''].join('\r\n'));
    const outside = await run(['import', 'ics', series, ...dbFlag]);
    expect(outside.out).toMatch(/0 created, 0 updated, 0 unchanged, 1 skipped\n  skipped club@example\.org: recurring series with no occurrence between \d{4}-\d\d-\d\d and \d{4}-\d\d-\d\d \(the import window; see --from and --until\)\n$/);
    const inside = await run(['import', 'ics', series, '--from', '2010-01-01', '--until', '2010-01-13', '--json', ...dbFlag]);
    expect(JSON.parse(inside.out)).toMatchObject({ created: 2, updated: 0, unchanged: 0, skipped: [] });
    await expect(run(['import', 'ics', series, '--from', 'someday', ...dbFlag])).rejects.toThrow('--from needs a date');
    await expect(run(['import', 'ics', series, '--from', '2011-01-01', '--until', '2010-01-01', ...dbFlag])).rejects.toThrow('--from must not be after --until');
  });

  it('prints the generated password of a user created without --password', async () => {
    const res = await run(['user', 'create', '--login', 'ada', '--email', 'ada@example.org', '--json', ...dbFlag]);
    const created = JSON.parse(res.out);
    expect(created.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const human = await run(['user', 'create', '--login', 'bob', '--email', 'bob@example.org', ...dbFlag]);
    expect(human.out).toMatch(/^created user bob \(id \d+\)\n {2}password: [A-Za-z0-9_-]{16}\n$/);
    const given = await run(['user', 'create', '--login', 'cy', '--email', 'cy@example.org', '--password', 'cy-secret-1', '--json', ...dbFlag]);
    expect(JSON.parse(given.out).password).toBeUndefined();
  });

  it('lists, reads and changes the declared settings, as JSON of the setting\'s type', async () => {
    const list = JSON.parse((await run(['settings', 'list', '--json', ...dbFlag])).out);
    expect(list.settings.find((s: { name: string }) => s.name === 'postsPerPage')).toEqual({ name: 'postsPerPage', area: 'calendar-views', value: 12, description: 'Events per page of the list view.' });
    expect((await run(['settings', 'set', 'postsPerPage', '3', ...dbFlag])).out).toBe('postsPerPage = 3\n');
    expect((await run(['settings', 'get', 'postsPerPage', ...dbFlag])).out).toBe('3\n');
    expect((await run(['settings', 'set', 'tribeEnableViews', '["list","day"]', ...dbFlag])).code).toBe(0);
    expect(JSON.parse((await run(['settings', 'get', 'tribeEnableViews', '--json', ...dbFlag])).out).value).toEqual(['list', 'day']);
    expect((await run(['settings', 'set', 'defaultCurrencySymbol', '€', ...dbFlag])).out).toBe('defaultCurrencySymbol = "€"\n');
    await expect(run(['settings', 'set', 'postsPerPage', 'many', ...dbFlag])).rejects.toThrow('settings set postsPerPage: the value must be JSON (a number)');
    await expect(run(['settings', 'set', 'postsPerPage', '"5"', ...dbFlag])).rejects.toThrow('the value must be a number, like the default 12');
    await expect(run(['settings', 'set', 'nonsense', '1', ...dbFlag])).rejects.toThrow('no setting nonsense');
    await expect(run(['settings', 'set', 'postsPerPage', ...dbFlag])).rejects.toThrow('usage: eventsuite settings');
  });

  it('refuses a DATABASE_URL of an engine it does not support', async () => {
    await expect(run(['migrate', '--database-url', 'mysql://root@127.0.0.1/site'])).rejects.toThrow(/mysql.*not supported/i);
    expect(fs.existsSync('mysql:')).toBe(false);
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
    expect(await countEvents()).toBe(46);
  });
});
