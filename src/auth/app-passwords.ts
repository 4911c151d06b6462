/**
 * @module auth/app-passwords
 * Application passwords: 24 random characters from `[A-Za-z0-9]`, shown once in groups of four,
 * stored as a fast keyed hash (`$generic$` + base64url HMAC-SHA256 under a key derived from the site
 * key: the passwords are random, so a slow hash buys nothing). Names are unique per user,
 * case-insensitively. The first creation sets the option `using_application_passwords`, before which
 * Basic credentials are ignored.
 */
import crypto from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { AppContext } from '../app-context.js';
import { sanitizeTextField } from '../rest/wp-sanitize.js';
import { RestError } from '../rest/errors.js';
import type { ApplicationPasswordsTable } from '../storage/tables/core.js';
import { bumpAuthEpoch } from './auth-state.js';
import { applicationPasswordsAvailable } from './availability.js';
import { AuthErrors } from './errors.js';
import { derivedKey } from './site-key.js';
import { SiteUser, findUserRowForSignIn, getUser, isEmail, type UserRow } from './users.js';

export const IN_USE_OPTION = 'using_application_passwords';
export const PASSWORD_LENGTH = 24;
/** Longest name the column holds. */
export const NAME_MAX = 200;
/** `last_used` / `last_ip` are written at most this often. */
export const USAGE_INTERVAL_MS = 24 * 60 * 60 * 1000;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HASH_PREFIX = '$generic$';

/** One stored application password (never its hash). Dates are UTC `YYYY-MM-DD HH:MM:SS`. */
export interface ApplicationPasswordItem {
  uuid: string;
  userId: number;
  /** `""` when the application gave none. */
  appId: string;
  name: string;
  created: string;
  lastUsed: string | null;
  lastIp: string | null;
}

type Row = Selectable<ApplicationPasswordsTable>;

function toItem(row: Row): ApplicationPasswordItem {
  return {
    uuid: row.uuid,
    userId: Number(row.user_id),
    appId: row.app_id ?? '',
    name: row.name,
    created: row.created_gmt,
    lastUsed: row.last_used_gmt || null,
    lastIp: row.last_ip || null,
  };
}

function gmt(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

function gmtToMs(text: string | null): number {
  if (!text) return 0;
  const ms = Date.parse(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(ms) ? 0 : ms;
}

/** `wp_is_uuid`: lower-case hex, 8-4-4-4-12. */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
}

/** A fresh 24-character password from the CSPRNG (no modulo bias). */
export function generatePassword(): string {
  let out = '';
  for (let i = 0; i < PASSWORD_LENGTH; i++) out += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return out;
}

/** Everything outside `[A-Za-z0-9]` removed, so chunked and raw forms are the same password. */
export function normalizePassword(password: string): string {
  return password.replace(/[^a-z\d]/gi, '');
}

/** The display form: groups of four separated by single spaces. */
export function chunkPassword(password: string): string {
  return (normalizePassword(password).match(/.{1,4}/g) ?? []).join(' ');
}

/** The stored hash of a (normalised) password. */
export async function hashApplicationPassword(ctx: AppContext, password: string): Promise<string> {
  const key = await derivedKey(ctx, 'application_password');
  return HASH_PREFIX + crypto.createHmac('sha256', key).update(normalizePassword(password)).digest('base64url');
}

/** Whether any application password was ever created on this site. */
export async function applicationPasswordsInUse(ctx: AppContext): Promise<boolean> {
  return (await ctx.options.get<unknown>(IN_USE_OPTION, false)) === true;
}

/** The name as it will be stored, or the error that refuses it. */
function cleanName(name: unknown): string {
  const clean = sanitizeTextField(name);
  if (clean === '') throw AuthErrors.emptyName();
  if (clean.length > NAME_MAX) throw AuthErrors.nameTooLong(NAME_MAX);
  return clean;
}

async function nameTaken(ctx: AppContext, userId: number, name: string, exceptUuid?: string): Promise<boolean> {
  let q = ctx.db
    .selectFrom('application_passwords')
    .select('uuid')
    .where('user_id', '=', userId)
    .where(sql<string>`lower(${sql.ref('name')})`, '=', sql<string>`lower(${name})`);
  if (exceptUuid !== undefined) q = q.where('uuid', '!=', exceptUuid);
  return (await q.executeTakeFirst()) !== undefined;
}

/**
 * Creates an application password for user `userId`.
 * Returns the password in its chunked display form (the only time it exists in clear) and the item.
 *
 * @example
 * const { password, item } = await createApplicationPassword(ctx, 1, { name: 'Calendar sync' });
 * // password: "abcd EFGH ijkl MNOP qrst UVWX"
 */
export async function createApplicationPassword(
  ctx: AppContext,
  userId: number,
  input: { name: string; appId?: string },
): Promise<{ password: string; item: ApplicationPasswordItem }> {
  const name = cleanName(input.name);
  const appId = input.appId ?? '';
  if (appId !== '' && !isUuid(appId)) throw AuthErrors.invalidAppId();
  if (!(await getUser(ctx, userId))) throw AuthErrors.userInvalidId();

  const password = generatePassword();
  const row: Row = {
    uuid: crypto.randomUUID(),
    user_id: userId,
    app_id: appId,
    name,
    password_hash: await hashApplicationPassword(ctx, password),
    created_gmt: gmt(ctx.now()),
    last_used_gmt: null,
    last_ip: null,
  };
  if (await nameTaken(ctx, userId, name)) throw AuthErrors.duplicateName();
  try {
    await ctx.db.insertInto('application_passwords').values(row).execute();
  } catch (e) {
    // Two requests with one name at once: the unique index on (user_id, lower(name)) decides.
    if (await nameTaken(ctx, userId, name)) throw AuthErrors.duplicateName();
    throw e;
  }
  if (!(await applicationPasswordsInUse(ctx))) await ctx.options.set(IN_USE_OPTION, true);
  return { password: chunkPassword(password), item: toItem(row) };
}

/** The user's application passwords, oldest first. */
export async function listApplicationPasswords(ctx: AppContext, userId: number): Promise<ApplicationPasswordItem[]> {
  const rows = await ctx.db
    .selectFrom('application_passwords')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_gmt')
    .orderBy('name')
    .execute();
  return rows.map(toItem);
}

/** One application password of the user, or undefined. */
export async function getApplicationPassword(ctx: AppContext, userId: number, uuid: string): Promise<ApplicationPasswordItem | undefined> {
  const row = await ctx.db.selectFrom('application_passwords').selectAll().where('user_id', '=', userId).where('uuid', '=', uuid).executeTakeFirst();
  return row ? toItem(row) : undefined;
}

/** Renames an application password (names stay unique per user). Undefined when it does not exist. */
export async function renameApplicationPassword(
  ctx: AppContext,
  userId: number,
  uuid: string,
  newName: unknown,
): Promise<ApplicationPasswordItem | undefined> {
  const name = cleanName(newName);
  const current = await getApplicationPassword(ctx, userId, uuid);
  if (!current) return undefined;
  if (current.name === name) return current;
  if (await nameTaken(ctx, userId, name, uuid)) throw AuthErrors.duplicateName();
  try {
    await ctx.db.updateTable('application_passwords').set({ name }).where('user_id', '=', userId).where('uuid', '=', uuid).execute();
  } catch (e) {
    if (await nameTaken(ctx, userId, name, uuid)) throw AuthErrors.duplicateName();
    throw e;
  }
  return getApplicationPassword(ctx, userId, uuid);
}

/** Deletes one application password; returns it, or undefined when it did not exist. */
export async function deleteApplicationPassword(ctx: AppContext, userId: number, uuid: string): Promise<ApplicationPasswordItem | undefined> {
  const item = await getApplicationPassword(ctx, userId, uuid);
  if (!item) return undefined;
  await ctx.db.deleteFrom('application_passwords').where('user_id', '=', userId).where('uuid', '=', uuid).execute();
  bumpAuthEpoch(ctx);
  return item;
}

/** Deletes all of the user's application passwords; returns how many there were. */
export async function deleteAllApplicationPasswords(ctx: AppContext, userId: number): Promise<number> {
  const result = await ctx.db.deleteFrom('application_passwords').where('user_id', '=', userId).executeTakeFirst();
  bumpAuthEpoch(ctx);
  return Number(result.numDeletedRows);
}

/** Outcome of a successful {@link verifyApplicationPassword}. */
export interface VerifiedApplicationPassword {
  user: SiteUser;
  /** The user's stored row (for the short-lived user cache). */
  row: UserRow;
  uuid: string;
  /** Epoch ms of the stored `last_used` (0 = never). */
  lastUsedMs: number;
}

/** The keyed hash of `password` and the stored application passwords of user `userId` (0: none). */
async function storedPasswordsMatching(ctx: AppContext, userId: number, password: string) {
  const candidate = Buffer.from(await hashApplicationPassword(ctx, password), 'utf8');
  const stored = await ctx.db.selectFrom('application_passwords').select(['uuid', 'password_hash', 'last_used_gmt']).where('user_id', '=', userId).execute();
  return { candidate, stored };
}

/**
 * `wp_authenticate_application_password`: the user named `username` (login, else e-mail) whose
 * application password is `password` (non-alphanumerics ignored). Failures are 401 RestErrors:
 * `invalid_email`, `invalid_username`, `application_passwords_disabled`,
 * `application_passwords_disabled_for_user`, `incorrect_password`.
 */
export async function verifyApplicationPassword(ctx: AppContext, username: string, password: string): Promise<VerifiedApplicationPassword | RestError> {
  const row = await findUserRowForSignIn(ctx, username);
  if (!row) {
    // The codes differ as WordPress's do, but an unknown user costs the same work as a wrong
    // password (hash and query), so timing does not tell which logins exist.
    await storedPasswordsMatching(ctx, 0, password);
    return isEmail(username) ? AuthErrors.invalidEmail() : AuthErrors.invalidUsername();
  }
  const user = new SiteUser(row, ctx.roles);
  if (!applicationPasswordsAvailable(ctx.config)) return AuthErrors.appPasswordsDisabled();
  if (!user.appPasswordsEnabled) return AuthErrors.appPasswordsDisabledForUser();

  const { candidate, stored } = await storedPasswordsMatching(ctx, user.id, password);
  let match: (typeof stored)[number] | undefined;
  for (const s of stored) {
    const hash = Buffer.from(s.password_hash, 'utf8');
    // Compare every row (no early exit) so timing says nothing about which one matched.
    if (hash.length === candidate.length && crypto.timingSafeEqual(hash, candidate) && !match) match = s;
  }
  if (!match) return AuthErrors.incorrectPassword();
  return { user, row, uuid: match.uuid, lastUsedMs: gmtToMs(match.last_used_gmt) };
}

/**
 * Records that password `uuid` was used from `ip`, at most once per {@link USAGE_INTERVAL_MS}.
 * Returns the `last_used` in effect afterwards (epoch ms).
 */
export async function recordApplicationPasswordUsage(ctx: AppContext, uuid: string, ip: string, lastUsedMs: number): Promise<number> {
  const now = ctx.now();
  if (lastUsedMs !== 0 && now.getTime() - lastUsedMs < USAGE_INTERVAL_MS) return lastUsedMs;
  const threshold = gmt(new Date(now.getTime() - USAGE_INTERVAL_MS));
  await ctx.db
    .updateTable('application_passwords')
    .set({ last_used_gmt: gmt(now), last_ip: ip.slice(0, 45) || null })
    .where('uuid', '=', uuid)
    .where((eb) => eb.or([eb('last_used_gmt', 'is', null), eb('last_used_gmt', '<=', threshold)]))
    .execute();
  return Math.floor(now.getTime() / 1000) * 1000;
}

