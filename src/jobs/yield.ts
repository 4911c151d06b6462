/**
 * @module jobs/yield
 * A turn of the event loop for long jobs. better-sqlite3 answers synchronously, so on SQLite a loop of
 * awaited queries resumes on microtasks alone and keeps the event loop to itself until it ends: a job
 * working through thousands of rows stalled every request of its process (requests timed out in the
 * soak). Loops over batches await this between batches.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
