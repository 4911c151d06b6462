/**
 * @module admin/screens
 * `admin.php?page=<slug>`: the admin screens areas contribute (`adminScreens`), behind one sign-in,
 * capability and nonce check. A screen renders its body for GET and handles its own forms on POST
 * (the nonce, bound to the user, the session and the screen, is checked before it is called).
 *
 * @example
 * // in an area: contributes: { adminScreens: { page: 'eventsuite-extensions', title: 'Extensions', capability: 'manage_options', handle } }
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { createNonce, verifyNonce } from '../auth/nonces.js';
import type { SiteUser } from '../auth/users.js';
import type { Dispatcher } from '../rest/dispatch.js';
import { RestError } from '../rest/errors.js';
import { createRestRequest } from '../rest/request.js';
import { valueOf } from '../rest/serve.js';
import { diePage, esc, layout, redirect, requestParams, sendPage, str } from './html.js';
import { adminUrl, pageSession, sessionSubject, signInUrlFor, siteName } from './session.js';

/** What a screen is called with. */
export interface ScreenRequest {
  user: SiteUser;
  /** Query parameters of the screen's URL. */
  query: Record<string, unknown>;
  /** The submitted form on POST (nonce already checked), undefined on GET. */
  form: Record<string, string> | undefined;
  /** The screen's own URL with `extra` query parameters (for links and form actions). */
  url(extra?: Record<string, string>): string;
  /** A hidden nonce field for the screen's forms. */
  nonceField: string;
  /** A GET of the site's own API as the signed-in user: the data, or the error's message. */
  rest(route: string, query?: Record<string, unknown>): Promise<{ data: unknown } | { error: string }>;
}

/** What a screen answers: its body markup (escaped), or a place to send the browser. */
export type ScreenResult = { body: string; status?: number } | { redirect: string };

/** One `admin.php?page=<page>` screen. */
export interface AdminScreen {
  page: string;
  title: string;
  /** The capability the signed-in user needs. */
  capability: string;
  handle(ctx: AppContext, request: ScreenRequest): Promise<ScreenResult>;
}

/** A notice an area puts on the dashboard for `user` ('' for none; markup escaped). */
export type DashboardNotice = (ctx: AppContext, user: SiteUser) => Promise<string>;

declare module '../area.js' {
  interface ExtensionPoints {
    adminScreens: AdminScreen;
    dashboardNotice: DashboardNotice;
  }
}

const NOT_ALLOWED = 'Sorry, you are not allowed to access this page.';

/** GET/POST `admin.php`. */
export async function adminScreen(ctx: AppContext, dispatcher: Dispatcher<AppContext>, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const session = await pageSession(ctx, request);
  if (!session) return redirect(reply, signInUrlFor(ctx, request));
  const site = await siteName(ctx);
  const { query, form } = requestParams(request);
  const page = str(query.page) ?? '';
  const screen = ctx.areas.contributions('adminScreens').find((s) => s.page === page);
  // CASE: WordPress answers an unknown `page` as it answers a missing capability.
  if (!screen || !session.user.can(screen.capability)) return sendPage(reply, 403, diePage('Error', site, NOT_ALLOWED));
  const subject = sessionSubject(session);
  const action = `admin-screen:${page}`;
  if (request.method === 'POST' && !(await verifyNonce(ctx, subject, action, form._wpnonce))) {
    return sendPage(reply, 403, diePage(screen.title, site, 'The link you followed has expired.', { text: 'Please try again.', url: adminUrl(ctx, 'admin.php', { page }) }));
  }
  const nonce = await createNonce(ctx, subject, action);
  const result = await screen.handle(ctx, {
    user: session.user,
    query,
    form: request.method === 'POST' ? form : undefined,
    url: (extra = {}) => adminUrl(ctx, 'admin.php', { page, ...extra }),
    nonceField: `<input type="hidden" name="_wpnonce" value="${esc(nonce)}">`,
    async rest(route, restQuery = {}) {
      const res = await dispatcher.dispatch(createRestRequest({ method: 'GET', route, query: restQuery, user: session.user, auth: subject.auth, ip: request.ip }));
      return res.data instanceof RestError ? { error: res.data.message } : { data: valueOf(res.data) };
    },
  });
  if ('redirect' in result) return redirect(reply, result.redirect);
  return sendPage(reply, result.status ?? 200, layout(screen.title, site, result.body));
}
