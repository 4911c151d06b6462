import { spawnSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isCertainlyDead, newRunnerId, parseRunnerId } from './runner-identity.js';

const linux = process.platform === 'linux';

/** The id a runner in process `pid` would have had, from this process's id (same host and scope). */
function idFor(pid: number, start?: string): string {
  const own = parseRunnerId(newRunnerId())!;
  return `${own.host}:${pid}:${start ?? own.start}:${own.scope}:abcdef`;
}

describe('runner identity', () => {
  it('names host, pid, start and scope, and fits locked_by', () => {
    const id = newRunnerId();
    expect(id.length).toBeLessThanOrEqual(100);
    expect(parseRunnerId(id)).toMatchObject({ pid: process.pid });
    expect(newRunnerId()).not.toBe(id);
  });

  it('calls this process and a live one alive, and anything it cannot be sure of', async () => {
    expect(isCertainlyDead(newRunnerId())).toBe(false);
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      const stat = linux ? (await import('node:fs')).readFileSync(`/proc/${child.pid}/stat`, 'utf8') : '';
      const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      expect(isCertainlyDead(idFor(child.pid!, start))).toBe(false);
      // The same pid with another start time: the pid was reused, the runner is gone.
      expect(isCertainlyDead(idFor(child.pid!, '1'))).toBe(linux);
    } finally {
      child.kill('SIGKILL');
    }
    // Old-form ids, other scopes (another host or container), garbage: not certain, so alive.
    expect(isCertainlyDead(`host:${child.pid}:abcdef`)).toBe(false);
    const own = parseRunnerId(newRunnerId())!;
    expect(isCertainlyDead(`${own.host}:${child.pid}:${own.start}:0123456789ab:abcdef`)).toBe(false);
    expect(isCertainlyDead('A')).toBe(false);
  });

  it.skipIf(!linux)('calls a process that exited dead', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    expect(isCertainlyDead(idFor(Number(gone.stdout)))).toBe(true);
  });
});
