/**
 * @module admin/session
 * The signed-in user of an admin page (cookie session only; Basic credentials and REST nonces play no
 * part here), the nonce subject it implies, and the sign-in URL that brings the browser back.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { NonceSubject } from '../auth/nonces.js';
import { readSession, type Session } from '../auth/session.js';

/** The session of the request, or null. */
export function pageSession(ctx: AppContext, request: FastifyRequest): Promise<Session | null> {
  return readSession(ctx, request.headers.cookie);
}

/** Nonces of admin forms are bound to the user and the session token. */
export function sessionSubject(session: Session): NonceSubject {
  return { user: session.user, auth: { method: 'cookie', sessionToken: session.token } };
}

/** Absolute URL of an admin page (`file` relative to the admin root). */
export function adminUrl(ctx: AppContext, file = '', query?: Record<string, string>): string {
  const url = `${ctx.urls.admin}${file}`;
  return query && Object.keys(query).length > 0 ? `${url}?${new URLSearchParams(query).toString()}` : url;
}

/** The sign-in page, returning to the current request's URL afterwards. */
export function signInUrlFor(ctx: AppContext, request: FastifyRequest): string {
  const here = `${new URL(ctx.config.baseUrl).origin}${request.url}`;
  return adminUrl(ctx, 'wp-login.php', { redirect_to: here, reauth: '1' });
}

/** The site name shown in page titles. */
export async function siteName(ctx: AppContext): Promise<string> {
  return String(await ctx.options.get('blogname'));
}
