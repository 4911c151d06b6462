/**
 * @module namespaces/tickets/access
 * Who may see and change what in the tickets namespace, after ET `REST/V1/Main.php`:
 * - "manage access" (`edit_users` or `tribe_manage_attendees`, or an `api_key` parameter equal to the
 *   check-in key an administrator set) unlocks attendee data, e-mails and check-in;
 * - ticket writes need the right to edit the ticket's post (`edit_post`) plus a nonce;
 * - unpublished tickets and posts are readable by those who can read private posts of the type, or
 *   edit them as their author.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import type { PostRecord } from '../../content/posts.js';
import type { RestRequest, RestUser } from '../../rest/route.js';
import { FailureLimiter } from '../../auth/rate-limit.js';

/** The original's option holding the QR check-in API key. */
export const CHECKIN_KEY_OPTION = 'tickets-plus-qr-options-api-key';

const manageCache = new WeakMap<RestRequest, Promise<boolean>>();

/** The stored check-in API key, `''` when none was set. */
export async function getCheckinApiKey(ctx: Pick<AppContext, 'options'>): Promise<string> {
  const key = await ctx.options.get<unknown>(CHECKIN_KEY_OPTION, '');
  return typeof key === 'string' ? key : '';
}

/**
 * Sets the QR check-in API key (the original's Tickets settings option); the CLI hook and the admin
 * settings call this. An empty key disables key-based access and QR check-in.
 */
export async function setCheckinApiKey(ctx: Pick<AppContext, 'options'>, key: string): Promise<void> {
  await ctx.options.set(CHECKIN_KEY_OPTION, key.trim());
}

/**
 * Generates and stores a new key: 40 hex characters (160 random bits). The original makes 8 (32 bits),
 * guessable against a route that accepts it everywhere; keys set by hand are still accepted as they are.
 */
export async function generateCheckinApiKey(ctx: Pick<AppContext, 'options'>): Promise<string> {
  const key = crypto.randomBytes(20).toString('hex');
  await setCheckinApiKey(ctx, key);
  return key;
}

const keyFailures = new WeakMap<object, FailureLimiter>();

/**
 * Checks a supplied check-in key, counting wrong ones per client address: after 10 within 5 minutes
 * that address is refused, even with the right key, until the window passes.
 */
export async function checkinKeyAccepted(ctx: Pick<AppContext, 'options' | 'now'>, supplied: unknown, ip: string): Promise<boolean> {
  let limiter = keyFailures.get(ctx.options);
  if (!limiter) keyFailures.set(ctx.options, (limiter = new FailureLimiter()));
  const now = ctx.now().getTime();
  if (limiter.retryAfter(ip, now) > 0) return false;
  const ok = keysMatch(supplied, await getCheckinApiKey(ctx));
  if (!ok) limiter.fail(ip, now);
  return ok;
}

/** Constant-time comparison of a supplied key with the stored one (never true for an empty key). */
export function keysMatch(supplied: unknown, stored: string): boolean {
  if (typeof supplied !== 'string' || stored === '' || supplied === '') return false;
  const a = Buffer.from(supplied);
  const b = Buffer.from(stored);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** True when the request has the original's "ticket manage access". Memoised per request. */
export function hasManageAccess(req: RestRequest, ctx: Pick<AppContext, 'options' | 'now'>): Promise<boolean> {
  let cached = manageCache.get(req);
  if (!cached) {
    cached = (async () => {
      const user = req.user;
      if (user && (user.can('edit_users') || user.can('tribe_manage_attendees'))) return true;
      const supplied = req.params.api_key ?? req.query.api_key ?? req.body.api_key;
      if (supplied === undefined) return false;
      return checkinKeyAccepted(ctx, supplied, req.ip);
    })();
    manageCache.set(req, cached);
  }
  return cached;
}

/** Plural used in a post type's capability names. */
function capPlural(type: string): string {
  switch (type) {
    case 'tribe_events':
      return 'tribe_events';
    case 'tribe_venue':
      return 'tribe_venues';
    case 'tribe_organizer':
      return 'tribe_organizers';
    case 'page':
      return 'pages';
    default:
      return 'posts';
  }
}

/**
 * `edit_post` of the ticket's post: who may manage the tickets of a post. ET 5.19 checks only "edit
 * posts" of the type, which let contributors reprice or delete the tickets of others' events.
 */
export function canEditTicketsOf(user: RestUser | null, post: Pick<PostRecord, 'type' | 'author' | 'status'>): boolean {
  if (!user) return false;
  const plural = capPlural(post.type);
  const own = post.author === user.id;
  if (!user.can(`edit_${plural}`)) return false;
  if (!own && !user.can(`edit_others_${plural}`)) return false;
  if ((post.status === 'publish' || post.status === 'future') && !user.can(`edit_published_${plural}`)) return false;
  if (post.status === 'private' && !own && !user.can(`edit_private_${plural}`)) return false;
  return true;
}

/** `read_post` for a post that is not published: private readers of the type, or its author. */
export function canReadUnpublished(user: RestUser | null, post: Pick<PostRecord, 'type' | 'author'>): boolean {
  if (!user) return false;
  const plural = capPlural(post.type);
  if (user.can(`read_private_${plural}`) || user.can(`edit_others_${plural}`)) return true;
  return post.author === user.id && user.can(`edit_${plural}`);
}

/** True when the post is visible to the caller (published, or readable unpublished). */
export function canReadPost(user: RestUser | null, post: Pick<PostRecord, 'type' | 'author' | 'status'>): boolean {
  return post.status === 'publish' || canReadUnpublished(user, post);
}
