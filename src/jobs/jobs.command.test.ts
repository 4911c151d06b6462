import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main, withApp } from '../cli.js';
import { loadConfig } from '../config.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-jobs-cli-'));
const dbPath = path.join(dir, 'jobs.sqlite');
const db = ['--database-url', dbPath];

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await main([...args, ...db]), out };
  } finally {
    stdout.mockRestore();
  }
}

describe('eventsuite jobs', () => {
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('lists, cancels, retries and runs jobs, with --json', async () => {
    const config = loadConfig({ DATABASE_URL: dbPath, LOG_LEVEL: 'silent' });
    const job = await withApp(config, (app) => app.ctx.jobs.enqueue('events.publish-due', {}, { runAt: new Date(Date.now() + 86_400_000) }));

    const list = await run(['jobs', 'list', '--json']);
    expect(list.code).toBe(0);
    const listed = JSON.parse(list.out);
    expect(listed.jobs).toMatchObject([{ id: job.id, kind: 'events.publish-due', status: 'queued', attempts: 0 }]);
    expect(listed.counts).toMatchObject({ queued: 1, done: 0 });
    expect((await run(['jobs', 'list'])).out).toContain(`#${job.id}  queued    events.publish-due  attempts 0/5`);

    expect(JSON.parse((await run(['jobs', 'run', '--json'])).out)).toEqual({ ran: [] });
    expect(JSON.parse((await run(['jobs', 'cancel', String(job.id), '--json'])).out).job).toMatchObject({ id: job.id, status: 'cancelled' });
    await expect(run(['jobs', 'cancel', String(job.id)])).rejects.toThrow(/is cancelled; cannot cancel/);
    expect(JSON.parse((await run(['jobs', 'retry', String(job.id), '--json'])).out).job).toMatchObject({ status: 'queued', attempts: 0 });
    const ran = await run(['jobs', 'run', String(job.id), '--json']);
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.out).ran).toMatchObject([{ id: job.id, status: 'done', attempts: 1 }]);
    expect(JSON.parse((await run(['jobs', 'list', '--status', 'done', '--json'])).out).jobs).toHaveLength(1);
    expect(JSON.parse((await run(['jobs', 'list', '--status', 'failed', '--json'])).out).jobs).toHaveLength(0);
  });

  it('refuses bad arguments', async () => {
    await expect(run(['jobs', 'list', '--status', 'bogus'])).rejects.toThrow(/--status must be one of/);
    await expect(run(['jobs', 'list', '--limit', '0'])).rejects.toThrow(/--limit/);
    await expect(run(['jobs', 'retry'])).rejects.toThrow(/usage/);
    await expect(run(['jobs', 'retry', '12abc'])).rejects.toThrow(/usage/);
    await expect(run(['jobs', 'cancel', '999999'])).rejects.toThrow(/no job 999999/);
    await expect(run(['jobs', 'frobnicate'])).rejects.toThrow(/usage/);
  });
});
