/**
 * @module http/body
 * Request bodies as WordPress reads them: JSON only with a JSON media type (parsed lazily by the
 * dispatcher), form bodies PHP-style for every verb, multipart fields and files.
 */
import { parsePhpQuery } from '../rest/php-query.js';
import { isJsonMediaType } from '../rest/request.js';
import type { HttpMethod, UploadedFile } from '../rest/route.js';

export interface ParsedBody {
  body: Record<string, unknown>;
  rawBody: string | undefined;
  files: Record<string, UploadedFile>;
}

interface MultipartPart {
  type: 'file' | 'field';
  fieldname: string;
  value?: unknown;
  filename?: string;
  mimetype?: string;
  _buf?: Buffer;
  toBuffer?: () => Promise<Buffer>;
}

/** Reads what Fastify's parsers left in `request.body`. */
export async function readBody(method: HttpMethod, contentType: string | undefined, payload: unknown): Promise<ParsedBody> {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (payload && typeof payload === 'object' && type === 'multipart/form-data') {
    const fields: string[] = [];
    const files: Record<string, UploadedFile> = {};
    for (const entry of Object.values(payload as Record<string, MultipartPart | MultipartPart[]>)) {
      for (const part of Array.isArray(entry) ? entry : [entry]) {
        if (part.type === 'file') {
          const data = part._buf ?? (part.toBuffer ? await part.toBuffer() : Buffer.alloc(0));
          files[part.fieldname] = { filename: part.filename ?? '', mimetype: part.mimetype ?? 'application/octet-stream', data };
        } else {
          fields.push(`${encodeURIComponent(part.fieldname)}=${encodeURIComponent(String(part.value ?? ''))}`);
        }
      }
    }
    return { body: parsePhpQuery(fields.join('&')), rawBody: undefined, files };
  }
  const raw = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  if (raw === undefined || raw === '') return { body: {}, rawBody: raw, files: {} };
  if (isJsonMediaType(contentType)) return { body: {}, rawBody: raw, files: {} };
  // Forms: always for form-urlencoded; for non-POST verbs also without a content type (WordPress).
  if (type === 'application/x-www-form-urlencoded' || (type === '' && method !== 'POST')) {
    return { body: parsePhpQuery(raw), rawBody: raw, files: {} };
  }
  return { body: {}, rawBody: raw, files: {} };
}
