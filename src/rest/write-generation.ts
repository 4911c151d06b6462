/**
 * @module rest/write-generation
 * A counter this process bumps on every write request it dispatches (and on writes done outside
 * requests, such as scheduled publishing). Short-lived read caches put it in their keys, so a write
 * made here is seen at once; writes made by other processes are seen when the cache entry expires.
 */
let generation = 0;

/** The current generation. */
export function writeGeneration(): number {
  return generation;
}

/** Marks that data may have changed. */
export function noteWrite(): void {
  generation++;
}
