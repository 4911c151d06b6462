/**
 * @module namespaces/core/application-passwords.routes
 * `/core/v2/users/{user_id}/application-passwords`: list, create, delete all; `/introspect`; and one
 * password by UUID (read, rename, delete). Every check resolves the user first (availability → `me`
 * without a user → unknown user → disabled for the user) and then the `edit_user` meta capability:
 * one's own passwords, or anyone's with `edit_users`. None of these routes is batchable.
 */
import type { AppContext } from '../../app-context.js';
import {
  AuthErrors,
  applicationPasswordsAvailable,
  canEditUser,
  createApplicationPassword,
  deleteAllApplicationPasswords,
  deleteApplicationPassword,
  getApplicationPassword,
  getUser,
  listApplicationPasswords,
  renameApplicationPassword,
  type SiteUser,
} from '../../auth/index.js';
import { contextArg } from '../../rest/args.js';
import { RestError } from '../../rest/errors.js';
import { authorizationStatus } from '../../rest/permissions.js';
import {
  CREATABLE,
  DELETABLE,
  EDITABLE,
  READABLE,
  respond,
  type ArgSchema,
  type Permission,
  type RestRequest,
  type RouteDef,
} from '../../rest/route.js';
import { applicationPasswordSchema, applicationPasswordUrl, presentApplicationPassword } from './application-passwords.present.js';
import { CoreRouteErrors } from './errors.js';

const BASE = '/users/{user_id:(?:[\\d]+|me)}/application-passwords';

// ---- Args

const userIdArg: ArgSchema = { description: 'Unique identifier for the user, or "me" for the current user.', type: 'string' };
const uuidArg: ArgSchema = { description: 'The unique identifier for the application password.', type: 'string' };
const appIdArg: ArgSchema = {
  description: 'A uuid provided by the application to uniquely identify it. It is recommended to use an UUID v5 with the URL or DNS namespace.',
  oneOf: [{ type: 'string', format: 'uuid' }, { type: 'string', enum: [''] }],
};
const nameArg = (required: boolean): ArgSchema => ({
  description: 'The name of the application password.',
  type: 'string',
  minLength: 1,
  pattern: '.*\\S.*',
  ...(required ? { required: true } : {}),
});

// ---- The user a request is about (resolved once per request, shared by permission and handler)

const resolved = new WeakMap<RestRequest, Promise<SiteUser | RestError>>();

async function resolveUser(req: RestRequest, ctx: AppContext): Promise<SiteUser | RestError> {
  if (!applicationPasswordsAvailable(ctx.config)) return AuthErrors.appPasswordsDisabled(501);
  const raw = req.urlParams.user_id ?? '';
  let user: SiteUser | undefined;
  if (raw === 'me') {
    if (!req.user) return CoreRouteErrors.notLoggedIn();
    user = await getUser(ctx, req.user.id);
  } else {
    const id = Number.parseInt(raw, 10);
    if (!(id > 0)) return AuthErrors.userInvalidId();
    user = await getUser(ctx, id);
  }
  if (!user) return AuthErrors.userInvalidId();
  if (!user.appPasswordsEnabled) return AuthErrors.appPasswordsDisabledForUser(501);
  return user;
}

function targetUser(req: RestRequest, ctx: AppContext): Promise<SiteUser | RestError> {
  let p = resolved.get(req);
  if (!p) {
    p = resolveUser(req, ctx);
    resolved.set(req, p);
  }
  return p;
}

async function requireTarget(req: RestRequest, ctx: AppContext): Promise<SiteUser> {
  const user = await targetUser(req, ctx);
  if (user instanceof RestError) throw user;
  return user;
}

/** The `edit_user`-mapped meta capability, refused with the route's own error. */
function canManage(refuse: (status: number) => RestError): Permission<AppContext> {
  return async (req, ctx) => {
    const user = await targetUser(req, ctx);
    if (user instanceof RestError) return user;
    return canEditUser(req.user, user.id) ? true : refuse(authorizationStatus(req));
  };
}

const canIntrospect: Permission<AppContext> = async (req, ctx) => {
  const user = await targetUser(req, ctx);
  if (user instanceof RestError) return user;
  return (req.user?.id ?? 0) === user.id ? true : CoreRouteErrors.cannotIntrospect(authorizationStatus(req));
};

function contextOf(req: RestRequest): string {
  return typeof req.params.context === 'string' ? req.params.context : 'view';
}

// ---- Handlers

async function listPasswords(req: RestRequest, ctx: AppContext) {
  const user = await requireTarget(req, ctx);
  const context = contextOf(req);
  return (await listApplicationPasswords(ctx, user.id)).map((item) => presentApplicationPassword(ctx, item, context));
}

async function createPassword(req: RestRequest, ctx: AppContext) {
  const user = await requireTarget(req, ctx);
  const appId = typeof req.params.app_id === 'string' ? req.params.app_id : '';
  const { password, item } = await createApplicationPassword(ctx, user.id, { name: String(req.params.name ?? ''), ...(appId ? { appId } : {}) });
  return respond(presentApplicationPassword(ctx, item, 'edit', password), {
    status: 201,
    headers: { Location: applicationPasswordUrl(ctx, user.id, item.uuid) },
  });
}

async function deletePasswords(req: RestRequest, ctx: AppContext) {
  const user = await requireTarget(req, ctx);
  return { deleted: true, count: await deleteAllApplicationPasswords(ctx, user.id) };
}

async function introspectPassword(req: RestRequest, ctx: AppContext) {
  const user = await requireTarget(req, ctx);
  if (req.auth.method !== 'app-password' || !req.auth.appPasswordUuid) throw CoreRouteErrors.noAuthenticatedAppPassword();
  const item = await getApplicationPassword(ctx, user.id, req.auth.appPasswordUuid);
  // CASE: the original answers 500 when the authenticating password vanished mid-request (revoked
  // elsewhere, still cached here); nothing failed on the server, so 404 with the same code.
  if (!item) throw AuthErrors.appPasswordNotFound();
  return presentApplicationPassword(ctx, item, contextOf(req));
}

async function getPassword(req: RestRequest, ctx: AppContext) {
  const user = await requireTarget(req, ctx);
  const item = await getApplicationPassword(ctx, user.id, req.urlParams.uuid ?? '');
  if (!item) throw AuthErrors.appPasswordNotFound();
  return presentApplicationPassword(ctx, item, contextOf(req));
}

async function updatePassword(req: RestRequest, ctx: AppContext) {
  const user = await requireTarget(req, ctx);
  const uuid = req.urlParams.uuid ?? '';
  // Only `name` is applied, as the original; other fields (app_id) are ignored.
  const item = req.has('name') ? await renameApplicationPassword(ctx, user.id, uuid, req.params.name) : await getApplicationPassword(ctx, user.id, uuid);
  if (!item) throw AuthErrors.appPasswordNotFound();
  return presentApplicationPassword(ctx, item, 'edit');
}

async function deletePassword(req: RestRequest, ctx: AppContext) {
  const user = await requireTarget(req, ctx);
  const item = await deleteApplicationPassword(ctx, user.id, req.urlParams.uuid ?? '');
  if (!item) throw AuthErrors.appPasswordNotFound();
  return { deleted: true, previous: presentApplicationPassword(ctx, item, 'edit') };
}

/** The application-password routes of `core/v2`. */
export const applicationPasswordRoutes: RouteDef<AppContext>[] = [
  {
    path: BASE,
    schema: applicationPasswordSchema,
    endpoints: [
      { methods: READABLE, args: { user_id: userIdArg, context: contextArg('view') }, permission: canManage(CoreRouteErrors.cannotList), handler: listPasswords },
      {
        methods: CREATABLE,
        args: { user_id: userIdArg, app_id: appIdArg, name: nameArg(true) },
        permission: canManage(CoreRouteErrors.cannotCreate),
        handler: createPassword,
      },
      { methods: DELETABLE, args: { user_id: userIdArg }, permission: canManage(CoreRouteErrors.cannotDeleteAll), handler: deletePasswords },
    ],
  },
  {
    path: `${BASE}/introspect`,
    schema: applicationPasswordSchema,
    endpoints: [{ methods: READABLE, args: { user_id: userIdArg, context: contextArg('view') }, permission: canIntrospect, handler: introspectPassword }],
  },
  {
    path: `${BASE}/{uuid:[\\w\\-]+}`,
    schema: applicationPasswordSchema,
    endpoints: [
      {
        methods: READABLE,
        args: { user_id: userIdArg, uuid: uuidArg, context: contextArg('view') },
        permission: canManage(CoreRouteErrors.cannotRead),
        handler: getPassword,
      },
      {
        methods: EDITABLE,
        args: { user_id: userIdArg, uuid: uuidArg, app_id: appIdArg, name: nameArg(false) },
        permission: canManage(CoreRouteErrors.cannotEdit),
        handler: updatePassword,
      },
      { methods: DELETABLE, args: { user_id: userIdArg, uuid: uuidArg }, permission: canManage(CoreRouteErrors.cannotDelete), handler: deletePassword },
    ],
  },
];
