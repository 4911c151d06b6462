/**
 * @module http/log-redact
 * Request URLs as the request log keeps them: the values of secret query parameters (check-in keys,
 * security codes, passwords, nonces, tokens, keys) are replaced, so logs never hold credentials.
 */

/** Parameter names whose values are secrets (`a[b]` forms match on the outer name). */
const SECRET_NAME = /^(?:api_?key|apikey|product_key|security_code|pwd|pass(?:word)?|_?wpnonce|nonce|.*_nonce|(?:access_|refresh_|id_)?token|.*_token|secret|.*_secret|key|code|signature|sig|auth|authorization|app_password)$/i;

/** `url` with the value of every secret query parameter replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const parts = url.slice(q + 1).split('&').map((part) => {
    const eq = part.indexOf('=');
    if (eq === -1) return part;
    let name = part.slice(0, eq);
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // a malformed name is judged as written
    }
    const outer = name.replace(/\[.*$/, '');
    return SECRET_NAME.test(outer) ? `${part.slice(0, eq)}=[redacted]` : part;
  });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}
