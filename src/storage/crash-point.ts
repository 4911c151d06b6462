/**
 * @module storage/crash-point
 * TEST ONLY: named points inside multi-step writes and jobs where crash and shutdown tests hold the
 * process — to `kill -9` it there and prove nothing is left half-written, or to have a request or a
 * job still running when SIGTERM arrives. `EVENTSUITE_TEST_CRASH_POINT` arms points as a comma list of
 * `name[:holdMs]`: each time a write passes an armed point — after the first
 * `EVENTSUITE_TEST_CRASH_SKIP` passes (default 0) — the process writes `crash point <name> reached`
 * to stderr and waits there (default 30 s), then goes on. Unarmed (always, outside those tests) a
 * point is one map lookup. Under `serve --workers N`, `EVENTSUITE_TEST_CRASH_WORKER=<id>` arms them in
 * that cluster worker only (ids count from 1; a replacement worker gets a new id).
 */
import cluster from 'node:cluster';

const DEFAULT_HOLD_MS = 30_000;
const armed = new Map<string, number>();
const onlyWorker = process.env.EVENTSUITE_TEST_CRASH_WORKER;
const here = !onlyWorker || String(cluster.worker?.id) === onlyWorker;
for (const entry of here ? (process.env.EVENTSUITE_TEST_CRASH_POINT ?? '').split(',') : []) {
  const [name, hold] = entry.trim().split(':');
  if (name) armed.set(name, Number(hold) || DEFAULT_HOLD_MS);
}
const skip = Number(process.env.EVENTSUITE_TEST_CRASH_SKIP ?? 0) || 0;
let passes = 0;

/** The points there are (a test arming another name would wait for nothing). */
export type CrashPointName = 'checkout.order-written' | 'event.linked-written' | 'import.event-saved' | 'job.running';

/** Holds here when this point is armed (tests only); otherwise returns at once. */
export async function crashPoint(name: CrashPointName): Promise<void> {
  const holdMs = armed.get(name);
  if (holdMs === undefined || ++passes <= skip) return;
  process.stderr.write(`crash point ${name} reached (pid ${process.pid})\n`);
  await new Promise((resolve) => setTimeout(resolve, holdMs));
}
