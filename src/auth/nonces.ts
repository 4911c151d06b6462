/**
 * @module auth/nonces
 * WordPress nonces, stateless: an HMAC of `tick|action|user id|session token` under a key derived from
 * the site key, 10 hex characters. A tick is half of {@link NONCE_LIFE_S}; a nonce verifies during its
 * own tick (→ 1) and the next one (→ 2), so it lives 12 to 24 hours. Any instance can verify any nonce.
 *
 * @example
 * const nonce = await createNonce(ctx, req, 'wp_rest');
 * await verifyNonce(ctx, req, 'wp_rest', nonce); // 1
 */
import crypto from 'node:crypto';
import type { AppContext } from '../app-context.js';
import type { RestRequest } from '../rest/route.js';
import { derivedKey, safeEqual } from './site-key.js';

/** Lifetime of a nonce in seconds (WordPress `nonce_life`, one day). */
export const NONCE_LIFE_S = 86_400;

/** Who a nonce is bound to: the user (or anonymous) and the sign-in session token. */
export type NonceSubject = Pick<RestRequest, 'user' | 'auth'>;

/** The tick of `date`: `ceil(seconds / (NONCE_LIFE_S / 2))`. */
export function nonceTick(date: Date): number {
  return Math.ceil(date.getTime() / 1000 / (NONCE_LIFE_S / 2));
}

async function nonceAt(ctx: AppContext, subject: NonceSubject, action: string, tick: number): Promise<string> {
  const key = await derivedKey(ctx, 'nonce');
  const uid = subject.user?.id ?? 0;
  const token = subject.auth.sessionToken ?? '';
  const hex = crypto.createHmac('sha256', key).update(`${tick}|${action}|${uid}|${token}`).digest('hex');
  // substr($hash, -12, 10), as wp_create_nonce
  return hex.slice(-12, -2);
}

/** A nonce for `action`, bound to the request's user and session. */
export async function createNonce(ctx: AppContext, req: NonceSubject, action: string): Promise<string> {
  return nonceAt(ctx, req, action, nonceTick(ctx.now()));
}

/**
 * 1 when `nonce` was made in the current tick, 2 when in the previous one, false otherwise (also for
 * an empty or non-string value).
 */
export async function verifyNonce(ctx: AppContext, req: NonceSubject, action: string, nonce: unknown): Promise<1 | 2 | false> {
  if (typeof nonce !== 'string' || nonce === '') return false;
  const tick = nonceTick(ctx.now());
  if (safeEqual(await nonceAt(ctx, req, action, tick), nonce)) return 1;
  if (safeEqual(await nonceAt(ctx, req, action, tick - 1), nonce)) return 2;
  return false;
}
