/**
 * @module namespaces/connector/hub-fixture.case
 * A local connection hub for tests (node:http on 127.0.0.1): registers the site (calling back its
 * `verify_registration`), exchanges authorization codes, answers profile calls,
 * receives disconnects and owner changes, and checks the signature of every signed call.
 *
 * It signs and verifies as WordPress.com does (`Jetpack_Signature`), on its own: nothing here comes
 * from the site's `remote/connector-signature.ts`, so a site that signs any other way fails these
 * tests. Its clock may run ahead of or behind the site's (`clockOffsetS`): every answer's `Date`
 * tells its time, and signed calls must carry a timestamp within -600 / +300 s of it.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { freePort } from '../../test-support/net.js';

export const HUB_SITE_ID = 4242;
export const HUB_BLOG_TOKEN = 'blogkey.blogsecret';

export interface HubCall {
  method: string;
  path: string;
  body: any;
  /** True when the Authorization signature verified against the blog (or a user) token. */
  signed: boolean;
  /** The timestamp the call was signed with (the hub's clock as the site believes it), when signed. */
  timestamp?: number;
}

export interface TestHub {
  url: string;
  calls: HubCall[];
  /** Seconds the hub's clock is ahead of the real one (negative: behind). */
  clockOffsetS: number;
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

// ---- WordPress.com's side of Jetpack_Signature -------------------------------------------------

/** PHP `rawurlencode`. */
const rawurlencode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
/** PHP `urlencode`. */
const urlencode = (s: string) => rawurlencode(s).replace(/%20/g, '+').replace(/~/g, '%7E');
/** Base64 SHA-1 (`sha1_base64`). */
const sha1Base64 = (s: string) => crypto.createHash('sha1').update(s).digest('base64');

export interface SignedPieces {
  token: string;
  timestamp: string;
  nonce: string;
  bodyHash: string;
  method: string;
  /** Absolute URL; its query holds plain (not array) parameters. */
  url: string;
}

/** `Jetpack_Signature::sign_request`, for plain query parameters: base64 HMAC-SHA1 of the normalized request. */
export function hubSignature(secret: string, p: SignedPieces): string {
  const u = new URL(p.url);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  const pairs = [...u.searchParams].filter(([k]) => k !== 'signature').map(([k, v]) => `${rawurlencode(k)}=${rawurlencode(v)}`);
  pairs.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const lines = [p.token.split('.')[0], p.timestamp, p.nonce, p.bodyHash, p.method.toUpperCase(), u.hostname.toLowerCase(), port, u.pathname, ...pairs];
  return crypto.createHmac('sha1', secret).update(`${lines.join('\n')}\n`).digest('base64');
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
  /** The body text the request will carry (its SHA-1 is the body hash). */
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
  const token = signing.token ?? HUB_BLOG_TOKEN;
  const [key, secret] = token.split('.') as [string, string];
  const fields: Record<string, string> = {
    ...signing.query,
    _for: 'jetpack',
    token: `${key}:1:${signing.userId ?? 0}`,
    timestamp: String(Math.floor((signing.at ?? new Date()).getTime() / 1000)),
    nonce: signing.nonce ?? crypto.randomBytes(8).toString('hex').slice(0, 10),
    'body-hash': signing.body ? sha1Base64(signing.body) : '',
  };
  const url = `${signing.url}?${new URLSearchParams(fields).toString()}`;
  const signature = hubSignature(secret, { token: fields.token!, timestamp: fields.timestamp!, nonce: fields.nonce!, bodyHash: fields['body-hash']!, method: signing.method, url });
  return { ...fields, signature };
}

export interface HubMultipart {
  /** Plain fields of the form. */
  fields: Record<string, string>;
  /** Files by field name; each gets its `_jetpack_file_hmac_<field>` (`<hex HMAC-SHA1>:<salt>`, keyed with salt + token). */
  files?: Record<string, { filename: string; data: Buffer; hmac?: string }>;
  /** Leave out `_jetpack_is_multipart` (an unsigned form). */
  unmarked?: boolean;
}

/**
 * A multipart request as WordPress.com sends it: `_jetpack_is_multipart=1`, a file HMAC field per
 * file, and the body hash of the fields (file HMACs standing in for the files, names sorted,
 * `http_build_query`). Returns the signing (body hash included) and the multipart payload.
 */
export function hubMultipart(form: HubMultipart, token = HUB_BLOG_TOKEN): { signedBody: string; fields: Record<string, string>; payload: string; contentType: string } {
  const fields: Record<string, string> = { ...form.fields, ...(form.unmarked ? {} : { _jetpack_is_multipart: '1' }) };
  for (const [name, file] of Object.entries(form.files ?? {})) {
    const salt = crypto.randomBytes(6).toString('hex');
    fields[`_jetpack_file_hmac_${name}`] = file.hmac ?? `${crypto.createHmac('sha1', salt + token).update(file.data).digest('hex')}:${salt}`;
  }
  const signed = Object.entries(fields).map(([k, v]) => [k.startsWith('_jetpack_file_hmac_') ? k.slice(19) : k, v] as const);
  signed.sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const signedBody = signed.map(([k, v]) => `${urlencode(k)}=${urlencode(v)}`).join('&');
  const boundary = 'hubBoundary7MA4YWxk';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  for (const [name, file] of Object.entries(form.files ?? {})) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n${file.data.toString('latin1')}\r\n`);
  }
  return { signedBody: form.unmarked ? '' : signedBody, fields, payload: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The fields of an `X_CONNECTOR key="value" …` Authorization header. */
function authorizationFields(header: string | undefined): Record<string, string> | undefined {
  if (!header?.startsWith('X_CONNECTOR ')) return undefined;
  return Object.fromEntries([...header.slice(12).matchAll(/([a-z-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

/** Checks a site → hub call as WordPress.com does: token, body hash, timestamp on the hub's clock, signature. */
function verifySigned(req: http.IncomingMessage, raw: string, url: string, tokens: string[], hubNow: number): number | undefined {
  const f = authorizationFields(req.headers.authorization);
  if (!f?.token || !f.timestamp || !f.nonce || !f.signature) return undefined;
  if (f['body-hash'] !== (raw ? sha1Base64(raw) : '')) return undefined;
  const at = Number(f.timestamp);
  if (!/^\d{1,10}$/.test(f.timestamp) || at < hubNow - 600 || at > hubNow + 300) return undefined;
  const ok = tokens.some((t) => {
    const [key, secret] = t.split('.') as [string, string];
    if (!f.token!.startsWith(`${key}:1:`)) return false;
    return hubSignature(secret, { token: f.token!, timestamp: f.timestamp!, nonce: f.nonce!, bodyHash: f['body-hash']!, method: req.method!, url }) === f.signature;
  });
  return ok ? at : undefined;
}

export async function startHub(): Promise<TestHub> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const hub: TestHub = {
    url, calls: [], clockOffsetS: 0, registerStatus: 200, alternateAuthorizeUrl: '', codes: new Map(), profiles: new Map(), userTokens: new Map(), partnerNonces: new Set(),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const path = req.url!;
      const body = raw ? JSON.parse(raw) : undefined;
      const hubNow = Math.floor(Date.now() / 1000) + hub.clockOffsetS;
      // Every answer tells the hub's time, as any HTTP server does.
      res.setHeader('date', new Date(hubNow * 1000).toUTCString());
      const timestamp = verifySigned(req, raw, `${url}${path}`, [HUB_BLOG_TOKEN, ...hub.profiles.keys()], hubNow);
      const signed = timestamp !== undefined;
      hub.calls.push({ method: req.method!, path, body, signed, ...(signed ? { timestamp } : {}) });
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
