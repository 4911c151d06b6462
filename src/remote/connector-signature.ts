/**
 * @module remote/connector-signature
 * The signature both ends of the site connection put on requests, as the original's
 * `Jetpack_Signature::sign_request`: the base64 HMAC-SHA1, keyed with the secret half of a token,
 * of the normalized request — token (up to a first `.`), timestamp, nonce, body hash, method
 * (upper case), host (lower case), port (the URL's, else 80 / 443 by scheme), path, then every query
 * parameter but `signature` (RFC 3986-encoded `name=value` pairs, sorted) — one per line, each line
 * ended by a newline. The body hash is the base64 SHA-1 of the body (`Manager::sha1_base64`), `''`
 * for none. Hub → site requests carry the fields as query parameters (`_for=jetpack`, `token`,
 * `timestamp`, `nonce`, `body-hash`, `signature`); site → hub requests as an
 * `Authorization: X_CONNECTOR …` header.
 *
 * A multipart body is signed as its fields (`Manager::verify_xml_rpc_signature` with
 * `_jetpack_is_multipart`): each file stands in as its `_jetpack_file_hmac_<field>` value
 * (`<hex HMAC-SHA1 of the file>:<salt>`, keyed with salt + token), fields sorted by name and
 * joined as PHP's `http_build_query` joins them; see {@link multipartSignedBody}.
 */
import crypto from 'node:crypto';
import { parsePhpQuery } from '../rest/php-query.js';

export interface SignatureInput {
  /** `<token key>:1:<user id>` (user id 0 for the blog token). */
  token: string;
  /** Unix seconds (the hub's clock). */
  timestamp: string;
  nonce: string;
  /** {@link bodyHash} of the request body. */
  bodyHash: string;
  method: string;
  /** Absolute URL the request is sent to; host, port, path and query are signed. */
  url: string;
}

/** Base64 SHA-1 (`Manager::sha1_base64`). */
export function sha1Base64(data: string | Buffer): string {
  return crypto.createHash('sha1').update(data).digest('base64');
}

/** The `body-hash` of a body: base64 SHA-1; '' for none (an empty body has none). */
export function bodyHash(body: string | undefined): string {
  return body ? sha1Base64(body) : '';
}

/** The pieces of an absolute URL the signature covers, split as PHP's `parse_url` splits them (no normalization). */
interface SignedUrlParts {
  host: string;
  port: string;
  path: string;
  query: string;
}

const URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?/;

function urlParts(url: string): SignedUrlParts {
  const m = URL_PARTS.exec(url);
  if (!m) throw new Error('The URL to sign is malformed.');
  const scheme = m[1]!.toLowerCase();
  const authority = m[2]!.slice(m[2]!.lastIndexOf('@') + 1);
  const hostEnd = authority.startsWith('[') ? authority.indexOf(']') + 1 : authority.lastIndexOf(':') < 0 ? authority.length : authority.lastIndexOf(':');
  const host = authority.slice(0, hostEnd);
  const explicit = authority.slice(hostEnd + 1);
  if (!host) throw new Error('The URL to sign has no host.');
  let port: string;
  if (/^\d+$/.test(explicit) && Number(explicit) > 0) port = String(Number(explicit));
  else if (scheme === 'http') port = '80';
  else if (scheme === 'https') port = '443';
  else throw new Error("The scheme's port is unknown.");
  return { host, port, path: m[3]!, query: m[4] ?? '' };
}

/** PHP `rawurlencode`: everything but letters, digits and `-_.~` percent-encoded. */
function rawUrlEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** PHP `urlencode`: as {@link rawUrlEncode}, but a space is `+` and `~` is encoded. */
function phpUrlEncode(text: string): string {
  return rawUrlEncode(text).replace(/%20/g, '+').replace(/~/g, '%7E');
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
  const u = urlParts(input.url);
  const token = input.token.split('.')[0]!;
  const pieces = [token, input.timestamp, input.nonce, input.bodyHash, input.method.toUpperCase(), u.host.toLowerCase(), u.port, u.path];
  return `${[...pieces, ...normalizedQuery(u.query)].join('\n')}\n`;
}

/** Base64 HMAC-SHA1 of {@link signatureBase} under `secret` (the part of the token after the dot). */
export function computeSignature(secret: string, input: SignatureInput): string {
  return crypto.createHmac('sha1', secret).update(signatureBase(input)).digest('base64');
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

/**
 * Signs a request (`Client::build_signed_request`): the fields to send, for `token` = `key.secret`
 * acting as `userId` (0 = the blog). The timestamp is on the hub's clock: this site's plus
 * `timeDiff` seconds (the stored `time_diff`).
 */
export function signRequest(
  token: string, userId: number, method: string, url: string, body: string | undefined, now: Date, timeDiff = 0,
): Record<string, string> {
  const parts = splitToken(token);
  if (!parts) throw new Error('malformed token');
  const input: SignatureInput = {
    token: `${parts.key}:1:${userId}`,
    timestamp: String(Math.floor(now.getTime() / 1000) + timeDiff),
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

// ---- what the site reconstructs of a request it receives ----------------------------------------

/** Characters `esc_url_raw` keeps; everything else is dropped (non-ASCII is kept). */
const URL_UNSAFE = /[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi;

/**
 * The request target (path and query) as `sign_current_request` sees it after `esc_url_raw`: spaces
 * as `%20`, characters a URL may not hold dropped, encoded CR / LF removed, `;//` read as `://`, and
 * brackets percent-encoded.
 */
export function escapedRequestTarget(target: string): string {
  let url = target.replace(/ /g, '%20').replace(URL_UNSAFE, '');
  for (let before = ''; before !== url; ) {
    before = url;
    url = url.replace(/%0[da]/gi, '');
  }
  return url.replaceAll(';//', '://').replace(/\[/g, '%5B').replace(/\]/g, '%5D');
}

/** Byte order of PHP's `strcmp`. */
function byteCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

const INT_KEY = /^(?:0|-?[1-9]\d*)$/;

/** PHP 8 `ksort` order of top-level names: two integer names numerically, other pairs byte by byte. */
function compareNames(a: string, b: string): number {
  const ai = INT_KEY.test(a);
  const bi = INT_KEY.test(b);
  if (ai && bi) return Number(a) - Number(b);
  return byteCompare(a, b);
}

/** PHP `http_build_query` of a parsed form (RFC 1738 encoding, nested names as `a%5Bb%5D`). */
function httpBuildQuery(entries: [string, unknown][], prefix?: string): string[] {
  const out: string[] = [];
  for (const [k, v] of entries) {
    if (v === null || v === undefined) continue;
    const name = prefix === undefined ? phpUrlEncode(k) : `${prefix}%5B${phpUrlEncode(k)}%5D`;
    if (typeof v === 'object') out.push(...httpBuildQuery(Object.entries(v as Record<string, unknown>), name));
    else out.push(`${name}=${phpUrlEncode(typeof v === 'boolean' ? (v ? '1' : '0') : String(v))}`);
  }
  return out;
}

/** The multipart marker field: its presence makes the fields the signed body. */
export const MULTIPART_MARKER = '_jetpack_is_multipart';
/** Prefix of the fields carrying a file's `<hex HMAC-SHA1>:<salt>`. */
export const FILE_HMAC_PREFIX = '_jetpack_file_hmac_';

/**
 * The body a multipart request is signed as, from its parsed fields (the original's `$_POST`):
 * `_jetpack_file_hmac_<name>` renamed `<name>` (replacing a field of that name), names sorted, then
 * `http_build_query`.
 */
export function multipartSignedBody(fields: Record<string, unknown>): string {
  const data = new Map<string, unknown>(Object.entries(fields));
  for (const [name, value] of Object.entries(fields)) {
    if (!name.startsWith(FILE_HMAC_PREFIX)) continue;
    data.delete(name);
    data.set(name.slice(FILE_HMAC_PREFIX.length), value);
  }
  return httpBuildQuery([...data].sort(([a], [b]) => compareNames(a, b))).join('&');
}

/** Hex HMAC-SHA1 of a file's bytes keyed with `salt` + the token (`key.secret`), as `upload_handler` checks it. */
export function fileHmac(data: Buffer, salt: string, token: string): string {
  return crypto.createHmac('sha1', salt + token).update(data).digest('hex');
}
