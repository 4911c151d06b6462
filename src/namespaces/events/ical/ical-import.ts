/**
 * @module namespaces/events/ical/ical-import
 * Imports `.ics` files (a path, an http(s)/webcal URL, or the text itself) into the events calendar:
 * the text is read into items by `ical-parse.ts` (each VEVENT, or each occurrence of a series keyed
 * `UID#RECURRENCE-ID`), and each item is written here.
 *
 * Items are matched to events by that key (table `event_import_uids`), so an import run twice changes
 * nothing: an item whose fields equal those it was last imported with is left alone (local edits to
 * the event survive), a changed one gets only its changed fields written, a new one is created. An
 * item whose event was trashed is skipped (a deletion sticks, as in the original's importer).
 *
 * @example
 * const result = await importIcs(ctx, 'https://calendar.example/feed.ics', { onProgress: (done, total) => bar.update(done) });
 * // { created: 12, updated: 0, unchanged: 0, skipped: [] }
 */
import fs from 'node:fs/promises';
import { DateTime } from 'luxon';
import type { AppContext } from '../../../app-context.js';
import { siteTimeZone, siteTimeZoneSetting, toDbDate } from '../../../content/posts.js';
import { RemoteRequestError, safeHttpGet } from '../../../remote/http.js';
import { isRestError } from '../../../rest/errors.js';
import type { RestUser } from '../../../rest/route.js';
import { getEventsByIds, saveEvent, type EventInput } from '../index.js';
import { IcsImportError, parseIcs, type ImportFields, type ImportItem, type SkippedItem } from './ical-parse.js';

export {
  HORIZON_DAYS,
  IcsImportError,
  MAX_OCCURRENCES,
  parseIcs,
  zoneForTzid,
  type ImportFields,
  type ImportItem,
  type ParsedIcs,
  type ParseOptions,
  type SkippedItem,
} from './ical-parse.js';

/** Largest file fetched from a URL. */
const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

export interface IcsImportOptions {
  /** Called once before the first item and after each item. */
  onProgress?: (done: number, total: number) => void;
  /** Who imports (capabilities and author); default: the site itself, authored by the first administrator. */
  user?: RestUser;
  /** Expansion window of recurring series (see {@link ParseOptions}). */
  from?: Date;
  until?: Date;
}

export interface IcsImportResult {
  created: number;
  updated: number;
  unchanged: number;
  skipped: SkippedItem[];
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// ---------------------------------------------------------------------------------------------
// Sources
// ---------------------------------------------------------------------------------------------

/** The text of a source: a Buffer, iCalendar text, an http(s)/webcal URL, or a file path. */
async function loadSource(ctx: AppContext, source: string | Buffer): Promise<string> {
  if (Buffer.isBuffer(source)) return source.toString('utf8');
  if (/^\s*BEGIN:/i.test(source)) return source;
  if (/^(https?|webcal):\/\//i.test(source)) {
    const url = source.replace(/^webcal:/i, 'https:');
    let res;
    try {
      res = await safeHttpGet(url, {
        allowPrivateNetwork: ctx.config.environment === 'local',
        timeoutMs: 30_000,
        maxBytes: MAX_DOWNLOAD_BYTES,
        headers: { accept: 'text/calendar, */*;q=0.5' },
      });
    } catch (e) {
      if (e instanceof RemoteRequestError) throw new IcsImportError('fetch_failed', `could not fetch ${url}: ${e.message}`);
      throw e;
    }
    if (res.status !== 200) throw new IcsImportError('fetch_failed', `could not fetch ${url}: HTTP ${res.status}`);
    return res.body;
  }
  try {
    return await fs.readFile(source, 'utf8');
  } catch (e) {
    throw new IcsImportError('unreadable_source', `cannot read ${source}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorText(e)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/** The site as importer: every calendar capability, authoring as the first administrator (else the first user). */
async function siteImporter(ctx: AppContext): Promise<RestUser> {
  const admin = await ctx.db.selectFrom('users').select('id').where('roles', 'like', '%administrator%').orderBy('id').executeTakeFirst();
  const first = admin ?? (await ctx.db.selectFrom('users').select('id').orderBy('id').executeTakeFirst());
  return { id: Number(first?.id ?? 0), login: 'ical-import', email: '', displayName: 'iCalendar import', roles: [], can: () => true };
}

const DATE_FIELDS = ['start_date', 'end_date', 'timezone', 'all_day'] as const;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The event fields of a new item. */
function createInput(f: ImportFields): EventInput {
  const input: EventInput = { title: f.title, description: f.description, start_date: f.start_date, end_date: f.end_date, timezone: f.timezone, all_day: f.all_day };
  if (f.venue) input.venue = [f.venue];
  if (f.organizer) input.organizer = [f.organizer];
  if (f.categories.length > 0) input.categories = f.categories;
  if (f.website) input.website = f.website;
  if (f.image) input.image = f.image;
  return input;
}

/** The event fields that changed since the last import; undefined when none did. */
export function changedInput(previous: ImportFields, next: ImportFields): EventInput | undefined {
  const input: EventInput = {};
  if (!same(previous.title, next.title)) input.title = next.title;
  if (!same(previous.description, next.description)) input.description = next.description;
  // Dates are written together: the service reads them in the event's zone and all-day setting.
  if (DATE_FIELDS.some((k) => !same(previous[k], next[k]))) for (const k of DATE_FIELDS) input[k] = next[k];
  if (!same(previous.venue, next.venue)) input.venue = next.venue ? [next.venue] : '';
  if (!same(previous.organizer, next.organizer)) input.organizer = next.organizer ? [next.organizer] : '';
  if (!same(previous.categories, next.categories)) input.categories = next.categories;
  if (!same(previous.website, next.website)) input.website = next.website ?? '';
  if (!same(previous.image, next.image)) input.image = next.image ?? '';
  return Object.keys(input).length > 0 ? input : undefined;
}

function storedFields(text: string): ImportFields | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' ? (v as ImportFields) : undefined;
  } catch {
    return undefined;
  }
}

type Outcome = 'created' | 'updated' | 'unchanged' | SkippedItem;

async function applyItem(ctx: AppContext, item: ImportItem, user: RestUser): Promise<Outcome> {
  const json = JSON.stringify(item.fields);
  const row = await ctx.db.selectFrom('event_import_uids').select(['post_id', 'fields']).where('uid', '=', item.key).executeTakeFirst();
  let outcome: 'created' | 'updated';
  let id: number;
  const current = row ? (await getEventsByIds(ctx.db, [Number(row.post_id)])).get(Number(row.post_id)) : undefined;
  if (current) {
    if (current.status === 'trash') return { uid: item.key, reason: `event ${current.id} is in the trash` };
    const previous = storedFields(row!.fields);
    const input = previous ? changedInput(previous, item.fields) : createInput(item.fields);
    if (!input) return 'unchanged';
    id = await saveEvent(ctx, input, user, current);
    outcome = 'updated';
  } else {
    id = await saveEvent(ctx, createInput(item.fields), user);
    outcome = 'created';
  }
  const imported_gmt = toDbDate(DateTime.fromJSDate(ctx.now()).toUTC());
  await ctx.db
    .insertInto('event_import_uids')
    .values({ uid: item.key, post_id: id, fields: json, imported_gmt })
    .onConflict((oc) => oc.column('uid').doUpdateSet({ post_id: id, fields: json, imported_gmt }))
    .execute();
  return outcome;
}

/**
 * Imports an iCalendar source (see {@link loadSource}: Buffer, text, http(s)/webcal URL — fetched
 * under the SSRF policy of `safeHttpGet`, private addresses only in the `local` environment — or a file
 * path). Throws {@link IcsImportError} when the source cannot be read or is no iCalendar file; events
 * that cannot be imported are reported in `skipped`.
 */
export async function importIcs(ctx: AppContext, source: string | Buffer, options: IcsImportOptions = {}): Promise<IcsImportResult> {
  const text = await loadSource(ctx, source);
  const [siteZone, siteTimezone] = [await siteTimeZone(ctx.options), await siteTimeZoneSetting(ctx.options)];
  const parsed = parseIcs(text, { now: ctx.now(), siteZone, siteTimezone, ...(options.from ? { from: options.from } : {}), ...(options.until ? { until: options.until } : {}) });
  const user = options.user ?? (await siteImporter(ctx));
  const result: IcsImportResult = { created: 0, updated: 0, unchanged: 0, skipped: [...parsed.skipped] };
  const total = parsed.items.length;
  options.onProgress?.(0, total);
  let done = 0;
  for (const item of parsed.items) {
    let outcome: Outcome;
    try {
      outcome = await applyItem(ctx, item, user);
    } catch (e) {
      if (!isRestError(e)) throw e;
      outcome = { uid: item.key, reason: e.message };
    }
    if (typeof outcome === 'string') result[outcome]++;
    else result.skipped.push(outcome);
    options.onProgress?.(++done, total);
  }
  return result;
}
