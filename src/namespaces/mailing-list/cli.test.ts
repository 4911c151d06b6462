/**
 * `eventsuite mailinglist form create --name … --list … --json` through the command line.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../cli.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  try {
    return { code: await main(args), out, err };
  } catch (e) {
    return { code: 1, out, err: err + String(e) };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

describe('eventsuite mailinglist form create', () => {
  const db = ['--database-url', path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'eventsuite-mailinglist-')), 'cli.sqlite')];

  it('prints the new form with its id as JSON', async () => {
    const r = await run(['mailinglist', 'form', 'create', '--name', 'Newsletter', '--list', 'abc123,def456', '--json', ...db]);
    expect(r.code).toBe(0);
    const form = JSON.parse(r.out);
    expect(form).toMatchObject({ title: 'Newsletter', lists: ['abc123', 'def456'], doubleOptin: true, updateExisting: false, status: 'publish' });
    expect(form.id).toBeGreaterThan(0);
    const second = JSON.parse((await run(['mailinglist', 'form', 'create', '--name', 'Second', '--list', 'abc123', '--json', ...db])).out);
    expect(second.id).toBeGreaterThan(form.id);
  });

  it('refuses without a name or a list', async () => {
    expect((await run(['mailinglist', 'form', 'create', '--name', 'X', ...db])).code).not.toBe(0);
    expect((await run(['mailinglist', 'form', 'create', '--list', 'a', ...db])).code).not.toBe(0);
    expect((await run(['mailinglist', 'form', 'delete', ...db])).code).not.toBe(0);
  });
});
