/**
 * @module namespaces/calendar-views/views.routes
 * `GET|POST /eventsuite/views/v2/html`: the view container markup for a calendar URL, as `text/html`
 * (the original up to 6.11.0). At least one of the two `_view_rest` nonces must verify: the primary
 * for the signed-in visitor, the secondary for a signed-out one (cached pages carry that one). A
 * browser signed in by cookie alone is that user when the primary verifies for them.
 */
import type { AppContext } from '../../app-context.js';
import { verifyNonce } from '../../auth/index.js';
import type { NonceSubject } from '../../auth/nonces.js';
import { readSession } from '../../auth/session.js';
import { CoreErrors } from '../../rest/errors.js';
import { RawBody } from '../../rest/json-text.js';
import { NO_CACHE } from '../../http/headers.js';
import { loadOnce } from '../../rest/locals.js';
import { defineRoutes, RestResponse, type ArgSchema, type RestRequest } from '../../rest/route.js';
import { renderView, VIEWS_NS } from './views.service.js';

export const VIEW_NONCE_ACTION = '_view_rest';

const str = (description: string, required = false): ArgSchema => ({ description, type: 'string', ...(required ? { required: true } : {}) });

const ARGS: Record<string, ArgSchema> = {
  url: str('The URL of the calendar page to render.', true),
  view: str('The view slug: month, list, day or latest-past.'),
  _tec_view_rest_nonce_primary: str('Nonce for the current user (action _view_rest).'),
  _tec_view_rest_nonce_secondary: str('Nonce for a signed-out visitor (action _view_rest).'),
  view_data: { description: 'Overrides from the events bar, e.g. tribe-bar-search and tribe-bar-date.', type: 'object' },
  action: str('The admin-ajax fallback action.'),
};

/**
 * Who the view is rendered for. The calendar's script sends the sign-in cookie but no REST nonce, so
 * the request arrives anonymous; as the original (`preserve_user_for_custom_nonces`), the cookie's user
 * is kept when the primary nonce verifies for them.
 */
async function viewCaller(req: RestRequest, ctx: AppContext): Promise<NonceSubject> {
  // Once per request: the permission (also for the Allow header) and the handler ask.
  const caller = await loadOnce(req, 'viewCaller', async (): Promise<NonceSubject> => {
    if (req.user === null && req.auth.method === 'none' && req.headers.cookie) {
      const session = await readSession(ctx, req.headers.cookie);
      const subject: NonceSubject | null = session ? { user: session.user, auth: { method: 'cookie', sessionToken: session.token } } : null;
      if (subject && (await verifyNonce(ctx, subject, VIEW_NONCE_ACTION, req.params._tec_view_rest_nonce_primary))) return subject;
    }
    return { user: req.user, auth: req.auth };
  });
  return caller!;
}

declare module '../../rest/route.js' {
  interface RequestLocals {
    /** Who a view is rendered for (see {@link viewCaller}). */
    viewCaller?: NonceSubject;
  }
}

/** The caller of a request whose nonces verify (the primary for the caller, else the signed-out secondary); null otherwise. */
async function verifiedCaller(req: RestRequest, ctx: AppContext): Promise<NonceSubject | null> {
  const caller = await viewCaller(req, ctx);
  if (await verifyNonce(ctx, caller, VIEW_NONCE_ACTION, req.params._tec_view_rest_nonce_primary)) return caller;
  const anonymous: NonceSubject = { user: null, auth: { method: 'none' } };
  return (await verifyNonce(ctx, anonymous, VIEW_NONCE_ACTION, req.params._tec_view_rest_nonce_secondary)) !== false ? caller : null;
}

function truthy(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'true';
}

async function html(req: RestRequest, ctx: AppContext): Promise<RestResponse> {
  const caller = { ...(await viewCaller(req, ctx)), ip: req.ip };
  const viewData = (req.params.view_data ?? {}) as Record<string, unknown>;
  const url = typeof viewData.url === 'string' && viewData.url !== '' ? viewData.url : String(req.params.url);
  const out = (await renderView(ctx, caller, {
    url, ...(typeof req.params.view === 'string' && req.params.view !== '' ? { view: req.params.view } : {}), viewData,
    ...(typeof req.params.prev_url === 'string' ? { prevUrl: req.params.prev_url } : {}),
    shouldManageUrl: req.params.should_manage_url === undefined ? true : truthy(req.params.should_manage_url),
  })) ?? (await renderView(ctx, caller, { url: `${ctx.urls.home}/events/`, viewData }))!;
  // Rendered for the cookie's user, the request itself being signed out: the no-cache headers the REST
  // host gives signed-in answers, as WordPress does for cookie requests (rest_cookie_check_errors).
  const headers = caller.user !== null && req.user === null ? { ...NO_CACHE } : {};
  return new RestResponse(new RawBody('text/html; charset=UTF-8', out.html), 200, headers);
}

export const viewsRoutes = defineRoutes<AppContext>(VIEWS_NS, [
  {
    path: '/html',
    endpoints: [{
      methods: ['GET', 'POST'], args: ARGS, handler: html,
      permission: async (req, ctx) => ((await verifiedCaller(req, ctx)) ? true : CoreErrors.forbidden(req.user !== null)),
    }],
  },
]);
