/**
 * @module auth
 * Authentication: users, roles and capabilities, application passwords, sign-in cookie sessions and
 * nonces. The HTTP host calls {@link createAuthenticator}; the command line creates users and
 * application passwords.
 */
export { createAuthenticator, parseBasicAuthorization, REST_NONCE_ACTION } from './authenticator.js';
export { createUser, getUser, findUserByLogin, findUserByEmail, endAllSessions, setApplicationPasswordsEnabled, SiteUser } from './users.js';
export type { NewUser, CreatedUser } from './users.js';
export {
  createApplicationPassword,
  listApplicationPasswords,
  getApplicationPassword,
  renameApplicationPassword,
  deleteApplicationPassword,
  deleteAllApplicationPasswords,
  chunkPassword,
  isUuid,
} from './app-passwords.js';
export type { ApplicationPasswordItem } from './app-passwords.js';
export { ROLES, RoleTable, canEditUser } from './roles.js';
export { createNonce, verifyNonce } from './nonces.js';
export { applicationPasswordsAvailable } from './availability.js';
export { AuthErrors } from './errors.js';
