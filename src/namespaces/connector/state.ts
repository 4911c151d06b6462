/**
 * @module namespaces/connector/state
 * The connection's stored state: the site id and owner (`connector_options`), the blog token and
 * user tokens (`connector_private_options`), the hub's clock offset (`connector_time_diff`), pending
 * verification secrets and recorded signature errors. Tokens are `key.secret`; user tokens
 * `key.secret.<user id>`.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';

const PUBLIC = 'connector_options';
const PRIVATE = 'connector_private_options';
const SECRETS = 'connector_secrets';
const ERRORS = 'connector_xmlrpc_errors';
const VERIFIED_ERRORS = 'connector_verified_xmlrpc_errors';
const TIME_DIFF = 'connector_time_diff';

export interface ConnectionOptions {
  /** Site id at the hub. */
  id: number | null;
  /** Connection owner's user id. */
  master_user: number | null;
  last_heartbeat: number | null;
}

export interface PrivateOptions {
  blog_token: string | null;
  /** User id → `key.secret.<user id>`. */
  user_tokens: Record<string, string>;
}

export interface ConnectionState extends ConnectionOptions, PrivateOptions {}

export async function loadState(ctx: AppContext): Promise<ConnectionState> {
  const pub = await ctx.options.get<Partial<ConnectionOptions>>(PUBLIC, {});
  const priv = await ctx.options.get<Partial<PrivateOptions>>(PRIVATE, {});
  return {
    id: pub.id ?? null,
    master_user: pub.master_user ?? null,
    last_heartbeat: pub.last_heartbeat ?? null,
    blog_token: priv.blog_token ?? null,
    user_tokens: priv.user_tokens ?? {},
  };
}

export async function saveState(ctx: AppContext, state: ConnectionState): Promise<void> {
  await ctx.options.set(PUBLIC, { id: state.id, master_user: state.master_user, last_heartbeat: state.last_heartbeat });
  await ctx.options.set(PRIVATE, { blog_token: state.blog_token, user_tokens: state.user_tokens });
}

/** Forgets every token, the site id and the hub's clock offset (after a disconnect). */
export async function forgetConnection(ctx: AppContext): Promise<void> {
  await ctx.options.delete(PUBLIC);
  await ctx.options.delete(PRIVATE);
  await ctx.options.delete(SECRETS);
  await ctx.options.delete(TIME_DIFF);
}

/**
 * How many seconds the hub's clock is ahead of this site's (`time_diff`): learnt from the `Date` of
 * the hub's answers, used for the timestamps of both directions. Undefined until learnt.
 */
export async function loadTimeDiff(ctx: AppContext): Promise<number | undefined> {
  const value = await ctx.options.get<unknown>(TIME_DIFF, null);
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

export async function saveTimeDiff(ctx: AppContext, seconds: number): Promise<void> {
  await ctx.options.set(TIME_DIFF, seconds);
}

/** Registered: a blog token and a site id. */
export function isRegistered(s: ConnectionState): boolean {
  return s.blog_token !== null && s.id !== null;
}

/** An owner whose user token is stored. */
export function hasConnectedOwner(s: ConnectionState): boolean {
  return isRegistered(s) && s.master_user !== null && s.user_tokens[String(s.master_user)] !== undefined;
}

export function isUserConnected(s: ConnectionState, userId: number): boolean {
  return isRegistered(s) && s.user_tokens[String(userId)] !== undefined;
}

/** `key.secret` of a user token (without the user id suffix), for signing as the user. */
export function userSigningToken(s: ConnectionState, userId: number): string | undefined {
  const t = s.user_tokens[String(userId)];
  return t?.split('.').slice(0, 2).join('.');
}

// ---- verification secrets ----------------------------------------------------------------------

/** How long a verification secret lives (seconds). */
export const SECRET_TTL_S = 600;

interface StoredSecret {
  secret_1: string;
  secret_2: string;
  exp: number;
}

function randomSecret(): string {
  return crypto.randomBytes(24).toString('base64url');
}

/** New secrets for `action` (`register`, `authorize`) and user, replacing earlier ones. */
export async function generateSecrets(ctx: AppContext, action: string, userId: number): Promise<StoredSecret> {
  const all = await ctx.options.get<Record<string, StoredSecret>>(SECRETS, {});
  const secret = { secret_1: randomSecret(), secret_2: randomSecret(), exp: Math.floor(ctx.now().getTime() / 1000) + SECRET_TTL_S };
  await ctx.options.set(SECRETS, { ...all, [`${action}_${userId}`]: secret });
  return secret;
}

/** Checks `secret_1` for `action` and user: secret_2 on success (the secrets are then used up), else an error code. */
export async function verifySecrets(ctx: AppContext, action: string, secret1: unknown, state: unknown): Promise<{ secret2: string } | { code: string; message: string }> {
  if (typeof secret1 !== 'string' || secret1 === '') return { code: 'verify_secret_1_missing', message: 'The required "secret_1" parameter is missing.' };
  if (state === undefined || state === null || state === '') return { code: 'state_missing', message: 'The required "state" parameter is missing.' };
  if (!/^\d+$/.test(String(state))) return { code: 'state_malformed', message: 'The required "state" parameter is malformed.' };
  const all = await ctx.options.get<Record<string, StoredSecret>>(SECRETS, {});
  const key = `${action}_${String(state)}`;
  const stored = all[key];
  if (!stored) return { code: 'verify_secrets_missing', message: 'Verification secrets not found' };
  const { [key]: _used, ...rest } = all;
  if (stored.exp < Math.floor(ctx.now().getTime() / 1000)) {
    await ctx.options.set(SECRETS, rest);
    return { code: 'verify_secrets_expired', message: 'Verification took too long' };
  }
  const a = Buffer.from(secret1);
  const b = Buffer.from(stored.secret_1);
  if (a.length !== b.length || !crypto.timingSafeEqual(a, b)) return { code: 'verify_secrets_mismatch', message: 'Secret mismatch' };
  await ctx.options.set(SECRETS, rest);
  return { secret2: stored.secret_2 };
}

// ---- signature errors the hub may ask about (`verify_xmlrpc_error`) -------------------------------

export interface StoredSignatureError {
  error_code: string;
  user_id: number;
  nonce: string;
  timestamp: number;
}

const MAX_STORED_ERRORS = 5;
/** An error code is recorded at most once in this many seconds (the original's reporting gate). */
export const ERROR_GATE_S = 3600;

/**
 * Records a refused signed request under a fresh nonce (newest kept), unless the same code was
 * recorded within {@link ERROR_GATE_S}: a flood of bad signatures costs no writes.
 */
export async function recordSignatureError(ctx: AppContext, code: string, userId: number): Promise<StoredSignatureError | undefined> {
  const errors = await ctx.options.get<StoredSignatureError[]>(ERRORS, []);
  const now = Math.floor(ctx.now().getTime() / 1000);
  if (errors.some((e) => e.error_code === code && e.timestamp > now - ERROR_GATE_S)) return undefined;
  const entry = { error_code: code, user_id: userId, nonce: crypto.randomBytes(10).toString('hex'), timestamp: now };
  await ctx.options.set(ERRORS, [...errors, entry].slice(-MAX_STORED_ERRORS));
  return entry;
}

/** Marks the error with this nonce verified; false when no stored error has it. */
export async function verifySignatureError(ctx: AppContext, nonce: string): Promise<boolean> {
  const errors = await ctx.options.get<StoredSignatureError[]>(ERRORS, []);
  const found = errors.find((e) => e.nonce === nonce);
  if (!found) return false;
  await ctx.options.set(ERRORS, errors.filter((e) => e !== found && e.nonce !== nonce));
  const verified = await ctx.options.get<StoredSignatureError[]>(VERIFIED_ERRORS, []);
  await ctx.options.set(VERIFIED_ERRORS, [...verified, found].slice(-MAX_STORED_ERRORS));
  return true;
}
