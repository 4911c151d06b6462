/**
 * @module auth/users
 * Site users: creation (validated as WordPress validates logins and e-mail addresses), lookups, and
 * the {@link SiteUser} the REST core sees as `req.user`.
 */
import { sql, type Selectable } from 'kysely';
import type { AppContext } from '../app-context.js';
import { RestError } from '../rest/errors.js';
import type { RestUser } from '../rest/route.js';
import type { Db } from '../storage/db.js';
import type { UsersTable } from '../storage/tables/core.js';
import { authState, bumpAuthEpoch } from './auth-state.js';
import { AuthErrors } from './errors.js';
import { hashPassword } from './passwords.js';
import { isRole, type RoleTable } from './roles.js';

/** A `users` row as stored. */
export type UserRow = Selectable<UsersTable>;

const LOGIN_MAX = 60;
const EMAIL_MAX = 100;
const DISPLAY_NAME_MAX = 250;
const NICENAME_MAX = 50;

/** A user as handlers see it: identity, profile and capability checks. No secrets. */
export class SiteUser implements RestUser {
  readonly id: number;
  readonly login: string;
  readonly email: string;
  readonly displayName: string;
  /** URL slug (`user_nicename`). */
  readonly nicename: string;
  /** The user's website ('' when none). */
  readonly url: string;
  readonly roles: readonly string[];
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  readonly registeredGmt: string;
  /** Whether the user may use application passwords. */
  readonly appPasswordsEnabled: boolean;
  readonly #caps: ReadonlySet<string>;

  constructor(row: UserRow, roles: RoleTable) {
    this.id = Number(row.id);
    this.login = row.login;
    this.email = row.email;
    this.displayName = row.display_name;
    this.nicename = row.nicename;
    this.url = row.url;
    this.roles = Object.freeze(parseRoles(row.roles));
    this.registeredGmt = row.registered_gmt;
    this.appPasswordsEnabled = Number(row.app_passwords_enabled ?? 1) !== 0;
    this.#caps = roles.capabilitiesOf(this.roles);
    Object.freeze(this);
  }

  can(capability: string): boolean {
    return capability === 'exist' || this.#caps.has(capability);
  }

  /** Every primitive capability the user holds (role names included), sorted. */
  capabilities(): string[] {
    return [...this.#caps].sort();
  }
}

const usersOfRows = new WeakMap<UserRow, SiteUser>();

/** The SiteUser of a stored row, built once per row object (rows come from short-lived caches). */
export function siteUserOf(ctx: Pick<AppContext, 'roles'>, row: UserRow): SiteUser {
  let user = usersOfRows.get(row);
  if (!user) {
    user = new SiteUser(row, ctx.roles);
    usersOfRows.set(row, user);
  }
  return user;
}

function parseRoles(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * WordPress `is_email`: at least 6 characters, one `@` after the first character, a plain local part,
 * and a dotted domain of letters, digits and inner hyphens.
 */
export function isEmail(value: string): boolean {
  if (value.length < 6) return false;
  const at = value.indexOf('@', 1);
  if (at === -1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local)) return false;
  if (/\.{2,}/.test(domain)) return false;
  if (domain.replace(/^[\s\0.]+|[\s\0.]+$/g, '') !== domain) return false;
  const subs = domain.split('.');
  if (subs.length < 2) return false;
  return subs.every((sub) => sub.replace(/^[\s\0-]+|[\s\0-]+$/g, '') === sub && /^[a-z0-9-]+$/i.test(sub));
}

/** `sanitize_user(login, strict)`: what a login may consist of. */
function isValidLogin(login: string): boolean {
  return /^[A-Za-z0-9 _.@-]+$/.test(login) && login.trim() === login && !/\s{2,}/.test(login);
}

function nicenameBase(login: string): string {
  const slug = login
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, NICENAME_MAX);
  return slug === '' ? 'user' : slug;
}

async function uniqueNicename(db: Db, login: string): Promise<string> {
  const base = nicenameBase(login);
  const taken = new Set(
    (await db.selectFrom('users').select('nicename').where('nicename', 'like', `${base}%`).execute()).map((r) => r.nicename),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) {
    const suffix = `-${i}`;
    const candidate = `${base.slice(0, NICENAME_MAX - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function gmtNow(ctx: AppContext): string {
  return ctx.now().toISOString().slice(0, 19).replace('T', ' ');
}

const lower = (column: 'login' | 'email') => sql<string>`lower(${sql.ref(column)})`;

async function loginTaken(db: Db, login: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where(lower('login'), '=', sql<string>`lower(${login})`).executeTakeFirst()) !== undefined;
}

async function emailTaken(db: Db, email: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where(lower('email'), '=', sql<string>`lower(${email})`).executeTakeFirst()) !== undefined;
}

/** What {@link createUser} returns. */
export type CreatedUser = { id: number; login: string; email: string; displayName: string; roles: string[] };

/** Input of {@link createUser}. */
export interface NewUser {
  login: string;
  email: string;
  /** Sign-in password; without one the user cannot sign in to the admin pages. */
  password?: string;
  roles: string[];
  displayName?: string;
}

/**
 * Creates a user. Logins are unique (case-insensitively) and limited to letters, digits, spaces and
 * `_.@-`; e-mail addresses must be valid and unused; roles must exist.
 *
 * @example
 * const user = await createUser(ctx, { login: 'ada', email: 'ada@example.test', password: 's3cret', roles: ['editor'] });
 */
export async function createUser(ctx: AppContext, input: NewUser): Promise<CreatedUser> {
  // ---- Validate
  const login = String(input.login ?? '');
  const email = String(input.email ?? '').trim();
  if (login.trim() === '') throw AuthErrors.emptyLogin();
  if (login.length > LOGIN_MAX) throw AuthErrors.loginTooLong();
  if (!isValidLogin(login)) throw AuthErrors.invalidLogin();
  if (email.length > EMAIL_MAX || !isEmail(email)) throw AuthErrors.invalidEmailAddress();
  const roles = [...new Set(input.roles ?? [])];
  for (const r of roles) if (!isRole(r)) throw AuthErrors.invalidRole(r);
  const displayName = (input.displayName ?? '').trim() || login;
  if (displayName.length > DISPLAY_NAME_MAX) throw AuthErrors.displayNameTooLong();
  const passwordHash = input.password ? await hashPassword(input.password) : '';

  // ---- Insert (the unique indexes on lower(login) and lower(email) settle races)
  let id: number;
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      if (await loginTaken(trx, login)) throw AuthErrors.existingLogin();
      if (await emailTaken(trx, email)) throw AuthErrors.existingEmail();
      const row = await trx
        .insertInto('users')
        .values({
          login,
          email,
          password_hash: passwordHash,
          display_name: displayName,
          nicename: await uniqueNicename(trx, login),
          url: '',
          roles: JSON.stringify(roles),
          registered_gmt: gmtNow(ctx),
          session_version: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    });
  } catch (e) {
    if (e instanceof RestError) throw e;
    if (await loginTaken(ctx.db, login)) throw AuthErrors.existingLogin();
    if (await emailTaken(ctx.db, email)) throw AuthErrors.existingEmail();
    throw e;
  }
  const user = await getUser(ctx, id);
  if (!user) throw new Error(`user ${id} vanished after insert`);
  return { id: user.id, login: user.login, email: user.email, displayName: user.displayName, roles: [...user.roles] };
}

/** The stored row of user `id` (read through the short-lived auth cache). */
export async function loadUserRow(ctx: AppContext, id: number): Promise<UserRow | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const state = authState(ctx);
  const now = ctx.now().getTime();
  const hit = state.users.get(id, now, state.epoch);
  if (hit) return hit;
  const row = await ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (row) state.users.set(id, row, now, state.epoch);
  return row;
}

/** The stored row of the user signing in as `name`: by login, else by e-mail when it looks like one. */
export async function findUserRowForSignIn(ctx: AppContext, name: string): Promise<UserRow | undefined> {
  if (name === '') return undefined;
  const byLogin = await ctx.db.selectFrom('users').selectAll().where(lower('login'), '=', sql<string>`lower(${name})`).executeTakeFirst();
  if (byLogin) return byLogin;
  if (!isEmail(name)) return undefined;
  return ctx.db.selectFrom('users').selectAll().where(lower('email'), '=', sql<string>`lower(${name})`).executeTakeFirst();
}

/** User `id`, or undefined. */
export async function getUser(ctx: AppContext, id: number): Promise<SiteUser | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const row = await ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? new SiteUser(row, ctx.roles) : undefined;
}

/** The user whose login is `login` (case-insensitive, as WordPress on MySQL). */
export async function findUserByLogin(ctx: AppContext, login: string): Promise<SiteUser | undefined> {
  const row = await ctx.db.selectFrom('users').selectAll().where(lower('login'), '=', sql<string>`lower(${login})`).executeTakeFirst();
  return row ? new SiteUser(row, ctx.roles) : undefined;
}

/** The user whose e-mail address is `email` (case-insensitive). */
export async function findUserByEmail(ctx: AppContext, email: string): Promise<SiteUser | undefined> {
  const row = await ctx.db.selectFrom('users').selectAll().where(lower('email'), '=', sql<string>`lower(${email.trim()})`).executeTakeFirst();
  return row ? new SiteUser(row, ctx.roles) : undefined;
}

/** Ends every sign-in session of user `id` (their cookies stop verifying). */
export async function endAllSessions(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.updateTable('users').set({ session_version: sql<number>`session_version + 1` }).where('id', '=', id).execute();
  authState(ctx).users.delete(id);
  bumpAuthEpoch(ctx);
}

/** Allows or forbids application passwords for user `id` (`application_passwords_disabled_for_user`). */
export async function setApplicationPasswordsEnabled(ctx: AppContext, id: number, enabled: boolean): Promise<void> {
  await ctx.db.updateTable('users').set({ app_passwords_enabled: enabled ? 1 : 0 }).where('id', '=', id).execute();
  authState(ctx).users.delete(id);
  bumpAuthEpoch(ctx);
}
