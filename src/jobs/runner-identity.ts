/**
 * @module jobs/runner-identity
 * Who holds a job's claim (`jobs.locked_by`), and whether that holder is certainly dead.
 *
 * A claim normally lasts until its lock expires (`lockMs`, renewed while the handler runs): the only
 * sign of death that holds across hosts. But most restarts happen on the same machine — a cluster
 * worker killed and forked again, a service restarted — and there the operating system knows for
 * sure whether a process lives. So a runner's id names its process exactly:
 *
 *   `host:pid:start:scope:random`
 *
 * - `start`: the process's start time (clock ticks since boot, `/proc/<pid>/stat`), so a pid reused
 *   by a later process is not mistaken for the runner;
 * - `scope`: a hash of the kernel's boot id and the process's pid namespace. Two runners with the
 *   same scope see the same pids (same boot, same namespace); a different scope — another host,
 *   another container, the machine rebooted — says nothing, and the lock expiry decides as before.
 *   The host name alone would not do: containers with host networking share it, not their pids.
 *
 * A runner is dead when, in our own scope, its pid is gone, or is a zombie, or belongs to a process
 * started at another time. Anything uncertain (another scope, `/proc` missing or hidden, an id in the
 * old `host:pid:random` form) counts as alive: a live runner's claim is never released, only a dead
 * one's sooner. Not Linux: no scope, lock expiry only.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';

export interface RunnerIdentity {
  host: string;
  pid: number;
  /** Process start, in clock ticks since boot. */
  start: string;
  scope: string;
}

/** Field 22 of `/proc/<pid>/stat` (start time) and field 3 (state); undefined when unreadable. */
function procStat(pid: number | 'self'): { state: string; start: string } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces and parentheses itself.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = fields[19];
  return fields[0] && start && /^\d+$/.test(start) ? { state: fields[0], start } : undefined;
}

function localScope(): string {
  try {
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const pidNamespace = fs.readlinkSync('/proc/self/ns/pid');
    if (!boot || !pidNamespace) return '';
    return crypto.createHash('sha256').update(`${boot}\n${pidNamespace}`).digest('hex').slice(0, 12);
  } catch {
    return '';
  }
}

const SELF_SCOPE = localScope();
const SELF_START = procStat('self')?.start ?? '0';

/** A new id for a runner of this process (fits `jobs.locked_by`, 100 characters). */
export function newRunnerId(): string {
  const host = os.hostname().replace(/[^A-Za-z0-9.-]/g, '-').slice(0, 40) || 'host';
  return `${host}:${process.pid}:${SELF_START}:${SELF_SCOPE || '-'}:${crypto.randomBytes(3).toString('hex')}`;
}

export function parseRunnerId(id: string): RunnerIdentity | undefined {
  const m = /^([A-Za-z0-9.-]+):(\d+):(\d+):([0-9a-f]{12}|-):[0-9a-f]+$/.exec(id);
  if (!m) return undefined;
  return { host: m[1]!, pid: Number(m[2]), start: m[3]!, scope: m[4]! };
}

/** True only when the runner that wrote `id` has certainly exited (see the module comment). */
export function isCertainlyDead(id: string): boolean {
  const holder = parseRunnerId(id);
  if (!holder || !SELF_SCOPE || holder.scope !== SELF_SCOPE || holder.start === '0') return false;
  if (holder.pid === process.pid) return holder.start !== SELF_START;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: it exists (another user's). ESRCH: no such process.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const stat = procStat(holder.pid);
  if (!stat) return false;
  return stat.start !== holder.start || stat.state === 'Z' || stat.state === 'X';
}
