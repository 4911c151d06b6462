/**
 * @module rest/serve
 * Turns a RestResponse into what goes on the wire: `_fields`, link compaction, `_embed`, `_envelope`,
 * `_jsonp`, `_pretty`, the fixed REST headers and HEAD handling. Transport-neutral: the HTTP host only
 * copies status, headers and body.
 */
import { RestError, isRestError, retryAfterHeader } from './errors.js';
import { filterFields, parseFields } from './fields.js';
import { JsonText, RawBody } from './json-text.js';
import { phpTruthy } from './php-builtins.js';
import { compactLinks, embedLinks, embedSelection, type EmbedFetcher } from './links.js';
import type { RestResponse } from './route.js';

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

export interface ServeOptions {
  /** The request's query (where `_fields`, `_envelope`, `_embed`, `_jsonp`, `_pretty` live). */
  query: Record<string, unknown>;
  head: boolean;
  apiRoot: string;
  /** Dispatches an embedded link. */
  embed: EmbedFetcher;
}

const JSON_TYPE = 'application/json; charset=UTF-8';
const JS_TYPE = 'application/javascript; charset=UTF-8';

function has(query: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(query, key);
}

/** The body of a response as a plain value (errors as their wire shape, pre-encoded bodies decoded). */
export function valueOf(data: unknown): unknown {
  if (isRestError(data)) return data.toJSON();
  if (data instanceof JsonText) return data.value();
  return data;
}

/** Shapes one response for the wire. */
export async function serveResponse(res: RestResponse, opts: ServeOptions): Promise<WireResponse> {
  const { query } = opts;
  const headers: Record<string, string> = { ...res.headers };
  let status = res.status;

  if (res.data instanceof RawBody) {
    headers['Content-Type'] = res.data.contentType;
    return { status, headers, body: opts.head ? undefined : res.data.body };
  }

  // `_jsonp` counts only when PHP-truthy (`''` and `'0'` mean no callback); the JavaScript content
  // type is already sent when the callback is refused.
  const jsonp = phpTruthy(query._jsonp) ? query._jsonp : undefined;
  if (jsonp !== undefined && (typeof jsonp !== 'string' || !/^[\w.]+$/.test(jsonp))) {
    return { status: 400, headers: { 'Content-Type': JS_TYPE }, body: JSON.stringify({ code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' }) };
  }

  const fields = status < 400 ? parseFields(query._fields) : undefined;
  const wantsEmbed = has(query, '_embed') && status < 400;
  const envelope = has(query, '_envelope');
  const pretty = has(query, '_pretty');

  let text: string | Buffer | undefined;
  if (res.data instanceof JsonText && !fields && !wantsEmbed && !envelope && !pretty) {
    text = typeof jsonp === 'string' ? res.data.text : res.data.bytes; // hot path: pre-encoded
  } else if (envelope || (res.data !== null && res.data !== undefined && status !== 204)) {
    let data = valueOf(res.data ?? null);
    if (fields) data = filterFields(data, fields);
    data = compactLinks(data);
    if (wantsEmbed) data = await embedLinks(data, embedSelection(query._embed), opts.embed);
    if (envelope) {
      // The envelope always has a body, even for 204 or no data; no headers are a PHP empty array.
      data = { body: data, status, headers: Object.keys(headers).length > 0 ? { ...headers } : [] };
      status = 200;
      for (const k of Object.keys(headers)) delete headers[k];
    }
    text = pretty ? JSON.stringify(data, null, 4) : JSON.stringify(data);
  }

  if (typeof jsonp === 'string') {
    headers['Content-Type'] = JS_TYPE;
    // A 204 or empty answer has no body, callback or not.
    return { status, headers, body: opts.head || text === undefined ? undefined : `/**/${jsonp}(${text})` };
  }
  headers['Content-Type'] = JSON_TYPE;
  return { status, headers, body: opts.head || text === undefined ? undefined : text };
}

/** The error body for an error raised outside dispatch (authentication, body too large). */
export function errorWire(error: RestError): WireResponse {
  return { status: error.status, headers: { 'Content-Type': JSON_TYPE, ...retryAfterHeader(error) }, body: JSON.stringify(error.toJSON()) };
}
