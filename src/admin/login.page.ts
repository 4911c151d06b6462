/**
 * @module admin/login.page
 * `wp-login.php`: the sign-in form, signing in (a stateless session cookie, see `auth/session.ts`),
 * `redirect_to` back to a page of this site, and signing out (`?action=logout&_wpnonce=…`).
 *
 * The form is protected against login CSRF by a nonce bound to a random per-browser cookie
 * (`wordpress_test_cookie`, which also tells whether the browser keeps cookies at all). Failed
 * attempts count against the client address, as Basic credentials do.
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { beginSignIn } from '../auth/sign-in-failures.js';
import { createNonce, verifyNonce, type NonceSubject } from '../auth/nonces.js';
import { verifyDecoy, verifyPassword } from '../auth/passwords.js';
import { clearSessionCookie, issueSession, parseCookies } from '../auth/session.js';
import { endAllSessions, findUserRowForSignIn } from '../auth/users.js';
import { esc, layout, notice, redirect, requestParams, sendPage, str } from './html.js';
import { sameSiteRedirect } from './redirects.js';
import { adminUrl, pageSession, sessionSubject, siteName } from './session.js';

export const LOGIN_NONCE_ACTION = 'log-in';
export const LOGOUT_NONCE_ACTION = 'log-out';
const TEST_COOKIE = 'wordpress_test_cookie';

const MESSAGES = {
  title: 'Log In',
  failed: 'Unknown username or email address, or incorrect password.',
  empty: 'Enter your username or email address and your password.',
  noCookies: 'Cookies are blocked or not supported by your browser. You must enable cookies to sign in.',
  expired: 'The sign-in form expired. Please try again.',
  tooMany: (s: number) => `Too many failed sign-in attempts from your address. Try again in ${s} seconds.`,
  loggedOut: 'You are now logged out.',
  confirmLogout: (site: string) => `You are attempting to log out of ${site}. Do you really want to log out?`,
} as const;

function testCookieToken(request: FastifyRequest): string | undefined {
  const value = parseCookies(request.headers.cookie)[TEST_COOKIE];
  return value && /^[\w-]{43}$/.test(value) ? value : undefined;
}

function testCookie(ctx: AppContext, token: string): string {
  const secure = ctx.config.baseUrl.startsWith('https://') ? '; Secure' : '';
  return `${TEST_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

function loginSubject(token: string): NonceSubject {
  return { user: null, auth: { method: 'none', sessionToken: token } };
}

interface FormState {
  log?: string;
  redirectTo?: string;
  error?: string;
  message?: string;
  status?: number;
  headers?: Record<string, string>;
}

/** Renders the sign-in form (with a fresh CSRF cookie and nonce). */
async function renderForm(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, state: FormState): Promise<FastifyReply> {
  const token = testCookieToken(request) ?? crypto.randomBytes(32).toString('base64url');
  const nonce = await createNonce(ctx, loginSubject(token), LOGIN_NONCE_ACTION);
  const body = `${state.error ? notice('error', `<strong>Error:</strong> ${esc(state.error)}`) : ''}${state.message ? notice('info', esc(state.message)) : ''}
<form method="post" action="${esc(adminUrl(ctx, 'wp-login.php'))}" id="loginform">
<p><label for="user_login">Username or Email Address</label>
<input type="text" name="log" id="user_login" value="${esc(state.log ?? '')}" autocomplete="username" autocapitalize="off" spellcheck="false" required></p>
<p><label for="user_pass">Password</label>
<input type="password" name="pwd" id="user_pass" autocomplete="current-password" spellcheck="false" required></p>
<p><input type="checkbox" name="rememberme" id="rememberme" value="forever"><label for="rememberme">Remember Me</label></p>
<input type="hidden" name="redirect_to" value="${esc(state.redirectTo ?? '')}">
<input type="hidden" name="_wpnonce" value="${esc(nonce)}">
<p><button type="submit" id="wp-submit">Log In</button></p>
</form>`;
  return sendPage(reply, state.status ?? 200, layout(MESSAGES.title, await siteName(ctx), body), {
    ...state.headers,
    'Set-Cookie': testCookie(ctx, token),
  });
}

/** GET `wp-login.php`: the form, or signing out with `action=logout`. */
export async function showLogin(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { query } = requestParams(request);
  if (str(query.action) === 'logout') return logout(ctx, request, reply, str(query._wpnonce));
  const redirectTo = str(query.redirect_to);
  const session = await pageSession(ctx, request);
  if (session) return redirect(reply, sameSiteRedirect(ctx.config.baseUrl, redirectTo, adminUrl(ctx)));
  return renderForm(ctx, request, reply, {
    ...(redirectTo ? { redirectTo } : {}),
    ...(str(query.loggedout) === 'true' ? { message: MESSAGES.loggedOut } : {}),
  });
}

/** POST `wp-login.php`: checks the credentials and starts a session. */
export async function submitLogin(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { form, query } = requestParams(request);
  if (str(query.action) === 'logout') return logout(ctx, request, reply, form._wpnonce ?? str(query._wpnonce));
  const log = (form.log ?? '').trim();
  const redirectTo = form.redirect_to || undefined;
  const keep = { log, ...(redirectTo ? { redirectTo } : {}) };

  // ---- CSRF: the nonce must match this browser's test cookie
  const token = testCookieToken(request);
  if (!token) return renderForm(ctx, request, reply, { ...keep, error: MESSAGES.noCookies, status: 400 });
  if (!(await verifyNonce(ctx, loginSubject(token), LOGIN_NONCE_ACTION, form._wpnonce))) {
    return renderForm(ctx, request, reply, { ...keep, error: MESSAGES.expired, status: 403 });
  }

  // ---- Rate limit, then credentials
  const now = ctx.now().getTime();
  const password = form.pwd ?? '';
  const attempt = await beginSignIn(ctx, request.ip, log, now);
  if (typeof attempt === 'number') {
    return renderForm(ctx, request, reply, { ...keep, error: MESSAGES.tooMany(attempt), status: 429, headers: { 'Retry-After': String(attempt) } });
  }
  let row: Awaited<ReturnType<typeof findUserRowForSignIn>>;
  try {
    if (log === '' || password === '') {
      attempt.succeeded(); // nothing was checked
      return renderForm(ctx, request, reply, { ...keep, error: MESSAGES.empty, status: 400 });
    }
    row = await findUserRowForSignIn(ctx, log);
    const ok = row && row.password_hash !== '' ? await verifyPassword(password, row.password_hash) : await verifyDecoy(password);
    if (!row || !ok) return renderForm(ctx, request, reply, { ...keep, error: MESSAGES.failed, status: 200 });
    attempt.succeeded();
  } finally {
    await attempt.end();
  }

  // ---- Session
  const session = await issueSession(ctx, row, form.rememberme === 'forever');
  return redirect(reply, sameSiteRedirect(ctx.config.baseUrl, redirectTo, adminUrl(ctx)), { 'Set-Cookie': session.setCookie });
}

/** The sign-out link of a session (carries a `log-out` nonce). */
export async function logoutUrl(ctx: AppContext, subject: NonceSubject): Promise<string> {
  return adminUrl(ctx, 'wp-login.php', { action: 'logout', _wpnonce: await createNonce(ctx, subject, LOGOUT_NONCE_ACTION) });
}

/**
 * Signs out: with a valid nonce every session of the user ends (sessions are stateless, so ending one
 * ends all); without one, a confirmation page links to the nonce-carrying URL.
 */
async function logout(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, nonce: string | undefined): Promise<FastifyReply> {
  const done = adminUrl(ctx, 'wp-login.php', { loggedout: 'true' });
  const session = await pageSession(ctx, request);
  if (!session) return redirect(reply, done, { 'Set-Cookie': clearSessionCookie(ctx) });
  const subject = sessionSubject(session);
  if (await verifyNonce(ctx, subject, LOGOUT_NONCE_ACTION, nonce)) {
    await endAllSessions(ctx, session.user.id);
    return redirect(reply, done, { 'Set-Cookie': clearSessionCookie(ctx) });
  }
  const site = await siteName(ctx);
  const body = `<p>${esc(MESSAGES.confirmLogout(site))}</p><p><a href="${esc(await logoutUrl(ctx, subject))}">Log out</a></p>`;
  return sendPage(reply, 403, layout('Log Out', site, body));
}
