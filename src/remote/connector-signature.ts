/**
 * @module remote/connector-signature
 * The signature both ends of the site connection put on requests: an HMAC-SHA256, keyed with the
 * secret half of a token, over the normalized request as the original's `Jetpack_Signature::sign_request`
 * builds it — token id, timestamp, nonce, body hash, method, host, port, path, then every query
 * parameter but `signature` (RFC 3986-encoded `name=value` pairs, sorted), one per line. Hub → site
 * requests carry it as query parameters (`_for=jetpack`, `token`, `timestamp`, `nonce`, `body-hash`,
 * `signature`); site → hub requests as an `Authorization: X_CONNECTOR …` header.
 */
import crypto from 'node:crypto';
import { parsePhpQuery } from '../rest/php-query.js';

export interface SignatureInput {
  /** `<token key>:1:<user id>` (user id 0 for the blog token). */
  token: string;
  /** Unix seconds. */
  timestamp: string;
  nonce: string;
  /** Base64 SHA-256 of the request body ('' for none). */
  bodyHash: string;
  method: string;
  /** Absolute URL the request is sent to; host, port, path and query are signed. */
  url: string;
}

/** Base64 SHA-256 of a body; '' for an empty body. */
export function bodyHash(body: string | undefined): string {
  return body ? crypto.createHash('sha256').update(body).digest('base64') : '';
}

function defaultPort(u: URL): string {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}

/** PHP `rawurlencode`: everything but letters, digits and `-_.~` percent-encoded. */
function rawUrlEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `name[key]…=value` lines of an array parameter (keys as they are, leaf values encoded), sorted. */
function arrayPairs(name: string, value: Record<string, unknown> | unknown[]): string[] {
  const out: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const inner = `${name}[${key}]`;
    if (v !== null && typeof v === 'object') out.push(...arrayPairs(inner, v as Record<string, unknown>));
    else out.push(`${inner}=${rawUrlEncode(String(v))}`);
  }
  return out.sort(compareStrings);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** PHP's order of arrays: the shorter first, then member by member. */
function compareGroups(a: string[], b: string[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) {
    const c = compareStrings(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * The query parameters of a signed request as the signature sees them (`normalized_query_parameters`):
 * parsed as PHP parses a query string, `signature` left out, each `name=value` RFC 3986-encoded and
 * the list sorted — plain parameters first, then each array parameter's own sorted lines.
 */
export function normalizedQuery(queryString: string): string[] {
  const { signature: _signature, ...params } = parsePhpQuery(queryString);
  const plain: string[] = [];
  const groups: string[][] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value !== null && typeof value === 'object') groups.push(arrayPairs(rawUrlEncode(name), value as Record<string, unknown>));
    else plain.push(`${rawUrlEncode(name)}=${rawUrlEncode(String(value))}`);
  }
  return [...plain.sort(compareStrings), ...groups.sort(compareGroups).flat()];
}

/** The signed text: one line per piece, each ended by a newline. */
export function signatureBase(input: SignatureInput): string {
  const u = new URL(input.url);
  const pieces = [input.token, input.timestamp, input.nonce, input.bodyHash, input.method.toUpperCase(), u.hostname.toLowerCase(), defaultPort(u), u.pathname];
  return `${[...pieces, ...normalizedQuery(u.search.slice(1))].join('\n')}\n`;
}

export function computeSignature(secret: string, input: SignatureInput): string {
  return crypto.createHmac('sha256', secret).update(signatureBase(input)).digest('base64');
}

/** Constant-time comparison of two signatures. */
export function signaturesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** A token `key.secret` split; undefined when malformed. */
export function splitToken(token: string): { key: string; secret: string } | undefined {
  const parts = token.split('.');
  if (parts.length < 2 || !parts[0] || !parts[1]) return undefined;
  return { key: parts[0], secret: parts[1] };
}

const NONCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh request nonce: 10 letters and digits, as the original makes them (at most 12 are accepted). */
export function requestNonce(): string {
  return Array.from(crypto.randomBytes(10), (b) => NONCE_ALPHABET[b % NONCE_ALPHABET.length]).join('');
}

/** Signs a request: the fields to send, for `token` = `key.secret` acting as `userId` (0 = the blog). */
export function signRequest(token: string, userId: number, method: string, url: string, body: string | undefined, now: Date): Record<string, string> {
  const parts = splitToken(token);
  if (!parts) throw new Error('malformed token');
  const input: SignatureInput = {
    token: `${parts.key}:1:${userId}`,
    timestamp: String(Math.floor(now.getTime() / 1000)),
    nonce: requestNonce(),
    bodyHash: bodyHash(body),
    method,
    url,
  };
  return { token: input.token, timestamp: input.timestamp, nonce: input.nonce, 'body-hash': input.bodyHash, signature: computeSignature(parts.secret, input) };
}

/** The `Authorization` header value of a signed site → hub request. */
export function authorizationHeader(fields: Record<string, string>): string {
  return `X_CONNECTOR ${Object.entries(fields).map(([k, v]) => `${k}="${v}"`).join(' ')}`;
}

/** Parses an `X_CONNECTOR` Authorization header back into its fields. */
export function parseAuthorizationHeader(header: string | undefined): Record<string, string> | undefined {
  if (!header?.startsWith('X_CONNECTOR ')) return undefined;
  const out: Record<string, string> = {};
  for (const m of header.slice(12).matchAll(/([a-z-]+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}
