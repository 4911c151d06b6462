/**
 * @module http/headers
 * The headers WordPress sends on every REST response (CORS, robots, the API-root Link, no-cache for
 * signed-in users).
 */

export const EXPOSE_HEADERS = 'X-WP-Total, X-WP-TotalPages, Link';
export const ALLOW_HEADERS = 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type';
export const NO_CACHE: Readonly<Record<string, string>> = Object.freeze({
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
});

/** Fixed headers, before the response's own (which replace them, as the original's `Link` quirk). */
export function restHeaders(apiRoot: string, origin: string | undefined, noCache: boolean): Readonly<Record<string, string>> {
  if (origin !== undefined) return build(apiRoot, origin, noCache);
  // Without an Origin (most requests) the set depends on the API root and no-cache only: made once.
  const key = `${noCache ? 1 : 0}${apiRoot}`;
  let h = withoutOrigin.get(key);
  if (!h) withoutOrigin.set(key, (h = Object.freeze(build(apiRoot, undefined, noCache))));
  return h;
}

const withoutOrigin = new Map<string, Readonly<Record<string, string>>>();

function build(apiRoot: string, origin: string | undefined, noCache: boolean): Record<string, string> {
  const h: Record<string, string> = {
    'X-Robots-Tag': 'noindex',
    'X-Content-Type-Options': 'nosniff',
    Link: `<${apiRoot}>; rel="https://api.w.org/"`,
    'Access-Control-Expose-Headers': EXPOSE_HEADERS,
    'Access-Control-Allow-Headers': ALLOW_HEADERS,
    Vary: 'Origin',
  };
  if (origin !== undefined) {
    h['Access-Control-Allow-Origin'] = origin;
    h['Access-Control-Allow-Methods'] = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
    h['Access-Control-Allow-Credentials'] = 'true';
  }
  if (noCache) Object.assign(h, NO_CACHE);
  return h;
}
