/**
 * @module namespaces/core/users.routes
 * `GET /core/v2/users/me` (clients use it to check their credentials) and `GET /core/v2/users/{id}`.
 * A user is visible to themselves, to users with `list_users`, to those who may edit them, and to
 * everyone once they have published content; `context=edit` of others needs `list_users`.
 */
import type { AppContext } from '../../app-context.js';
import { AuthErrors, canEditUser, getUser } from '../../auth/index.js';
import { contextArg, idArg } from '../../rest/args.js';
import { allowAll, authorizationStatus } from '../../rest/permissions.js';
import { READABLE, type Permission, type RestRequest, type RouteDef } from '../../rest/route.js';
import { CoreRouteErrors } from './errors.js';
import { presentUser } from './users.present.js';

async function hasPublishedPosts(ctx: AppContext, userId: number): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('posts')
    .select('id')
    .where('author', '=', userId)
    .where('status', '=', 'publish')
    .where('type', 'in', ctx.areas.postTypes.publicTypes())
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

function contextOf(req: RestRequest): string {
  return typeof req.params.context === 'string' ? req.params.context : 'view';
}

const canViewUser: Permission<AppContext> = async (req, ctx) => {
  const user = await getUser(ctx, Number(req.params.id));
  if (!user) return AuthErrors.userInvalidId();
  if (req.user?.id === user.id) return true;
  const listUsers = req.user?.can('list_users') ?? false;
  if (contextOf(req) === 'edit') return listUsers ? true : CoreRouteErrors.cannotViewUser(authorizationStatus(req));
  if (listUsers || canEditUser(req.user, user.id) || (await hasPublishedPosts(ctx, user.id))) return true;
  return CoreRouteErrors.cannotViewUser(authorizationStatus(req));
};

async function getCurrentUser(req: RestRequest, ctx: AppContext) {
  if (!req.user) throw CoreRouteErrors.notLoggedIn();
  const user = await getUser(ctx, req.user.id);
  if (!user) throw CoreRouteErrors.notLoggedIn();
  return presentUser(ctx, user, contextOf(req));
}

async function getUserById(req: RestRequest, ctx: AppContext) {
  const user = await getUser(ctx, Number(req.params.id));
  if (!user) throw AuthErrors.userInvalidId();
  return presentUser(ctx, user, contextOf(req));
}

/** The user routes of `core/v2`. */
export const userRoutes: RouteDef<AppContext>[] = [
  {
    path: '/users/me',
    endpoints: [{ methods: READABLE, args: { context: contextArg('view') }, permission: allowAll, handler: getCurrentUser }],
  },
  {
    path: '/users/{id}',
    endpoints: [
      { methods: READABLE, args: { id: idArg('Unique identifier for the user.'), context: contextArg('view') }, permission: canViewUser, handler: getUserById },
    ],
  },
];
