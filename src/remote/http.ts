/**
 * @module remote/http
 * The safe HTTP GET of every remote client whose URLs come from users (oEmbed discovery and
 * providers, iCalendar imports): http and https only, no credentials in the URL, ports 80/443/8080,
 * a bounded time, body size and number of redirects, and every host (the first and each redirect's)
 * must resolve only to public addresses. The check runs inside the socket's own DNS lookup, so the
 * address checked is the address connected to (no window for DNS rebinding). With
 * `allowPrivateNetwork` (config `environment: local`, for development and tests) private addresses
 * and any port are allowed.
 *
 * @example
 * const res = await safeHttpGet('https://cal.example/feed.ics', { allowPrivateNetwork: false, maxBytes: 5_000_000 });
 * // { status: 200, url, headers, body } — or a RemoteRequestError ('blocked_address', 'timeout', ...)
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';

/** Why a remote request was refused or failed. */
export type RemoteFailure = 'invalid_url' | 'blocked_address' | 'blocked_port' | 'timeout' | 'too_large' | 'too_many_redirects' | 'network';

/** A remote request that was refused before sending, or failed. */
export class RemoteRequestError extends Error {
  constructor(
    readonly reason: RemoteFailure,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteRequestError';
  }
}

export interface SafeGetOptions {
  /** Allow loopback, private and link-local addresses and any port (config `environment: local` only). */
  allowPrivateNetwork: boolean;
  /** Time for the whole exchange, redirects included (default 5 s, like `wp_safe_remote_get`). */
  timeoutMs?: number;
  /** Largest body accepted, after decompression (default 1 MiB). */
  maxBytes?: number;
  /** Cut the body at `maxBytes` instead of failing (discovery reads only the page head). */
  truncate?: boolean;
  /** Redirects followed (default 5). */
  maxRedirects?: number;
  headers?: Record<string, string>;
  /** `HEAD` asks for the headers only (default `GET`). */
  method?: 'GET' | 'HEAD';
}

export interface SafeGetResponse {
  status: number;
  /** The final URL, after redirects. */
  url: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: string;
  /** The body as received (after decompression), for binary content. */
  bytes: Buffer;
  truncated: boolean;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;
/** `wp_http_validate_url`'s ports. */
const PUBLIC_PORTS = new Set([80, 443, 8080]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'eventsuite-oembed/1.0';

// ---- Address policy

const NON_PUBLIC = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv4');
}
// IPv6 outside 2000::/3 is never public; inside it, these ranges are special or embed IPv4 addresses.
const GLOBAL_V6 = new net.BlockList();
GLOBAL_V6.addSubnet('2000::', 3, 'ipv6');
for (const [prefix, bits] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
] as const) {
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv6');
}

/** True for an IP address on the public internet (not loopback, private, link-local, reserved, documentation…). */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  if (family === 6) return GLOBAL_V6.check(address, 'ipv6') && !NON_PUBLIC.check(address, 'ipv6');
  return false;
}

/** A DNS lookup for sockets that refuses hosts resolving to any non-public address. */
function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints ?? 0 }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const usable = allowPrivate || addresses.every((a) => isPublicAddress(a.address));
      if (!usable || addresses.length === 0) {
        const blocked = Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: 'EBLOCKEDADDRESS' });
        return callback(blocked, '', 0);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** The URL if it may be requested at all; throws otherwise. */
function checkUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RemoteRequestError('invalid_url', 'Not a URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RemoteRequestError('invalid_url', 'Only http and https URLs are fetched.');
  if (url.username !== '' || url.password !== '') throw new RemoteRequestError('invalid_url', 'URLs with credentials are not fetched.');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (!allowPrivate && !PUBLIC_PORTS.has(port)) throw new RemoteRequestError('blocked_port', `Port ${port} is not allowed.`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // IP literals skip the DNS lookup, so they are checked here.
  if (net.isIP(host) !== 0 && !allowPrivate && !isPublicAddress(host)) throw new RemoteRequestError('blocked_address', `${host} is not a public address.`);
  return url;
}

// ---- Transport

interface Hop {
  status: number;
  headers: Record<string, string>;
  location?: string;
  bytes: Buffer;
  truncated: boolean;
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function decoded(res: http.IncomingMessage): Readable {
  switch ((res.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return res.pipe(zlib.createGunzip());
    case 'deflate':
      return res.pipe(zlib.createInflate());
    case 'br':
      return res.pipe(zlib.createBrotliDecompress());
    default:
      return res;
  }
}

function requestOnce(url: URL, opts: SafeGetOptions, signal: AbortSignal): Promise<Hop> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: opts.method ?? 'GET',
        agent: false,
        lookup: guardedLookup(opts.allowPrivateNetwork),
        signal,
        headers: { 'user-agent': USER_AGENT, 'accept-encoding': 'gzip, deflate, br', ...opts.headers },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const headers = flatHeaders(res.headers);
        if (REDIRECT_STATUSES.has(status) && headers.location) {
          res.resume();
          resolve({ status, headers, location: headers.location, bytes: Buffer.alloc(0), truncated: false });
          return;
        }
        const declared = Number(headers['content-length']);
        if (!opts.truncate && Number.isFinite(declared) && declared > maxBytes) {
          res.destroy();
          reject(new RemoteRequestError('too_large', 'The response is too large.'));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let done = false;
        // A HEAD answer has no body, whatever encoding its headers announce (zlib would fail on nothing).
        const stream = opts.method === 'HEAD' ? res : decoded(res);
        const finish = (truncated: boolean) => {
          if (done) return;
          done = true;
          resolve({ status, headers, bytes: Buffer.concat(chunks), truncated });
        };
        stream.on('data', (chunk: Buffer) => {
          if (done) return;
          size += chunk.length;
          if (size > maxBytes) {
            done = true;
            if (opts.truncate) {
              chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
              resolve({ status, headers, bytes: Buffer.concat(chunks), truncated: true });
            } else {
              reject(new RemoteRequestError('too_large', 'The response is too large.'));
            }
            res.destroy();
            return;
          }
          chunks.push(chunk);
        });
        stream.on('end', () => finish(false));
        stream.on('error', (err) => {
          if (!done) {
            done = true;
            reject(err);
          }
        });
        const closedEarly = () => {
          if (!done) {
            done = true;
            reject(new RemoteRequestError('network', 'The connection was closed early.'));
          }
        };
        res.on('error', closedEarly);
        res.on('close', () => {
          if (!res.complete) closedEarly();
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function toRemoteError(err: unknown, signal: AbortSignal): RemoteRequestError {
  if (err instanceof RemoteRequestError) return err;
  if (signal.aborted) return new RemoteRequestError('timeout', 'The remote server did not answer in time.');
  if ((err as { code?: string }).code === 'EBLOCKEDADDRESS') return new RemoteRequestError('blocked_address', (err as Error).message);
  return new RemoteRequestError('network', err instanceof Error ? err.message : 'Request failed.');
}

/**
 * GET a URL under the SSRF policy of this module, following redirects (each hop checked again).
 * Throws {@link RemoteRequestError}; any HTTP status is a response, not an error.
 */
export async function safeHttpGet(rawUrl: string, opts: SafeGetOptions): Promise<SafeGetResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    let url = checkUrl(rawUrl, opts.allowPrivateNetwork);
    for (let redirects = 0; ; redirects++) {
      let hop: Hop;
      try {
        hop = await requestOnce(url, opts, controller.signal);
      } catch (err) {
        throw toRemoteError(err, controller.signal);
      }
      if (hop.location === undefined) return { status: hop.status, url: url.href, headers: hop.headers, body: hop.bytes.toString('utf8'), bytes: hop.bytes, truncated: hop.truncated };
      if (redirects >= (opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS)) throw new RemoteRequestError('too_many_redirects', 'Too many redirects.');
      let next: string;
      try {
        next = new URL(hop.location, url).href;
      } catch {
        throw new RemoteRequestError('invalid_url', 'The redirect target is not a URL.');
      }
      url = checkUrl(next, opts.allowPrivateNetwork);
    }
  } finally {
    clearTimeout(timer);
  }
}
