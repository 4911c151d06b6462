/**
 * @module auth/authenticator
 * Who is calling, in WordPress's order: a request signature an area verifies (the connector hub's,
 * `auth/signed-requests.ts`), the sign-in cookie, then application-password Basic credentials
 * (`wp_validate_application_password`), then the cookie nonce check (`rest_cookie_check_errors`).
 *
 * - A signed request is decided by its signature alone: verified, it acts for the user or the site it
 *   was signed for and other credentials are not looked at; refused, it ends with the check's error.
 * - Basic credentials count only once an application password was ever created and while application
 *   passwords are available; otherwise they are ignored and the request continues anonymously.
 * - Bad Basic credentials end the request with a 401 on every route, and so does a garbled
 *   `Authorization` header (another scheme, or no colon). Repeated failures of one login from one
 *   address, many failures from one address, or too many checks at once from one address are
 *   refused with 429 `too_many_failed_logins` (see `rate-limit.ts`; failures are counted in the
 *   database for every instance, `sign-in-failures.ts`).
 * - A verified credential is reused for a few seconds from a bounded in-memory cache, so a busy
 *   client is not hashed and looked up on every request (see `auth-state.ts`); concurrent requests
 *   with the same credentials share one check. A check the database could not run (503) is not a
 *   failed sign-in.
 * - Cookie sessions need a nonce (`_wpnonce` or `X-WP-Nonce`, action `wp_rest`): none → anonymous,
 *   bad → 403 `rest_cookie_invalid_nonce`, good → the user, with a fresh `X-WP-Nonce` header.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../app-context.js';
import { RestError } from '../rest/errors.js';
import { isDatabaseUnavailable } from '../storage/unavailable.js';
import {
  USAGE_INTERVAL_MS,
  applicationPasswordsInUse,
  normalizePassword,
  recordApplicationPasswordUsage,
  verifyApplicationPassword,
} from './app-passwords.js';
import { authState } from './auth-state.js';
import { applicationPasswordsAvailable } from './availability.js';
import { AuthErrors } from './errors.js';
import { createNonce, verifyNonce, type NonceSubject } from './nonces.js';
import { readSession } from './session.js';
import { checkSignedRequest } from './signed-requests.js';
import { beginSignIn } from './sign-in-failures.js';
import { loadUserRow, siteUserOf, type SiteUser } from './users.js';
import type { AuthInput, AuthOutcome, Authenticator } from './types.js';

/** The nonce action of REST cookie authentication. */
export const REST_NONCE_ACTION = 'wp_rest';

/** `Authorization: Basic …` split at the first colon; undefined when absent or without a colon. */
export function parseBasicAuthorization(header: string | undefined): { username: string; password: string } | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The nonce a request carries: `_wpnonce` (form over query, as `$_REQUEST`), else `X-WP-Nonce`. */
function presentedNonce(input: AuthInput): unknown {
  if (Object.hasOwn(input.body, '_wpnonce')) return input.body._wpnonce;
  if (Object.hasOwn(input.query, '_wpnonce')) return input.query._wpnonce;
  return input.headers['x-wp-nonce'];
}

function credentialKey(username: string, password: string): string {
  return crypto.hash('sha256', `${username}\u0000${normalizePassword(password)}`, 'base64url');
}

/** Basic application-password authentication of one request. */
async function authenticateBasic(
  ctx: AppContext,
  credentials: { username: string; password: string },
  ip: string,
): Promise<BasicOutcome> {
  const state = authState(ctx);
  const now = ctx.now().getTime();
  const key = credentialKey(credentials.username, credentials.password);

  // ---- Cache: these exact credentials verified moments ago (proof of knowledge, so no rate limit)
  const hit = state.verified.get(key, now, state.epoch);
  if (hit) {
    const row = await loadUserRow(ctx, hit.userId);
    if (row) {
      if (now - hit.lastUsedMs >= USAGE_INTERVAL_MS) hit.lastUsedMs = await recordApplicationPasswordUsage(ctx, hit.uuid, ip, hit.lastUsedMs);
      return { user: siteUserOf(ctx, row), uuid: hit.uuid };
    }
    state.verified.delete(key);
  }

  // ---- These credentials being checked already (a client's burst of requests after the cache was
  // emptied, e.g. on a database reconnect): share that check rather than count one attempt each.
  let checks = checking.get(ctx);
  if (!checks) checking.set(ctx, (checks = new Map()));
  const running = checks.get(key);
  if (running) return running;
  const check = checkBasic(ctx, credentials, ip, key, now).finally(() => checks.delete(key));
  checks.set(key, check);
  return check;
}

type BasicOutcome = { user: SiteUser; uuid: string } | RestError;

/** Checks of Basic credentials under way, per app, by credential key. */
const checking = new WeakMap<AppContext, Map<string, Promise<BasicOutcome>>>();

async function checkBasic(ctx: AppContext, credentials: { username: string; password: string }, ip: string, key: string, now: number): Promise<BasicOutcome> {
  const state = authState(ctx);
  // ---- Rate limit (the attempt counts as failed until verified), then verify
  const attempt = await beginSignIn(ctx, ip, credentials.username, now);
  if (typeof attempt === 'number') return AuthErrors.tooManyFailures(attempt);
  let result: Awaited<ReturnType<typeof verifyApplicationPassword>>;
  try {
    result = await verifyApplicationPassword(ctx, credentials.username, credentials.password);
    if (result instanceof RestError) return result;
    attempt.succeeded();
  } catch (err) {
    // The check could not run (the database is unavailable): no verdict, so no failure counted —
    // clients retrying through an outage are not locked out when it ends.
    if (isDatabaseUnavailable(err)) attempt.succeeded();
    throw err;
  } finally {
    await attempt.end();
  }
  const lastUsedMs = await recordApplicationPasswordUsage(ctx, result.uuid, ip, result.lastUsedMs);
  state.verified.set(key, { userId: result.user.id, uuid: result.uuid, lastUsedMs }, now, state.epoch);
  state.users.set(result.user.id, result.row, now, state.epoch);
  return { user: result.user, uuid: result.uuid };
}

async function authenticate(ctx: AppContext, input: AuthInput): Promise<AuthOutcome | RestError> {
  // ---- 0. A signature over the request
  const signed = await checkSignedRequest(ctx, input);
  if (signed instanceof RestError) return signed;
  if (signed) return { user: signed.user, auth: { method: 'signature', signedWith: signed.signedWith }, headers: {} };

  // ---- 1. Sign-in cookie
  const session = input.headers.cookie ? await readSession(ctx, input.headers.cookie) : null;

  // ---- 2. Application password (only when no cookie user, as WordPress)
  if (!session) {
    const header = input.headers.authorization?.trim();
    if (header && applicationPasswordsAvailable(ctx.config) && (await applicationPasswordsInUse(ctx))) {
      // CASE: WordPress serves a garbled header anonymously; a client that meant to sign in should
      // learn that it did not.
      const basic = parseBasicAuthorization(header);
      if (!basic) return AuthErrors.invalidAuthorization();
      const result = await authenticateBasic(ctx, basic, input.ip);
      if (result instanceof RestError) return result;
      return { user: result.user, auth: { method: 'app-password', appPasswordUuid: result.uuid }, headers: {} };
    }
  }

  // ---- 3. Cookie nonce check
  const nonce = presentedNonce(input);
  if (nonce === undefined) return { user: null, auth: { method: 'none' }, headers: {} };
  const subject: NonceSubject = session
    ? { user: session.user, auth: { method: 'cookie', sessionToken: session.token } }
    : { user: null, auth: { method: 'none' } };
  if (!(await verifyNonce(ctx, subject, REST_NONCE_ACTION, nonce))) return AuthErrors.cookieInvalidNonce();
  return { user: subject.user, auth: subject.auth, headers: { 'X-WP-Nonce': await createNonce(ctx, subject, REST_NONCE_ACTION) } };
}

/**
 * The authenticator the HTTP host calls before routing.
 *
 * @example
 * const outcome = await createAuthenticator(ctx).authenticate({ headers, query, body, ip });
 */
export function createAuthenticator(ctx: AppContext): Authenticator {
  return { authenticate: (input) => authenticate(ctx, input) };
}
