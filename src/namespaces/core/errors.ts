/**
 * @module namespaces/core/errors
 * Error catalogue of the `core/v2` routes (application passwords and users), with the originals'
 * codes and messages.
 */
import { RestError } from '../../rest/errors.js';

export const CORE_MESSAGES = {
  notLoggedIn: 'You are not currently logged in.',
  cannotList: 'Sorry, you are not allowed to list application passwords for this user.',
  cannotRead: 'Sorry, you are not allowed to read this application password.',
  cannotCreate: 'Sorry, you are not allowed to create application passwords for this user.',
  cannotEdit: 'Sorry, you are not allowed to edit this application password.',
  cannotDeleteAll: 'Sorry, you are not allowed to delete application passwords for this user.',
  cannotDelete: 'Sorry, you are not allowed to delete this application password.',
  cannotIntrospect: 'The authenticated Application Password can only be introspected for the current user.',
  noAuthenticatedAppPassword: 'Cannot introspect Application Password.',
  cannotViewUsers: 'Sorry, you are not allowed to list users.',
} as const;

/** Factories; `status` is 401 for anonymous callers and 403 for signed-in ones where it varies. */
export const CoreRouteErrors = {
  notLoggedIn: () => new RestError('rest_not_logged_in', CORE_MESSAGES.notLoggedIn, 401),
  cannotList: (status: number) => new RestError('rest_cannot_list_application_passwords', CORE_MESSAGES.cannotList, status),
  cannotRead: (status: number) => new RestError('rest_cannot_read_application_password', CORE_MESSAGES.cannotRead, status),
  cannotCreate: (status: number) => new RestError('rest_cannot_create_application_passwords', CORE_MESSAGES.cannotCreate, status),
  cannotEdit: (status: number) => new RestError('rest_cannot_edit_application_password', CORE_MESSAGES.cannotEdit, status),
  cannotDeleteAll: (status: number) => new RestError('rest_cannot_delete_application_passwords', CORE_MESSAGES.cannotDeleteAll, status),
  cannotDelete: (status: number) => new RestError('rest_cannot_delete_application_password', CORE_MESSAGES.cannotDelete, status),
  cannotIntrospect: (status: number) =>
    new RestError('rest_cannot_introspect_app_password_for_non_authenticated_user', CORE_MESSAGES.cannotIntrospect, status),
  noAuthenticatedAppPassword: () => new RestError('rest_no_authenticated_app_password', CORE_MESSAGES.noAuthenticatedAppPassword, 404),
  cannotViewUser: (status: number) => new RestError('rest_user_cannot_view', CORE_MESSAGES.cannotViewUsers, status),
} as const;
