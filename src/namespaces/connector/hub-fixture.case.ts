/**
 * @module namespaces/connector/hub-fixture.case
 * A local connection hub for tests (node:http on 127.0.0.1): registers the site (calling back its
 * `verify_registration`), exchanges authorization codes, answers profile calls,
 * receives disconnects and owner changes, and checks the blog-token signature of every signed call.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { bodyHash, computeSignature, parseAuthorizationHeader, requestNonce, splitToken } from '../../remote/connector-signature.js';
import { freePort } from '../../test-support/net.js';

export const HUB_SITE_ID = 4242;
export const HUB_BLOG_TOKEN = 'blogkey.blogsecret';

export interface HubCall {
  method: string;
  path: string;
  body: any;
  /** True when the Authorization signature verified against the blog (or a user) token. */
  signed: boolean;
}

export interface TestHub {
  url: string;
  calls: HubCall[];
  /** Answer of the next `/register` (default: verify, then the site id and blog token). */
  registerStatus: number;
  /** `alternate_authorization_url` of the next `/register` answers (none when empty). */
  alternateAuthorizeUrl: string;
  /** Authorization codes the hub accepts → user token. */
  codes: Map<string, string>;
  /** User tokens the hub knows (`key.secret`) → profile. */
  profiles: Map<string, Record<string, unknown>>;
  /** `remote_connect` nonces → user token the hub hands out. */
  userTokens: Map<string, string>;
  /** Partner nonces `remote_register` may use. */
  partnerNonces: Set<string>;
  close(): Promise<void>;
}

export interface HubSigning {
  method: string;
  /** The site URL of the route, without a query (`http://site/wp-json/ns/route`). */
  url: string;
  /** `key.secret` (the blog token unless told). */
  token?: string;
  /** The user the token belongs to; 0 (the blog) unless told. */
  userId?: number;
  /** The request's own query parameters, signed with the rest. */
  query?: Record<string, string>;
  /** The body text the request will carry. */
  body?: string;
  at?: Date;
  nonce?: string;
}

/**
 * The query string parameters of a request the hub sends the site, signed as WordPress.com signs
 * them: `_for=jetpack`, `token` (`key:1:<user id>`), `timestamp`, `nonce` and `body-hash` join the
 * request's own parameters, the signature covers the site URL with all of them, then `signature`
 * is added.
 */
export function hubSignedQuery(signing: HubSigning): Record<string, string> {
  const { key, secret } = splitToken(signing.token ?? HUB_BLOG_TOKEN)!;
  const fields: Record<string, string> = {
    ...signing.query,
    _for: 'jetpack',
    token: `${key}:1:${signing.userId ?? 0}`,
    timestamp: String(Math.floor((signing.at ?? new Date()).getTime() / 1000)),
    nonce: signing.nonce ?? requestNonce(),
    'body-hash': bodyHash(signing.body),
  };
  const url = `${signing.url}?${new URLSearchParams(fields).toString()}`;
  const signature = computeSignature(secret, { token: fields.token!, timestamp: fields.timestamp!, nonce: fields.nonce!, bodyHash: fields['body-hash']!, method: signing.method, url });
  return { ...fields, signature };
}

function verifySigned(req: http.IncomingMessage, raw: string, url: string, tokens: string[]): boolean {
  const fields = parseAuthorizationHeader(req.headers.authorization);
  if (!fields) return false;
  return tokens.some((t) => {
    const parts = splitToken(t)!;
    if (!fields.token?.startsWith(`${parts.key}:1:`)) return false;
    const expected = computeSignature(parts.secret, {
      token: fields.token, timestamp: fields.timestamp!, nonce: fields.nonce!, bodyHash: fields['body-hash'] ?? '', method: req.method!, url,
    });
    return expected === fields.signature && (fields['body-hash'] ?? '') === (raw ? crypto.createHash('sha256').update(raw).digest('base64') : '');
  });
}

export async function startHub(): Promise<TestHub> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const hub: TestHub = {
    url, calls: [], registerStatus: 200, alternateAuthorizeUrl: '', codes: new Map(), profiles: new Map(), userTokens: new Map(), partnerNonces: new Set(),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const path = req.url!;
      const body = raw ? JSON.parse(raw) : undefined;
      const signed = verifySigned(req, raw, `${url}${path.split('?')[0]}`, [HUB_BLOG_TOKEN, ...hub.profiles.keys()]);
      hub.calls.push({ method: req.method!, path, body, signed });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      if (path === '/register' && req.method === 'POST') {
        if (hub.registerStatus !== 200) return send(hub.registerStatus, { error: 'down' });
        // The hub proves the site is the one asking: it must answer secret_2 for our secret_1.
        const verify = await fetch(`${body.siteurl}/wp-json/connector/v4/verify_registration`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_1: body.secret_1, state: body.state }),
        });
        const answer = await verify.json();
        if (verify.status !== 200 || answer !== body.secret_2) return send(400, { error: 'verify_failed' });
        return send(200, { jetpack_id: HUB_SITE_ID, jetpack_secret: HUB_BLOG_TOKEN, ...(hub.alternateAuthorizeUrl ? { alternate_authorization_url: hub.alternateAuthorizeUrl } : {}) });
      }
      if (path === '/oauth/token' && req.method === 'POST') {
        const token = hub.codes.get(body.code);
        if (!signed || !token) return send(400, { error: 'invalid_grant' });
        return send(200, { access_token: token, token_type: 'X_CONNECTOR' });
      }
      if (path === '/me') return signed ? send(200, hub.profiles.get([...hub.profiles.keys()].find((k) => req.headers.authorization?.includes(`${k.split('.')[0]}:1:`)) ?? '') ?? {}) : send(403, {});
      if (path === `/sites/${HUB_SITE_ID}/user-token` && req.method === 'POST') {
        const token = hub.userTokens.get(body?.nonce);
        return signed && token ? send(200, { token }) : send(400, { error: 'invalid_nonce' });
      }
      if (path.startsWith('/partner-provision-nonce-check')) {
        const nonce = new URL(path, url).searchParams.get('nonce') ?? '';
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(hub.partnerNonces.has(nonce) ? 'OK' : 'NO');
      }
      if (path.startsWith(`/sites/${HUB_SITE_ID}/`)) return send(signed ? 200 : 403, {});
      return send(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return hub;
}
