/**
 * @module namespaces/contact-forms/secret
 * The key of this area's keyed hashes (posted-data hashes, quiz answers): random, made once, kept in
 * the option `wpcf7_secret` so every instance agrees.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';

const OPTION = 'wpcf7_secret';

export async function areaSecret(ctx: AppContext): Promise<string> {
  const existing = await ctx.options.get<unknown>(OPTION, null);
  if (typeof existing === 'string' && existing.length >= 32) return existing;
  const fresh = crypto.randomBytes(32).toString('base64url');
  // Two instances may race: the first stored value wins.
  await ctx.db.insertInto('options').values({ name: OPTION, value: JSON.stringify(fresh) }).onConflict((oc) => oc.column('name').doNothing()).execute();
  ctx.options.clearCache();
  return String(await ctx.options.get(OPTION));
}

/** HMAC-SHA256 hex of `text` for `purpose`. */
export async function keyedHash(ctx: AppContext, purpose: string, text: string): Promise<string> {
  return crypto.createHmac('sha256', `${await areaSecret(ctx)}|${purpose}`).update(text).digest('hex');
}
