/**
 * @module auth/site-key
 * The site's secret key (option `auth_key`), generated with `crypto.randomBytes` on first use, and the
 * per-purpose keys derived from it (nonces, sign-in cookies, application-password hashes). Every
 * instance sharing the database derives the same keys, so nonces and cookies verify anywhere.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../app-context.js';

export const SITE_KEY_OPTION = 'auth_key';

/** What each derived key is for; never reuse one key for two purposes. */
export type KeyPurpose = 'nonce' | 'logged_in' | 'application_password';

const siteKeys = new WeakMap<AppContext, Promise<Buffer>>();
const derivedKeys = new WeakMap<AppContext, Map<KeyPurpose, Promise<Buffer>>>();

async function readKey(ctx: AppContext): Promise<string | undefined> {
  const row = await ctx.db.selectFrom('options').select('value').where('name', '=', SITE_KEY_OPTION).executeTakeFirst();
  if (!row) return undefined;
  try {
    const value: unknown = JSON.parse(row.value);
    return typeof value === 'string' && value.length >= 32 ? value : undefined;
  } catch {
    return undefined;
  }
}

async function loadSiteKey(ctx: AppContext): Promise<Buffer> {
  let key = await readKey(ctx);
  if (key === undefined) {
    const fresh = JSON.stringify(crypto.randomBytes(48).toString('base64url'));
    // Two instances may start at once: the first insert wins and both read the winner back.
    const inserted = await ctx.db
      .insertInto('options')
      .values({ name: SITE_KEY_OPTION, value: fresh })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    key = await readKey(ctx);
    if (key === undefined && Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      // CASE: a stored value that is not a usable key (hand-edited): replace it.
      await ctx.options.set(SITE_KEY_OPTION, JSON.parse(fresh) as string);
      key = await readKey(ctx);
    }
    if (key === undefined) throw new Error('the site key could not be stored');
  }
  return Buffer.from(key, 'utf8');
}

/** The site key (cached per application after the first read). */
export function getSiteKey(ctx: AppContext): Promise<Buffer> {
  let p = siteKeys.get(ctx);
  if (!p) {
    p = loadSiteKey(ctx);
    siteKeys.set(ctx, p);
    p.catch(() => siteKeys.delete(ctx));
  }
  return p;
}

/** A key for one purpose: HMAC-SHA256(site key, purpose). */
export function derivedKey(ctx: AppContext, purpose: KeyPurpose): Promise<Buffer> {
  let byPurpose = derivedKeys.get(ctx);
  if (!byPurpose) {
    byPurpose = new Map();
    derivedKeys.set(ctx, byPurpose);
  }
  let p = byPurpose.get(purpose);
  if (!p) {
    const map = byPurpose;
    p = getSiteKey(ctx).then((site) => crypto.createHmac('sha256', site).update(`eventsuite:${purpose}`).digest());
    map.set(purpose, p);
    p.catch(() => map.delete(purpose));
  }
  return p;
}

/** Constant-time equality of two strings (false for different lengths). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) {
    crypto.timingSafeEqual(ab, ab);
    return false;
  }
  return crypto.timingSafeEqual(ab, bb);
}
