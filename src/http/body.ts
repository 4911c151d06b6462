/**
 * @module http/body
 * Request bodies as WordPress reads them: JSON only with a JSON media type (parsed lazily by the
 * dispatcher), form bodies PHP-style for every verb. Multipart bodies are read later, on demand
 * (`http/multipart.ts`).
 */
import { parsePhpQuery } from '../rest/php-query.js';
import { isJsonMediaType } from '../rest/request.js';
import type { HttpMethod, UploadedFile } from '../rest/route.js';

export interface ParsedBody {
  body: Record<string, unknown>;
  rawBody: string | undefined;
  files: Record<string, UploadedFile>;
}

/** Reads what Fastify's parsers left in `request.body` (multipart bodies: `http/multipart.ts`). */
export function readBody(method: HttpMethod, contentType: string | undefined, payload: unknown): ParsedBody {
  const raw = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  if (raw === undefined || raw === '') return { body: {}, rawBody: raw, files: {} };
  if (isJsonMediaType(contentType)) return { body: {}, rawBody: raw, files: {} };
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  // Forms: always for form-urlencoded; for non-POST verbs also without a content type (WordPress).
  if (type === 'application/x-www-form-urlencoded' || (type === '' && method !== 'POST')) {
    return { body: parsePhpQuery(raw), rawBody: raw, files: {} };
  }
  return { body: {}, rawBody: raw, files: {} };
}
