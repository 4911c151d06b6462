/**
 * @module storage/wal-checkpointer
 * SQLite's WAL checkpoints on a background thread. By default the connection that commits the
 * transaction pushing the WAL past 1,000 pages copies them into the database file and syncs it, inside
 * that request: a checkout paid about 0.6 ms of its 2 ms for this (`bench/tickets-profile.mts`), and
 * better-sqlite3 blocks the event loop meanwhile. Here a worker thread with its own connection runs a
 * `PASSIVE` checkpoint (it never waits for readers or writers) every {@link CHECKPOINT_EVERY_MS}, so
 * the copying and the fsync happen beside the requests; the server's connection keeps a far larger
 * automatic checkpoint as a bound on the WAL should the thread fall behind or stop.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const CHECKPOINT_EVERY_MS = 100;
/** Pages after which the serving connection checkpoints itself (40 MB at 4 KB pages). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;
const STOP_WAIT_MS = 2_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
let checkpoints = 0;
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    checkpoints++;
  } catch {
    // Busy (another process checkpoints) or a passing error: the next round tries again, and the
    // serving connection's own automatic checkpoint bounds the WAL meanwhile.
  }
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message === 'count') return parentPort.postMessage(checkpoints);
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  /** Checkpoints the thread has run (for tests). */
  checkpoints(): Promise<number>;
  /** Stops the thread and closes its connection. */
  stop(): Promise<void>;
}

/** Starts checkpointing the WAL of the SQLite database `file` on a worker thread. */
export function startWalCheckpointer(file: string): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, everyMs: CHECKPOINT_EVERY_MS } });
  // The thread never keeps a process alive, and its failure leaves checkpoints to the serving connection.
  worker.unref();
  worker.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  return {
    checkpoints: () =>
      new Promise<number>((resolve, reject) => {
        const stopped = () => reject(new Error('the checkpoint thread has stopped'));
        if (!running) return stopped();
        worker.once('message', resolve);
        worker.postMessage('count');
        void exited.then(stopped);
      }),
    async stop() {
      if (!running) return;
      // Held by the thread until it has closed its connection (or is terminated when it is late).
      worker.ref();
      worker.postMessage('stop');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS, 'late')));
      if ((await Promise.race([exited, late])) === 'late') await worker.terminate();
      clearTimeout(timer);
    },
  };
}
