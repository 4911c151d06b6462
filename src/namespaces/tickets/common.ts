/**
 * @module namespaces/tickets/common
 * Small pieces every part of the tickets area shares: the namespace name, URLs the originals emit
 * (REST URLs, global IDs), the current moment as a post date pair, and value checks used by several
 * routes' args.
 */
import crypto from 'node:crypto';
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import type { ArgSchema, RestRequest } from '../../rest/route.js';
import { parseDateTime, postDatePair, siteTimeZone, toDbDate } from '../../content/posts.js';
import { parseList } from '../../rest/php-query.js';
import { INPUT_LIMITS } from '../../rest/schema.js';
import type { DatePair } from './posts.repo.js';

/** The namespace (the original `tribe/tickets/v1`). */
export const TICKETS_NS = 'eventsuite/tickets/v1';

/** Absolute URL of a route of this namespace (`/tickets/5` → `{api_root}eventsuite/tickets/v1/tickets/5`). */
export function ticketsUrl(ctx: Pick<AppContext, 'urls'>, path: string): string {
  return ctx.urls.rest(`/${TICKETS_NS}${path}`);
}

/** Home URL → its host and path, as `global_id` starts (parsing the URL each time shows in profiles). */
const globalIdBases = new Map<string, string>();

/** `global_id` of the originals: home URL host and path, then `?type=…&id=…`. */
export function globalId(ctx: Pick<AppContext, 'urls'>, type: string, id: number): string {
  const homeUrl = ctx.urls.home;
  let base = globalIdBases.get(homeUrl);
  if (base === undefined) {
    const home = new URL(homeUrl);
    base = `${home.host}${home.pathname.replace(/\/+$/, '')}`;
    if (globalIdBases.size >= 100) globalIdBases.clear();
    globalIdBases.set(homeUrl, base);
  }
  return `${base}?type=${type}&id=${id}`;
}

/** The last pair {@link nowPair} made: the texts change once a second, so within one it is reused. */
let lastPair: { second: number; zone: string; pair: DatePair } | undefined;

/** Random bytes handed out by {@link randomHex}, refilled when used up. */
const randomPool = Buffer.alloc(4096);
let randomOffset = randomPool.length;

/**
 * `bytes` random bytes as hex, from the CSPRNG like `crypto.randomBytes` (each byte handed out once),
 * but drawn from a pooled buffer: a checkout needs several keys, and each `randomBytes` call costs a
 * trip into native code and a Buffer of its own.
 */
export function randomHex(bytes: number): string {
  if (randomOffset + bytes > randomPool.length) {
    crypto.randomFillSync(randomPool);
    randomOffset = 0;
  }
  const hex = randomPool.toString('hex', randomOffset, randomOffset + bytes);
  randomOffset += bytes;
  return hex;
}

/** Now, as a post's local/UTC date pair in the site's time zone. */
export async function nowPair(ctx: Pick<AppContext, 'options' | 'now'>): Promise<DatePair> {
  const zone = await siteTimeZone(ctx.options);
  const now = ctx.now();
  const second = Math.floor(now.getTime() / 1000);
  if (lastPair === undefined || lastPair.second !== second || lastPair.zone !== zone) lastPair = { second, zone, pair: postDatePair(now, zone) };
  return { ...lastPair.pair };
}

/** A moment in UTC, `YYYY-MM-DD HH:MM:SS` (without luxon for four-digit years). */
export function gmtText(date: Date): string {
  const year = date.getUTCFullYear();
  if (year >= 1000 && year <= 9999) return date.toISOString().slice(0, 19).replace('T', ' ');
  return toDbDate(DateTime.fromJSDate(date).toUTC());
}

/** Now in UTC, `YYYY-MM-DD HH:MM:SS`. */
export function nowGmt(ctx: Pick<AppContext, 'now'>): string {
  return gmtText(ctx.now());
}

/**
 * The original's `is_time` check: a Unix timestamp or a date `strtotime` understands, read as UTC.
 * Returns the moment as UTC text, or undefined.
 */
export function parseUtcTime(value: unknown, now: Date): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const dt = parseDateTime(value, 'UTC', now);
  return dt ? toDbDate(dt.toUTC()) : undefined;
}

/** `Tribe__Utils__Array::list_to_array`: CSV text or a list, trimmed, empties dropped. */
export function listToArray(value: unknown): string[] {
  return parseList(value).map((s) => s.trim()).filter((s) => s !== '');
}

/** Largest post ID the `posts` table can hold (a 32-bit serial): larger IDs can name nothing. */
export const MAX_POST_ID = 2_147_483_647;

/**
 * A list's total as the original counts it, with the offset applied: an offset at or past the last
 * match finds nothing (total 0), otherwise the matches.
 */
export function totalAfterOffset(matches: number, offset: number): number {
  return offset > 0 && offset >= matches ? 0 : matches;
}

/** A positive integer ID given as a number or digits (at most {@link MAX_POST_ID}). */
export function positiveInt(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n > 0 && n <= MAX_POST_ID ? n : undefined;
}

/** A count or amount bound kept within what every column and engine compares safely (0…MAX_POST_ID). */
export function clampCount(n: number): number {
  return Number.isFinite(n) ? Math.min(Math.max(0, Math.trunc(n)), MAX_POST_ID) : 0;
}

/** Positive integers of a CSV/list value (duplicates dropped), or undefined when any entry is not one or the list is longer than the input limit. */
export function positiveIntList(value: unknown): number[] | undefined {
  const list = listToArray(value);
  if (list.length > INPUT_LIMITS.listItems) return undefined;
  const out = new Set<number>();
  for (const item of list) {
    const n = positiveInt(item);
    if (n === undefined) return undefined;
    out.add(n);
  }
  return [...out];
}

/**
 * A list's `rest_url`: the collection URL (trailing slash) with the recognised query parameters the
 * client sent, lists joined by commas, values not re-encoded (`add_query_arg`).
 */
export function listRestUrl(ctx: Pick<AppContext, 'urls'>, req: RestRequest, path: string, args: Record<string, ArgSchema>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(req.query)) {
    if (!(k in args) || v === undefined || v === null) continue;
    const value = Array.isArray(v) ? v.join(',') : typeof v === 'object' ? Object.values(v as object).join(',') : String(v);
    parts.push(`${k}=${value}`);
  }
  const base = ticketsUrl(ctx, path);
  return parts.length ? `${base}?${parts.join('&')}` : base;
}

/** `yes` while the remote payment gateway runs in test mode: orders paid then are marked test (see `test-orders.ts`). */
export const PAYMENTS_TEST_MODE_OPTION = 'eventsuite_payments_test_mode';
