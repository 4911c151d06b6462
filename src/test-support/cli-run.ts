/**
 * @module test-support/cli-run
 * Runs the command line in this process (`main` of cli.ts) with stdout and stderr captured.
 */
import { vi } from 'vitest';
import { main } from '../cli.js';

/** The exit code and what the command printed (an error `main` throws is thrown here). */
export async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  try {
    return { code: await main(args), out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}
