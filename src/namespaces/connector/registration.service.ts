/**
 * @module namespaces/connector/registration.service
 * Registering the site with the hub, the authorize URL, and the hub-initiated handshakes:
 * `verify_registration`, `remote_authorize`, `remote_provision`, `remote_register`, `remote_connect`.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { findUserByEmail, findUserByLogin, getUser } from '../../auth/users.js';
import type { RestUser } from '../../rest/route.js';
import { APP_VERSION } from '../../app.js';
import { handshakeError } from './errors.js';
import { asRestError, blogSigner, hubOf } from './hub.js';
import { generateSecrets, hasConnectedOwner, isRegistered, isUserConnected, loadState, saveState, verifySecrets, type ConnectionState } from './state.js';

/**
 * Registers the site with the hub: stores the site id and blog token. Also answers the hub's
 * alternate authorize URL (`''` when it sends none), which `connection/register` passes on.
 */
export async function tryRegistration(
  ctx: AppContext, user: RestUser, extra: { from?: string; plugin_slug?: string; redirect_uri?: string } = {},
): Promise<{ state: ConnectionState; alternateAuthorizeUrl: string }> {
  const hub = hubOf(ctx);
  const secrets = await generateSecrets(ctx, 'register', user.id);
  let result: { id: number; blogToken: string; alternateAuthorizeUrl: string };
  try {
    result = await hub.register({
      siteurl: ctx.urls.home,
      home: ctx.urls.home,
      site_name: String(await ctx.options.get('blogname')),
      secret_1: secrets.secret_1,
      secret_2: secrets.secret_2,
      state: user.id,
      redirect_uri: extra.redirect_uri ?? `${ctx.urls.admin}`,
      version: APP_VERSION,
      ...(extra.from !== undefined ? { from: extra.from } : {}),
      ...(extra.plugin_slug ? { plugin_slug: extra.plugin_slug } : {}),
    });
  } catch (e) {
    throw asRestError(e);
  }
  const state = await loadState(ctx);
  // A new registration invalidates every token of the old one.
  const next: ConnectionState = { ...state, id: result.id, blog_token: result.blogToken, user_tokens: {}, master_user: null };
  await saveState(ctx, next);
  return { state: next, alternateAuthorizeUrl: result.alternateAuthorizeUrl };
}

/**
 * `role:hmac` the hub passes back unchanged, so it cannot grant a role the site did not offer: Jetpack's
 * `Tokens::sign_role`, the hex HMAC-MD5 of `role|user id` keyed with the whole blog token (`key.secret`),
 * which the real hub checks.
 */
function signedRole(state: ConnectionState, user: RestUser): string {
  const role = user.roles[0] ?? 'subscriber';
  return `${role}:${crypto.createHmac('md5', state.blog_token!).update(`${role}|${user.id}`).digest('hex')}`;
}

/** The hub's authorize page for `user`, with fresh `authorize` secrets. */
export async function authorizeUrl(ctx: AppContext, user: RestUser, redirectUri?: string): Promise<string> {
  const state = await loadState(ctx);
  if (!isRegistered(state)) throw handshakeError('site_not_registered', 'Site not registered.');
  const secrets = await generateSecrets(ctx, 'authorize', user.id);
  return hubOf(ctx).authorizeUrl({
    response_type: 'code',
    client_id: String(state.id),
    redirect_uri: redirectUri ? new URL(redirectUri.replace(/^\/+/, ''), ctx.urls.admin).toString() : ctx.urls.admin,
    state: String(user.id),
    scope: signedRole(state, user),
    user_email: user.email,
    user_login: user.login,
    is_active: hasConnectedOwner(state) ? '1' : '0',
    jp_version: APP_VERSION,
    secret: secrets.secret_1,
    blogname: String(await ctx.options.get('blogname')),
    site_url: ctx.urls.home,
    home_url: ctx.urls.home,
  });
}

/** `verify_registration`: the hub proves it got our `secret_1`; we answer `secret_2`. */
export async function verifyRegistration(ctx: AppContext, params: Record<string, unknown>): Promise<string> {
  const result = await verifySecrets(ctx, 'register', params.secret_1, params.state);
  if ('code' in result) throw handshakeError(result.code, result.message);
  return result.secret2;
}

/** `remote_authorize`: the hub hands over an authorization code for user `state`; we exchange it for the user's token. */
export async function remoteAuthorize(ctx: AppContext, params: Record<string, unknown>): Promise<{ result: string }> {
  for (const name of ['secret', 'state', 'redirect_uri', 'code']) {
    if (params[name] === undefined || params[name] === null || params[name] === '') {
      throw handshakeError('missing_parameter', 'One or more parameters is missing from the request.');
    }
  }
  const userId = Number(params.state);
  const user = Number.isInteger(userId) && userId > 0 ? await getUser(ctx, userId) : undefined;
  if (!user) throw handshakeError('user_unknown', 'User not found.', 404);
  let state = await loadState(ctx);
  if (!isRegistered(state)) throw handshakeError('no_token', 'Error generating token.');
  if (hasConnectedOwner(state) && isUserConnected(state, userId)) throw handshakeError('already_connected', 'User already connected.');
  const verified = await verifySecrets(ctx, 'authorize', params.secret, params.state);
  if ('code' in verified) throw handshakeError(verified.code, verified.message);
  let token: string;
  try {
    token = await hubOf(ctx).exchangeCode(blogSigner(state), {
      code: String(params.code), client_id: state.id, redirect_uri: String(params.redirect_uri), grant_type: 'authorization_code', state: userId,
    });
  } catch (e) {
    throw asRestError(e);
  }
  state = await loadState(ctx);
  const becomesOwner = !hasConnectedOwner(state);
  await saveState(ctx, {
    ...state,
    user_tokens: { ...state.user_tokens, [String(userId)]: `${token}.${userId}` },
    master_user: becomesOwner ? userId : state.master_user,
  });
  return { result: 'authorized' };
}

/** A local user named by login, email or id (`local_user`). */
async function localUser(ctx: AppContext, value: unknown): Promise<RestUser | undefined> {
  if (value === undefined || value === null || value === '') return undefined;
  const s = String(value);
  return (await findUserByLogin(ctx, s)) ?? (await findUserByEmail(ctx, s)) ?? (/^\d+$/.test(s) ? await getUser(ctx, Number(s)) : undefined);
}

function requireLocalUser(value: unknown): void {
  if (value === undefined || value === null || value === '') throw handshakeError('local_user_missing', 'The required "local_user" parameter is missing.');
}

/** `remote_provision`: what the hub needs to send `local_user` through authorization. */
export async function remoteProvision(ctx: AppContext, params: Record<string, unknown>) {
  requireLocalUser(params.local_user);
  const user = await localUser(ctx, params.local_user);
  if (!user) throw handshakeError('input_error', 'Valid user is required');
  const state = await loadState(ctx);
  if (!isRegistered(state)) throw handshakeError('site_not_registered', 'Site not registered.');
  const secrets = await generateSecrets(ctx, 'authorize', user.id);
  return {
    jp_version: APP_VERSION,
    redirect_uri: ctx.urls.admin,
    user_id: user.id,
    user_email: user.email,
    user_login: user.login,
    scope: signedRole(state, user),
    secret: secrets.secret_1,
    is_active: hasConnectedOwner(state),
  };
}

/** `remote_register`: the hub asks the site to register on behalf of `local_user`, vouched for by a partner nonce. */
export async function remoteRegister(ctx: AppContext, params: Record<string, unknown>) {
  requireLocalUser(params.local_user);
  const user = await localUser(ctx, params.local_user);
  if (!user) throw handshakeError('input_error', 'Valid user is required');
  if (typeof params.nonce !== 'string' || params.nonce === '') throw handshakeError('nonce_missing', 'The required "nonce" parameter is missing.');
  let valid: boolean;
  try {
    valid = await hubOf(ctx).partnerNonceValid(params.nonce);
  } catch (e) {
    throw asRestError(e);
  }
  if (!valid) throw handshakeError('invalid_nonce', 'There was an issue validating this request.');
  let state = await loadState(ctx);
  if (!isRegistered(state) || params.force) state = (await tryRegistration(ctx, user, { from: typeof params.from === 'string' ? params.from : undefined })).state;
  return { client_id: state.id };
}

/** `remote_connect`: makes `local_user` the owner with a user token fetched from the hub. */
export async function remoteConnect(ctx: AppContext, params: Record<string, unknown>): Promise<boolean> {
  let state = await loadState(ctx);
  if (hasConnectedOwner(state)) throw handshakeError('already_connected', 'Jetpack is already connected.');
  const user = await localUser(ctx, params.local_user);
  if (!user) throw handshakeError('input_error', 'Valid user is required.');
  if (typeof params.nonce !== 'string' || params.nonce === '') throw handshakeError('input_error', 'A non-empty nonce must be supplied.');
  let token: string;
  try {
    token = await hubOf(ctx).userToken(state.id!, blogSigner(state), params.nonce, user.id);
  } catch {
    throw handshakeError('token_fetch_failed', 'Failed to fetch user token from WordPress.com.');
  }
  state = await loadState(ctx);
  state = { ...state, user_tokens: { ...state.user_tokens, [String(user.id)]: `${token}.${user.id}` }, master_user: user.id };
  await saveState(ctx, state);
  return hasConnectedOwner(state);
}
