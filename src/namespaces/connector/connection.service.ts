/**
 * @module namespaces/connector/connection.service
 * The connection's state machine seen from the site: status, the current user's data, disconnect,
 * owner change, reconnect, user tokens from the hub, and the heartbeat statistics.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { getUser } from '../../auth/users.js';
import type { RestUser } from '../../rest/route.js';
import { APP_VERSION } from '../../app.js';
import { offlineMode, userCan } from './access.js';
import { ConnectorErrors } from './errors.js';
import { asRestError, blogSigner, hubOf } from './hub.js';
import { authorizeUrl, tryRegistration } from './registration.service.js';
import { forgetConnection, hasConnectedOwner, isRegistered, isUserConnected, loadState, saveState, userSigningToken } from './state.js';

export async function connectionStatus(ctx: AppContext, user: RestUser | null) {
  const state = await loadState(ctx);
  const blogPublic = await ctx.options.get<unknown>('blog_public', 1);
  return {
    isActive: hasConnectedOwner(state),
    isStaging: false,
    isRegistered: isRegistered(state),
    isUserConnected: user !== null && isUserConnected(state, user.id),
    hasConnectedOwner: hasConnectedOwner(state),
    offlineMode: offlineMode(ctx),
    isPublic: String(blogPublic) === '1',
  };
}

function gravatar(email: string): string {
  const hash = crypto.createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?s=64&d=mm&r=g`;
}

export async function connectionData(ctx: AppContext, user: RestUser) {
  const state = await loadState(ctx);
  const owner = hasConnectedOwner(state) ? await getUser(ctx, state.master_user!) : undefined;
  const connected = isUserConnected(state, user.id);
  let wpcomUser: Record<string, unknown> = {};
  if (connected) {
    try {
      wpcomUser = await hubOf(ctx).me({ token: userSigningToken(state, user.id)!, userId: user.id });
    } catch (e) {
      ctx.log.info({ err: e }, 'connector: hub profile unavailable');
    }
  }
  wpcomUser.avatar = typeof wpcomUser.email === 'string' && wpcomUser.email !== '' ? gravatar(wpcomUser.email) : false;
  return {
    currentUser: {
      isConnected: connected,
      isMaster: owner !== undefined && owner.id === user.id,
      username: user.login,
      id: user.id,
      blogId: state.id ?? false,
      wpcomUser,
      gravatar: gravatar(user.email),
      permissions: {
        connect: await userCan(ctx, user, 'connect'),
        connect_user: await userCan(ctx, user, 'connect_user'),
        disconnect: await userCan(ctx, user, 'disconnect'),
      },
    },
    connectionOwner: owner ? owner.displayName : null,
  };
}

/** Tells the hub (a failure is logged, not fatal: the site forgets the connection either way), then forgets every token. */
export async function disconnectSite(ctx: AppContext) {
  const state = await loadState(ctx);
  if (!isRegistered(state)) throw ConnectorErrors.disconnectFailed();
  try {
    await hubOf(ctx).disconnect(state.id!, blogSigner(state));
  } catch (e) {
    ctx.log.warn({ err: e instanceof Error ? e.message : String(e) }, 'connector: the hub was not told about the disconnect');
  }
  await forgetConnection(ctx);
  return { code: 'success' };
}

export async function setConnectionOwner(ctx: AppContext, newOwnerId: number) {
  const state = await loadState(ctx);
  const newOwner = await getUser(ctx, newOwnerId);
  if (!newOwner || !newOwner.roles.includes('administrator')) throw ConnectorErrors.newOwnerNotAdmin();
  if (state.master_user === newOwnerId) throw ConnectorErrors.newOwnerIsExisting();
  if (!isUserConnected(state, newOwnerId)) throw ConnectorErrors.newOwnerNotConnected();
  try {
    await hubOf(ctx).switchOwner(state.id!, blogSigner(state), newOwnerId);
  } catch (e) {
    ctx.log.warn({ err: e instanceof Error ? e.message : String(e) }, 'connector: the hub refused the owner change');
    throw ConnectorErrors.errorSettingOwner();
  }
  await saveState(ctx, { ...(await loadState(ctx)), master_user: newOwnerId });
  return { code: 'success' };
}

/** Longest user token accepted (the hub's are far shorter). */
const MAX_TOKEN_LENGTH = 512;

/** `user-token`: the hub hands a user token `key.secret.<user id>` to the site. */
export async function updateUserToken(ctx: AppContext, token: string, isOwner: boolean | undefined) {
  const parts = token.split('.');
  if (token.length > MAX_TOKEN_LENGTH || parts.length !== 3 || !/^[1-9]\d*$/.test(parts[2]!) || parts[0] === '' || parts[1] === '') throw ConnectorErrors.invalidUserToken();
  const userId = Number(parts[2]);
  if (!(await getUser(ctx, userId))) throw ConnectorErrors.invalidUserId();
  const state = await loadState(ctx);
  if (!isRegistered(state)) throw ConnectorErrors.siteNotConnected();
  const owner = isOwner ?? state.master_user === userId;
  await saveState(ctx, { ...state, user_tokens: { ...state.user_tokens, [String(userId)]: token }, master_user: owner ? userId : state.master_user });
  return { success: true };
}

/**
 * `connection/reconnect`, as the original's `restore()`: a site-level connection (registered, no
 * owner) is reconnected in full and that completes it; otherwise the site is reconnected in full and
 * the user is sent to authorize again. CASE: the original first asks which token is broken and, when
 * only one is, repairs just that one (a refreshed blog token answers `completed`); the hub here
 * offers no token refresh, so every repair is the full reconnection the original makes when both
 * tokens look healthy, both are broken or the check fails.
 */
export async function reconnect(ctx: AppContext, user: RestUser) {
  const before = await loadState(ctx);
  const siteConnection = isRegistered(before) && !hasConnectedOwner(before);
  if (isRegistered(before)) {
    // The original tells the hub first (`jetpack.deregister`); a dead token makes that fail, which is no reason to stop.
    try {
      await hubOf(ctx).disconnect(before.id!, blogSigner(before));
    } catch (e) {
      ctx.log.warn({ err: e instanceof Error ? e.message : String(e) }, 'connector: the hub was not told about the reconnection');
    }
  }
  await forgetConnection(ctx);
  try {
    await tryRegistration(ctx, user);
  } catch (e) {
    // The original's answer when the hub fails the new registration: `Reconnect failed` (500, the
    // remote's failure, not the client's).
    const error = asRestError(e);
    throw error.status >= 500 ? ConnectorErrors.reconnectFailed() : error;
  }
  if (siteConnection) return { status: 'completed' };
  return { status: 'in_progress', authorizeUrl: await authorizeUrl(ctx, user) };
}

/** The heartbeat statistics, each key prefixed; an empty list when there is nothing to report. */
export async function heartbeatData(ctx: AppContext, prefix: string): Promise<Record<string, unknown> | []> {
  const stats: Record<string, unknown> = {
    version: APP_VERSION,
    'is-https': new URL(ctx.urls.home).protocol === 'https:' ? 'https' : 'http',
    'site-public': String(await ctx.options.get<unknown>('blog_public', 1)) === '1' ? 'public' : 'private',
  };
  const counts = await ctx.db
    .selectFrom('posts')
    .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', '=', 'publish')
    .where('type', 'in', ctx.areas.postTypes.publicTypes())
    .groupBy('type')
    .execute();
  for (const c of counts) stats[`qty-${c.type}`] = Number(c.n);
  for (const area of ctx.areas.enabled()) stats[`module-${area.id}`] = 'on';
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(stats)) out[`${prefix}${k}`] = v;
  return Object.keys(out).length ? out : [];
}
