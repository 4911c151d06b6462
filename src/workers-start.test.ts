/**
 * `serve --workers 2` whose workers cannot start (their port is taken): each worker exits instead of
 * hanging half started, the primary starts others (once a second, not in a tight loop), and as soon
 * as the port is free a worker serves.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from './storage/test-db.js';
import { cliArgs } from './test-support/cli-build.js';
import { freePort } from './test-support/net.js';

describe.skipIf(!DIALECTS.includes('sqlite'))('serve --workers 2 when workers cannot start', () => {
  it('replaces workers that fail to start until one can listen', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-workers-start-'));
    const port = await freePort();
    const blocker = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    const child = spawn(process.execPath, cliArgs('serve', '--workers', '2'), {
      env: { ...process.env, DATABASE_URL: path.join(dir, 'site.sqlite'), PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const waitFor = async (test: () => boolean | Promise<boolean>, ms: number) => {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        if (await test()) return true;
        await new Promise((r) => setTimeout(r, 100));
      }
      return false;
    };
    try {
      // Workers fail to listen, exit, and are replaced: more exits than the two first workers.
      const exits = () => (out.match(/worker exited; starting another/g) ?? []).length;
      expect(await waitFor(() => exits() >= 4, 60_000), out).toBe(true);
      expect(out).toMatch(/could not start: .*EADDRINUSE/);
      // Not a tight loop: a second later, only a few more.
      const before = exits();
      await new Promise((r) => setTimeout(r, 1_000));
      expect(exits() - before).toBeLessThanOrEqual(4);

      await new Promise<void>((resolve) => blocker.close(() => resolve()));
      const healthy = () => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
      expect(await waitFor(healthy, 30_000), out).toBe(true);
      expect(child.exitCode).toBeNull();
    } finally {
      blocker.close();
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
