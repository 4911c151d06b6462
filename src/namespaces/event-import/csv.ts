/**
 * @module namespaces/event-import/csv
 * CSV event files with the original importer's column names (`Event Name`, `Event Description`,
 * `Event Start Date`, `Event Start Time`, `Event End Date`, `Event End Time`, `All Day Event`,
 * `Event Venue Name`, `Event Organizer Name(s) or ID(s)`, `Event Category`, `Event Tags`, `Event Cost`,
 * `Event Website`, …; matched case-insensitively, the internal keys such as `event_name` too). Like the
 * original, a row is the same event as before when its name and start match: the row key is built
 * from them.
 */
import { DateTime } from 'luxon';
import { importedFields, type ImportedItem, type SkippedItem } from './fields.js';

/** Column header → field, the original's labels and internal keys. */
const COLUMNS: Record<string, string> = {
  'event name': 'event_name', 'event description': 'event_description', 'event excerpt': 'event_excerpt',
  'event start date': 'event_start_date', 'event start time': 'event_start_time', 'event end date': 'event_end_date',
  'event end time': 'event_end_time', 'event time zone': 'event_timezone', 'all day event': 'event_all_day',
  'hide event from event listings': 'event_hide', 'event sticky in month view': 'event_sticky', 'feature event': 'feature_event',
  'event venue name': 'event_venue_name', 'event organizer name(s) or id(s)': 'event_organizer_name', 'event organizer name': 'event_organizer_name',
  'event cost': 'event_cost', 'event currency symbol': 'event_currency_symbol', 'event currency position': 'event_currency_position',
  'event category': 'event_category', 'event tags': 'event_tags', 'event website': 'event_website', 'event featured image': 'featured_image',
};

/** RFC 4180 rows (quoted fields, doubled quotes, CRLF or LF). */
export function parseCsvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

const flag = (v: string) => ['1', 'yes', 'true', 'y'].includes(v.trim().toLowerCase());
const names = (v: string) => [...new Set(v.split(',').map((s) => s.trim()).filter((s) => s !== ''))];

/** A date as `YYYY-MM-DD` from the formats CSV files use (ISO, `m/d/Y`, `d.m.Y`, `F j, Y`). */
function day(v: string): string | undefined {
  const s = v.trim();
  for (const fmt of ['yyyy-MM-dd', 'M/d/yyyy', 'd.M.yyyy', 'MMMM d, yyyy', 'MMM d, yyyy', 'yyyy/MM/dd']) {
    const dt = DateTime.fromFormat(s, fmt, { locale: 'en' });
    if (dt.isValid) return dt.toFormat('yyyy-MM-dd');
  }
  const iso = DateTime.fromISO(s);
  return iso.isValid ? iso.toFormat('yyyy-MM-dd') : undefined;
}

function time(v: string): string | undefined {
  const s = v.trim().toUpperCase().replace(/\s+/g, ' ');
  if (s === '') return '';
  for (const fmt of ['H:mm', 'H:mm:ss', 'h:mm a', 'h:mma', 'h a', 'ha']) {
    const dt = DateTime.fromFormat(s, fmt, { locale: 'en' });
    if (dt.isValid) return dt.toFormat('HH:mm:ss');
  }
  return undefined;
}

/** The importable rows of a CSV text and the rows skipped with their reasons. Throws when the header names no `Event Name`. */
export function parseEventsCsv(text: string): { items: ImportedItem[]; skipped: SkippedItem[] } {
  const rows = parseCsvRows(text);
  const header = (rows.shift() ?? []).map((h) => {
    const k = h.trim().toLowerCase();
    return COLUMNS[k] ?? (Object.values(COLUMNS).includes(k) ? k : '');
  });
  if (!header.includes('event_name') || !header.includes('event_start_date')) throw new Error('not an events CSV: the header needs "Event Name" and "Event Start Date" columns');
  const items: ImportedItem[] = [];
  const skipped: SkippedItem[] = [];
  rows.forEach((cells, i) => {
    const get = (k: string) => {
      const at = header.indexOf(k);
      return at >= 0 ? (cells[at] ?? '').trim() : '';
    };
    const line = `row ${i + 2}`;
    const title = get('event_name');
    if (title === '') return skipped.push({ uid: line, reason: 'no Event Name' });
    const start = day(get('event_start_date'));
    const end = get('event_end_date') === '' ? start : day(get('event_end_date'));
    if (!start || !end) return skipped.push({ uid: line, reason: 'invalid Event Start Date or Event End Date' });
    const allDay = flag(get('event_all_day'));
    const startTime = time(get('event_start_time'));
    const endTime = time(get('event_end_time'));
    if (startTime === undefined || endTime === undefined) return skipped.push({ uid: line, reason: 'invalid Event Start Time or Event End Time' });
    const noTimes = startTime === '' && endTime === '';
    const symbol = get('event_currency_symbol');
    const cost = get('event_cost');
    const key = `csv:${title.toLowerCase()}|${start}|${allDay || noTimes ? '' : startTime}`;
    const venue = get('event_venue_name');
    const organizers = names(get('event_organizer_name'));
    items.push({
      key,
      fields: importedFields({
        title,
        description: get('event_description'),
        excerpt: get('event_excerpt'),
        start_date: `${start} ${allDay || noTimes ? '00:00:00' : startTime || '00:00:00'}`,
        end_date: `${end} ${allDay || noTimes ? '23:59:59' : endTime || startTime}`,
        timezone: get('event_timezone'),
        all_day: allDay || noTimes,
        venue: venue ? { venue } : null,
        organizers: organizers.map((organizer) => ({ organizer })),
        categories: names(get('event_category')),
        tags: names(get('event_tags')),
        cost: cost !== '' && symbol !== '' && !cost.includes(symbol) ? (get('event_currency_position') === 'suffix' ? `${cost}${symbol}` : `${symbol}${cost}`) : cost,
        website: /^https?:\/\//i.test(get('event_website')) ? get('event_website') : null,
        image: /^https?:\/\//i.test(get('featured_image')) ? get('featured_image') : null,
        featured: flag(get('feature_event')),
        sticky: flag(get('event_sticky')),
        hide_from_listings: flag(get('event_hide')),
      }),
    });
    return undefined;
  });
  return { items, skipped };
}
