/**
 * @module remote/oembed-client
 * Fetches oEmbed data from remote providers: oEmbed discovery on the page (`<link
 * type="application/json+oembed" href=…>`, or the XML twin), then the provider's answer as JSON or
 * XML. The role of WordPress's `WP_oEmbed::discover` / `fetch` over `wp_safe_remote_get`.
 *
 * SSRF safety: the URLs come from users, so every request goes through {@link safeHttpGet}: http and
 * https only, no credentials in the URL, ports 80/443/8080, a bounded time, body size and number of
 * redirects, and every host (the first and each redirect's) must resolve only to public addresses.
 * The check runs inside the socket's own DNS lookup, so the address checked is the address connected
 * to (no window for DNS rebinding). With `allowPrivateNetwork` (config `environment: local`, for
 * development and tests) private addresses and any port are allowed.
 *
 * @example
 * const data = await fetchOembedData(
 *   { url: 'https://video.example/watch/1', maxwidth: 600, maxheight: 750, format: 'json', discover: true },
 *   { allowPrivateNetwork: false },
 * ); // the provider's object, or undefined when the page names no provider
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
}

export interface SafeGetResponse {
  status: number;
  /** The final URL, after redirects. */
  url: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: string;
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
  body: string;
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
    const req = client.get(
      url,
      {
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
          resolve({ status, headers, location: headers.location, body: '', truncated: false });
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
        const stream = decoded(res);
        const finish = (truncated: boolean) => {
          if (done) return;
          done = true;
          resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8'), truncated });
        };
        stream.on('data', (chunk: Buffer) => {
          if (done) return;
          size += chunk.length;
          if (size > maxBytes) {
            done = true;
            if (opts.truncate) {
              chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
              resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8'), truncated: true });
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
      if (hop.location === undefined) return { status: hop.status, url: url.href, headers: hop.headers, body: hop.body, truncated: hop.truncated };
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

// ---- oEmbed

/** Provider endpoints a page advertises, by format. */
export interface OembedEndpoints {
  json?: string;
  xml?: string;
}

const LINK_TYPES: Readonly<Record<string, 'json' | 'xml'>> = Object.freeze({
  'application/json+oembed': 'json',
  'text/xml+oembed': 'xml',
  'application/xml+oembed': 'xml',
});

/** Discovery reads the page head only; 150 KB as in the original. */
const DISCOVERY_MAX_BYTES = 150 * 1024;
/** Largest provider answer accepted. */
const OEMBED_MAX_BYTES = 512 * 1024;

function parseAttributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([^\s=/>"']+)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    const name = m[1]!.toLowerCase();
    if (!(name in out) && name !== '__proto__') out[name] = m[2] ?? m[3] ?? m[4] ?? '';
  }
  return out;
}

function decodeHref(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#0*39|#x0*27|apos);/gi, (_m, e: string) => {
    const k = e.toLowerCase();
    return k === 'amp' ? '&' : k === 'lt' ? '<' : k === 'gt' ? '>' : k === 'quot' ? '"' : "'";
  });
}

/**
 * The oEmbed endpoints a page's `<head>` advertises (`<link type="application/json+oembed" href>`
 * and the XML types). Relative hrefs resolve against `pageUrl`; only http(s) endpoints count.
 */
export function findOembedLinks(html: string, pageUrl: string): OembedEndpoints {
  const headEnd = html.search(/<\/head\s*>/i);
  const head = headEnd >= 0 ? html.slice(0, headEnd) : html;
  const found: OembedEndpoints = {};
  for (const m of head.matchAll(/<link\b([^<>]*)>/gi)) {
    const attrs = parseAttributes(m[1]!);
    const format = LINK_TYPES[(attrs.type ?? '').trim().toLowerCase()];
    if (!format || !attrs.href) continue;
    let href: URL;
    try {
      href = new URL(decodeHref(attrs.href.trim()), pageUrl);
    } catch {
      continue;
    }
    if (href.protocol !== 'http:' && href.protocol !== 'https:') continue;
    found[format] ??= href.href;
    if (format === 'json') break; // JSON is all we need
  }
  return found;
}

export interface OembedClientOptions {
  /** See {@link SafeGetOptions.allowPrivateNetwork}. */
  allowPrivateNetwork: boolean;
  timeoutMs?: number;
}

/** What to ask a provider for. */
export interface OembedLookup {
  url: string;
  maxwidth: number;
  maxheight: number;
  format: 'json' | 'xml';
  /** Look for a provider on the page itself (no provider is registered otherwise). */
  discover: boolean;
}

/** The endpoints advertised by the page at `pageUrl` (empty when it names none). */
export async function discoverOembedEndpoints(pageUrl: string, options: OembedClientOptions): Promise<OembedEndpoints> {
  const page = await safeHttpGet(pageUrl, {
    allowPrivateNetwork: options.allowPrivateNetwork,
    timeoutMs: options.timeoutMs,
    maxBytes: DISCOVERY_MAX_BYTES,
    truncate: true,
    headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
  });
  return findOembedLinks(page.body, page.url);
}

// ---- Provider XML (`WP_oEmbed::_parse_xml`)

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (m, ent: string) => {
    if (ent.startsWith('#')) {
      const code = ent[1] === 'x' || ent[1] === 'X' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return XML_ENTITIES[ent] ?? m;
  });
}

/** Element content as text: CDATA verbatim, character data decoded, nested markup dropped. */
function elementText(content: string): string {
  let out = '';
  for (const m of content.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>|(<[^>]*>)|([^<]+|<)/g)) {
    if (m[1] !== undefined) out += m[1];
    else if (m[3] !== undefined) out += decodeEntities(m[3]);
  }
  return out;
}

/** A linear scan over markup: the end of the construct starting at `pos` (a `<`). */
function skipMarkup(text: string, pos: number): number {
  const close = (token: string, from: number) => {
    const at = text.indexOf(token, from);
    return at < 0 ? text.length : at + token.length;
  };
  if (text.startsWith('<![CDATA[', pos)) return close(']]>', pos + 9);
  if (text.startsWith('<!--', pos)) return close('-->', pos + 4);
  if (text.startsWith('<?', pos)) return close('?>', pos + 2);
  return close('>', pos + 1);
}

/**
 * The children of a provider's XML root as strings, or undefined when the text is no such document.
 * Documents with a DOCTYPE are refused (no entity expansion of any kind).
 */
export function parseOembedXml(text: string): Record<string, string> | undefined {
  if (/<!DOCTYPE/i.test(text)) return undefined;
  // Find the root element.
  let pos = 0;
  for (;;) {
    pos = text.indexOf('<', pos);
    if (pos < 0) return undefined;
    if (text.startsWith('<?', pos) || text.startsWith('<!--', pos)) pos = skipMarkup(text, pos);
    else break;
  }
  if (!/^<[A-Za-z_]/.test(text.slice(pos, pos + 2))) return undefined;
  pos = skipMarkup(text, pos);
  if (text[pos - 2] === '/') return {};

  const out: Record<string, string> = {};
  let closed = false;
  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    if (lt < 0) break;
    if (text.startsWith('</', lt)) {
      closed = true;
      break;
    }
    const tagEnd = skipMarkup(text, lt);
    const name = /^<([A-Za-z_][\w.-]*)/.exec(text.slice(lt, Math.min(tagEnd, lt + 200)))?.[1];
    if (name === undefined) {
      pos = tagEnd;
      continue;
    }
    if (text[tagEnd - 2] === '/') {
      if (name !== '__proto__') out[name] = '';
      pos = tagEnd;
      continue;
    }
    // Content up to this element's own end tag, stepping over nested markup.
    let depth = 0;
    let p = tagEnd;
    let contentEnd = -1;
    while (p < text.length) {
      const next = text.indexOf('<', p);
      if (next < 0) break;
      const end = skipMarkup(text, next);
      if (text.startsWith('</', next)) {
        if (depth === 0) {
          contentEnd = next;
          p = end;
          break;
        }
        depth--;
      } else if (/^<[A-Za-z_]/.test(text.slice(next, next + 2)) && text[end - 2] !== '/') {
        depth++;
      }
      p = end;
    }
    if (contentEnd < 0) return undefined;
    if (name !== '__proto__') out[name] = elementText(text.slice(tagEnd, contentEnd));
    pos = p;
  }
  return closed ? out : undefined;
}

function parseAnswer(body: string, format: 'json' | 'xml'): Record<string, unknown> | undefined {
  if (format === 'xml') return parseOembedXml(body);
  try {
    const value: unknown = JSON.parse(body.replace(/^\uFEFF/, ''));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The provider's oEmbed object for `lookup.url`, or undefined when no provider answers with one.
 * The preferred format is asked first; a provider answering 501 (it does not offer that format) is asked
 * for the other. Throws {@link RemoteRequestError} when a request is refused or fails.
 */
export async function fetchOembedData(lookup: OembedLookup, options: OembedClientOptions): Promise<Record<string, unknown> | undefined> {
  if (!lookup.discover) return undefined;
  const endpoints = await discoverOembedEndpoints(lookup.url, options);
  const formats = lookup.format === 'xml' ? (['xml', 'json'] as const) : (['json', 'xml'] as const);
  const endpoint = endpoints[formats[0]] ?? endpoints[formats[1]];
  if (endpoint === undefined) return undefined;
  for (const format of formats) {
    const request = new URL(endpoint);
    request.searchParams.set('maxwidth', String(lookup.maxwidth));
    request.searchParams.set('maxheight', String(lookup.maxheight));
    request.searchParams.set('url', lookup.url);
    request.searchParams.set('dnt', '1');
    request.searchParams.set('format', format);
    const res = await safeHttpGet(request.href, {
      allowPrivateNetwork: options.allowPrivateNetwork,
      timeoutMs: options.timeoutMs,
      maxBytes: OEMBED_MAX_BYTES,
      headers: { accept: format === 'json' ? 'application/json' : 'text/xml, application/xml' },
    });
    if (res.status === 501) continue;
    if (res.status < 200 || res.status >= 300) return undefined;
    return parseAnswer(res.body, format);
  }
  return undefined;
}
