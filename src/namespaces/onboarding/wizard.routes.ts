/**
 * @module namespaces/onboarding/wizard.routes
 * `POST /calendar/v2/onboarding/wizard`. The `action_nonce` (action `_tec_wizard`) is checked before
 * the capability, as WordPress runs validate callbacks first: a bad nonce is the validator's
 * `tec_invalid_nonce` (403 in its data) wrapped in a 400 `rest_invalid_param`.
 */
import { switchArea } from '../../area-state.js';
import type { AppContext } from '../../app-context.js';
import { verifyNonce } from '../../auth/index.js';
import { CoreErrors, RestError } from '../../rest/errors.js';
import type { Dispatcher } from '../../rest/dispatch.js';
import { createRestRequest } from '../../rest/request.js';
import { CREATABLE, defineRoutes, RestResponse, type RestRequest } from '../../rest/route.js';
import { valueOf } from '../../rest/serve.js';
import { OnboardingErrors } from './errors.js';
import { runWizard, type LinkedCreator } from './wizard.service.js';

export const ONBOARDING_NS = 'calendar/v2/onboarding';
export const WIZARD_NONCE_ACTION = '_tec_wizard';

/** Dispatchers by app, set when the area's pages register (the steps create venues through the events API). */
const dispatchers = new WeakMap<AppContext, Dispatcher<AppContext>>();
export function useWizardDispatcher(ctx: AppContext, dispatcher: Dispatcher<AppContext>): void {
  dispatchers.set(ctx, dispatcher);
}

async function permission(req: RestRequest, ctx: AppContext): Promise<boolean | RestError> {
  if (!(await verifyNonce(ctx, req, WIZARD_NONCE_ACTION, req.params.action_nonce))) return OnboardingErrors.invalidNonce();
  return req.user?.can('manage_options') ? true : CoreErrors.forbidden(req.user !== null);
}

function creator(ctx: AppContext, req: RestRequest): LinkedCreator {
  return async (kind, fields) => {
    const dispatcher = dispatchers.get(ctx);
    if (!dispatcher) return { error: 'no dispatcher', status: 500 };
    const res = await dispatcher.dispatch(createRestRequest({ method: 'POST', route: `/eventsuite/events/v1/${kind}`, json: fields, headers: { 'content-type': 'application/json' }, user: req.user, auth: req.auth, ip: req.ip }));
    if (res.data instanceof RestError) return { error: res.data.message, status: res.status };
    return { id: Number((valueOf(res.data) as { id: number }).id) };
  };
}

async function wizard(req: RestRequest, ctx: AppContext): Promise<RestResponse> {
  const answer = await runWizard(ctx, { ...req.query, ...req.body, ...req.json }, {
    create: creator(ctx, req),
    ticketsOn: () => ctx.areas.isEnabled('tickets'),
    // "Install and activate Event Tickets": the tickets area, switched on for every process and kept so.
    enableTickets: async () => {
      await switchArea(ctx, 'tickets', true);
      return ctx.areas.isEnabled('tickets');
    },
  });
  return new RestResponse(answer.body, answer.status);
}

export const onboardingRoutes = defineRoutes<AppContext>(ONBOARDING_NS, [
  {
    path: '/wizard',
    endpoints: [{
      methods: CREATABLE, handler: wizard, permission,
      args: { action_nonce: { type: 'string', description: 'The action nonce for the request.', required: true } },
    }],
  },
]);
