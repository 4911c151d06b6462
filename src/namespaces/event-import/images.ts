/**
 * @module namespaces/event-import/images
 * The images of an imported item (the event's, and its venue's and organizers' where the source gives
 * them) go into the media library before the item is written, as the original's importer side-loads
 * them (`import_event_image`, `import_venue_image`, `import_organizer_image` through
 * `Tribe__Image__Uploader`): an image of this site's library is used as it is, one loaded from the
 * same URL before is reused, and one that cannot be loaded is left out (the item is written without
 * it). Only the images of the fields a write changes are loaded, so an unchanged item fetches nothing.
 * Loading waits on the network: run it outside any transaction.
 */
import type { AppContext } from '../../app-context.js';
import { sideloadImage } from '../../content/media.js';
import type { RestUser } from '../../rest/route.js';
import { attachmentByUrl, type EventInput } from '../events/index.js';
import { withoutImage, type ImportedFields } from './fields.js';

export interface LoadedImages {
  /**
   * The item's fields as written: an image that could not be loaded is left out, so that the next
   * import, finding it changed, tries it again (the original tries on every import).
   */
  applied: ImportedFields;
  /** The event's attachment, when the write gives it one. */
  event?: number;
  /** Attachments of the venue and organizers the write names, by their titles. */
  venues: Map<string, number>;
  organizers: Map<string, number>;
}

/** The attachment for an image URL: this site's own, or the one side-loaded from it (for users who may upload). */
async function attachmentFor(ctx: AppContext, user: RestUser, url: string): Promise<number | undefined> {
  const own = await attachmentByUrl(ctx.db, url);
  if (own) return own.id;
  if (!user.can('upload_files')) return undefined;
  return (await sideloadImage(ctx, url, user.id))?.id;
}

/**
 * Loads the images `input` (the event write of an item with `fields`) names by URL and puts their
 * attachment IDs in their place; an image that cannot be loaded is taken out of the write (an update
 * keeps the image it had).
 */
export async function loadImages(ctx: AppContext, user: RestUser, input: EventInput, fields: ImportedFields): Promise<LoadedImages> {
  const loaded: LoadedImages = { applied: fields, venues: new Map(), organizers: new Map() };
  if (typeof input.image === 'string' && input.image !== '') {
    const id = await attachmentFor(ctx, user, input.image);
    if (id === undefined) {
      delete input.image;
      loaded.applied = { ...loaded.applied, image: null };
    } else {
      input.image = id;
      loaded.event = id;
    }
  }
  // A venue's or organizer's title is its create field of the same name.
  for (const [param, found] of [['venue', loaded.venues], ['organizer', loaded.organizers]] as const) {
    const refs = input[param];
    if (!Array.isArray(refs)) continue;
    const failed = new Set<string>();
    for (const ref of refs as { image?: unknown; [name: string]: unknown }[]) {
      if (typeof ref.image !== 'string') continue;
      const id = await attachmentFor(ctx, user, ref.image);
      // The linked posts get their images once the event is written (`setLinkedImages`), whether
      // the write makes them or finds them.
      delete ref.image;
      if (id === undefined) failed.add(String(ref[param]));
      else found.set(String(ref[param]), id);
    }
    if (failed.size === 0) continue;
    loaded.applied = param === 'venue'
      ? { ...loaded.applied, venue: loaded.applied.venue && failed.has(loaded.applied.venue.venue) ? withoutImage(loaded.applied.venue) : loaded.applied.venue }
      : { ...loaded.applied, organizers: loaded.applied.organizers.map((o) => (failed.has(o.organizer) ? withoutImage(o) : o)) };
  }
  return loaded;
}
