/**
 * The command line: help, migrate, and create commands that run without prompts and print JSON.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-cli-'));
const dbFlag = ['--database-url', path.join(dir, 'cli.sqlite')];

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    const code = await main(args);
    return { code, out };
  } finally {
    spy.mockRestore();
  }
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('eventsuite CLI', () => {
  it('prints help', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('Usage: eventsuite <command>');
    expect(out).toContain('app-password create');
  });

  it('migrates', async () => {
    const { code, out } = await run(['migrate', ...dbFlag, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ migrated: true });
  });

  it('creates a user and an application password as JSON', async () => {
    const user = await run(['user', 'create', '--login', 'ada', '--email', 'ada@example.org', '--role', 'editor', '--json', ...dbFlag]);
    expect(user.code).toBe(0);
    expect(JSON.parse(user.out)).toMatchObject({ login: 'ada', email: 'ada@example.org', roles: ['editor'] });
    const pw = await run(['app-password', 'create', '--user', 'ada', '--name', 'Calendar sync', '--json', ...dbFlag]);
    expect(pw.code).toBe(0);
    const created = JSON.parse(pw.out);
    expect(created.password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(created).toMatchObject({ name: 'Calendar sync', user_login: 'ada', uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('generates and sets the check-in API key', async () => {
    const generated = JSON.parse((await run(['checkin-key', 'generate', '--json', ...dbFlag])).out);
    expect(generated.api_key).toMatch(/^[0-9a-f]{40}$/); // 160 bits (issue 8)
    const set = JSON.parse((await run(['checkin-key', 'set', '--key', 'scanner-key-1', '--json', ...dbFlag])).out);
    expect(set).toEqual({ api_key: 'scanner-key-1' });
    await expect(run(['checkin-key', 'set', ...dbFlag])).rejects.toThrow('needs --key');
  });

  it('refuses missing flags and unknown users with a usage error', async () => {
    await expect(run(['user', 'create', '--login', 'x', ...dbFlag])).rejects.toThrow('missing --email');
    await expect(run(['app-password', 'create', '--user', 'nobody', '--name', 'x', ...dbFlag])).rejects.toThrow('no user with login nobody');
    await expect(run(['frobnicate', ...dbFlag])).rejects.toThrow('unknown command');
  });
});
