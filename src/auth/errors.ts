/**
 * @module auth/errors
 * The authentication area's error catalogue: codes, messages and statuses of the originals
 * (`wp-includes/user.php`, `class-wp-application-passwords.php`, `rest-api.php`).
 */
import { RestError } from '../rest/errors.js';

export const AUTH_MESSAGES = {
  invalidUsername: '<strong>Error</strong>: Unknown username. Check again or try your email address.',
  invalidEmail: '<strong>Error</strong>: Unknown email address. Check again or try your username.',
  incorrectPassword: 'The provided password is an invalid application password.',
  appPasswordsDisabled: 'Application passwords are not available.',
  appPasswordsDisabledForUser: 'Application passwords are not available for your account. Please contact the site administrator for assistance.',
  tooManyFailures: 'Too many failed login attempts from your address. Please try again later.',
  cookieInvalidNonce: 'Cookie check failed',
  invalidAuthorization: 'The Authorization header is not valid Basic credentials (login:password).',
  duplicateName: 'Each application name should be unique.',
  emptyName: 'An application name is required to create an application password.',
  nameTooLong: (max: number) => `The application name must be at most ${max} characters long.`,
  invalidAppId: 'The application ID must be a UUID.',
  userInvalidId: 'Invalid user ID.',
  appPasswordNotFound: 'Application password not found.',
  emptyLogin: 'Cannot create a user with an empty login name.',
  loginTooLong: 'Username may not be longer than 60 characters.',
  invalidLogin: 'This username is invalid because it uses illegal characters. Please enter a valid username.',
  existingLogin: 'Sorry, that username already exists!',
  existingEmail: 'Sorry, that email address is already used!',
  invalidEmailAddress: 'Invalid email address.',
  invalidRole: (role: string) => `The role ${role} does not exist.`,
  displayNameTooLong: 'The display name may not be longer than 250 characters.',
} as const;

/** Factories for the catalogue. Authentication failures are 401 at the REST error stage. */
export const AuthErrors = {
  invalidUsername: () => new RestError('invalid_username', AUTH_MESSAGES.invalidUsername, 401),
  invalidEmail: () => new RestError('invalid_email', AUTH_MESSAGES.invalidEmail, 401),
  incorrectPassword: () => new RestError('incorrect_password', AUTH_MESSAGES.incorrectPassword, 401),
  appPasswordsDisabled: (status = 401) => new RestError('application_passwords_disabled', AUTH_MESSAGES.appPasswordsDisabled, status),
  appPasswordsDisabledForUser: (status = 401) =>
    new RestError('application_passwords_disabled_for_user', AUTH_MESSAGES.appPasswordsDisabledForUser, status),
  tooManyFailures: (retryAfter: number) =>
    new RestError('too_many_failed_logins', AUTH_MESSAGES.tooManyFailures, 429, { retry_after: retryAfter }),
  cookieInvalidNonce: () => new RestError('rest_cookie_invalid_nonce', AUTH_MESSAGES.cookieInvalidNonce, 403),
  /** Not an original's code: WordPress ignores a garbled header and serves the request anonymously. */
  invalidAuthorization: () => new RestError('invalid_authorization', AUTH_MESSAGES.invalidAuthorization, 401),
  duplicateName: () => new RestError('application_password_duplicate_name', AUTH_MESSAGES.duplicateName, 409),
  emptyName: () => new RestError('application_password_empty_name', AUTH_MESSAGES.emptyName, 400),
  nameTooLong: (max: number) => new RestError('application_password_name_too_long', AUTH_MESSAGES.nameTooLong(max), 400),
  invalidAppId: () => new RestError('invalid_app_id', AUTH_MESSAGES.invalidAppId, 400),
  userInvalidId: () => new RestError('rest_user_invalid_id', AUTH_MESSAGES.userInvalidId, 404),
  appPasswordNotFound: () => new RestError('rest_application_password_not_found', AUTH_MESSAGES.appPasswordNotFound, 404),
  emptyLogin: () => new RestError('empty_user_login', AUTH_MESSAGES.emptyLogin, 400),
  loginTooLong: () => new RestError('user_login_too_long', AUTH_MESSAGES.loginTooLong, 400),
  invalidLogin: () => new RestError('rest_user_invalid_username', AUTH_MESSAGES.invalidLogin, 400),
  existingLogin: () => new RestError('existing_user_login', AUTH_MESSAGES.existingLogin, 400),
  existingEmail: () => new RestError('existing_user_email', AUTH_MESSAGES.existingEmail, 400),
  invalidEmailAddress: () => new RestError('rest_user_invalid_email', AUTH_MESSAGES.invalidEmailAddress, 400),
  invalidRole: (role: string) => new RestError('rest_user_invalid_role', AUTH_MESSAGES.invalidRole(role), 400),
  displayNameTooLong: () => new RestError('rest_user_invalid_display_name', AUTH_MESSAGES.displayNameTooLong, 400),
} as const;
