/**
 * @module namespaces/event-import/fields
 * The one shape every importer produces (iCalendar, CSV, the remote service's batches): an item keyed
 * by its origin's unique id with normalised event fields, and how those fields become event writes —
 * everything for a new event, only what changed since the last import for an existing one.
 */
import type { parseIcs } from '../events/ical/index.js';
import type { EventInput } from '../events/index.js';

/** An item's fields as the iCalendar parser gives them. */
type ImportFields = ReturnType<typeof parseIcs>['items'][number]['fields'];

export interface ImportedVenue {
  venue: string;
  address?: string;
  city?: string;
  country?: string;
  state?: string;
  province?: string;
  zip?: string;
  phone?: string;
  website?: string;
  /** Featured image URL (the remote service's `venue.image`). */
  image?: string;
}

export interface ImportedOrganizer {
  organizer: string;
  email?: string;
  phone?: string;
  website?: string;
  /** Featured image URL (the remote service's `organizer.image`). */
  image?: string;
}

/** An item's event fields, normalised (what is compared between runs). */
export interface ImportedFields {
  title: string;
  description: string;
  excerpt: string;
  /** `YYYY-MM-DD HH:MM:SS` in `timezone` ('' = the site's). */
  start_date: string;
  end_date: string;
  timezone: string;
  all_day: boolean;
  venue: ImportedVenue | null;
  organizers: ImportedOrganizer[];
  categories: string[];
  tags: string[];
  /** Cost as written, with its currency symbol if any ('' = none). */
  cost: string;
  website: string | null;
  /** Featured image URL; side-loaded into the media library when written (see `images.ts`). */
  image: string | null;
  featured: boolean;
  sticky: boolean;
  hide_from_listings: boolean;
}

export interface ImportedItem {
  /** The origin's unique id (iCalendar UID, service `global_id`, CSV row key). */
  key: string;
  fields: ImportedFields;
}

export interface SkippedItem {
  uid: string;
  reason: string;
}

/** Defaults for the fields an importer does not know. */
export function importedFields(partial: Partial<ImportedFields> & Pick<ImportedFields, 'title' | 'start_date' | 'end_date'>): ImportedFields {
  return {
    description: '', excerpt: '', timezone: '', all_day: false, venue: null, organizers: [], categories: [], tags: [], cost: '',
    website: null, image: null, featured: false, sticky: false, hide_from_listings: false, ...partial,
  };
}

/** An item of the iCalendar parser. */
export function fromIcsFields(f: ImportFields): ImportedFields {
  return importedFields({
    title: f.title, description: f.description, start_date: f.start_date, end_date: f.end_date, timezone: f.timezone, all_day: f.all_day,
    venue: f.venue ? { ...f.venue } : null, organizers: f.organizer ? [{ ...f.organizer }] : [], categories: [...f.categories],
    website: f.website, image: f.image,
  });
}

/** Stored fields as JSON text → fields (rows the iCalendar importer wrote have its older shape). */
export function storedFields(text: string): ImportedFields | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (v === null || typeof v !== 'object') return undefined;
  const rec = v as Record<string, unknown>;
  if (!Array.isArray(rec.organizers)) return fromIcsFields(rec as unknown as ImportFields);
  return rec as unknown as ImportedFields;
}

/** A venue or organizer without its image. */
export function withoutImage<T extends { image?: string }>(linked: T): T {
  const { image: _image, ...rest } = linked;
  return rest as T;
}

/** The fields without any image (the event's, the venue's, the organizers'). */
export function withoutImages(f: ImportedFields): ImportedFields {
  return { ...f, image: null, venue: f.venue ? withoutImage(f.venue) : null, organizers: f.organizers.map(withoutImage) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const DATE_FIELDS = ['start_date', 'end_date', 'timezone', 'all_day'] as const;
const FLAGS = ['featured', 'sticky', 'hide_from_listings'] as const;

/** The event fields of a new item (venues and organizers copied: their images are swapped for attachment IDs). */
export function createInput(f: ImportedFields): EventInput {
  const input: EventInput = { title: f.title, description: f.description, start_date: f.start_date, end_date: f.end_date, timezone: f.timezone, all_day: f.all_day };
  if (f.excerpt !== '') input.excerpt = f.excerpt;
  if (f.venue) input.venue = [{ ...f.venue }];
  if (f.organizers.length > 0) input.organizer = f.organizers.map((o) => ({ ...o }));
  if (f.categories.length > 0) input.categories = f.categories;
  if (f.tags.length > 0) input.tags = f.tags;
  if (f.cost !== '') input.cost = f.cost;
  if (f.website) input.website = f.website;
  if (f.image) input.image = f.image;
  for (const k of FLAGS) if (f[k]) input[k] = true;
  return input;
}

/** The event fields that changed since the last import; undefined when none did (local edits of other fields survive). */
export function changedInput(previous: ImportedFields, next: ImportedFields): EventInput | undefined {
  const input: EventInput = {};
  for (const k of ['title', 'description', 'excerpt', 'cost'] as const) if (!same(previous[k], next[k])) input[k] = next[k];
  // Dates are written together: the events service reads them in the event's zone and all-day setting.
  if (DATE_FIELDS.some((k) => !same(previous[k], next[k]))) for (const k of DATE_FIELDS) input[k] = next[k];
  if (!same(previous.venue, next.venue)) input.venue = next.venue ? [{ ...next.venue }] : '';
  if (!same(previous.organizers, next.organizers)) input.organizer = next.organizers.length > 0 ? next.organizers.map((o) => ({ ...o })) : '';
  if (!same(previous.categories, next.categories)) input.categories = next.categories;
  if (!same(previous.tags, next.tags)) input.tags = next.tags;
  if (!same(previous.website, next.website)) input.website = next.website ?? '';
  if (!same(previous.image, next.image)) input.image = next.image ?? '';
  for (const k of FLAGS) if (!same(previous[k], next[k])) input[k] = next[k];
  return Object.keys(input).length > 0 ? input : undefined;
}
