/**
 * @module namespaces/connector/errors
 * Error catalogue of the site connector; codes and texts are the original's.
 */
import { CoreErrors, RestError } from '../../rest/errors.js';

export const CONNECTOR_MESSAGES = {
  userPermissions: 'You do not have the correct user permissions to perform this action.\n\t\t\tPlease contact your site admin if you think this is a mistake.',
  isActiveFalse: 'The isActive argument should be set to false.',
  disconnectFailed: 'Failed to disconnect the site as it appears already disconnected.',
  invalidNonce: 'Unable to verify your request.',
  invalidUserToken: 'Invalid user token is provided',
  invalidUserId: 'Invalid user id is provided',
  siteNotConnected: 'Site is not connected',
  newOwnerNotAdmin: 'New owner is not admin',
  newOwnerIsExisting: 'New owner is same as existing owner',
  newOwnerNotConnected: 'New owner is not connected',
  errorSettingOwner: 'Could not confirm new owner.',
  reconnectFailed: 'Reconnect failed',
  alreadyRegistered: 'Blog is already registered',
  hubNotConfigured: 'No connection hub is configured (REMOTE_CONNECTOR_URL).',
  invalidSignature: 'The request is not signed correctly.',
  signedMethodNotSupported: 'This request method is not supported.',
} as const;

/** A permission error of the original (`invalid_user_permission_*` / `invalid_permission_*`), 401 signed out, 403 signed in. */
export function permissionError(code: string, signedIn: boolean): RestError {
  return new RestError(code, CONNECTOR_MESSAGES.userPermissions, signedIn ? 403 : 401);
}

/** An error of the hub handshakes, as the XML-RPC server words it: `Jetpack: [code] message`. */
export function handshakeError(code: string, message: string, status = 400): RestError {
  // CASE: the original turns these into WP_Errors without a status (HTTP 500) whose code is the
  // XML-RPC status number; they are the caller's mistakes, so we answer their status with the named code.
  return new RestError(code, `Jetpack: [${code}] ${message}`, status);
}

export const ConnectorErrors = {
  disconnectFailed: () => new RestError('disconnect_failed', CONNECTOR_MESSAGES.disconnectFailed, 400),
  invalidNonce: () => new RestError('invalid_nonce', CONNECTOR_MESSAGES.invalidNonce, 403),
  // CASE: the next three have no status upstream (HTTP 500); they are client mistakes: 400.
  invalidUserToken: () => new RestError('invalid_argument_user_token', CONNECTOR_MESSAGES.invalidUserToken, 400),
  invalidUserId: () => new RestError('invalid_argument_user_id', CONNECTOR_MESSAGES.invalidUserId, 400),
  siteNotConnected: () => new RestError('site_not_connected', CONNECTOR_MESSAGES.siteNotConnected, 400),
  newOwnerNotAdmin: () => new RestError('new_owner_not_admin', CONNECTOR_MESSAGES.newOwnerNotAdmin, 400),
  newOwnerIsExisting: () => new RestError('new_owner_is_existing_owner', CONNECTOR_MESSAGES.newOwnerIsExisting, 400),
  newOwnerNotConnected: () => new RestError('new_owner_not_connected', CONNECTOR_MESSAGES.newOwnerNotConnected, 400),
  errorSettingOwner: () => new RestError('error_setting_new_owner', CONNECTOR_MESSAGES.errorSettingOwner, 500),
  reconnectFailed: () => new RestError('reconnect_failed', CONNECTOR_MESSAGES.reconnectFailed, 500),
  alreadyRegistered: () => new RestError('already_registered', CONNECTOR_MESSAGES.alreadyRegistered, 400),
  /** Not a client mistake, but the shared rule is that no input earns a 5xx: 400 with a code of our own. */
  hubNotConfigured: () => new RestError('connector_hub_not_configured', CONNECTOR_MESSAGES.hubNotConfigured, 400),
  /** A hub-signed request whose signature does not verify (the reason is recorded, not answered). */
  invalidSignature: () => new RestError('rest_invalid_signature', CONNECTOR_MESSAGES.invalidSignature, 400),
  /** Signatures cover GET and POST only (another method travels as `_method`); the core's code. */
  signedMethodNotSupported: () => CoreErrors.invalidRequest(CONNECTOR_MESSAGES.signedMethodNotSupported, 400),
  /** A failed hub call, with the original's code (`wpcom_408`, `jetpack_secret`, …). */
  hub: (code: string, message: string) => new RestError(code, message, 502),
} as const;
