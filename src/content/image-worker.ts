/**
 * @module content/image-worker
 * Image sizes rendered off the serving thread: one worker thread, started when an image needs sizes
 * and stopped after a quiet half minute, renders one image at a time (`content/image-sizes.worker.ts`)
 * from a short queue kept here. A render running too long is given up alone (the worker is replaced
 * for the next); a full queue refuses more. It never keeps the process alive.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RenderedImage, RenderPick } from './image-sizes.js';
import type { SizesRequest } from './image-sizes.worker.js';

const IDLE_MS = 30_000;
/** A render running longer than this is given up (from when the worker starts on it). */
const RENDER_TIMEOUT_MS = 60_000;
/** Renders waiting at most; more are refused (the images are then kept without sizes). */
const MAX_WAITING = 8;
/** The worker's JavaScript heap; pixels live in buffers outside it, bounded by the size caps of image-sizes.ts. */
const HEAP_MB = 512;

/**
 * Running from TypeScript sources (tests, `npm run dev`) the worker is TypeScript too: it loads
 * through tsx's require hook, which a worker thread does not inherit.
 */
const TS_BOOT = `
const { workerData } = require('node:worker_threads');
require(workerData.tsx).register();
require(workerData.entry);
`;

interface Job {
  request: Omit<SizesRequest, 'id'>;
  resolve(result: RenderedImage): void;
  reject(error: Error): void;
}

let worker: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 1;
const waiting: Job[] = [];
let running: { id: number; job: Job; timer: NodeJS.Timeout } | undefined;

function startWorker(): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(`./image-sizes.worker.${fromSources ? 'ts' : 'js'}`, import.meta.url);
  const options = { resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } };
  const started = fromSources
    ? new Worker(TS_BOOT, { ...options, eval: true, workerData: { tsx: createRequire(import.meta.url).resolve('tsx/cjs/api'), entry: fileURLToPath(entry) } })
    : new Worker(entry, options);
  started.unref();
  started.on('message', (message: { id: number; result?: RenderedImage; error?: string }) => {
    finish(message.id, message.result ?? new Error(message.error ?? 'the image could not be rendered'));
  });
  const lost = (error: Error) => {
    if (worker !== started) return;
    worker = undefined;
    if (running) finish(running.id, error);
  };
  started.on('error', lost);
  started.on('exit', () => lost(new Error('the image worker stopped')));
  return started;
}

function stopWorker(): void {
  const stopping = worker;
  worker = undefined;
  void stopping?.terminate();
}

/** Starts the next waiting render, or the idle timer when none waits. */
function next(): void {
  if (running) return;
  const job = waiting.shift();
  if (!job) {
    idleTimer = setTimeout(stopWorker, IDLE_MS).unref();
    return;
  }
  clearTimeout(idleTimer);
  worker ??= startWorker();
  const id = nextId++;
  const timer = setTimeout(() => {
    stopWorker();
    finish(id, new Error('rendering the image took too long'));
  }, RENDER_TIMEOUT_MS).unref();
  running = { id, job, timer };
  worker.postMessage({ id, ...job.request } satisfies SizesRequest);
}

function finish(id: number, outcome: RenderedImage | Error): void {
  if (running?.id !== id) return;
  const { job, timer } = running;
  running = undefined;
  clearTimeout(timer);
  if (outcome instanceof Error) job.reject(outcome);
  else job.resolve(outcome);
  next();
}

/** The sizes of an image (`renderImageSizes`), or those `pick` names, rendered on the worker thread. */
export function renderImageSizesOffThread(mime: string, bytes: Uint8Array, width: number, height: number, pick?: RenderPick): Promise<RenderedImage> {
  if (waiting.length >= MAX_WAITING) return Promise.reject(new Error('too many images are waiting for their sizes'));
  return new Promise<RenderedImage>((resolve, reject) => {
    waiting.push({ request: { mime, bytes, width, height, ...(pick ? { pick } : {}) }, resolve, reject });
    next();
  });
}
