/**
 * @module namespaces/oembed/proxy-cache.repo
 * The proxy's cache of remote oEmbed answers (WordPress keeps them in transients): keyed by a hash of
 * the request parameters, expiring after a day, and bounded in size.
 */
import crypto from 'node:crypto';
import type { Db } from '../../storage/db.js';

/** `rest_oembed_ttl`: one day. */
export const CACHE_TTL_SECONDS = 24 * 60 * 60;
/** Entries kept at most; the ones closest to expiry go first. */
export const CACHE_MAX_ENTRIES = 5_000;

function gmt(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** The cache key of a proxy request: a hash of its parameters without `_wpnonce`. */
export function proxyCacheKey(params: Record<string, unknown>): string {
  const { _wpnonce: _nonce, ...rest } = params;
  return crypto.createHash('sha256').update(JSON.stringify(canonical(rest))).digest('hex');
}

/** The cached answer, unless missing or expired. */
export async function readProxyCache(db: Db, key: string, now: Date): Promise<Record<string, unknown> | undefined> {
  const row = await db
    .selectFrom('oembed_cache')
    .select('value')
    .where('cache_key', '=', key)
    .where('expires_gmt', '>', gmt(now))
    .executeTakeFirst();
  if (!row) return undefined;
  try {
    const value: unknown = JSON.parse(row.value);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Stores an answer, then drops expired entries and the excess over {@link CACHE_MAX_ENTRIES}. */
export async function writeProxyCache(db: Db, key: string, value: Record<string, unknown>, now: Date, ttlSeconds = CACHE_TTL_SECONDS): Promise<void> {
  const row = { value: JSON.stringify(value), created_gmt: gmt(now), expires_gmt: gmt(new Date(now.getTime() + ttlSeconds * 1000)) };
  await db
    .insertInto('oembed_cache')
    .values({ cache_key: key, ...row })
    .onConflict((oc) => oc.column('cache_key').doUpdateSet(row))
    .execute();
  await db.deleteFrom('oembed_cache').where('expires_gmt', '<=', gmt(now)).execute();
  const { count } = await db.selectFrom('oembed_cache').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const excess = Number(count) - CACHE_MAX_ENTRIES;
  if (excess > 0) {
    await db
      .deleteFrom('oembed_cache')
      .where('cache_key', 'in', db.selectFrom('oembed_cache').select('cache_key').orderBy('expires_gmt').orderBy('cache_key').limit(excess))
      .execute();
  }
}
