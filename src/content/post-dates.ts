/**
 * @module content/post-dates
 * Dates of the post content model: the site time zone, `YYYY-MM-DD HH:MM:SS` text in local time and
 * UTC, `*_details` objects and zone abbreviations. Parsing the originals' date inputs is
 * `date-parse.ts`.
 *
 * @example
 * const zone = await siteTimeZone(ctx.options);           // 'Europe/Berlin' or 'UTC+2'
 * const { local, gmt } = postDatePair(ctx.now(), zone);  // stored text of both columns
 */
import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

/** Text form of stored dates. */
export const DB_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** The zero date WordPress stores when a date is unset. */
export const ZERO_DATE = '0000-00-00 00:00:00';

/** Reads site settings (the `Options` service or anything shaped like it). */
export interface OptionReader {
  get<T = unknown>(name: string, fallback?: T): Promise<T>;
}

/**
 * Normalises a time zone setting to a name luxon understands: IANA names as they are, `UTC`, and
 * WordPress manual offsets (`UTC+5`, `UTC-3.5`, `UTC+5:30`) as fixed offsets. Undefined when invalid.
 */
export function normaliseZone(name: string): string | undefined {
  const known = zoneNames.get(name);
  if (known !== undefined) return known === '' ? undefined : known;
  const out = normaliseZoneUncached(name);
  // Zone settings come from a short list, but the text is user input: the memo stays bounded.
  if (zoneNames.size >= ZONE_MEMO_SIZE) zoneNames.clear();
  zoneNames.set(name, out ?? '');
  return out;
}

/** Checking an IANA name builds an `Intl.DateTimeFormat` (a tenth of a millisecond): once per name. */
const zoneNames = new Map<string, string>();
const ZONE_MEMO_SIZE = 1_000;

function normaliseZoneUncached(name: string): string | undefined {
  const text = name.trim();
  if (text === '') return undefined;
  if (/^(utc|gmt|z)$/i.test(text)) return 'UTC';
  const m = /^(?:utc|gmt)?\s*([+-])\s*(\d{1,2})(?:(?::(\d{2}))|(?:\.(\d+)))?$/i.exec(text);
  if (m) {
    const hours = Number(m[2]);
    const minutes = m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? Math.round(Number(`0.${m[4]}`) * 60) : 0;
    if (hours > 14 || minutes >= 60) return undefined;
    const total = (hours * 60 + minutes) * (m[1] === '-' ? -1 : 1);
    return FixedOffsetZone.instance(total).name;
  }
  return IANAZone.isValidZone(text) ? text : undefined;
}

/** True for a valid IANA zone name or a `UTC±h[:mm]` offset. */
export function isValidTimeZone(name: string): boolean {
  return normaliseZone(name) !== undefined;
}

/**
 * The site's time zone setting as WordPress reports it: `timezone_string` when set, otherwise the
 * `gmt_offset` as `UTC+5`-style text (`UTC` for 0).
 */
export async function siteTimeZoneSetting(options: OptionReader): Promise<string> {
  const tz = String((await options.get('timezone_string', '')) ?? '').trim();
  if (tz !== '' && normaliseZone(tz)) return tz;
  const offset = Number((await options.get('gmt_offset', '0')) ?? 0) || 0;
  if (offset === 0) return 'UTC';
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `UTC${sign}${Number.isInteger(abs) ? abs : String(abs)}`;
}

/** The site time zone as a luxon zone name. */
export async function siteTimeZone(options: OptionReader): Promise<string> {
  return normaliseZone(await siteTimeZoneSetting(options)) ?? 'UTC';
}

/** `YYYY-MM-DD HH:MM:SS` of a DateTime in its own zone (what `toFormat(DB_FORMAT)` writes, without re-reading the format each call). */
export function toDbDate(dt: DateTime): string {
  if (!dt.isValid) return dt.toFormat(DB_FORMAT);
  return `${padded(dt.year, 4)}-${padded(dt.month)}-${padded(dt.day)} ${padded(dt.hour)}:${padded(dt.minute)}:${padded(dt.second)}`;
}

/** luxon's zero padding: a minus sign before the padded digits. */
function padded(n: number, width = 2): string {
  return n < 0 ? `-${String(-n).padStart(width, '0')}` : String(n).padStart(width, '0');
}

/** A stored local date (in `zone`) as a DateTime; undefined for the zero date or garbage. */
export function fromDbDate(text: string, zone: string): DateTime | undefined {
  if (!text || text.startsWith('0000')) return undefined;
  const dt = DateTime.fromFormat(text, DB_FORMAT, { zone });
  return dt.isValid ? dt : undefined;
}

/** Local (`zone`) and UTC text of an instant: the `date` / `date_gmt` pair of a post. */
export function postDatePair(instant: Date | DateTime, zone: string): { local: string; gmt: string } {
  const dt = instant instanceof Date ? DateTime.fromJSDate(instant) : instant;
  return { local: toDbDate(dt.setZone(zone)), gmt: toDbDate(dt.toUTC()) };
}

/** Zero-padded parts of a stored date, as the originals' `*_details` objects. */
export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

/** `*_details` of a `YYYY-MM-DD HH:MM:SS` text; all parts `""` when the date is empty. */
export function dateDetails(text: string | null | undefined): DateDetails {
  const m = text ? /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text) : null;
  if (!m) return { year: '', month: '', day: '', hour: '', minutes: '', seconds: '' };
  return { year: m[1]!, month: m[2]!, day: m[3]!, hour: m[4]!, minutes: m[5]!, seconds: m[6]! };
}

/** Short zone abbreviation (`EDT`, `CET`, `UTC`, `UTC+5`) of a moment. */
export function zoneAbbreviation(dt: DateTime): string {
  if (dt.zone.type === 'fixed') {
    if (dt.offset === 0) return 'UTC';
    const h = Math.trunc(Math.abs(dt.offset) / 60);
    const m = Math.abs(dt.offset) % 60;
    return `UTC${dt.offset < 0 ? '-' : '+'}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
  }
  const short = dt.setLocale('en-US').offsetNameShort ?? '';
  if (/^GMT$/.test(short) && dt.offset === 0) return dt.zoneName === 'UTC' || dt.zoneName === 'Etc/UTC' ? 'UTC' : 'GMT';
  if (/^GMT[+-]/.test(short) || short === '') {
    // No common abbreviation for this zone: WordPress prints the offset.
    const h = Math.trunc(Math.abs(dt.offset) / 60);
    const m = Math.abs(dt.offset) % 60;
    return `${dt.offset < 0 ? '-' : '+'}${String(h).padStart(2, '0')}${m ? String(m).padStart(2, '0') : ''}`;
  }
  return short;
}
