/**
 * @module namespaces/events/events.service
 * Event rules: building pages of event objects with a fixed number of queries, readability and
 * password protection, and writes (create/update/trash) in one transaction each: dates in the event's
 * zone, all-day normalisation, end-before-start refusal, statuses, unique slugs, costs, linked venues
 * and organizers (IDs or objects), categories and tags (IDs or names) and term counts.
 */
import { noteWrite } from '../../rest/write-generation.js';
import crypto from 'node:crypto';
import type { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import { crashPoint } from '../../storage/crash-point.js';
import {
  fromDbDate, normaliseZone, parseDateTime, renderContent, restoredPostSlug, siteTimeZone, siteTimeZoneSetting, toDbDate, trashedPostSlug, uniquePostSlug, withSlugRetry,
} from '../../content/posts.js';
import {
  createTerm, getTermByName, getTermBySlug, recountTerms, setPostTerms, termIdsOfPosts, termsOfPosts, TermExistsError,
} from '../../content/terms.js';
import { sanitizeTitle } from '../../content/slugs.js';
import { mediaFactsOf } from '../../content/media.js';
import type { RestRequest, RestUser } from '../../rest/route.js';
import type { Db } from '../../storage/db.js';
import { can, canEditPost, canReadPost, CATEGORY_TAXONOMY, EVENT_TYPE, hasManageAccess, TAG_TAXONOMY } from './caps.js';
import { parseCost, siteCurrency } from './cost.js';
import { invalidParam } from '../../rest/errors.js';
import { ARG_MESSAGES, eventError } from './errors.js';
import { presentCalendarEvent, presentEvent, type EventPage } from './events.present.js';
import {
  getEvent, getEventsByIds, insertEventDetails, insertPostRow, setEventOrganizers, setEventVenues,
  updateEventRows, type EventDetailsRow, type EventRecord, type NewPostRow,
} from './events.repo.js';
import type { EventFieldTarget } from './extensions.js';
import { linkedOfEvents } from './linked.repo.js';
import { createLinked } from './linked.service.js';
import { nowDates, publicationDates, resolveImage, resolveStatus } from './post-write.js';
import { linkedRefs, termRefs } from './validators.js';
import { zoneAbbr } from './zone-names.js';

// ---------------------------------------------------------------------------------------------
// Pages of event objects
// ---------------------------------------------------------------------------------------------

function fieldTarget(ev: EventRecord): EventFieldTarget {
  return {
    id: ev.id, status: ev.status, author: ev.author, passwordProtected: ev.password !== '', startUtc: ev.startUtc,
    endUtc: ev.endUtc, timezone: ev.timezone, cost: ev.cost, costValues: ev.costValues, currencySymbol: ev.currencySymbol,
    currencyCode: ev.currencyCode, currencyPosition: ev.currencyPosition,
  };
}

/**
 * Loads everything the event objects of a page need: venues and organizers with their links (1 query),
 * terms (1) and each registered field provider (once for the page). Never a query
 * per event.
 */
export async function loadEventPage(ctx: AppContext, db: Db, events: readonly EventRecord[], req: RestRequest | undefined, view: 'list' | 'single'): Promise<EventPage> {
  const ids = events.map((e) => e.id);
  const targets = events.map(fieldTarget);
  const providers = ctx.areas.contributions('eventFields');
  // Together: on PostgreSQL each is a round trip of its own.
  const [{ venues, organizers }, terms, ...fields] = await Promise.all([
    linkedOfEvents(db, ids),
    termsOfPosts(db, ids, [CATEGORY_TAXONOMY, TAG_TAXONOMY]),
    ...providers.map((provider) => (events.length > 0 ? provider.load({ ctx, db, req, view }, targets) : new Map<number, Record<string, unknown>>())),
  ]);
  const extras = providers.map((provider, i) => ({ provider, fields: fields[i]! }));
  // Image file facts: one more query, only for pages showing images of the media library.
  const imageIds = [...events.map((e) => e.imageId), ...[...venues.records.values()].map((v) => v.imageId), ...[...organizers.records.values()].map((o) => o.imageId)];
  const media = imageIds.some((id) => id > 0) ? await mediaFactsOf(db, imageIds) : undefined;
  return {
    urls: ctx.urls, venueIds: venues.ids, organizerIds: organizers.ids, venues: venues.records, organizers: organizers.records, terms, extras,
    presented: new Map(), presentedTerms: new Map(), ...(media ? { media } : {}),
  };
}

/** True when `given` is the event's password (constant-time). */
export function passwordMatches(ev: { password: string }, given: unknown): boolean {
  if (ev.password === '' || typeof given !== 'string') return false;
  const a = crypto.createHash('sha256').update(ev.password).digest();
  const b = crypto.createHash('sha256').update(given).digest();
  return crypto.timingSafeEqual(a, b);
}

/** Whether a password-protected event is shown in full: right password, or its editor asking `context=edit`. */
export function unlocked(ev: EventRecord, user: RestUser | null, params: Record<string, unknown>): boolean {
  if (ev.password === '') return true;
  if (passwordMatches(ev, params.password)) return true;
  return params.context === 'edit' && canEditPost(user, EVENT_TYPE, ev);
}

/** Event objects of a list page (protected events blanked unless unlocked). */
export async function presentEventList(ctx: AppContext, events: readonly EventRecord[], req: RestRequest): Promise<Record<string, unknown>[]> {
  const page = await loadEventPage(ctx, ctx.db, events, req, 'list');
  return events.map((ev) => presentEvent(page, ev, { single: false, redact: !unlocked(ev, req.user, req.params) }));
}

/** The calendar views' fields of a list page's events (venues and organizers: 1 query). */
export async function presentCalendarEventList(ctx: AppContext, events: readonly EventRecord[], req: RestRequest): Promise<Record<string, unknown>[]> {
  const ids = events.map((e) => e.id);
  const { venues, organizers } = await linkedOfEvents(ctx.db, ids);
  const page: EventPage = {
    urls: ctx.urls, venueIds: venues.ids, organizerIds: organizers.ids, venues: venues.records, organizers: organizers.records, terms: new Map(), extras: [],
    presented: new Map(),
  };
  return events.map((ev) => presentCalendarEvent(page, ev, !unlocked(ev, req.user, req.params)));
}

/** One full event object (writes and single reads); `jsonLd` for single GET. */
export async function presentSingleEvent(ctx: AppContext, ev: EventRecord, req: RestRequest | undefined, jsonLd: boolean): Promise<Record<string, unknown>> {
  const page = await loadEventPage(ctx, ctx.db, [ev], req, 'single');
  return presentEvent(page, ev, { single: jsonLd, redact: false });
}

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

/** The originals' errors for an event the caller may not see: not readable, or password needed. */
export function assertEventReadable(ev: EventRecord, user: RestUser | null, params: Record<string, unknown>): void {
  if (!canReadPost(user, EVENT_TYPE, ev)) throw eventError('event-not-accessible');
  if (!unlocked(ev, user, params)) throw eventError('event-password-protected');
}

/** Ticket manage access: users with `edit_users`/`tribe_manage_attendees`, or the registered check. */
export async function manageAccess(req: RestRequest, ctx: AppContext): Promise<boolean> {
  if (hasManageAccess(req.user)) return true;
  for (const check of ctx.areas.contributions('eventManageAccess')) if (await check(req, ctx)) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------------

/** Fields of an event write; only the keys present were sent. */
export const EVENT_FIELDS = [
  'title', 'description', 'excerpt', 'slug', 'status', 'author', 'date', 'date_utc', 'timezone', 'all_day', 'start_date',
  'end_date', 'image', 'cost', 'website', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured',
  'categories', 'tags', 'venue', 'organizer', 'password',
] as const;

export type EventInput = Partial<Record<(typeof EVENT_FIELDS)[number], unknown>>;

/** The sent fields of a request (sanitised values). */
export function eventInputFrom(req: RestRequest): EventInput {
  const input: EventInput = {};
  for (const key of EVENT_FIELDS) if (req.has(key)) input[key] = req.params[key];
  return input;
}

function str(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

function bool(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'true';
}

async function resolveTermIds(db: Db, taxonomy: string, refs: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const ref of refs) {
    let id: number | undefined;
    if (/^\d+$/.test(ref)) {
      const row = await db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).where('id', '=', Number(ref)).executeTakeFirst();
      id = row ? Number(row.id) : undefined;
    }
    id ??= (await getTermByName(db, taxonomy, ref))?.id ?? (await getTermBySlug(db, taxonomy, sanitizeTitle(ref)))?.id;
    if (id === undefined) {
      try {
        id = (await createTerm(db, taxonomy, { name: ref })).id;
      } catch (e) {
        if (!(e instanceof TermExistsError)) throw e;
        id = e.termId;
      }
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

function endOfDay(dt: DateTime): DateTime {
  return dt.endOf('day').set({ millisecond: 0 });
}

/**
 * Creates (no `existing`) or updates an event from the sent fields, in one transaction; returns its ID.
 * Throws `rest_invalid_param` (end before start) or the catalogue's errors.
 */
export async function saveEvent(ctx: AppContext, input: EventInput, user: RestUser | null, existing?: EventRecord): Promise<number> {
  // Settings are read before the transaction: SQLite has a single connection.
  const siteSetting = await siteTimeZoneSetting(ctx.options);
  const siteZone = await siteTimeZone(ctx.options);
  const now = ctx.now();
  const create = existing === undefined;

  // ---- Time zone and dates.
  let tz = existing?.timezone || siteSetting;
  if (input.timezone !== undefined) tz = str(input.timezone).trim() || siteSetting;
  const zone = normaliseZone(tz) ?? 'UTC';
  let start = existing ? fromDbDate(existing.startLocal, zone) : undefined;
  let end = existing ? fromDbDate(existing.endLocal, zone) : undefined;
  if (input.start_date !== undefined) start = parseDateTime(input.start_date, zone, now);
  if (input.end_date !== undefined) end = parseDateTime(input.end_date, zone, now);
  if (!start) throw invalidParam('start_date');
  if (!end) throw invalidParam('end_date');
  const allDay = input.all_day !== undefined ? bool(input.all_day) : (existing?.allDay ?? false);
  if (allDay) {
    start = start.startOf('day');
    end = endOfDay(end);
  }
  if (end.toMillis() < start.toMillis()) throw invalidParam('end_date', ARG_MESSAGES.endBeforeStart);

  // ---- Publication dates, status.
  const stamp = nowDates(now, siteZone);
  const pub = publicationDates({ date: input.date, date_utc: input.date_utc }, zone, siteZone, now);
  const status = resolveStatus(input.status === undefined ? undefined : str(input.status), {
    canPublish: can(user, EVENT_TYPE, 'publish'), create, current: existing?.status, dateGmt: pub?.date_gmt ?? existing?.date_gmt ?? stamp.gmt, now,
  });

  const details: Partial<EventDetailsRow> = { status };
  if (create || input.start_date !== undefined || input.end_date !== undefined || input.timezone !== undefined || input.all_day !== undefined) {
    Object.assign(details, {
      start_local: toDbDate(start), end_local: toDbDate(end), start_utc: toDbDate(start.toUTC()), end_utc: toDbDate(end.toUTC()),
      timezone: tz, timezone_abbr: zoneAbbr(start), all_day: allDay ? 1 : 0,
    });
  }
  if (input.cost !== undefined) {
    const cost = parseCost(input.cost, await siteCurrency(ctx.options));
    Object.assign(details, { cost: cost.text, cost_values: JSON.stringify(cost.values), currency_symbol: cost.symbol, currency_code: cost.code, currency_position: cost.position });
  }
  if (input.website !== undefined) details.website = str(input.website).trim();
  // CASE: events created through the REST API store omitted map flags as false (as the original).
  if (input.show_map !== undefined || create) details.show_map = bool(input.show_map) ? 1 : 0;
  if (input.show_map_link !== undefined || create) details.show_map_link = bool(input.show_map_link) ? 1 : 0;
  if (input.hide_from_listings !== undefined || create) details.hide_from_listings = bool(input.hide_from_listings) ? 1 : 0;
  if (input.featured !== undefined || create) details.featured = bool(input.featured) ? 1 : 0;

  const venueRefs = input.venue !== undefined ? (linkedRefs(input.venue) ?? []) : undefined;
  const organizerRefs = input.organizer !== undefined ? (linkedRefs(input.organizer) ?? []) : undefined;
  const categoryRefs = input.categories !== undefined ? (termRefs(input.categories) ?? []) : undefined;
  const tagRefs = input.tags !== undefined ? (termRefs(input.tags) ?? []) : undefined;

  return withSlugRetry(() =>
    ctx.db.transaction().execute(async (trx) => {
      // ---- Post row.
      const post: Partial<NewPostRow> = { status, modified: stamp.local, modified_gmt: stamp.gmt };
      if (input.title !== undefined) post.title = str(input.title).trim();
      if (input.description !== undefined) post.content = str(input.description);
      if (input.excerpt !== undefined) post.excerpt = str(input.excerpt);
      if (input.author !== undefined) post.author = Number(input.author);
      if (input.password !== undefined) post.password = str(input.password);
      if (input.sticky !== undefined) post.menu_order = bool(input.sticky) ? -1 : 0;
      if (pub) Object.assign(post, pub);
      const slugWanted = input.slug !== undefined ? str(input.slug).trim() : '';
      if (create) post.slug = await uniquePostSlug(trx, EVENT_TYPE, slugWanted || str(post.title), undefined, 'event');
      else if (slugWanted !== '' && slugWanted !== existing.slug) post.slug = await uniquePostSlug(trx, EVENT_TYPE, slugWanted, existing.id, 'event');
      else if (existing.status === 'trash' && status !== 'trash') post.slug = await restoredPostSlug(trx, EVENT_TYPE, existing.id, existing.slug);
      else if (existing.status !== 'trash' && status === 'trash') post.slug = await trashedPostSlug(trx, EVENT_TYPE, existing.id, existing.slug);
      let imageId: number | undefined;
      if (input.image !== undefined) {
        const image = (await resolveImage(trx, input.image)) ?? { url: '', id: 0 };
        post.image_url = image.url;
        imageId = image.id;
      }

      let id: number;
      if (create) {
        id = await insertPostRow(trx, {
          type: EVENT_TYPE, status, slug: post.slug!, title: post.title ?? '', content: post.content ?? '', excerpt: post.excerpt ?? '',
          author: post.author ?? user?.id ?? 0, parent: 0, password: post.password ?? '', menu_order: post.menu_order ?? 0,
          date: pub?.date ?? stamp.local, date_gmt: pub?.date_gmt ?? stamp.gmt, modified: stamp.local, modified_gmt: stamp.gmt,
          image_url: post.image_url ?? '',
        });
        await insertEventDetails(trx, id, {
          status, start_local: details.start_local!, end_local: details.end_local!, start_utc: details.start_utc!, end_utc: details.end_utc!,
          timezone: details.timezone!, timezone_abbr: details.timezone_abbr!, all_day: details.all_day!, cost: details.cost ?? '',
          cost_values: details.cost_values ?? '[]', currency_symbol: details.currency_symbol ?? '', currency_code: details.currency_code ?? '',
          currency_position: details.currency_position ?? '', website: details.website ?? null, show_map: details.show_map ?? 0,
          show_map_link: details.show_map_link ?? 0, hide_from_listings: details.hide_from_listings ?? 0, featured: details.featured ?? 0,
          image_id: imageId ?? 0, lineage: '[]', content_html: renderContent(post.content ?? ''), excerpt_html: renderContent(post.excerpt ?? ''),
        });
      } else {
        id = existing.id;
        if (imageId !== undefined) details.image_id = imageId;
        // Both, as changing either text clears both (the posts trigger); written after the post row.
        if (post.content !== undefined || post.excerpt !== undefined) {
          details.content_html = renderContent(post.content ?? existing.content);
          details.excerpt_html = renderContent(post.excerpt ?? existing.excerpt);
        }
        await updateEventRows(trx, id, post, details);
      }

      // ---- Linked posts.
      if (venueRefs !== undefined) {
        const ids: number[] = [];
        for (const ref of venueRefs) ids.push('id' in ref ? ref.id : (await createLinked(ctx, trx, 'venue', ref.fields, user, siteZone)).id);
        await setEventVenues(trx, id, ids);
      }
      if (organizerRefs !== undefined) {
        const ids: number[] = [];
        for (const ref of organizerRefs) ids.push('id' in ref ? ref.id : (await createLinked(ctx, trx, 'organizer', ref.fields, user, siteZone)).id);
        await setEventOrganizers(trx, id, ids);
      }

      await crashPoint('event.linked-written');
      // ---- Terms and their counts.
      const touched: number[] = [];
      if (categoryRefs !== undefined) touched.push(...(await setPostTerms(trx, id, CATEGORY_TAXONOMY, await resolveTermIds(trx, CATEGORY_TAXONOMY, categoryRefs))));
      if (tagRefs !== undefined) touched.push(...(await setPostTerms(trx, id, TAG_TAXONOMY, await resolveTermIds(trx, TAG_TAXONOMY, tagRefs))));
      if (!create && existing.status !== status) touched.push(...(await termIdsOfPosts(trx, [id])));
      await recountTerms(trx, touched);
      // Published at its time by the jobs runner (the job exists only if this save commits).
      const dateGmt = pub?.date_gmt ?? existing?.date_gmt;
      if (status === 'future' && dateGmt) {
        await ctx.jobs.enqueue(PUBLISH_DUE_JOB, {}, { db: trx, runAt: new Date(`${dateGmt.replace(' ', 'T')}Z`), dedupeKey: `${PUBLISH_DUE_JOB}:${id}:${dateGmt}` });
      }
      return id;
    }),
  );
}

/** Moves an event to the trash (410 when it is there already; its slug is freed) and recounts its terms. */
export async function trashEvent(ctx: AppContext, ev: EventRecord): Promise<void> {
  if (ev.status === 'trash') throw eventError('event-is-in-trash');
  const stamp = nowDates(ctx.now(), await siteTimeZone(ctx.options));
  await ctx.db.transaction().execute(async (trx) => {
    const slug = await trashedPostSlug(trx, EVENT_TYPE, ev.id, ev.slug);
    await updateEventRows(trx, ev.id, { status: 'trash', slug, modified: stamp.local, modified_gmt: stamp.gmt }, { status: 'trash' });
    await recountTerms(trx, await termIdsOfPosts(trx, [ev.id]));
  });
}

/**
 * Deletes trashed events for good once they have been in the trash `days` days (WordPress empties the
 * trash after 30); their details, links and term assignments go with them. Returns how many.
 */
export async function emptyEventTrash(ctx: AppContext, days = 30): Promise<number> {
  const cutoff = new Date(ctx.now().getTime() - days * 86_400_000).toISOString().replace('T', ' ').slice(0, 19);
  return ctx.db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('posts').select('id').where('type', '=', EVENT_TYPE).where('status', '=', 'trash').where('modified_gmt', '<=', cutoff).execute();
    const ids = rows.map((r) => Number(r.id));
    if (ids.length === 0) return 0;
    const terms = await termIdsOfPosts(trx, ids);
    await trx.deleteFrom('posts').where('id', 'in', ids).execute();
    await recountTerms(trx, terms);
    return ids.length;
  });
}

/** The job that publishes scheduled events: queued for each one's time, and swept every minute. */
export const PUBLISH_DUE_JOB = 'events.publish-due';

/**
 * Publishes scheduled (`future`) events whose publication date has passed, as WordPress's cron does,
 * and recounts their terms. The {@link PUBLISH_DUE_JOB} job runs it. Returns how many it published.
 */
export async function publishDueEvents(ctx: AppContext): Promise<number> {
  const nowGmt = new Date(ctx.now().getTime()).toISOString().replace('T', ' ').slice(0, 19);
  const due = await ctx.db.selectFrom('posts').select('id').where('type', '=', EVENT_TYPE).where('status', '=', 'future').where('date_gmt', '<=', nowGmt).execute();
  if (due.length === 0) return 0;
  const ids = due.map((r) => Number(r.id));
  await ctx.db.transaction().execute(async (trx) => {
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      await trx.updateTable('posts').set({ status: 'publish' }).where('id', 'in', chunk).where('status', '=', 'future').execute();
      await trx.updateTable('event_details').set({ status: 'publish' }).where('post_id', 'in', chunk).execute();
    }
    await recountTerms(trx, await termIdsOfPosts(trx, ids));
  });
  noteWrite();
  return ids.length;
}

/** Re-reads an event after a write. */
export async function reloadEvent(ctx: AppContext, id: number): Promise<EventRecord> {
  const ev = await getEvent(ctx.db, id);
  if (!ev) throw eventError('could-not-update-event');
  return ev;
}

export { getEventsByIds };
