/**
 * @module namespaces/events/linked.handlers
 * Handlers and permissions of the venue and organizer routes (both kinds share them): the archive
 * with its filters, single reads by ID or slug, create (duplicate-avoiding), update and delete.
 */
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import { paginate } from '../../rest/pagination.js';
import { ANY_STATUSES, siteTimeZone, toDbDate } from '../../content/posts.js';
import { respond, type Permission, type RestRequest, type RestResponse } from '../../rest/route.js';
import { archivePage, type QueryPair } from './archive.js';
import { can, canDeletePost, canEditPost, EVENT_TYPE } from './caps.js';
import { loadLinked } from './checks.js';
import { invalidParam } from '../../rest/errors.js';
import { eventError } from './errors.js';
import { EVENTS_NAMESPACE, presentOrganizer, presentVenue } from './linked.present.js';
import {
  countLinked, getOrganizersByIds, getVenuesByIds, linkedType, listLinkedIds,
  type LinkedKind, type LinkedListFilter, type OrganizerRecord, type VenueRecord,
} from './linked.repo.js';
import {
  assertLinkedReadable, createLinked, getLinked, ORGANIZER_FIELDS, trashLinked, updateLinked, VENUE_FIELDS, type LinkedInput,
  type LinkedRecord,
} from './linked.service.js';
import { CALENDAR_PAGING, type linkedArchiveArgs } from './event-args.js';
import type { TypedRequest } from '../../rest/typed.js';
import { isTruthy } from './validators.js';
import { guardLinkedWrite } from './write-guard.js';
import { sideloadInputImages } from './post-write.js';
import { mediaFactsOf } from '../../content/media.js';

const PLURAL: Record<LinkedKind, 'venues' | 'organizers'> = { venue: 'venues', organizer: 'organizers' };

/** The objects of `records`, with the facts of their images' files (one query when any has one). */
async function present(ctx: AppContext, kind: LinkedKind, records: readonly LinkedRecord[], jsonLd: boolean): Promise<Record<string, unknown>[]> {
  const ids = records.map((r) => r.imageId);
  const options = { jsonLd, ...(ids.some((id) => id > 0) ? { media: await mediaFactsOf(ctx.db, ids) } : {}) };
  return records.map((r) => (kind === 'venue' ? presentVenue(ctx.urls, r as VenueRecord, options) : presentOrganizer(ctx.urls, r as OrganizerRecord, options)));
}

async function presentOne(ctx: AppContext, kind: LinkedKind, record: LinkedRecord, jsonLd: boolean): Promise<Record<string, unknown>> {
  return (await present(ctx, kind, [record], jsonLd))[0]!;
}

async function target(kind: LinkedKind, req: RestRequest, ctx: AppContext): Promise<LinkedRecord> {
  const record = await loadLinked(kind, req, ctx);
  if (!record) throw invalidParam(req.urlParams.slug !== undefined ? 'slug' : 'id');
  return record;
}

function inputFrom(kind: LinkedKind, req: RestRequest): LinkedInput {
  const input: LinkedInput = {};
  for (const key of kind === 'venue' ? VENUE_FIELDS : ORGANIZER_FIELDS) if (req.has(key)) input[key] = req.params[key];
  // CASE: on by-slug routes `slug` is the path variable; a different body value renames.
  if (req.has('slug') && req.params.slug !== req.urlParams.slug) input.slug = req.params.slug;
  return input;
}

// ---------------------------------------------------------------------------------------------
// Permissions
// ---------------------------------------------------------------------------------------------

export function canReadLinked(_kind: LinkedKind): Permission<AppContext> {
  return () => true;
}

export function canCreateLinked(kind: LinkedKind): Permission<AppContext> {
  return (req) => can(req.user, linkedType(kind), 'edit');
}

export function canUpdateLinked(kind: LinkedKind): Permission<AppContext> {
  return async (req, ctx) => {
    if (!can(req.user, linkedType(kind), 'edit')) return false;
    const record = await loadLinked(kind, req, ctx);
    return record !== undefined && canEditPost(req.user, linkedType(kind), record);
  };
}

export function canDeleteLinked(kind: LinkedKind): Permission<AppContext> {
  return async (req, ctx) => {
    if (!can(req.user, linkedType(kind), 'delete')) return false;
    const record = await loadLinked(kind, req, ctx);
    return record !== undefined && canDeletePost(req.user, linkedType(kind), record);
  };
}

export const canListLinked: Permission<AppContext> = () => true;

// ---------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------

export function getLinkedHandler(kind: LinkedKind) {
  return async (req: RestRequest, ctx: AppContext): Promise<Record<string, unknown>> => {
    const record = await target(kind, req, ctx);
    assertLinkedReadable(kind, record, req.user);
    return presentOne(ctx, kind, record, true);
  };
}

export function createLinkedHandler(kind: LinkedKind) {
  return async (req: RestRequest, ctx: AppContext): Promise<RestResponse> => {
    const input = guardLinkedWrite(req.user, kind, inputFrom(kind, req), true);
    await sideloadInputImages(ctx, req.user!, input);
    const siteZone = await siteTimeZone(ctx.options);
    const { id } = await ctx.db.transaction().execute((trx) => createLinked(ctx, trx, kind, input, req.user, siteZone));
    const record = await getLinked(ctx.db, kind, id);
    if (!record) throw eventError(kind === 'venue' ? 'could-not-create-venue' : 'could-not-create-organizer');
    return respond(await presentOne(ctx, kind, record, false), { status: 201, headers: { Location: ctx.urls.rest(`${EVENTS_NAMESPACE}/${PLURAL[kind]}/${id}`) } });
  };
}

export function updateLinkedHandler(kind: LinkedKind) {
  return async (req: RestRequest, ctx: AppContext): Promise<Record<string, unknown>> => {
    const current = await target(kind, req, ctx);
    const input = guardLinkedWrite(req.user, kind, inputFrom(kind, req), false);
    await sideloadInputImages(ctx, req.user!, input);
    const siteZone = await siteTimeZone(ctx.options);
    await ctx.db.transaction().execute((trx) => updateLinked(ctx, trx, kind, current, input, req.user, siteZone));
    const record = await getLinked(ctx.db, kind, current.id);
    if (!record) throw eventError(kind === 'venue' ? 'could-not-update-venue' : 'could-not-update-organizer');
    return presentOne(ctx, kind, record, false);
  };
}

export function deleteLinkedHandler(kind: LinkedKind) {
  return async (req: RestRequest, ctx: AppContext): Promise<Record<string, unknown>> => {
    const current = await target(kind, req, ctx);
    await trashLinked(ctx, kind, current);
    const record = await getLinked(ctx.db, kind, current.id);
    if (!record) throw eventError(kind === 'venue' ? 'could-not-delete-venue' : 'could-not-delete-organizer');
    return presentOne(ctx, kind, record, false);
  };
}

/**
 * Statuses of the events `only_with_upcoming` looks at: those the caller may read (editors see
 * private, draft and pending events; readers of private events see private ones).
 */
function readableEventStatuses(user: RestRequest['user']): string[] {
  if (can(user, EVENT_TYPE, 'edit_others')) return ['publish', 'future', 'private', 'draft', 'pending'];
  if (can(user, EVENT_TYPE, 'read_private')) return ['publish', 'private'];
  return ['publish'];
}

export function listLinkedHandler(kind: LinkedKind) {
  return async (req: TypedRequest<ReturnType<typeof linkedArchiveArgs>>, ctx: AppContext): Promise<RestResponse> => {
    const p = req.params;
    const type = linkedType(kind);
    const { page, perPage } = await paginate(req, ctx, CALENDAR_PAGING);
    const editor = can(req.user, type, 'edit');
    const statuses = p.status ?? (editor ? [...ANY_STATUSES] : ['publish']);
    const filter: LinkedListFilter = { kind, statuses };
    if (editor && !can(req.user, type, 'edit_others')) filter.ownDraftsOnly = { userId: req.user!.id, readPrivate: can(req.user, type, 'read_private') };
    if (p.search !== undefined) filter.search = p.search;
    if (p.event !== undefined) filter.eventId = p.event;
    if (req.has('has_events')) filter.hasEvents = isTruthy(p.has_events);
    if (isTruthy(p.only_with_upcoming ?? false)) {
      filter.upcoming = { afterUtc: toDbDate(DateTime.fromJSDate(ctx.now()).toUTC()), eventStatuses: readableEventStatuses(req.user) };
    }

    const [total, ids] = await Promise.all([countLinked(ctx.db, filter), listLinkedIds(ctx.db, filter, perPage, (page - 1) * perPage)]);
    if (ids.length === 0 && page > 1) throw eventError(kind === 'venue' ? 'venue-archive-page-not-found' : 'organizer-archive-page-not-found');
    const records: Map<number, LinkedRecord> = kind === 'venue' ? await getVenuesByIds(ctx.db, ids) : await getOrganizersByIds(ctx.db, ids);
    const items = await present(ctx, kind, ids.map((id) => records.get(id)).filter((r): r is LinkedRecord => r !== undefined), false);

    const pairs: QueryPair[] = [
      ['per_page', perPage],
      ['search', p.search],
      ['event', p.event],
      ['has_events', req.has('has_events') ? p.has_events : undefined],
      ['only_with_upcoming', req.has('only_with_upcoming') ? p.only_with_upcoming : undefined],
      ['status', req.has('status') ? statuses : editor ? 'any' : 'publish'],
    ];
    const collection = ctx.urls.rest(`${EVENTS_NAMESPACE}/${PLURAL[kind]}`);
    const info = archivePage(req, { base: `${collection}/`, collection, pairs, page, perPage, total });
    const body: Record<string, unknown> = { [PLURAL[kind]]: items, rest_url: info.restUrl };
    if (info.nextUrl) body.next_rest_url = info.nextUrl;
    if (info.previousUrl) body.previous_rest_url = info.previousUrl;
    body.total = info.total;
    body.total_pages = info.totalPages;
    return respond(body, { headers: info.headers });
  };
}
