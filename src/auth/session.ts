/**
 * @module auth/session
 * Sign-in cookie sessions, stateless: the `wordpress_logged_in_<hash>` cookie carries
 * `user id|expiration|token|hmac`, where the HMAC (key derived from the site key) also covers the
 * user's `session_version` and a fragment of their password hash. Bumping `session_version` (sign-out)
 * or changing the password ends every session of the user on every instance. The token is random per
 * sign-in; nonces are bound to it.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../app-context.js';
import { derivedKey, safeEqual } from './site-key.js';
import { loadUserRow, siteUserOf, type SiteUser, type UserRow } from './users.js';

/** Session length without "remember me" (WordPress: 2 days). */
export const SESSION_TTL_S = 2 * 86_400;
/** Session length with "remember me" (WordPress: 14 days). */
export const REMEMBER_TTL_S = 14 * 86_400;

/** A verified sign-in session. */
export interface Session {
  user: SiteUser;
  token: string;
  /** Epoch seconds. */
  expiration: number;
}

/** `wordpress_logged_in_` + md5 of the site URL, as WordPress's `LOGGED_IN_COOKIE`. */
export function sessionCookieName(ctx: AppContext): string {
  return `wordpress_logged_in_${crypto.createHash('md5').update(ctx.config.baseUrl).digest('hex')}`;
}

/** Cookies of a `Cookie` header (first value of each name wins; undecodable values kept raw). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (name === '' || Object.hasOwn(out, name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      out[name] = value;
    }
  }
  return out;
}

async function signature(ctx: AppContext, row: UserRow, expiration: number, token: string): Promise<string> {
  const key = await derivedKey(ctx, 'logged_in');
  const passFrag = row.password_hash.slice(-8);
  return crypto
    .createHmac('sha256', key)
    .update(`${row.id}|${passFrag}|${row.session_version}|${expiration}|${token}`)
    .digest('base64url');
}

function cookieAttributes(ctx: AppContext): string {
  return `Path=/; HttpOnly; SameSite=Lax${ctx.config.baseUrl.startsWith('https://') ? '; Secure' : ''}`;
}

/** Starts a session for `row`'s user: the `Set-Cookie` value, the token and the expiration. */
export async function issueSession(ctx: AppContext, row: UserRow, remember: boolean): Promise<{ setCookie: string; token: string; expiration: number }> {
  const now = Math.floor(ctx.now().getTime() / 1000);
  const expiration = now + (remember ? REMEMBER_TTL_S : SESSION_TTL_S);
  const token = crypto.randomBytes(32).toString('base64url');
  const value = `${row.id}|${expiration}|${token}|${await signature(ctx, row, expiration, token)}`;
  const expires = remember ? `; Expires=${new Date(expiration * 1000).toUTCString()}` : '';
  return { setCookie: `${sessionCookieName(ctx)}=${encodeURIComponent(value)}; ${cookieAttributes(ctx)}${expires}`, token, expiration };
}

/** A `Set-Cookie` value that removes the session cookie. */
export function clearSessionCookie(ctx: AppContext): string {
  return `${sessionCookieName(ctx)}=; ${cookieAttributes(ctx)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0`;
}

/** The session of a `Cookie` header, or null when absent, expired, forged or ended. */
export async function readSession(ctx: AppContext, cookieHeader: string | undefined): Promise<Session | null> {
  const value = parseCookies(cookieHeader)[sessionCookieName(ctx)];
  if (!value) return null;
  const parts = value.split('|');
  if (parts.length !== 4) return null;
  const [idText, expText, token, mac] = parts as [string, string, string, string];
  if (!/^\d{1,15}$/.test(idText) || !/^\d{1,15}$/.test(expText) || token === '') return null;
  const expiration = Number(expText);
  if (expiration * 1000 < ctx.now().getTime()) return null;
  const row = await loadUserRow(ctx, Number(idText));
  if (!row || row.password_hash === '') return null;
  if (!safeEqual(await signature(ctx, row, expiration, token), mac)) return null;
  return { user: siteUserOf(ctx, row), token, expiration };
}
