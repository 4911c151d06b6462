/**
 * `serve --workers 2` on one SQLite file: concurrent writes through both processes all succeed (no
 * SQLITE_BUSY reaches a client: every transaction takes the write lock when it begins and the others
 * wait for it).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from './storage/test-db.js';
import { cliArgs } from './test-support/cli-build.js';
import { freePort } from './test-support/net.js';

describe.skipIf(!DIALECTS.includes('sqlite'))('serve --workers 2 on SQLite', () => {
  it('answers concurrent writes without SQLITE_BUSY', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-workers-'));
    const port = await freePort();
    const child = spawn(process.execPath, cliArgs('serve', '--workers', '2'), {
      // BASE_URL explicitly: vitest sets process.env.BASE_URL to '/'.
      env: { ...process.env, DATABASE_URL: path.join(dir, 'site.sqlite'), PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      let listening = 0;
      while (Date.now() < deadline && listening < 1) {
        listening = await fetch(`${base}/health`).then((r) => (r.ok ? 1 : 0), () => 0);
        if (!listening) await new Promise((r) => setTimeout(r, 200));
      }
      const appPassword = /Application password: (.+)/.exec(out)?.[1]?.trim();
      expect(appPassword, out).toBeTruthy();
      const authorization = `Basic ${Buffer.from(`admin:${appPassword}`).toString('base64')}`;
      const statuses = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          fetch(`${base}/wp-json/eventsuite/events/v1/events`, {
            method: 'POST',
            headers: { authorization, 'content-type': 'application/json' },
            body: JSON.stringify({ title: `Concurrent ${i}`, start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00', status: 'publish', categories: ['Load'] }),
          }).then(async (r) => (r.status === 201 ? 201 : `${r.status} ${await r.text()}`)),
        ),
      );
      expect(statuses.filter((s) => s !== 201)).toEqual([]);
      expect(out).not.toContain('SQLITE_BUSY');
      const list = await fetch(`${base}/wp-json/eventsuite/events/v1/events?per_page=50&search=Concurrent`, { headers: { authorization } });
      expect((await list.json()).events).toHaveLength(40);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
