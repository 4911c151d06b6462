/**
 * @module remote/oembed-client
 * Fetches oEmbed data from remote providers: oEmbed discovery on the page (`<link
 * type="application/json+oembed" href=…>`, or the XML twin), then the provider's answer as JSON or
 * XML. The role of WordPress's `WP_oEmbed::discover` / `fetch` over `wp_safe_remote_get`. Every
 * request goes through the SSRF-safe {@link safeHttpGet} of `remote/http.ts`.
 *
 * @example
 * const data = await fetchOembedData(
 *   { url: 'https://video.example/watch/1', maxwidth: 600, maxheight: 750, format: 'json', discover: true },
 *   { allowPrivateNetwork: false },
 * ); // the provider's object, or undefined when the page names no provider
 */
import { safeHttpGet } from './http.js';

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
