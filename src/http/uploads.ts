/**
 * @module http/uploads
 * The media library's files (`content/media.ts`) at `/wp-content/uploads/…`, as a web server serves
 * WordPress's uploads folder: images with their type, other files as downloads, nothing outside the
 * folder, long-lived caching (a file's name never names other bytes: new files get new names).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';

export const UPLOADS_PATH = '/wp-content/uploads/';

const TYPES: Readonly<Record<string, string>> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };

/**
 * The file of the uploads folder `root` that a URL path names (`encoded`: the part after
 * {@link UPLOADS_PATH}, still percent-encoded), or undefined for one outside the folder or malformed.
 */
export function uploadedFile(root: string, encoded: string): string | undefined {
  let relative: string;
  try {
    relative = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  const file = path.resolve(root, relative);
  return file.startsWith(root + path.sep) && !relative.includes('\0') ? file : undefined;
}

export function registerUploads(app: FastifyInstance, ctx: AppContext): void {
  const root = path.resolve(ctx.config.uploadsDir);
  app.get(`${UPLOADS_PATH}*`, async (request: FastifyRequest, reply: FastifyReply) => {
    const file = uploadedFile(root, request.url.split('?')[0]!.slice(UPLOADS_PATH.length));
    if (!file) return reply.callNotFound();
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      return reply.callNotFound();
    }
    if (!stat.isFile()) return reply.callNotFound();
    const type = TYPES[path.extname(file).slice(1).toLowerCase()];
    reply
      .header('Content-Type', type ?? 'application/octet-stream')
      .header('Content-Length', stat.size)
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('Last-Modified', stat.mtime.toUTCString())
      .header('X-Content-Type-Options', 'nosniff');
    if (!type) reply.header('Content-Disposition', 'attachment');
    return reply.send(fs.createReadStream(file));
  });
}
