/**
 * @module namespaces/connector/signed-request
 * Requests the hub signs, on any REST route (the original's `Rest_Authentication` over
 * `Manager::verify_xml_rpc_signature`): `_for=jetpack` and the query parameters `token`
 * (`<token key>:1:<user id>`, user id 0 for the blog token), `timestamp`, `nonce`, `body-hash` and
 * `signature` (see `remote/connector-signature.ts`). The signed URL is this site's address
 * (`BASE_URL`: host and port) with the path and query as received, after `esc_url_raw`.
 *
 * - Without `_for=jetpack`, or with neither `token` nor `signature`, the request is not a signed one
 *   and other credentials apply.
 * - Signed with a user's token, the request acts as that user (their capabilities); with the blog
 *   token, as the site: no user, but the routes that take the hub's word accept it.
 * - A signature that does not verify ends the request with 400 `rest_invalid_signature`, whatever
 *   the reason; the reason (the original's code: `unknown_user`, `no_token_for_user`,
 *   `invalid_body_hash`, `signature_mismatch`, `invalid_nonce`, …) is kept for `verify_xmlrpc_error`.
 * - The body hash: of the raw body (JSON, form-encoded, any other), required with a body and empty
 *   without one. A multipart body carries `_jetpack_is_multipart`: it is signed as its fields (see
 *   `multipartSignedBody`), read only once the signature itself verified, and each file the route
 *   keeps must match its `_jetpack_file_hmac_<field>`.
 * - The timestamp, on the hub's clock, less the stored offset (`time_diff`), must lie between
 *   {@link PAST_WINDOW_S} before and {@link FUTURE_WINDOW_S} after now, and each (timestamp, nonce)
 *   is accepted once, also when replays arrive together (the nonce's primary key decides). Nonces
 *   are pruned hourly once {@link NONCE_LIFETIME_S} old, and a request signed before the last cutoff
 *   is refused, since its nonce can no longer be checked.
 * - Tokens, nonces and signatures are never logged.
 */
import type { AppContext } from '../../app-context.js';
import type { SignedCaller } from '../../auth/signed-requests.js';
import type { AuthInput, ReceivedForm, ReceivedRequest } from '../../auth/types.js';
import { getUser, type SiteUser } from '../../auth/users.js';
import {
  bodyHash, computeSignature, escapedRequestTarget, FILE_HMAC_PREFIX, fileHmac, MULTIPART_MARKER, multipartSignedBody, sha1Base64, signaturesEqual,
} from '../../remote/connector-signature.js';
import { RestError } from '../../rest/errors.js';
import type { RestRequest } from '../../rest/route.js';
import { ConnectorErrors } from './errors.js';
import { loadState, loadTimeDiff, recordSignatureError, type ConnectionState } from './state.js';

/** How old a signed request's timestamp may be (seconds). */
export const PAST_WINDOW_S = 600;
/** How far ahead of this site's clock a timestamp may be (seconds). */
export const FUTURE_WINDOW_S = 300;
/** How long a used nonce is kept (`Nonce_Handler::LIFETIME`); far beyond the window it guards. */
export const NONCE_LIFETIME_S = 3600;

/** The job that prunes used nonces, hourly. */
export const PRUNE_NONCES_JOB = 'connector.prune-nonces';

type Query = Record<string, unknown>;

/** Why a signature was refused: the original's code and the user id the token named (0 for none). */
interface Refusal {
  code: string;
  userId: number;
}

/** A signature that is not there to check (`token` or `signature` missing): refused, nothing recorded. */
const UNSIGNED = Symbol('unsigned');

type Verified = { user: SiteUser | null };

/** A present, non-empty string parameter; undefined otherwise. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The contributed check of `auth/signed-requests.ts`: undefined when the request is not hub-signed. */
export async function authenticateSignedRequest(ctx: AppContext, input: AuthInput): Promise<SignedCaller | RestError | undefined> {
  const received = input.request;
  const query = input.query;
  if (!received || query._for !== 'jetpack') return undefined;
  if (query.token === undefined && query.signature === undefined) return undefined;
  // A signature covers the method on the wire; other methods travel as `_method`. CASE: the original
  // also refuses a GET with a body; the HTTP host never reads one, so no body goes unsigned.
  if (received.method !== 'GET' && received.method !== 'POST') return ConnectorErrors.signedMethodNotSupported();

  const result = await verifySignature(ctx, query, received);
  if (result === UNSIGNED) return ConnectorErrors.invalidSignature();
  // A multipart body that could not be read (too large, malformed): that error, nothing recorded.
  if (result instanceof RestError) return result;
  if ('code' in result) {
    ctx.log.info({ code: result.code, method: received.method }, 'connector: refused a signed request');
    await recordSignatureError(ctx, result.code, result.userId);
    return ConnectorErrors.invalidSignature();
  }
  return result.user ? { signedWith: 'user', user: result.user } : { signedWith: 'site', user: null };
}

/** True when the request was signed by the hub with the blog token (`is_signed_with_blog_token`). */
export function isSignedWithBlogToken(req: RestRequest): boolean {
  return req.auth.method === 'signature' && req.auth.signedWith === 'site';
}

/** The URL the hub signed: this site's address (`BASE_URL`) with the path and query as received. */
function signedUrl(ctx: AppContext, received: ReceivedRequest): string {
  const base = new URL(ctx.config.baseUrl);
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${escapedRequestTarget(received.url)}`;
}

/** The raw body the signature covers; undefined for none (PHP's `empty()`: `''` and `'0'`). */
function signedRawBody(received: ReceivedRequest): string | undefined {
  return received.rawBody && received.rawBody !== '0' ? received.rawBody : undefined;
}

async function verifySignature(ctx: AppContext, query: Query, received: ReceivedRequest): Promise<Verified | Refusal | RestError | typeof UNSIGNED> {
  const signature = text(query.signature);
  if (query.token === undefined || signature === undefined) return UNSIGNED;
  if (typeof query.token !== 'string') return { code: 'malformed_token', userId: 0 };
  const token = query.token;

  // ---- The token: `key:version:user id`, and the user it names
  const [key, version, userPart] = token.split(':');
  if (!key || version !== '1') return { code: 'malformed_token', userId: 0 };
  let user: SiteUser | null = null;
  if (userPart !== '0') {
    if (!userPart || !/^\d+$/.test(userPart)) return { code: 'malformed_user_id', userId: 0 };
    // User IDs are 32-bit: a larger number names nobody (PostgreSQL would refuse the lookup).
    const named = /^\d{1,10}$/.test(userPart) && Number(userPart) <= 2 ** 31 - 1 ? Number(userPart) : 0;
    const found = named > 0 ? await getUser(ctx, named) : undefined;
    if (!found) return { code: 'unknown_user', userId: named };
    user = found;
  }
  const userId = user?.id ?? 0;
  const refuse = (code: string): Refusal => ({ code, userId });

  // ---- The stored token with that key (`Tokens::get_access_token`)
  const stored = storedToken(await loadState(ctx), user, key);
  if ('code' in stored) return refuse(stored.code);
  const [storedKey, secret, extra] = stored.token.split('.');
  if (!storedKey || !secret || extra !== undefined) return refuse('invalid_secret');
  if (!token.split('.')[0]!.startsWith(`${storedKey}:`)) return refuse('token_mismatch');

  // ---- What the signature covers (`Jetpack_Signature::sign_request`)
  const body = received.multipart ? undefined : signedRawBody(received);
  for (const name of ['timestamp', 'nonce', ...(body !== undefined ? ['body-hash'] : [])]) {
    if (!text(query[name])) return refuse('invalid_signature');
  }
  const timestamp = query.timestamp as string;
  const nonce = query.nonce as string;
  const presentedHash = typeof query['body-hash'] === 'string' ? query['body-hash'] : '';
  if (!received.multipart && (body === undefined ? presentedHash !== '' : presentedHash !== bodyHash(body))) return refuse('invalid_body_hash');
  if (!/^\d{1,10}$/.test(timestamp)) return refuse('invalid_signature');
  const now = Math.floor(ctx.now().getTime() / 1000);
  const at = Number(timestamp);
  const local = at - ((await loadTimeDiff(ctx)) ?? 0);
  if (local < now - PAST_WINDOW_S || local > now + FUTURE_WINDOW_S) return refuse('invalid_signature');
  if (!/^[A-Za-z0-9]{1,12}$/.test(nonce)) return refuse('invalid_signature');
  // Its nonce may have been pruned already (the hub's clock was corrected since): it cannot be checked.
  if (at < (await noncesPrunedBefore(ctx))) return refuse('invalid_nonce');

  const expected = computeSignature(secret, { token, timestamp, nonce, bodyHash: presentedHash, method: received.method, url: signedUrl(ctx, received) });
  if (!signaturesEqual(expected, signature)) return refuse('signature_mismatch');

  // CASE: the original hashes a multipart body's fields before anything else; here the body is
  // read only for a signature that verified, so a forged request never makes the site read one.
  if (received.multipart) {
    // A replay is refused before its body is read (the nonce is spent below, once the body checks out).
    if (await nonceSpent(ctx, at, nonce)) return refuse('invalid_nonce');
    const form = await received.readMultipart?.();
    if (form instanceof RestError) return form;
    // No route reads the body (the answer is rest_no_route): nothing to compare.
    const problem = form ? multipartRefusal(form, presentedHash, stored.token) : undefined;
    if (problem) return refuse(problem);
  }

  // CASE: the original spends the nonce before comparing signatures; spending it only on a good one
  // lets nobody burn a nonce in flight with a forged request.
  if (!(await spendNonce(ctx, at, nonce))) return refuse('invalid_nonce');
  return { user };
}

/**
 * Why a multipart body is not the one signed (the original's code), else undefined. With
 * `_jetpack_is_multipart` the body hash must be that of the fields (`multipartSignedBody`), and
 * each file the route keeps must match its `_jetpack_file_hmac_<field>` (`<hex>:<salt>`, as the
 * original's upload handler checks it: `missing_hmac`, `invalid_hmac`).
 */
function multipartRefusal(form: ReceivedForm, presentedHash: string, token: string): string | undefined {
  if (!Object.hasOwn(form.body, MULTIPART_MARKER)) {
    // CASE: the original cannot read such a body raw, signs none of it and lets it through unchecked;
    // here a signed request's multipart body must say it is signed, or be empty.
    if (presentedHash !== '') return 'invalid_body_hash';
    return Object.keys(form.body).length > 0 || Object.keys(form.files).length > 0 ? 'invalid_body' : undefined;
  }
  if (presentedHash === '') return 'invalid_signature';
  if (!signaturesEqual(presentedHash, sha1Base64(multipartSignedBody(form.body)))) return 'invalid_body_hash';
  for (const [field, file] of Object.entries(form.files)) {
    const presented = fileHmacOf(form.body, field);
    if (typeof presented !== 'string') return 'missing_hmac';
    const [hmac = '', salt = ''] = presented.split(':');
    if (!signaturesEqual(hmac, fileHmac(file.data, salt, token))) return 'invalid_hmac';
  }
  return undefined;
}

/** The `_jetpack_file_hmac_…` value for the file part named `field` (`name`, `name[key]…`); `[]` names none. */
function fileHmacOf(fields: Record<string, unknown>, field: string): unknown {
  const bracket = field.indexOf('[');
  const base = (bracket < 0 ? field : field.slice(0, bracket)).replace(/[ .]/g, '_');
  let value: unknown = fields[`${FILE_HMAC_PREFIX}${base}`];
  for (const m of (bracket < 0 ? '' : field.slice(bracket)).matchAll(/\[([^\]]*)\]/g)) {
    if (m[1] === '' || value === null || typeof value !== 'object' || !Object.hasOwn(value, m[1]!)) return undefined;
    value = (value as Record<string, unknown>)[m[1]!];
  }
  return value;
}

/** The site's token (`key.secret`) for `user` (the blog token for none) whose key is `key`, else the original's code. */
function storedToken(state: ConnectionState, user: SiteUser | null, key: string): { token: string } | { code: string } {
  let candidate: string;
  if (user) {
    const tokens = state.user_tokens;
    if (Object.keys(tokens).length === 0) return { code: 'no_user_tokens' };
    const userToken = tokens[String(user.id)];
    if (!userToken) return { code: 'no_token_for_user' };
    const [tokenKey, secret, owner] = userToken.split('.');
    if (!secret || !owner) return { code: 'token_malformed' };
    if (owner !== String(user.id)) return { code: 'user_id_mismatch' };
    candidate = `${tokenKey}.${secret}`;
  } else {
    if (!state.blog_token) return { code: 'no_possible_tokens' };
    candidate = state.blog_token;
  }
  const prefix = `${key.replace(/\.+$/, '')}.`;
  return signaturesEqual(candidate.slice(0, prefix.length), prefix) ? { token: candidate } : { code: 'no_valid_token' };
}

/** Records (timestamp, nonce) as used: false when it was used already, also by a request arriving at the same moment. */
async function nonceSpent(ctx: AppContext, timestamp: number, nonce: string): Promise<boolean> {
  return (await ctx.db.selectFrom('connector_nonces').select('nonce').where('timestamp', '=', timestamp).where('nonce', '=', nonce).executeTakeFirst()) !== undefined;
}

async function spendNonce(ctx: AppContext, timestamp: number, nonce: string): Promise<boolean> {
  const inserted = await ctx.db
    .insertInto('connector_nonces')
    .values({ nonce, timestamp })
    .onConflict((oc) => oc.columns(['timestamp', 'nonce']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** The hub timestamp below which nonces have been pruned: requests signed before it are refused. */
const PRUNED_BEFORE_OPTION = 'connector_nonces_pruned_before';

async function noncesPrunedBefore(ctx: AppContext): Promise<number> {
  const value = await ctx.options.get<unknown>(PRUNED_BEFORE_OPTION, 0);
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : 0;
}

/**
 * Forgets nonces signed more than {@link NONCE_LIFETIME_S} ago (`Nonce_Handler::clean_scheduled`).
 * Their timestamps are the hub's: a hub clock behind this site's moves the cutoff back by as much,
 * so no nonce goes while its timestamp could still pass the window. A later correction of the hub's
 * clock could still bring a pruned timestamp back into the window, so the cutoff is recorded first
 * and requests signed before it are refused (CASE: the original would accept such a replay).
 */
export async function pruneNonces(ctx: AppContext): Promise<void> {
  const cutoff = Math.floor(ctx.now().getTime() / 1000) + Math.min(0, (await loadTimeDiff(ctx)) ?? 0) - NONCE_LIFETIME_S;
  if (cutoff > (await noncesPrunedBefore(ctx))) await ctx.options.set(PRUNED_BEFORE_OPTION, cutoff);
  await ctx.db.deleteFrom('connector_nonces').where('timestamp', '<', cutoff).execute();
}
