/**
 * `eventsuite mailinglist form create --name … --list … --json` through the command line.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test-support/cli-run.js';

/** {@link runCli}, a refusal `main` throws counted as exit code 1. */
const run = (args: string[]) => runCli(args).catch((e: unknown) => ({ code: 1, out: '', err: String(e) }));

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
