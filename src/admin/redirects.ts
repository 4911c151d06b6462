/**
 * @module admin/redirects
 * Redirect targets of the admin pages: the authorize-application callback rules
 * (`wp_is_authorize_application_redirect_url_valid`), same-site sign-in redirects
 * (`wp_validate_redirect`) and `add_query_arg`.
 */
import type { Config } from '../config.js';

/** A refused redirect URL: the original's code and message. */
export interface RedirectUrlError {
  code: 'invalid_redirect_url_format' | 'invalid_redirect_scheme';
  message: string;
}

export const REDIRECT_URL_MESSAGES = {
  format: 'Invalid URL format.',
  credentials: 'Credentials are not allowed in the URL.',
  insecure: 'The URL must be served over a secure connection.',
} as const;

const BAD_PROTOCOLS = new Set(['javascript', 'data']);
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
/** scheme, userinfo (when an `@` ends it), host. */
const AUTHORITY = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(?:([^@/?#]*)@)?(\[[^\]/?#]*\]|[^:/?#]*)/;
// Whitespace and control characters have no place in a URL and could split the Location header.
const UNSAFE = /[\u0000-\u0020\u007f]/;

/**
 * Whether an application may be sent to `url`: empty is fine (no redirect); otherwise it needs a
 * scheme and a host, `javascript:` and `data:` are refused, so is a user name or password before the
 * host (`https://google.com@evil.example` goes to evil.example), and plain `http:` is accepted only on
 * a `local` environment. App schemes (`myapp://cb`) pass.
 */
export function validateRedirectUrl(url: string, environment: Config['environment']): RedirectUrlError | undefined {
  if (url === '') return undefined;
  const format: RedirectUrlError = { code: 'invalid_redirect_url_format', message: REDIRECT_URL_MESSAGES.format };
  if (!SCHEME.test(url) || UNSAFE.test(url)) return format;
  const m = AUTHORITY.exec(url);
  if (!m || m[3] === '' || m[3] === '[]') return format;
  const scheme = m[1]!.toLowerCase();
  if (BAD_PROTOCOLS.has(scheme)) return format;
  if (m[2] !== undefined) return { code: 'invalid_redirect_url_format', message: REDIRECT_URL_MESSAGES.credentials };
  // CASE: the original compares the scheme case-sensitively, so `HTTP://` slips through; we refuse it.
  if (scheme === 'http' && environment !== 'local') {
    return { code: 'invalid_redirect_scheme', message: REDIRECT_URL_MESSAGES.insecure };
  }
  return undefined;
}

function decodeKey(pair: string): string {
  const key = pair.split('=', 1)[0]!;
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

/** `add_query_arg`: sets `args` (URL-encoded) on `url`, replacing same-named ones, keeping the fragment. */
export function addQueryArgs(url: string, args: Record<string, string>): string {
  const hashAt = url.indexOf('#');
  const fragment = hashAt >= 0 ? url.slice(hashAt) : '';
  const base = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const q = base.indexOf('?');
  const path = q >= 0 ? base.slice(0, q) : base;
  const pairs = (q >= 0 ? base.slice(q + 1) : '').split('&').filter((p) => p !== '' && !Object.hasOwn(args, decodeKey(p)));
  for (const [k, v] of Object.entries(args)) pairs.push(`${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return `${path}?${pairs.join('&')}${fragment}`;
}

/** `url` with every non-ASCII character percent-encoded, so it is a valid `Location` header value. */
export function headerSafeUrl(url: string): string {
  return url.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
}

/** `target` when it stays on this site (relative or same origin), else `fallback`. */
export function sameSiteRedirect(baseUrl: string, target: string | undefined, fallback: string): string {
  if (!target || UNSAFE.test(target) || target.includes('\\')) return fallback;
  try {
    const site = new URL(baseUrl);
    const resolved = new URL(target, `${site.origin}/`);
    return resolved.origin === site.origin ? resolved.href : fallback;
  } catch {
    return fallback;
  }
}
