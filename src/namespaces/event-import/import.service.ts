/**
 * @module namespaces/event-import/import.service
 * The one code path that turns imported items into events, whatever fed them (the remote service's
 * batches, an .ics file or URL, a CSV file). Items are matched by their origin's unique id (table
 * `import_origin_ids`): a new item creates an event, a changed one gets only its changed fields, an
 * unchanged one is skipped, one whose event was trashed is skipped (a deletion sticks). The images of
 * what is written are side-loaded into the media library first (`images.ts`).
 *
 * Crash safety: before an event is created its origin id is claimed (`import_claims`); the mapping and
 * the claim's release are written in one transaction after the event. A claim left behind means the
 * process died between the two; the next import of that item adopts the event it had created (same
 * title and start, not mapped to another item) instead of creating a second one.
 */
import type { AppContext } from '../../app-context.js';
import { getTermByName } from '../../content/terms.js';
import { isRestError } from '../../rest/errors.js';
import type { RestUser } from '../../rest/route.js';
import type { Db } from '../../storage/db.js';
import { crashPoint } from '../../storage/crash-point.js';
import {
  CATEGORY_TAXONOMY, eventsService, EVENT_TYPE, getEventsByIds, ORGANIZER_TYPE, saveEvent, setLinkedImages, TAG_TAXONOMY, VENUE_TYPE,
  type EventInput, type EventRecord,
} from '../events/index.js';
import { changedInput, createInput, storedFields, withoutImages, type ImportedFields, type ImportedItem, type SkippedItem } from './fields.js';
import { loadImages } from './images.js';
import { emptyActivity, gmt, type Activity, type ActivityKey } from './records.repo.js';
import { checkedUrls } from './url-fields.js';

export interface ApplyOptions {
  /** Who imports; default: the site, authoring as the first administrator. */
  user?: RestUser;
  /** Called before the first item and after each one. */
  onProgress?: (done: number, total: number) => void | Promise<void>;
}

export interface ApplyResult {
  activity: Activity;
  created: number;
  updated: number;
  unchanged: number;
  skipped: SkippedItem[];
}

/** The site as importer: every calendar capability, authoring as the first administrator (else the first user). */
export async function siteImporter(ctx: AppContext): Promise<RestUser> {
  const admin = await ctx.db.selectFrom('users').select('id').where('roles', 'like', '%administrator%').orderBy('id').executeTakeFirst();
  const first = admin ?? (await ctx.db.selectFrom('users').select('id').orderBy('id').executeTakeFirst());
  return { id: Number(first?.id ?? 0), login: 'event-import', email: '', displayName: 'Event import', roles: [], can: () => true };
}

/** Ids of the live posts of `type` with these titles (first by id). */
async function postIdsByTitle(db: Db, type: string, titles: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (titles.length === 0) return out;
  const rows = await db.selectFrom('posts').select(['id', 'title']).where('type', '=', type).where('title', 'in', [...titles]).where('status', '!=', 'trash').orderBy('id').execute();
  for (const r of rows) if (!out.has(r.title)) out.set(r.title, Number(r.id));
  return out;
}

async function termIds(db: Db, taxonomy: string, names: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const name of names) {
    const term = await getTermByName(db, taxonomy, name.trim());
    if (term) out.set(name, term.id);
  }
  return out;
}

interface LinkedSnapshot {
  venues: Map<string, number>;
  organizers: Map<string, number>;
  categories: Map<string, number>;
  tags: Map<string, number>;
}

async function snapshot(db: Db, f: ImportedFields): Promise<LinkedSnapshot> {
  return {
    venues: await postIdsByTitle(db, VENUE_TYPE, f.venue ? [f.venue.venue] : []),
    organizers: await postIdsByTitle(db, ORGANIZER_TYPE, f.organizers.map((o) => o.organizer)),
    categories: await termIds(db, CATEGORY_TAXONOMY, f.categories),
    tags: await termIds(db, TAG_TAXONOMY, f.tags),
  };
}

/** Logs the venues, organizers and terms that exist now but did not before. */
function logCreatedLinked(activity: Activity, before: LinkedSnapshot, after: LinkedSnapshot): void {
  const pairs: [ActivityKey, keyof LinkedSnapshot][] = [['tribe_venue', 'venues'], ['tribe_organizer', 'organizers'], ['tribe_events_cat', 'categories'], ['post_tag', 'tags']];
  for (const [key, part] of pairs) {
    for (const [name, id] of after[part]) if (!before[part].has(name) && !activity[key].created.includes(id)) activity[key].created.push(id);
  }
}

/** The event a crashed run created for this item: same title and start, mapped to no item. */
async function adoptOrphan(ctx: AppContext, f: ImportedFields): Promise<number | undefined> {
  const rows = await ctx.db
    .selectFrom('posts')
    .leftJoin('import_origin_ids as m', 'm.post_id', 'posts.id')
    .select('posts.id')
    .where('posts.type', '=', EVENT_TYPE)
    .where('posts.title', '=', f.title.trim())
    .where('m.post_id', 'is', null)
    .orderBy('posts.id', 'desc')
    .execute();
  if (rows.length === 0) return undefined;
  const events = await eventsService.getEvents(ctx, rows.map((r) => Number(r.id)));
  for (const r of rows) {
    const ev = events.get(Number(r.id));
    if (ev && ev.startLocal.slice(0, 16) === f.start_date.slice(0, 16)) return ev.id;
  }
  return undefined;
}

async function writeMapping(ctx: AppContext, key: string, postId: number, fields: ImportedFields, recordId: string): Promise<void> {
  const json = JSON.stringify(fields);
  const imported_gmt = gmt(ctx.now());
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('import_origin_ids')
      .values({ origin_id: key, post_id: postId, fields: json, record_id: recordId, imported_gmt })
      .onConflict((oc) => oc.column('origin_id').doUpdateSet({ post_id: postId, fields: json, record_id: recordId, imported_gmt }))
      .execute();
    await trx.deleteFrom('import_claims').where('origin_id', '=', key).execute();
  });
}

type Outcome = 'created' | 'updated' | 'unchanged' | SkippedItem;

/**
 * An event imported before images were side-loaded keeps the item's image URL as its own: its image
 * is written again (and so loaded) even though the item did not change.
 */
function withRemoteImageLoaded(input: EventInput | undefined, current: EventRecord, previous: ImportedFields | undefined, next: ImportedFields): EventInput | undefined {
  const remote = next.image !== null && previous?.image === next.image && current.imageId === 0 && current.image_url === next.image;
  return remote ? { ...input, image: next.image } : input;
}

/**
 * Writes an item's event: its images are loaded first (outside any transaction), then the event, then
 * the images of its venue and organizers, then the mapping to the item. Undefined when an update has
 * nothing left to write (its only change was an image that could not be loaded).
 */
async function writeEvent(ctx: AppContext, recordId: string, item: ImportedItem, user: RestUser, activity: Activity, input: EventInput, current?: EventRecord): Promise<number | undefined> {
  const images = await loadImages(ctx, user, input, item.fields);
  if (current && Object.keys(input).length === 0) return undefined;
  const before = await snapshot(ctx.db, item.fields);
  const id = await saveEvent(ctx, input, user, current);
  if (!current) await crashPoint('import.event-saved');
  logCreatedLinked(activity, before, await snapshot(ctx.db, item.fields));
  const attached = [
    ...(images.event !== undefined && images.event !== current?.imageId ? [images.event] : []),
    ...(await setLinkedImages(ctx, id, 'venue', images.venues)),
    ...(await setLinkedImages(ctx, id, 'organizer', images.organizers)),
  ];
  for (const attachment of attached) if (!activity.attachment.created.includes(attachment)) activity.attachment.created.push(attachment);
  await writeMapping(ctx, item.key, id, images.applied, recordId);
  return id;
}

async function applyItem(ctx: AppContext, recordId: string, item: ImportedItem, user: RestUser, activity: Activity): Promise<Outcome> {
  const row = await ctx.db.selectFrom('import_origin_ids').select(['post_id', 'fields']).where('origin_id', '=', item.key).executeTakeFirst();
  const current = row ? (await getEventsByIds(ctx.db, [Number(row.post_id)])).get(Number(row.post_id)) : undefined;
  if (current) {
    if (current.status === 'trash') {
      activity.tribe_events.skipped.push(current.id);
      return { uid: item.key, reason: `event ${current.id} is in the trash` };
    }
    const previous = storedFields(row!.fields);
    const input = withRemoteImageLoaded(previous ? changedInput(previous, item.fields) : createInput(item.fields), current, previous, item.fields);
    if (!input || (await writeEvent(ctx, recordId, item, user, activity, input, current)) === undefined) {
      activity.tribe_events.skipped.push(current.id);
      return 'unchanged';
    }
    activity.tribe_events.updated.push(current.id);
    return 'updated';
  }

  const claimed = await ctx.db.selectFrom('import_claims').select('origin_id').where('origin_id', '=', item.key).executeTakeFirst();
  const orphan = claimed ? await adoptOrphan(ctx, item.fields) : undefined;
  if (orphan !== undefined) {
    // The crash may have come before its images were attached: mapped without them, the next import writes them.
    await writeMapping(ctx, item.key, orphan, withoutImages(item.fields), recordId);
    activity.tribe_events.created.push(orphan);
    return 'created';
  }
  if (!claimed) {
    await ctx.db.insertInto('import_claims').values({ origin_id: item.key, record_id: recordId, claimed_gmt: gmt(ctx.now()) }).onConflict((oc) => oc.column('origin_id').doNothing()).execute();
  }
  const id = (await writeEvent(ctx, recordId, item, user, activity, createInput(item.fields)))!;
  activity.tribe_events.created.push(id);
  return 'created';
}

/**
 * Creates or updates the events of `items` for the import record `recordId`. Items the events
 * service refuses (bad dates…) are reported in `skipped`; anything else thrown stops the import.
 */
export async function applyItems(ctx: AppContext, recordId: string, items: readonly ImportedItem[], options: ApplyOptions = {}): Promise<ApplyResult> {
  const user = options.user ?? (await siteImporter(ctx));
  const result: ApplyResult = { activity: emptyActivity(), created: 0, updated: 0, unchanged: 0, skipped: [] };
  await options.onProgress?.(0, items.length);
  let done = 0;
  for (const item of items) {
    let outcome: Outcome;
    const checked = checkedUrls(item);
    try {
      outcome = 'fields' in checked ? await applyItem(ctx, recordId, checked, user, result.activity) : checked;
    } catch (e) {
      if (!isRestError(e)) throw e;
      outcome = { uid: item.key, reason: e.message };
    }
    if (typeof outcome === 'string') result[outcome]++;
    else result.skipped.push(outcome);
    await options.onProgress?.(++done, items.length);
  }
  return result;
}
