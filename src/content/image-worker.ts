/**
 * @module content/image-worker
 * Image sizes rendered off the serving thread: one worker thread, started when an image needs sizes
 * and stopped after a quiet half minute, renders requests one after another
 * (`content/image-sizes.worker.ts`). It never keeps the process alive.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RenderedImage } from './image-sizes.js';
import type { SizesRequest } from './image-sizes.worker.js';

const IDLE_MS = 30_000;
/** A render still running after this long is given up (the worker is stopped with it). */
const RENDER_TIMEOUT_MS = 120_000;

/**
 * Running from TypeScript sources (tests, `npm run dev`) the worker is TypeScript too: it loads
 * through tsx's require hook, which a worker thread does not inherit.
 */
const TS_BOOT = `
const { workerData } = require('node:worker_threads');
require(workerData.tsx).register();
require(workerData.entry);
`;

interface Pending {
  resolve(result: RenderedImage): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

let worker: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function startWorker(): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(`./image-sizes.worker.${fromSources ? 'ts' : 'js'}`, import.meta.url);
  const started = fromSources
    ? new Worker(TS_BOOT, { eval: true, workerData: { tsx: createRequire(import.meta.url).resolve('tsx/cjs/api'), entry: fileURLToPath(entry) } })
    : new Worker(entry);
  started.unref();
  started.on('message', (message: { id: number; result?: RenderedImage; error?: string }) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.result) waiting.resolve(message.result);
    else waiting.reject(new Error(message.error ?? 'the image could not be rendered'));
    if (pending.size === 0) idleTimer = setTimeout(stopWorker, IDLE_MS).unref();
  });
  started.on('error', (error) => worker === started && abandon(error));
  started.on('exit', () => worker === started && abandon(new Error('the image worker stopped')));
  return started;
}

function stopWorker(): void {
  const stopping = worker;
  worker = undefined;
  void stopping?.terminate();
}

/** Stops the worker and fails every render waiting on it. */
function abandon(error: Error): void {
  stopWorker();
  for (const [id, waiting] of pending) {
    pending.delete(id);
    clearTimeout(waiting.timer);
    waiting.reject(error);
  }
}

/** The sizes of an image (`renderImageSizes`), rendered on the worker thread. */
export function renderImageSizesOffThread(mime: string, bytes: Uint8Array, width: number, height: number): Promise<RenderedImage> {
  clearTimeout(idleTimer);
  worker ??= startWorker();
  const running = worker;
  const id = nextId++;
  return new Promise<RenderedImage>((resolve, reject) => {
    const timer = setTimeout(() => abandon(new Error('rendering an image took too long')), RENDER_TIMEOUT_MS).unref();
    pending.set(id, { resolve, reject, timer });
    running.postMessage({ id, mime, bytes, width, height } satisfies SizesRequest);
  });
}
