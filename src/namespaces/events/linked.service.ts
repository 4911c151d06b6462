/**
 * @module namespaces/events/linked.service
 * Venue and organizer rules: creation with duplicate avoidance (same title, and description when
 * given, returns the existing record), updates that change only the fields sent, trashing, and the
 * readability rules of single reads.
 */
import type { AppContext } from '../../app-context.js';
import { restoredPostSlug, siteTimeZone, trashedPostSlug, uniquePostSlug } from '../../content/posts.js';
import type { RestUser } from '../../rest/route.js';
import type { Db } from '../../storage/db.js';
import { can, canReadPost } from './caps.js';
import { eventError } from './errors.js';
import {
  findDuplicate, getOrganizersByIds, getVenuesByIds, insertOrganizer, insertVenue, linkedOfEvents, linkedType, updateOrganizerRows,
  updateVenueRows, type LinkedKind, type OrganizerRecord, type VenueRecord,
} from './linked.repo.js';
import type { NewPostRow } from './events.repo.js';
import { nowDates, publicationDates, resolveImage, resolveStatus } from './post-write.js';
import { isTruthy } from './validators.js';

/** Fields of a venue write (venue routes and nested `venue` objects of events). */
export const VENUE_FIELDS = ['venue', 'description', 'address', 'city', 'country', 'province', 'state', 'stateprovince', 'zip', 'phone', 'website', 'show_map', 'show_map_link', 'image', 'status', 'author', 'date', 'date_utc'] as const;
/** Fields of an organizer write. */
export const ORGANIZER_FIELDS = ['organizer', 'description', 'phone', 'website', 'email', 'image', 'status', 'author', 'date', 'date_utc'] as const;

/** Only the fields that were sent, by name. */
export type LinkedInput = Partial<Record<string, unknown>>;

export type LinkedRecord = VenueRecord | OrganizerRecord;

/** One venue or organizer by ID (any status). */
export async function getLinked(db: Db, kind: LinkedKind, id: number): Promise<LinkedRecord | undefined> {
  return kind === 'venue' ? (await getVenuesByIds(db, [id])).get(id) : (await getOrganizersByIds(db, [id])).get(id);
}

function text(v: unknown): string {
  return v === undefined || v === null ? '' : String(v).trim();
}

/**
 * A venue's state-or-province as the original stores it (Venue::save_meta): the one given, or else the
 * state of a venue in the United States (or of no country), or else the province.
 */
function stateProvinceOf(v: { stateprovince: string; state: string; province: string; country: string }): string {
  if (v.stateprovince !== '') return v.stateprovince;
  if (v.state !== '' && (v.country === '' || v.country === 'US' || v.country === 'United States')) return v.state;
  return v.province;
}

function flag(v: unknown): number {
  return v === undefined || v === null || v === '' ? 1 : isTruthy(v) ? 1 : 0;
}

/**
 * Creates a venue or organizer from create fields, or returns the existing one with the same title
 * (and description when given). Runs on `db` (the caller's transaction); `siteZone` is read by the
 * caller before the transaction (SQLite has one connection: no other query may run inside it).
 */
export async function createLinked(ctx: AppContext, db: Db, kind: LinkedKind, input: LinkedInput, user: RestUser | null, siteZone: string): Promise<{ id: number; created: boolean }> {
  const title = text(input[kind]);
  const description = input.description === undefined ? undefined : text(input.description);
  const duplicate = await findDuplicate(db, kind, title, description);
  if (duplicate !== undefined) return { id: duplicate, created: false };

  const type = linkedType(kind);
  const now = ctx.now();
  const stamp = nowDates(now, siteZone);
  const pub = publicationDates({ date: input.date, date_utc: input.date_utc }, siteZone, siteZone, now) ?? { date: stamp.local, date_gmt: stamp.gmt };
  const status = resolveStatus(input.status === undefined ? undefined : String(input.status), { canPublish: can(user, type, 'publish'), create: true, dateGmt: pub.date_gmt, now });
  const image = input.image === undefined ? { url: '', id: 0 } : ((await resolveImage(db, input.image)) ?? { url: '', id: 0 });
  const postRow: NewPostRow = {
    type, status, slug: await uniquePostSlug(db, type, title, undefined, kind), title, content: description ?? '', excerpt: '',
    author: input.author !== undefined ? Number(input.author) : (user?.id ?? 0), parent: 0, password: '', menu_order: 0,
    date: pub.date, date_gmt: pub.date_gmt, modified: stamp.local, modified_gmt: stamp.gmt, image_url: image.url,
  };
  const id = kind === 'venue'
    ? await insertVenue(db, postRow, {
        address: text(input.address), city: text(input.city), country: text(input.country), province: text(input.province),
        state: text(input.state), zip: text(input.zip), phone: text(input.phone), website: text(input.website),
        stateprovince: stateProvinceOf({ stateprovince: text(input.stateprovince), state: text(input.state), province: text(input.province), country: text(input.country) }), show_map: flag(input.show_map), show_map_link: flag(input.show_map_link),
        geo_lat: null, geo_lng: null, image_id: image.id, lineage: '[]',
      })
    : await insertOrganizer(db, postRow, { phone: text(input.phone), website: text(input.website), email: text(input.email), image_id: image.id, lineage: '[]' });
  return { id, created: true };
}

/** Applies the fields that were sent (and only those) to a venue/organizer. */
export async function updateLinked(ctx: AppContext, db: Db, kind: LinkedKind, current: LinkedRecord, input: LinkedInput, user: RestUser | null, siteZone: string): Promise<void> {
  const type = linkedType(kind);
  const now = ctx.now();
  const stamp = nowDates(now, siteZone);
  const postRow: Partial<NewPostRow> = { modified: stamp.local, modified_gmt: stamp.gmt };
  if (input[kind] !== undefined) postRow.title = text(input[kind]);
  if (input.description !== undefined) postRow.content = text(input.description);
  if (input.author !== undefined) postRow.author = Number(input.author);
  if (input.slug !== undefined && text(input.slug) !== '' && text(input.slug) !== current.slug) postRow.slug = await uniquePostSlug(db, type, text(input.slug), current.id);
  const pub = publicationDates({ date: input.date, date_utc: input.date_utc }, siteZone, siteZone, now);
  if (pub) Object.assign(postRow, pub);
  if (input.status !== undefined || pub) {
    postRow.status = resolveStatus(input.status === undefined ? undefined : String(input.status), {
      canPublish: can(user, type, 'publish'), create: false, current: current.status, dateGmt: pub?.date_gmt ?? current.date_gmt, now,
    });
    if (current.status === 'trash' && postRow.status !== 'trash') postRow.slug = await restoredPostSlug(db, type, current.id, current.slug);
    else if (current.status !== 'trash' && postRow.status === 'trash') postRow.slug = await trashedPostSlug(db, type, current.id, current.slug);
  }
  let imageId: number | undefined;
  if (input.image !== undefined) {
    const image = (await resolveImage(db, input.image)) ?? { url: '', id: 0 };
    postRow.image_url = image.url;
    imageId = image.id;
  }
  if (kind === 'venue') {
    const d: Record<string, unknown> = {};
    for (const key of ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince'] as const) {
      if (input[key] !== undefined) d[key] = text(input[key]);
    }
    if (['stateprovince', 'state', 'province', 'country'].some((key) => input[key] !== undefined)) {
      // A stored value that was derived (not given) follows the state, province and country sent.
      const venue = current as VenueRecord;
      const derived = venue.stateprovince === stateProvinceOf({ ...venue, stateprovince: '' });
      const merged = { state: venue.state, province: venue.province, country: venue.country, stateprovince: derived ? '' : venue.stateprovince, ...d } as Parameters<typeof stateProvinceOf>[0];
      d.stateprovince = stateProvinceOf(merged);
    }
    if (input.show_map !== undefined) d.show_map = flag(input.show_map);
    if (input.show_map_link !== undefined) d.show_map_link = flag(input.show_map_link);
    if (imageId !== undefined) d.image_id = imageId;
    await updateVenueRows(db, current.id, postRow, d);
  } else {
    const d: Record<string, unknown> = {};
    for (const key of ['phone', 'website', 'email'] as const) if (input[key] !== undefined) d[key] = text(input[key]);
    if (imageId !== undefined) d.image_id = imageId;
    await updateOrganizerRows(db, current.id, postRow, d);
  }
}

/**
 * Gives the venues or organizers linked to an event the featured images named for them by title
 * (compared without case, as duplicates are found), as the original's importer attaches an imported
 * venue's or organizer's image to the post it found or made (`import_venue_image`,
 * `import_organizer_image`). `images` maps titles to attachment IDs. Returns the attachment IDs set;
 * a post that has this image already is left alone (another image is replaced, as the original does).
 */
export async function setLinkedImages(ctx: AppContext, eventId: number, kind: LinkedKind, images: ReadonlyMap<string, number>): Promise<number[]> {
  if (images.size === 0) return [];
  const page = await linkedOfEvents(ctx.db, [eventId]);
  const linked = kind === 'venue' ? page.venues : page.organizers;
  const byTitle = new Map([...images].map(([title, id]) => [title.trim().toLowerCase(), id]));
  const siteZone = await siteTimeZone(ctx.options);
  const set: number[] = [];
  for (const id of linked.ids.get(eventId) ?? []) {
    const record = linked.records.get(id)!;
    const image = byTitle.get(record.title.toLowerCase());
    if (image === undefined || record.imageId === image) continue;
    await ctx.db.transaction().execute((trx) => updateLinked(ctx, trx, kind, record, { image }, null, siteZone));
    set.push(image);
  }
  return set;
}

/**
 * Moves a venue/organizer to the trash and unlinks it from its events, as the originals do when one is
 * trashed; 410 when it is there already.
 */
export async function trashLinked(ctx: AppContext, kind: LinkedKind, current: LinkedRecord): Promise<void> {
  if (current.status === 'trash') throw eventError(kind === 'venue' ? 'venue-is-in-trash' : 'organizer-is-in-trash');
  const stamp = nowDates(ctx.now(), await siteTimeZone(ctx.options));
  await ctx.db.transaction().execute(async (trx) => {
    const slug = await trashedPostSlug(trx, linkedType(kind), current.id, current.slug);
    await trx.updateTable('posts').set({ status: 'trash', slug, modified: stamp.local, modified_gmt: stamp.gmt }).where('id', '=', current.id).execute();
    if (kind === 'venue') await trx.deleteFrom('event_venues').where('venue_id', '=', current.id).execute();
    else await trx.deleteFrom('event_organizers').where('organizer_id', '=', current.id).execute();
  });
}

/** A venue/organizer the user may read, or the originals' errors. */
export function assertLinkedReadable(kind: LinkedKind, record: LinkedRecord, user: RestUser | null): void {
  if (!canReadPost(user, linkedType(kind), record)) throw eventError(kind === 'venue' ? 'venue-not-accessible' : 'organizer-not-accessible');
}
