/**
 * @module rest/permissions
 * Shared permission checks. A check returns true, false (→ `rest_forbidden`, 401 signed out / 403
 * signed in) or a RestError.
 */
import { RestError } from './errors.js';
import type { Permission, RestRequest } from './route.js';

/** Public route. */
export const allowAll: Permission = () => true;

/** Any signed-in user. */
export const requireLogin: Permission = (req: RestRequest) => req.user !== null;

/** Users holding `capability`; optionally with the original's own error code and message. */
export function requireCapability(capability: string, error?: { code: string; message: string }): Permission {
  return (req: RestRequest) => {
    if (req.user?.can(capability)) return true;
    return error ? new RestError(error.code, error.message, req.user ? 403 : 401) : false;
  };
}

/** 401 when signed out, 403 when signed in: `rest_authorization_required_code()`. */
export function authorizationStatus(req: RestRequest): 401 | 403 {
  return req.user ? 403 : 401;
}
