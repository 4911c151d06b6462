/**
 * @module namespaces/events/checks
 * Argument checks that need the database (existing users, venues, organizers, events, terms,
 * attachments), attached to the calendar's args with `withChecks` (`rest/checks.ts`): they run
 * before the permission check, so a bad argument answers 400 even to anonymous callers, and every
 * failing argument is reported in one `rest_invalid_param`. Like the originals' boolean validators,
 * a failure carries WordPress's generic "Invalid parameter." message.
 */
import type { AppContext } from '../../app-context.js';
import { isRemoteImage } from '../../content/media.js';
import { getPost } from '../../content/posts.js';
import { getTerm, getTermsByIds, resolveTermRefs, type TermRecord } from '../../content/terms.js';
import { loadOnce } from '../../rest/locals.js';
import { parseIdList, parseList } from '../../rest/php-query.js';
import type { ArgCheck, RestRequest } from '../../rest/route.js';
import { CATEGORY_TAXONOMY, TAG_TAXONOMY } from './caps.js';
import { eventError, EVENT_MESSAGES } from './errors.js';
import { existingEventIds, findEventIdBySlug, getEvent, type EventRecord } from './events.repo.js';
import { existingLinkedIds, findLinkedIdBySlug, type LinkedKind } from './linked.repo.js';
import { getLinked, type LinkedRecord } from './linked.service.js';
import { attachmentByUrl } from './post-write.js';
import { isImage, isImageFileUrl, isTime, linkedRefs, MAX_POST_ID, termRefs } from './validators.js';

declare module '../../rest/route.js' {
  interface RequestLocals {
    /** The event a single event route addresses (undefined: none). */
    event?: EventRecord | undefined;
    /** The venue or organizer a single route addresses. */
    linked?: LinkedRecord | undefined;
    /** The term a single term route addresses. */
    term?: TermRecord | undefined;
    /** The `categories` / `tags` filters resolved (see {@link resolvedTermFilter}). */
    categoriesFilter?: ResolvedTermFilter;
    tagsFilter?: ResolvedTermFilter;
  }
}

type Check = ArgCheck<AppContext>;

interface ResolvedTermFilter {
  refs: readonly string[];
  resolved: { ids: number[]; unknown: string[] };
}

async function userExists(ctx: AppContext, id: number): Promise<boolean> {
  const row = await ctx.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** `author` must be an existing user. */
const checkAuthor: Check = async (value, _req, ctx) => {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 && (await userExists(ctx, id));
};

/**
 * `image` must be an image attachment: by ID, or by URL one of this site's media; or, for users who
 * may upload, a URL that answers `HEAD` with 200 and an image type, which the write side-loads into
 * the media library (`sideloadInputImages`).
 */
const checkImage: Check = async (v, req, ctx) => {
  if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))) {
    if (Number(v) === 0) return true;
    const row = await ctx.db.selectFrom('posts').select('image_url').where('id', '=', Number(v)).where('type', '=', 'attachment').where('image_url', '!=', '').executeTakeFirst();
    // An attachment that is no image (a PDF, a raw file) is refused, as the original's is_image.
    return row !== undefined && isImageFileUrl(row.image_url);
  }
  if (typeof v !== 'string' || v.trim() === '') return true;
  const own = await attachmentByUrl(ctx.db, v);
  if (own) return isImageFileUrl(own.url);
  return req.user?.can('upload_files') === true && (await isRemoteImage(ctx, v.trim()));
};

/**
 * IDs in `venue` / `organizer` write input must be existing venues / organizers, and the `author`,
 * `date`, `date_utc` and `image` of one created with the event follow the venue/organizer routes'
 * own rules.
 */
function checkLinkedWrite(kind: LinkedKind): Check {
  return async (value, req, ctx) => {
    const refs = linkedRefs(value);
    if (!refs) return false;
    for (const ref of refs) {
      if (!('fields' in ref)) continue;
      const { author, date, date_utc: dateUtc, image } = ref.fields;
      if (author !== undefined && author !== null && !(await checkAuthor(author, req, ctx, 'author'))) return false;
      for (const [name, when] of [['date', date], ['date_utc', dateUtc]] as const) {
        if (when !== undefined && when !== null && !isTime(when, req, name, ctx.now())) return false;
      }
      if (image === undefined || image === null || image === '' || image === 0 || image === '0') continue;
      if (!isImage(image, req) || !(await checkImage(image, req, ctx, 'image'))) return false;
    }
    const ids = refs.flatMap((r) => ('id' in r ? [r.id] : []));
    const found = await existingLinkedIds(ctx.db, kind, ids);
    return ids.every((id) => found.has(id));
  };
}

/** Numeric items of `categories` / `tags` write input must be existing terms (names may be new). */
function checkTermWrite(param: 'categories' | 'tags'): Check {
  const taxonomy = param === 'categories' ? CATEGORY_TAXONOMY : TAG_TAXONOMY;
  return async (value, _req, ctx) => {
    const numeric = (termRefs(value) ?? []).filter((r) => /^\d+$/.test(r));
    if (numeric.length === 0) return true;
    const rows = await ctx.db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).where('id', 'in', numeric.map(Number)).execute();
    const have = new Set(rows.map((r) => String(r.id)));
    return numeric.every((r) => have.has(r));
  };
}

/**
 * The slugs or IDs of the `categories` / `tags` filter as term IDs (and the refs matching none),
 * resolved once per request: the filter's check and the archive handler both ask.
 */
export async function resolvedTermFilter(req: RestRequest, ctx: AppContext, param: 'categories' | 'tags', refs: readonly string[]): Promise<{ ids: number[]; unknown: string[] }> {
  const taxonomy = param === 'categories' ? CATEGORY_TAXONOMY : TAG_TAXONOMY;
  const memo = await loadOnce(req, `${param}Filter`, async () => ({ refs, resolved: await resolveTermRefs(ctx.db, taxonomy, refs) }));
  const same = memo !== undefined && memo.refs.length === refs.length && memo.refs.every((r, i) => r === refs[i]);
  return same ? memo.resolved : resolveTermRefs(ctx.db, taxonomy, refs);
}

/** `categories` / `tags` filters: each slug or ID must exist. */
function checkTermFilter(param: 'categories' | 'tags'): Check {
  return async (value, req, ctx) => (await resolvedTermFilter(req, ctx, param, parseList(value))).unknown.length === 0;
}

/** `venue` / `organizer` filters: IDs of existing venues / organizers. */
function checkLinkedFilter(kind: LinkedKind): Check {
  return async (value, _req, ctx) => {
    const items = parseList(value);
    if (items.length === 0 || !items.every((i) => /^\d+$/.test(i))) return false;
    const ids = items.map(Number);
    const found = await existingLinkedIds(ctx.db, kind, ids);
    return ids.every((id) => found.has(id));
  };
}

/** An event ID parameter (`post_parent`, `event`, `post`) must be an existing event. */
const checkEventId: Check = async (value, _req, ctx) => {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 && (await existingEventIds(ctx.db, [id])).has(id);
};

/** Checks of an event create/update. */
export const EVENT_WRITE_CHECKS: Record<string, Check> = {
  author: checkAuthor, image: checkImage, categories: checkTermWrite('categories'), tags: checkTermWrite('tags'),
  venue: checkLinkedWrite('venue'), organizer: checkLinkedWrite('organizer'),
};

/** Checks of a venue/organizer create/update. */
export const LINKED_WRITE_CHECKS: Record<string, Check> = { author: checkAuthor, image: checkImage };

/** Checks of the events archive. */
export const EVENT_LIST_CHECKS: Record<string, Check> = {
  categories: checkTermFilter('categories'), tags: checkTermFilter('tags'), venue: checkLinkedFilter('venue'),
  organizer: checkLinkedFilter('organizer'), post_parent: checkEventId,
};

/** Checks of the venue/organizer archive. */
export const LINKED_LIST_CHECKS: Record<string, Check> = { event: checkEventId };

// ---------------------------------------------------------------------------------------------
// The target of a single route
// ---------------------------------------------------------------------------------------------

/** The event a single route addresses (by `id`, or by the path `slug`), looked up once per request. */
export function loadEvent(req: RestRequest, ctx: AppContext): Promise<EventRecord | undefined> {
  return loadOnce(req, 'event', async () => {
    const slug = req.urlParams.slug;
    const id = slug !== undefined ? await findEventIdBySlug(ctx.db, slug) : Number(req.params.id);
    return id !== undefined && Number.isInteger(id) && id > 0 && id <= MAX_POST_ID ? getEvent(ctx.db, id) : undefined;
  });
}

/**
 * The single event routes' target check (on `id` or the path `slug`). By slug: an unknown slug is an
 * invalid `slug`. By ID: another post type is an invalid `id`; no post at all is 404
 * `rest-event-not-found` (as the newer original).
 */
const checkEventTarget: Check = async (value, req, ctx) => {
  if (await loadEvent(req, ctx)) return true;
  if (req.urlParams.slug !== undefined) return false;
  const id = Number(value);
  if (Number.isInteger(id) && id > 0 && id <= MAX_POST_ID && (await getPost(ctx.db, id))) return false;
  throw eventError('rest-event-not-found', undefined, EVENT_MESSAGES.notFound(value));
};

/** The venue/organizer a single route addresses (by `id`, or by the path `slug`), looked up once per request. */
export function loadLinked(kind: LinkedKind, req: RestRequest, ctx: AppContext): Promise<LinkedRecord | undefined> {
  return loadOnce(req, 'linked', async () => {
    const slug = req.urlParams.slug;
    const id = slug !== undefined ? await findLinkedIdBySlug(ctx.db, kind, slug) : Number(req.params.id);
    return id !== undefined && Number.isInteger(id) && id > 0 ? getLinked(ctx.db, kind, id) : undefined;
  });
}

/** The term a single term route addresses, looked up once per request. */
export function loadTerm(taxonomy: string, req: RestRequest, ctx: AppContext): Promise<TermRecord | undefined> {
  return loadOnce(req, 'term', async () => {
    const id = Number(req.params.id);
    return Number.isInteger(id) && id > 0 ? getTerm(ctx.db, taxonomy, id) : undefined;
  });
}

/** `include` / `exclude` must list existing terms of the taxonomy. */
function checkTermList(taxonomy: string): Check {
  return async (value, _req, ctx) => {
    const ids = parseIdList(value);
    const found = await getTermsByIds(ctx.db, ids, taxonomy);
    return ids.every((id) => found.has(id));
  };
}

/** Checks of a single event route: `id` or `slug` names an event. */
export const EVENT_TARGET_CHECKS: Record<string, Check> = { id: checkEventTarget };
export const EVENT_SLUG_CHECKS: Record<string, Check> = { slug: checkEventTarget };

/** Checks of a single venue/organizer route: `id` or `slug` names one of the kind. */
export function linkedTargetChecks(kind: LinkedKind, by: 'id' | 'slug'): Record<string, Check> {
  return { [by]: async (_value, req, ctx) => (await loadLinked(kind, req, ctx)) !== undefined };
}

/** Checks of a single term route: `id` names a term of the taxonomy. */
export function termTargetChecks(taxonomy: string): Record<string, Check> {
  return { id: async (_value, req, ctx) => (await loadTerm(taxonomy, req, ctx)) !== undefined };
}

/** `parent` filter of a term archive: 0 or an existing term of the taxonomy. */
function checkTermParent(taxonomy: string): Check {
  return async (value, _req, ctx) => {
    const id = Number(value);
    return id === 0 || (Number.isInteger(id) && id > 0 && id <= MAX_POST_ID && (await getTerm(ctx.db, taxonomy, id)) !== undefined);
  };
}

/** Checks of a term archive. */
export function termListChecks(taxonomy: string): Record<string, Check> {
  return { include: checkTermList(taxonomy), exclude: checkTermList(taxonomy), parent: checkTermParent(taxonomy), post: checkEventId, event: checkEventId };
}
