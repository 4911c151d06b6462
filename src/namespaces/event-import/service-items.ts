/**
 * @module namespaces/event-import/service-items
 * The remote import service's event items (the original's `translate_service_data` field names) as
 * imported items: dates from `start_date` + `start_hour`/`start_minute`/`start_meridian`, the venue
 * object, the organizer object or list (each with its `image` URL), categories, tags, cost and flags.
 * The origin's unique id is `global_id`, else `uid`, else `id`.
 */
import { importedFields, type ImportedItem, type ImportedOrganizer, type ImportedVenue, type SkippedItem } from './fields.js';

function text(v: unknown): string {
  return typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
}

function flag(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'true' || v === 'yes';
}

function list(v: unknown): string[] {
  const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
  const out: string[] = [];
  for (const item of items) {
    const name = text(typeof item === 'object' && item !== null ? (item as Record<string, unknown>).name : item);
    if (name !== '' && !out.includes(name)) out.push(name);
  }
  return out;
}

/** `HH:MM:SS` from the service's hour, minute and meridian (24-hour hours ignore the meridian). */
function clock(hour: unknown, minute: unknown, meridian: unknown): string | undefined {
  const h = Number(text(hour) || '0');
  const m = Number(text(minute) || '0');
  if (!Number.isInteger(h) || !Number.isInteger(m) || h < 0 || h > 23 || m < 0 || m > 59) return undefined;
  const mer = text(meridian).toLowerCase();
  let h24 = h;
  if (h <= 12 && mer === 'pm' && h !== 12) h24 = h + 12;
  if (h === 12 && mer === 'am') h24 = 0;
  return `${String(h24).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** An http(s) URL, or undefined. */
function httpUrl(v: unknown): string | undefined {
  return /^https?:\/\//i.test(text(v)) ? text(v) : undefined;
}

function venueOf(v: unknown): ImportedVenue | null {
  const rec = record(v);
  const name = text(rec?.venue);
  if (!rec || name === '') return null;
  const venue: ImportedVenue = { venue: name };
  for (const key of ['address', 'city', 'country', 'state', 'zip', 'phone', 'website'] as const) if (text(rec[key]) !== '') venue[key] = text(rec[key]);
  if (text(rec.stateprovince) !== '') venue.province = text(rec.stateprovince);
  const image = httpUrl(rec.image);
  if (image) venue.image = image;
  return venue;
}

function organizersOf(v: unknown): ImportedOrganizer[] {
  const entries = Array.isArray(v) ? v : v ? [v] : [];
  const out: ImportedOrganizer[] = [];
  for (const entry of entries) {
    const rec = record(entry);
    const name = text(rec?.organizer);
    if (!rec || name === '') continue;
    const org: ImportedOrganizer = { organizer: name };
    for (const key of ['email', 'phone', 'website'] as const) if (text(rec[key]) !== '') org[key] = text(rec[key]);
    const image = httpUrl(rec.image);
    if (image) org.image = image;
    out.push(org);
  }
  return out;
}

/** One service item → an item, or why it cannot be one. */
export function fromServiceItem(raw: unknown): ImportedItem | SkippedItem {
  const item = record(raw);
  if (!item) return { uid: '', reason: 'not an event object' };
  const key = text(item.global_id) || text(item.uid) || text(item.id);
  if (key === '') return { uid: '', reason: 'no global_id, uid or id' };
  const title = text(item.title);
  if (title === '') return { uid: key, reason: 'no title' };
  const startDay = text(item.start_date);
  const endDay = text(item.end_date) || startDay;
  if (!/^\d{4}-\d{2}-\d{2}/.test(startDay) || !/^\d{4}-\d{2}-\d{2}/.test(endDay)) return { uid: key, reason: 'invalid start_date or end_date' };
  const allDay = flag(item.all_day);
  // A date that carries its own time wins over the hour fields.
  const startTime = /\d{2}:\d{2}/.test(startDay.slice(10)) ? startDay.slice(11, 19).padEnd(8, ':00') : clock(item.start_hour, item.start_minute, item.start_meridian);
  const endTime = /\d{2}:\d{2}/.test(endDay.slice(10)) ? endDay.slice(11, 19).padEnd(8, ':00') : clock(item.end_hour, item.end_minute, item.end_meridian);
  if (!startTime || !endTime) return { uid: key, reason: 'invalid start or end time' };
  const symbol = text(item.currency_symbol);
  const cost = text(item.cost);
  const withSymbol = cost !== '' && symbol !== '' && !cost.includes(symbol) ? (text(item.currency_position) === 'suffix' ? `${cost}${symbol}` : `${symbol}${cost}`) : cost;
  return {
    key,
    fields: importedFields({
      title,
      description: typeof item.description === 'string' ? item.description : '',
      excerpt: typeof item.excerpt === 'string' ? item.excerpt : '',
      start_date: `${startDay.slice(0, 10)} ${allDay ? '00:00:00' : startTime}`,
      end_date: `${endDay.slice(0, 10)} ${allDay ? '23:59:59' : endTime}`,
      timezone: text(item.timezone),
      all_day: allDay,
      venue: venueOf(item.venue),
      organizers: organizersOf(item.organizer),
      categories: list(item.categories),
      tags: list(item.tags),
      cost: withSymbol,
      website: httpUrl(item.url) ?? null,
      image: httpUrl(item.image) ?? null,
      featured: flag(item.featured),
      sticky: flag(item.sticky),
      hide_from_listings: flag(item.hide_from_listings),
    }),
  };
}
