/**
 * @module remote/connector-signature
 * The signature both ends of the site connection put on requests: an HMAC-SHA256, keyed with the
 * secret half of a token, over the token id, timestamp, nonce, body hash, method, host, port and
 * path. Hub → site requests carry it as query parameters (`token`, `timestamp`, `nonce`,
 * `body-hash`, `signature`); site → hub requests as an `Authorization: X_CONNECTOR …` header.
 */
import crypto from 'node:crypto';

export interface SignatureInput {
  /** `<token key>:1:<user id>` (user id 0 for the blog token). */
  token: string;
  /** Unix seconds. */
  timestamp: string;
  nonce: string;
  /** Base64 SHA-256 of the request body ('' for none). */
  bodyHash: string;
  method: string;
  /** Absolute URL the request is sent to; only host, port and path are signed. */
  url: string;
}

/** Base64 SHA-256 of a body; '' for an empty body. */
export function bodyHash(body: string | undefined): string {
  return body ? crypto.createHash('sha256').update(body).digest('base64') : '';
}

function defaultPort(u: URL): string {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}

/** The signed text. */
export function signatureBase(input: SignatureInput): string {
  const u = new URL(input.url);
  return [input.token, input.timestamp, input.nonce, input.bodyHash, input.method.toUpperCase(), u.hostname.toLowerCase(), defaultPort(u), u.pathname, ''].join('\n');
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

/** Signs a request: the fields to send, for `token` = `key.secret` acting as `userId` (0 = the blog). */
export function signRequest(token: string, userId: number, method: string, url: string, body: string | undefined, now: Date): Record<string, string> {
  const parts = splitToken(token);
  if (!parts) throw new Error('malformed token');
  const input: SignatureInput = {
    token: `${parts.key}:1:${userId}`,
    timestamp: String(Math.floor(now.getTime() / 1000)),
    nonce: crypto.randomBytes(12).toString('base64url'),
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
