/**
 * @module http/log-url
 * Request URLs as the request log writes them: the values of query parameters that carry
 * credentials or proofs (`key`, `api_key`, `security_code`, nonces, signatures, tokens, passwords)
 * are replaced by `[redacted]`, so logs never hold secrets.
 */

const SECRET_PARAM = /^(?:key|api_key|apikey|security_code|_?wpnonce|nonce|\w+_nonce|sig|signature|token|\w+_token|password|pass|pwd|code|product_key)$/i;

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        /* keep the raw name */
      }
      return SECRET_PARAM.test(name.replace(/\[.*$/, '')) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}
