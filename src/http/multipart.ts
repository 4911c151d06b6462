/**
 * @module http/multipart
 * Reads a `multipart/form-data` body on demand — after authentication, for a route that exists —
 * with one size limit for the whole body (framing, fields and files together, as for JSON), at
 * most {@link MAX_PARTS} parts, and file contents kept only when the route takes uploads.
 *
 * File parts sent to a route without uploads are read to nothing: WordPress (PHP) accepts them and
 * the route never looks; the bytes still count towards the limit, so nothing piles up in memory.
 */
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { CoreErrors, RestError } from '../rest/errors.js';
import { parsePhpQuery } from '../rest/php-query.js';
import type { EndpointDef, UploadedFile } from '../rest/route.js';
import type { ParsedBody } from './body.js';
import { edgeError } from './edge-errors.js';

/** Parts in one body (fields and files), as PHP's `max_input_vars` order of magnitude. */
export const MAX_PARTS = 1000;
/** File parts a route that takes uploads may receive in one body. */
export const MAX_FILES = 20;

export interface MultipartRules {
  /** Bytes of the whole body. */
  maxBytes: number;
  /** Keep file contents (the route declares a `file` argument or takes uploads). */
  keepFiles: boolean;
}

interface Part {
  type: 'file' | 'field';
  fieldname: string;
  value?: unknown;
  filename?: string;
  mimetype?: string;
  file?: Readable;
}

type PartsRequest = FastifyRequest & { parts(options: Record<string, unknown>): AsyncIterable<Part> };

/** True when the endpoint keeps multipart files: it declares a `file` argument or accepts uploads. */
export function takesUploads(endpoint: EndpointDef): boolean {
  if (endpoint.acceptsUploads) return true;
  return Object.values(endpoint.args ?? {}).some((arg) => (Array.isArray(arg.type) ? arg.type.includes('file') : arg.type === 'file'));
}

/** True when `@fastify/multipart` flagged the request (a `multipart/form-data` content type). */
export function isMultipartRequest(request: FastifyRequest): boolean {
  const r = request as FastifyRequest & { isMultipart?: () => boolean };
  return typeof r.isMultipart === 'function' && r.isMultipart();
}

/** A multipart error as the REST error the client sees (4xx; a malformed body is a 400). */
function clientError(err: unknown, maxBytes: number): RestError {
  if (err instanceof RestError) return err;
  const e = err instanceof Error ? err : new Error(String(err));
  return edgeError(e, maxBytes) ?? CoreErrors.invalidBody('The multipart/form-data body is malformed.');
}

/** The chunks of one file part, or nothing when `keep` is false; rejects when `stop` does. */
function consume(stream: Readable, keep: boolean, stop: Promise<never>): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => keep && chunks.push(c));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
    stop.catch((err: unknown) => {
      stream.destroy();
      reject(err);
    });
  });
}

/**
 * Reads the body. Throws a RestError: 413 over the limit (a declared `Content-Length` over it is
 * refused before reading), 400 when malformed (no boundary, a part cut short).
 */
export async function readMultipart(request: FastifyRequest, rules: MultipartRules): Promise<ParsedBody> {
  const { maxBytes, keepFiles } = rules;
  const raw = request.raw;
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw CoreErrors.tooLarge(maxBytes);

  let parts: AsyncIterator<Part>;
  try {
    parts = (request as PartsRequest)
      .parts({ limits: { parts: MAX_PARTS, files: keepFiles ? MAX_FILES : MAX_PARTS, fileSize: maxBytes, fieldSize: maxBytes } })
      [Symbol.asyncIterator]();
  } catch (err) {
    throw clientError(err, maxBytes);
  }

  // Count what arrives on the socket; past the limit, stop feeding the parser and fail the read.
  let seen = 0;
  let refuse: (err: RestError) => void = () => undefined;
  const stop = new Promise<never>((_, reject) => (refuse = reject));
  stop.catch(() => undefined);
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen <= maxBytes) return;
    raw.off('data', onData);
    raw.unpipe();
    raw.resume(); // the rest is discarded; the answer closes the connection
    refuse(CoreErrors.tooLarge(maxBytes));
  };
  raw.on('data', onData);

  const fields: string[] = [];
  const files: Record<string, UploadedFile> = {};
  try {
    for (;;) {
      const step = await Promise.race([parts.next(), stop]);
      if (step.done) break;
      const part = step.value;
      if (part.type === 'file') {
        const data = part.file ? await consume(part.file, keepFiles, stop) : Buffer.alloc(0);
        if (keepFiles) files[part.fieldname] = { filename: part.filename ?? '', mimetype: part.mimetype ?? 'application/octet-stream', data };
      } else {
        fields.push(`${encodeURIComponent(part.fieldname)}=${encodeURIComponent(String(part.value ?? ''))}`);
      }
    }
  } catch (err) {
    throw clientError(err, maxBytes);
  } finally {
    raw.off('data', onData);
  }
  return { body: parsePhpQuery(fields.join('&')), rawBody: undefined, files };
}
