/**
 * @module namespaces/connector/access
 * The original's meta capabilities and offline mode, and the route permissions built on them.
 */
import type { AppContext } from '../../app-context.js';
import type { Permission, RestRequest, RestUser } from '../../rest/route.js';
import { permissionError } from './errors.js';
import { isSignedWithBlogToken } from './signed-request.js';
import { hasConnectedOwner, loadState } from './state.js';

export interface OfflineMode {
  isActive: boolean;
  constant: boolean;
  url: boolean;
  filter: boolean;
  wpLocalConstant: boolean;
}

/** Offline by configuration (`CONNECTOR_OFFLINE_MODE`) or because the site's host has no dot (localhost). */
export function offlineMode(ctx: AppContext): OfflineMode {
  const constant = ctx.config.connectorOffline;
  const url = !new URL(ctx.urls.home).hostname.includes('.');
  return { isActive: constant || url, constant, url, filter: false, wpLocalConstant: false };
}

export type MetaCap = 'connect' | 'reconnect' | 'disconnect' | 'connect_user';

/** `jetpack_connect`, `jetpack_reconnect`, `jetpack_disconnect`, `jetpack_connect_user`. */
export async function userCan(ctx: AppContext, user: RestUser | null, cap: MetaCap): Promise<boolean> {
  if (!user) return false;
  const offline = offlineMode(ctx).isActive;
  switch (cap) {
    case 'disconnect':
      return user.can('manage_options');
    case 'connect':
    case 'reconnect':
      return !offline && user.can('manage_options');
    case 'connect_user':
      if (offline) return false;
      return hasConnectedOwner(await loadState(ctx)) ? user.can('read') : user.can('manage_options');
  }
}

/** A permission: the meta capability, or (when `signed`) a blog-token signature; else the original's error code. */
export function requireMeta(cap: MetaCap | null, code: string, options: { signed?: boolean } = {}): Permission<AppContext> {
  return async (req: RestRequest, ctx: AppContext) => {
    if (cap && (await userCan(ctx, req.user, cap))) return true;
    if (options.signed && isSignedWithBlogToken(req)) return true;
    return permissionError(code, req.user !== null);
  };
}
