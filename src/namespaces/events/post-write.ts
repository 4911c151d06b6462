/**
 * @module namespaces/events/post-write
 * Rules shared by every calendar post write: the status a user ends up with, publication dates,
 * featured images (side-loaded from URLs into the media library).
 */
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import type { RestUser } from '../../rest/route.js';
import { sideloadImage } from '../../content/media.js';
import { parseDateTime, postDatePair, toDbDate } from '../../content/posts.js';
import type { Db } from '../../storage/db.js';
import { linkedRefs } from './validators.js';

const PUBLISHING = new Set(['publish', 'future', 'private']);

/**
 * The status a write stores: publishers get what they ask (default `publish` on create); others asking
 * for a published status get `pending`, otherwise their value (default `draft`). A `publish` dated in
 * the future becomes `future`, a `future` dated in the past `publish`.
 */
export function resolveStatus(requested: string | undefined, options: { canPublish: boolean; create: boolean; current?: string; dateGmt: string; now: Date }): string {
  let status = requested ?? (options.create ? (options.canPublish ? 'publish' : 'draft') : options.current!);
  if (requested !== undefined && !options.canPublish && PUBLISHING.has(requested)) status = 'pending';
  const nowGmt = toDbDate(DateTime.fromJSDate(options.now).toUTC());
  if (status === 'publish' && options.dateGmt > nowGmt) status = 'future';
  if (status === 'future' && options.dateGmt <= nowGmt) status = 'publish';
  return status;
}

/**
 * Publication dates from `date` (read in `zone`) and/or `date_utc`; the site-local form uses
 * `siteZone`. Undefined when neither was sent.
 */
export function publicationDates(input: { date?: unknown; date_utc?: unknown }, zone: string, siteZone: string, now: Date): { date: string; date_gmt: string } | undefined {
  let instant: DateTime | undefined;
  if (input.date_utc !== undefined) instant = parseDateTime(input.date_utc, 'UTC', now);
  else if (input.date !== undefined) instant = parseDateTime(input.date, zone, now);
  if (!instant) return undefined;
  const { local, gmt } = postDatePair(instant, siteZone);
  return { date: local, date_gmt: gmt };
}

/** Now as a post's `date`/`date_gmt` (or `modified`/`modified_gmt`) pair. */
export function nowDates(now: Date, siteZone: string): { local: string; gmt: string } {
  return postDatePair(now, siteZone);
}

/** The image attachment (this site's media) whose file URL is `url`. */
export async function attachmentByUrl(db: Db, url: string): Promise<{ url: string; id: number } | undefined> {
  const row = await db.selectFrom('posts').select(['id', 'image_url']).where('type', '=', 'attachment').where('image_url', '=', url.trim()).orderBy('id').executeTakeFirst();
  return row && row.image_url ? { url: row.image_url, id: Number(row.id) } : undefined;
}

/** An image URL that is none of this site's media (an attachment ID, '' or our file URL are not). */
async function isForeignImageUrl(db: Db, value: unknown): Promise<boolean> {
  return typeof value === 'string' && value.trim() !== '' && !/^\d+$/.test(value) && (await attachmentByUrl(db, value)) === undefined;
}

/**
 * Side-loads the images a REST write names by URL (the post's `image`, and the `image` of venues and
 * organizers created with it) into the media library, and puts the attachment ID in their place, as
 * the original does before it saves. An image that cannot be loaded is left out: the post is saved
 * without it (an update keeps the image it had). Only for users who may upload. Runs before the
 * write's transaction.
 */
export async function sideloadInputImages(ctx: AppContext, user: RestUser, input: object): Promise<void> {
  if (!user.can('upload_files')) return;
  const fields = input as Record<string, unknown>;
  if (await isForeignImageUrl(ctx.db, fields.image)) {
    const image = await sideloadImage(ctx, String(fields.image), user.id);
    if (image) fields.image = image.id;
    else delete fields.image;
  }
  // The venues and organizers created with the post, read as the write reads them (a list, a keyed
  // object, one object); existing ones named by ID keep their own images.
  for (const key of ['venue', 'organizer']) {
    for (const ref of linkedRefs(fields[key]) ?? []) if ('fields' in ref) await sideloadInputImages(ctx, user, ref.fields);
  }
}

/**
 * A featured image from an attachment ID or a URL: the URL to store and the attachment ID (0 for a
 * URL that is none of this site's media: the REST routes refuse those, and the importer side-loads
 * them first; events imported before it did keep such URLs). Undefined when the ID is not an image
 * attachment. `""` removes the image.
 */
export async function resolveImage(db: Db, value: unknown): Promise<{ url: string; id: number } | undefined> {
  if (value === '' || value === 0 || value === '0' || value === false) return { url: '', id: 0 };
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
    const row = await db.selectFrom('posts').select(['id', 'image_url']).where('id', '=', Number(value)).where('type', '=', 'attachment').executeTakeFirst();
    return row && row.image_url ? { url: row.image_url, id: Number(row.id) } : undefined;
  }
  return typeof value === 'string' ? ((await attachmentByUrl(db, value)) ?? { url: value.trim(), id: 0 }) : undefined;
}

