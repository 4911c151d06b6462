/**
 * @module content/image-sizes.worker
 * The worker thread of `content/image-worker.ts`: renders image sizes (`renderImageSizes`) one
 * message at a time and answers each with the copies or the reason it could not.
 */
import { parentPort } from 'node:worker_threads';
import { renderImageSizes, type RenderPick } from './image-sizes.js';

export interface SizesRequest {
  id: number;
  mime: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  /** Only these copies (all when absent). */
  pick?: RenderPick;
}

parentPort!.on('message', (request: SizesRequest) => {
  try {
    const result = renderImageSizes(request.mime, request.bytes, request.width, request.height, request.pick);
    // Copied, not transferred: small encoded files can share one pooled ArrayBuffer.
    parentPort!.postMessage({ id: request.id, result });
  } catch (e) {
    parentPort!.postMessage({ id: request.id, error: e instanceof Error ? e.message : String(e) });
  }
});
