/**
 * @module admin/authorize-application.page
 * `authorize-application.php`: an application sends the user here to obtain an application password.
 *
 * - Signed out → redirect to the sign-in page, which returns here.
 * - Query (or form) parameters, all optional: `app_name` (pre-fills the editable name), `app_id` (a
 *   lower-case UUID), `success_url`, `reject_url` (defaults to `success_url` with `success=false`).
 * - A request that breaks the rules (`invalid_redirect_url_format`, `invalid_redirect_scheme`,
 *   `invalid_app_id`) gets an HTML error page (400); a site behind HTTP Basic auth, or application
 *   passwords unavailable for the site or the user → 501 page with a "Go Back" link to `reject_url` +
 *   `error=disabled`.
 * - Approve (form POST with a nonce): creates the password for the signed-in user; with a
 *   `success_url` the browser goes there with `site_url`, `user_login` and `password` (the raw 24
 *   characters) added, otherwise the password is shown once on the page.
 * - Reject: to `reject_url` as given (else `success_url` with `success=false`), or to the dashboard.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { createApplicationPassword, isUuid, normalizePassword } from '../auth/app-passwords.js';
import { parseBasicAuthorization } from '../auth/authenticator.js';
import { applicationPasswordsAvailable } from '../auth/availability.js';
import { createNonce, verifyNonce } from '../auth/nonces.js';
import type { Session } from '../auth/session.js';
import { getUser } from '../auth/users.js';
import { RestError } from '../rest/errors.js';
import { diePage, esc, layout, notice, redirect, requestParams, sendPage } from './html.js';
import { addQueryArgs, headerSafeUrl, validateRedirectUrl } from './redirects.js';
import { adminUrl, pageSession, sessionSubject, signInUrlFor, siteName } from './session.js';

export const AUTHORIZE_NONCE_ACTION = 'authorize_application_password';

const MESSAGES = {
  title: 'Authorize Application',
  cannot: 'Cannot Authorize Application',
  notAllowed: 'The Authorize Application request is not allowed.',
  invalidAppId: 'The application ID must be a UUID.',
  invalidRedirect: 'Invalid URL format.',
  disabled: 'Application passwords are not available.',
  disabledForUser: 'Application passwords are not available for your account. Please contact the site administrator for assistance.',
  basicAuthSite: 'Your website appears to use Basic Authentication, which is not currently compatible with application passwords.',
  noAccess: 'Sorry, you are not allowed to access this page.',
  expired: 'The link you followed has expired. Please go back and try again.',
  goBack: 'Go Back',
} as const;

/** The request as the page understands it. */
interface AuthorizeRequest {
  appName: string;
  appId: string;
  successUrl: string;
  /** As given (may be ''). */
  rejectUrl: string;
}

function readRequest(all: Record<string, unknown>): { request: AuthorizeRequest; errors: string[] } {
  const errors: string[] = [];
  const text = (name: string): string => {
    const v = all[name];
    if (v === undefined || v === null || v === '') return '';
    if (typeof v === 'string') return v;
    if (name.endsWith('_url')) errors.push(MESSAGES.invalidRedirect);
    else if (name === 'app_id') errors.push(MESSAGES.invalidAppId);
    return '';
  };
  const request = { appName: text('app_name'), appId: text('app_id'), successUrl: text('success_url'), rejectUrl: text('reject_url') };
  return { request, errors };
}

/** `wp_is_authorize_application_password_request_valid`: the messages of every broken rule. */
function validate(ctx: AppContext, req: AuthorizeRequest): string[] {
  const messages: string[] = [];
  for (const url of [req.successUrl, req.rejectUrl]) {
    const error = validateRedirectUrl(url, ctx.config.environment);
    if (error) messages.push(error.message);
  }
  if (req.appId !== '' && !isUuid(req.appId)) messages.push(MESSAGES.invalidAppId);
  return messages;
}

/**
 * `wp_is_site_protected_by_basic_auth`: a site behind HTTP Basic auth makes the browser send its
 * credentials with every request, and those would collide with the application's own Basic credentials.
 */
function sendsBasicCredentials(request: FastifyRequest): boolean {
  const basic = parseBasicAuthorization(request.headers.authorization?.trim());
  return basic !== undefined && (basic.username !== '' || basic.password !== '');
}

/** Where "reject" leads: `reject_url` as given, else `success_url` with `success=false`; undefined = dashboard. */
function rejectTarget(req: AuthorizeRequest): string | undefined {
  if (req.rejectUrl) return req.rejectUrl;
  return req.successUrl ? addQueryArgs(req.successUrl, { success: 'false' }) : undefined;
}

async function renderForm(
  ctx: AppContext,
  reply: FastifyReply,
  session: Session,
  req: AuthorizeRequest,
  extra: { status?: number; error?: string; newPassword?: string; name?: string } = {},
): Promise<FastifyReply> {
  const user = session.user;
  const intro = req.appName
    ? `<p>Would you like to give the application identifying itself as <strong>${esc(req.appName)}</strong> access to your account? You should only do this if you trust the app in question.</p>`
    : '<p>Would you like to give this application access to your account? You should only do this if you trust the app in question.</p>';
  let body = `${extra.error ? notice('error', esc(extra.error)) : ''}<h2>An application would like to connect to your account.</h2>${intro}`;

  if (extra.newPassword !== undefined) {
    body += `<div class="notice notice-success" role="status">
<p><label for="new-application-password-value">Your new password for <strong>${esc(extra.name ?? req.appName)}</strong> is:</label>
<input type="text" id="new-application-password-value" class="code" readonly value="${esc(extra.newPassword)}"></p>
<p>Be sure to save this in a safe location. You will not be able to retrieve it.</p>
</div>
<p><a href="${esc(adminUrl(ctx))}">Go to the dashboard</a></p>`;
  } else {
    const nonce = await createNonce(ctx, sessionSubject(session), AUTHORIZE_NONCE_ACTION);
    const approveNote = req.successUrl
      ? `You will be sent to <strong><kbd>${esc(addQueryArgs(req.successUrl, { site_url: ctx.urls.home, user_login: user.login, password: '[------]' }))}</kbd></strong>`
      : 'You will be given a password to manually enter into the application in question.';
    const reject = rejectTarget(req);
    const rejectNote = reject
      ? `You will be sent to <strong><kbd>${esc(reject)}</kbd></strong>`
      : 'You will be returned to the dashboard, and no changes will be made.';
    body += `<form method="post" action="${esc(adminUrl(ctx, 'authorize-application.php'))}">
<input type="hidden" name="_wpnonce" value="${esc(nonce)}">
<input type="hidden" name="action" value="authorize_application_password">
<input type="hidden" name="app_id" value="${esc(req.appId)}">
<input type="hidden" name="success_url" value="${esc(req.successUrl)}">
<input type="hidden" name="reject_url" value="${esc(req.rejectUrl)}">
<p><label for="app_name">New Application Password Name</label>
<input type="text" id="app_name" name="app_name" value="${esc(req.appName)}" required aria-describedby="app_name_help"></p>
<p id="app_name_help">Required to create an application password for <strong>${esc(user.login)}</strong>.</p>
<p><button type="submit" name="approve" value="1" id="approve">Yes, I approve of this connection</button><br><em id="approve_help">${approveNote}</em></p>
<p><button type="submit" name="reject" value="1" id="reject" class="secondary" formnovalidate>No, I do not approve of this connection</button><br><em id="reject_help">${rejectNote}</em></p>
</form>`;
  }
  return sendPage(reply, extra.status ?? 200, layout(MESSAGES.title, await siteName(ctx), body));
}

/** GET and POST `authorize-application.php`. */
export async function authorizeApplication(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const site = await siteName(ctx);

  // ---- Signed in (as admin.php: `auth_redirect`), with access to the admin area
  const session = await pageSession(ctx, request);
  if (!session) return redirect(reply, signInUrlFor(ctx, request));
  if (!session.user.can('read')) return sendPage(reply, 403, diePage(MESSAGES.cannot, site, MESSAGES.noAccess));

  const { form, all } = requestParams(request);
  const posted = request.method === 'POST' && form.action === 'authorize_application_password';

  // ---- CSRF
  if (posted && !(await verifyNonce(ctx, sessionSubject(session), AUTHORIZE_NONCE_ACTION, form._wpnonce))) {
    return sendPage(reply, 403, diePage(MESSAGES.cannot, site, MESSAGES.expired, { text: MESSAGES.goBack, url: adminUrl(ctx) }));
  }

  // ---- The request's rules (checked before acting, so nothing is created for a refused request)
  const { request: req, errors } = readRequest(all);
  const messages = [...errors, ...validate(ctx, req)];
  if (messages.length > 0) {
    // CASE: the original answers these with wp_die's default 500; they are the client's mistake → 400.
    return sendPage(reply, 400, diePage(MESSAGES.cannot, site, `${MESSAGES.notAllowed} ${[...new Set(messages)].join(' ')}`));
  }

  // ---- Availability: not behind HTTP Basic auth (the browser sends Basic credentials), for the site, for the user
  const unavailable = (message: string) => {
    const reject = rejectTarget(req);
    const back = { text: MESSAGES.goBack, url: reject ? addQueryArgs(reject, { error: 'disabled' }) : adminUrl(ctx) };
    return sendPage(reply, 501, diePage(MESSAGES.cannot, site, message, back));
  };
  if (sendsBasicCredentials(request)) return unavailable(MESSAGES.basicAuthSite);
  const user = await getUser(ctx, session.user.id);
  if (!applicationPasswordsAvailable(ctx.config)) return unavailable(MESSAGES.disabled);
  if (!user?.appPasswordsEnabled) return unavailable(MESSAGES.disabledForUser);

  if (!posted) return renderForm(ctx, reply, session, req);

  // ---- Reject
  if (form.reject !== undefined) return redirect(reply, headerSafeUrl(rejectTarget(req) ?? adminUrl(ctx)));

  // ---- Approve
  if (form.approve === undefined) return renderForm(ctx, reply, session, req);
  let created: Awaited<ReturnType<typeof createApplicationPassword>>;
  try {
    created = await createApplicationPassword(ctx, session.user.id, { name: req.appName, ...(req.appId ? { appId: req.appId } : {}) });
  } catch (e) {
    if (e instanceof RestError) return renderForm(ctx, reply, session, req, { status: e.status, error: e.message });
    throw e;
  }
  if (req.successUrl) {
    const target = addQueryArgs(req.successUrl, {
      site_url: ctx.urls.home,
      user_login: session.user.login,
      password: normalizePassword(created.password),
    });
    return redirect(reply, headerSafeUrl(target));
  }
  return renderForm(ctx, reply, session, req, { newPassword: created.password, name: created.item.name });
}
