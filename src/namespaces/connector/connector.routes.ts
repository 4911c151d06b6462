/**
 * @module namespaces/connector/connector.routes
 * `connector/v4` (the original `jetpack/v4` of the connection package), in its registration order.
 */
import type { AppContext } from '../../app-context.js';
import { verifyNonce } from '../../auth/nonces.js';
import { CoreErrors } from '../../rest/errors.js';
import { allowAll } from '../../rest/permissions.js';
import { EDITABLE, READABLE, defineRoutes, type RestRequest } from '../../rest/route.js';
import { requireMeta, userCan } from './access.js';
import { connectionData, connectionStatus, disconnectSite, heartbeatData, reconnect, setConnectionOwner, updateUserToken } from './connection.service.js';
import { CONNECTOR_MESSAGES, ConnectorErrors, permissionError } from './errors.js';
import { authorizeUrl, remoteAuthorize, remoteConnect, remoteProvision, remoteRegister, tryRegistration, verifyRegistration } from './registration.service.js';
import { isSignedWithBlogToken } from './signed-request.js';
import { hasConnectedOwner, loadState, verifySignatureError } from './state.js';
import './extensions.js';

export const CONNECTOR_NS = 'connector/v4';

/** The nonce action of `connection/register` for cookie-authenticated callers. */
export const REGISTRATION_NONCE_ACTION = 'jetpack-registration-nonce';

/**
 * Parameters of a hub handshake: the request body only, since a signed request's query string holds
 * the signature's own `token`, `timestamp` and `nonce`.
 */
function handshakeParams(req: RestRequest): Record<string, unknown> {
  return { ...req.body, ...(req.json ?? {}) };
}

async function handleVerifyRegistration(req: RestRequest, ctx: AppContext) {
  // CASE: the original registers this route only while the site has no connected owner.
  if (hasConnectedOwner(await loadState(ctx))) return CoreErrors.noRoute();
  return verifyRegistration(ctx, req.params);
}

/**
 * `remote_authorize` is public and, as in the original, needs no signature: the `authorize` secret the
 * site issued must match, and the code is only good once the hub accepts it from the signed exchange.
 */
async function handleRemoteAuthorize(req: RestRequest, ctx: AppContext) {
  return remoteAuthorize(ctx, handshakeParams(req));
}

/** Signed by the hub, or an application-password user allowed to connect (without `local_user`). */
async function canRemoteProvision(req: RestRequest, ctx: AppContext) {
  const localUser = handshakeParams(req).local_user;
  const noLocalUser = localUser === undefined || localUser === '';
  if (noLocalUser && req.auth.method === 'app-password') {
    return (await userCan(ctx, req.user, 'connect_user')) || permissionError('invalid_user_permission_remote_provision', true);
  }
  return isSignedWithBlogToken(req) || permissionError('invalid_permission_remote_provision', req.user !== null);
}

async function handleRemoteProvision(req: RestRequest, ctx: AppContext) {
  const params = handshakeParams(req);
  if (req.auth.method === 'app-password' && req.user && (await userCan(ctx, req.user, 'connect_user'))) params.local_user = req.user.id;
  return remoteProvision(ctx, params);
}

async function canRemoteRegister(req: RestRequest, ctx: AppContext) {
  if (!hasConnectedOwner(await loadState(ctx))) return true;
  // CASE: upstream's error carries a bare 400 as data (HTTP 500); we answer 400.
  return isSignedWithBlogToken(req) || ConnectorErrors.alreadyRegistered();
}

async function handleDisconnect(_req: RestRequest, ctx: AppContext) {
  return disconnectSite(ctx);
}

async function handleRegister(req: RestRequest, ctx: AppContext) {
  if (req.auth.method === 'cookie' && !(await verifyNonce(ctx, req, REGISTRATION_NONCE_ACTION, req.params.registration_nonce))) {
    return ConnectorErrors.invalidNonce();
  }
  const str = (name: string) => (typeof req.params[name] === 'string' && req.params[name] !== '' ? (req.params[name] as string) : undefined);
  const { alternateAuthorizeUrl } = await tryRegistration(ctx, req.user!, { from: str('from'), plugin_slug: str('plugin_slug'), redirect_uri: str('redirect_uri') });
  // CASE: the original wraps a non-empty alternate URL in its own redirect service; we pass on the hub's URL.
  return { alternateAuthorizeUrl, authorizeUrl: await authorizeUrl(ctx, req.user!, str('redirect_uri')) };
}

async function handleAuthorizeUrl(req: RestRequest, ctx: AppContext) {
  const redirect = typeof req.params.redirect_uri === 'string' && req.params.redirect_uri !== '' ? req.params.redirect_uri : undefined;
  return { authorizeUrl: await authorizeUrl(ctx, req.user!, redirect) };
}

async function handlePlugins(_req: RestRequest, ctx: AppContext) {
  return ctx.areas.contributions('connectionUsers').map((p) => ({ name: p.name, slug: p.slug }));
}

async function canListPlugins(req: RestRequest) {
  return req.user?.can('activate_plugins') || permissionError('invalid_user_permission_activate_plugins', req.user !== null);
}

export const connectorRoutes = defineRoutes<AppContext>(CONNECTOR_NS, [
  { path: '/verify_registration', endpoints: [{ methods: EDITABLE, permission: allowAll, handler: handleVerifyRegistration }] },
  { path: '/remote_authorize', endpoints: [{ methods: EDITABLE, permission: allowAll, handler: handleRemoteAuthorize }] },
  { path: '/remote_provision', endpoints: [{ methods: EDITABLE, permission: canRemoteProvision, handler: handleRemoteProvision }] },
  { path: '/remote_register', endpoints: [{ methods: EDITABLE, permission: canRemoteRegister, handler: (req, ctx) => remoteRegister(ctx, handshakeParams(req)) }] },
  {
    path: '/remote_connect',
    endpoints: [{ methods: EDITABLE, permission: requireMeta(null, 'invalid_permission_remote_connect', { signed: true }), handler: (req, ctx) => remoteConnect(ctx, handshakeParams(req)) }],
  },
  {
    path: '/connection/check',
    endpoints: [{ methods: READABLE, permission: requireMeta('connect', 'invalid_permission_connection_check', { signed: true }), handler: () => ({ status: 'success' }) }],
  },
  {
    path: '/connection',
    endpoints: [
      { methods: READABLE, permission: allowAll, handler: (req, ctx) => connectionStatus(ctx, req.user) },
      {
        methods: EDITABLE,
        args: {
          isActive: {
            description: 'Set to false will trigger the site to disconnect.',
            required: true,
            validate: (value) => value === false || CONNECTOR_MESSAGES.isActiveFalse,
          },
        },
        permission: requireMeta('disconnect', 'invalid_user_permission_jetpack_disconnect', { signed: true }),
        handler: handleDisconnect,
      },
    ],
  },
  {
    path: '/connection/data',
    endpoints: [{ methods: READABLE, permission: requireMeta('connect_user', 'invalid_user_permission_user_connection_data'), handler: (req, ctx) => connectionData(ctx, req.user!) }],
  },
  { path: '/connection/plugins', endpoints: [{ methods: READABLE, permission: canListPlugins, handler: handlePlugins }] },
  {
    path: '/connection/reconnect',
    endpoints: [{ methods: EDITABLE, permission: requireMeta('reconnect', 'invalid_user_permission_jetpack_disconnect'), handler: (req, ctx) => reconnect(ctx, req.user!) }],
  },
  {
    path: '/connection/register',
    endpoints: [{
      methods: EDITABLE,
      args: {
        from: { description: 'Indicates where the registration action was triggered for tracking/segmentation purposes', type: 'string' },
        registration_nonce: { description: 'The registration nonce', type: 'string' },
        redirect_uri: { description: 'URI of the admin page where the user should be redirected after connection flow', type: 'string' },
        plugin_slug: { description: 'Indicates from what plugin the request is coming from', type: 'string' },
      },
      permission: requireMeta('connect', 'invalid_user_permission_jetpack_connect'),
      handler: handleRegister,
    }],
  },
  {
    path: '/connection/authorize_url',
    endpoints: [{
      methods: READABLE,
      args: { redirect_uri: { description: 'URI of the admin page where the user should be redirected after connection flow', type: 'string' } },
      permission: requireMeta('connect_user', 'invalid_user_permission_user_connection_data'),
      handler: handleAuthorizeUrl,
    }],
  },
  {
    path: '/user-token',
    endpoints: [{
      methods: EDITABLE,
      args: {
        user_token: { description: 'New user token', type: 'string', required: true },
        is_connection_owner: { description: 'Is connection owner', type: 'boolean' },
      },
      permission: requireMeta(null, 'invalid_permission_update_user_token', { signed: true }),
      handler: (req, ctx) => updateUserToken(ctx, String(req.params.user_token), req.has('is_connection_owner') ? req.params.is_connection_owner === true : undefined),
    }],
  },
  {
    path: '/connection/owner',
    endpoints: [{
      methods: EDITABLE,
      args: { owner: { description: 'New owner', type: 'integer', required: true } },
      permission: requireMeta('disconnect', 'invalid_user_permission_set_connection_owner'),
      handler: (req, ctx) => setConnectionOwner(ctx, Number(req.params.owner)),
    }],
  },
  {
    path: '/heartbeat/data',
    endpoints: [{
      methods: READABLE,
      args: { prefix: { description: 'Prefix to add before the stats identifiers.', type: 'string' } },
      permission: requireMeta('connect', 'invalid_permission_heartbeat_data', { signed: true }),
      handler: (req, ctx) => heartbeatData(ctx, typeof req.params.prefix === 'string' ? req.params.prefix : ''),
    }],
  },
  {
    path: '/verify_xmlrpc_error',
    endpoints: [{
      methods: ['POST'],
      args: { nonce: { description: 'The nonce of the error to verify.', type: 'string', required: true } },
      permission: allowAll,
      handler: (req, ctx) => verifySignatureError(ctx, String(req.params.nonce)),
    }],
  },
]);
