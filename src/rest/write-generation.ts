/**
 * @module rest/write-generation
 * A counter this process bumps on every write request it dispatches (and on writes done outside
 * requests, such as scheduled publishing). Short-lived read caches put it in their keys, so a write
 * made here is seen at once; on PostgreSQL other processes hear of it over LISTEN/NOTIFY
 * (`storage/invalidation.ts`) and bump theirs.
 */
let generation = 0;
const listeners = new Set<() => void>();

/** Calls `fn` after each write noted in this process; returns the unsubscribe function. */
export function onWrite(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** A write made by another process: read caches here start again, nobody is told. */
export function noteRemoteWrite(): void {
  generation++;
}

/** The current generation. */
export function writeGeneration(): number {
  return generation;
}

/** Marks that data may have changed. */
export function noteWrite(): void {
  generation++;
  for (const fn of listeners) fn();
}
