/**
 * @module content/posts
 * Shared helpers of the post content model, used by every area that stores posts (events, venues,
 * organizers, tickets, attendees, orders…):
 * - slugs: WordPress `sanitize_title` and unique slugs per post type (`-2`, `-3`…);
 * - dates: the site time zone, `YYYY-MM-DD HH:MM:SS` text in local time and UTC, `*_details` objects,
 *   and a `strtotime`-like parser for the date inputs the originals accept;
 * - rendering: `wpautop` (paragraphs) as the `the_content` / `the_excerpt` filters apply it.
 *
 * @example
 * const slug = await uniquePostSlug(db, 'tribe_events', 'Spring Fair'); // 'spring-fair' or 'spring-fair-2'
 * const zone = await siteTimeZone(ctx.options);                          // 'Europe/Berlin' or 'UTC+2'
 * const when = parseDateTime('next friday 18:00', zone, ctx.now());      // luxon DateTime or null
 */
import type { Selectable } from 'kysely';
import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';
import type { Db } from '../storage/db.js';
import type { PostsTable } from '../storage/tables/core.js';
import { startsWith } from '../storage/dialect.js';

// ---------------------------------------------------------------------------------------------
// Slugs
// ---------------------------------------------------------------------------------------------

/** Longest slug WordPress stores (`post_name` is varchar(200)). */
export const MAX_SLUG_LENGTH = 200;

/**
 * WordPress `sanitize_title_with_dashes` for the ASCII subset: tags and entities stripped, accents
 * removed, lower-cased, dots and typographic dashes become dashes, other punctuation is dropped,
 * whitespace becomes a dash, dashes are collapsed and trimmed. Characters without an ASCII form are
 * dropped.
 */
export function sanitizeTitle(title: string): string {
  return title
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z0-9#]+;/gi, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/æ/gi, 'ae')
    .replace(/ø/gi, 'o')
    .replace(/đ/gi, 'd')
    .replace(/ł/gi, 'l')
    .toLowerCase()
    .replace(/[.\u00a0\u2013\u2014\/]/g, '-')
    .replace(/[^a-z0-9_\s-]+/g, '')
    .replace(/[\s-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
}

/** A slug made unique by appending `-N`, as `wp_unique_post_slug` does; `taken` lists the used slugs. */
export function nextFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The slug a post of `type` gets: `desired` sanitised (the title's slug when empty, else the post ID
 * when even that is empty), made unique within the type. `excludeId` is the post being updated.
 */
export async function uniquePostSlug(db: Db, type: string, desired: string, excludeId?: number, fallback = 'post'): Promise<string> {
  const base = sanitizeTitle(desired) || sanitizeTitle(fallback) || 'post';
  const prefix = base.slice(0, MAX_SLUG_LENGTH - 12);
  let query = db
    .selectFrom('posts')
    .select('slug')
    .where('type', '=', type)
    .where((eb) => eb.or([eb('slug', '=', base), startsWith(eb.ref('slug'), `${prefix}-`)]));
  if (excludeId !== undefined) query = query.where('id', '!=', excludeId);
  const rows = await query.execute();
  return nextFreeSlug(base, new Set(rows.map((r) => r.slug)));
}

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

/** `YYYY-MM-DD HH:MM:SS` of a DateTime in its own zone. */
export function toDbDate(dt: DateTime): string {
  return dt.toFormat(DB_FORMAT);
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

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11,
  dec: 12, december: 12,
};
const WEEKDAYS: Record<string, number> = {
  mon: 1, monday: 1, tue: 2, tues: 2, tuesday: 2, wed: 3, wednesday: 3, thu: 4, thur: 4, thurs: 4, thursday: 4,
  fri: 5, friday: 5, sat: 6, saturday: 6, sun: 7, sunday: 7,
};
const UNITS: Record<string, 'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months' | 'years'> = {
  sec: 'seconds', secs: 'seconds', second: 'seconds', seconds: 'seconds',
  min: 'minutes', mins: 'minutes', minute: 'minutes', minutes: 'minutes',
  hour: 'hours', hours: 'hours', day: 'days', days: 'days', week: 'weeks', weeks: 'weeks',
  fortnight: 'weeks', fortnights: 'weeks', month: 'months', months: 'months', year: 'years', years: 'years',
};
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };

const ISO_LIKE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(z|utc|gmt|[+-]\d{2}(?::?\d{2})?)?$/i;
const TIME = /^(\d{1,2})(?::(\d{2})(?::(\d{2}))?)?\s*(am|pm|a\.m\.|p\.m\.)?$/i;

interface Parts {
  date?: { y: number; m: number; d: number };
  time?: { h: number; mi: number; s: number };
  offsetMinutes?: number;
  rel: Partial<Record<'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months' | 'years', number>>;
  weekday?: { day: number; dir: 0 | 1 | -1 };
  resetTime?: boolean;
  dayOf?: 'first' | 'last';
  /** A day number waiting for its month name (`12 April`). */
  pendingDay?: number;
}

function parseOffset(text: string): number | undefined {
  const t = text.toLowerCase();
  if (t === 'z' || t === 'utc' || t === 'gmt') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(t);
  if (!m) return undefined;
  return (Number(m[2]) * 60 + Number(m[3] ?? 0)) * (m[1] === '-' ? -1 : 1);
}

function parseClock(text: string): { h: number; mi: number; s: number } | undefined {
  const m = TIME.exec(text);
  if (!m) return undefined;
  let h = Number(m[1]);
  const mi = Number(m[2] ?? 0);
  const s = Number(m[3] ?? 0);
  const mer = m[4]?.toLowerCase().replace(/\./g, '');
  if (mer) {
    if (h < 1 || h > 12) return undefined;
    if (mer === 'am') h = h === 12 ? 0 : h;
    else h = h === 12 ? 12 : h + 12;
  } else if (m[2] === undefined) {
    return undefined; // a bare number is not a time
  }
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return { h, mi, s };
}

/** Tokens of a free-form date: splits words, keeps `+2`, `9:30`, `9am`, `2025-04-01`, `04/01/2025`. */
function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/,/g, ' ')
    .replace(/(\d)(st|nd|rd|th)\b/g, '$1')
    .replace(/\b(\d{1,2}(?::\d{2}){0,2})\s+(am|pm|a\.m\.|p\.m\.)(?=\s|$)/g, '$1$2')
    .replace(/([+-])\s+(\d)/g, '$1$2')
    .split(/\s+/)
    .filter(Boolean);
}

function parseTokens(tokens: string[], parts: Parts): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (t === 'now') continue;
    if (t === 'today' || t === 'midnight') {
      parts.resetTime = true;
      continue;
    }
    if (t === 'noon') {
      parts.time = { h: 12, mi: 0, s: 0 };
      continue;
    }
    if (t === 'tomorrow' || t === 'yesterday') {
      parts.rel.days = (parts.rel.days ?? 0) + (t === 'tomorrow' ? 1 : -1);
      parts.resetTime = true;
      continue;
    }
    if (t === 'at' || t === 'of' || t === 'on') continue;
    if ((t === 'first' || t === 'last') && next === 'day' && tokens[i + 2] === 'of') {
      parts.dayOf = t;
      parts.resetTime = true;
      i += 2;
      continue;
    }
    if ((t === 'next' || t === 'last' || t === 'previous' || t === 'this') && next !== undefined) {
      const dir = t === 'next' ? 1 : t === 'this' ? 0 : -1;
      if (WEEKDAYS[next] !== undefined) {
        parts.weekday = { day: WEEKDAYS[next]!, dir: dir as 0 | 1 | -1 };
        parts.resetTime = true;
        i++;
        continue;
      }
      const unit = UNITS[next];
      if (unit) {
        parts.rel[unit] = (parts.rel[unit] ?? 0) + (next.startsWith('fortnight') ? 2 : 1) * dir;
        i++;
        continue;
      }
      return false;
    }
    if (WEEKDAYS[t] !== undefined) {
      parts.weekday = { day: WEEKDAYS[t]!, dir: 0 };
      parts.resetTime = true;
      continue;
    }
    // Relative amounts: `+2 weeks`, `-1 day`, `3 days ago`, `a week`.
    const amount = /^[+-]?\d+$/.test(t) ? Number(t) : NUMBER_WORDS[t];
    if (amount !== undefined && next !== undefined && UNITS[next]) {
      const unit = UNITS[next]!;
      let n = amount * (next.startsWith('fortnight') ? 2 : 1);
      i++;
      if (tokens[i + 1] === 'ago') {
        n = -n;
        i++;
      }
      parts.rel[unit] = (parts.rel[unit] ?? 0) + n;
      continue;
    }
    // Absolute dates.
    const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t) ?? /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(t);
    if (iso) {
      parts.date = { y: Number(iso[1]), m: Number(iso[2]), d: Number(iso[3]) };
      continue;
    }
    const us = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(t);
    if (us) {
      parts.date = { y: fullYear(us[3]!), m: Number(us[1]), d: Number(us[2]) };
      continue;
    }
    const eu = /^(\d{1,2})[-.](\d{1,2})[-.](\d{4})$/.exec(t);
    if (eu) {
      parts.date = { y: Number(eu[3]), m: Number(eu[2]), d: Number(eu[1]) };
      continue;
    }
    if (MONTHS[t.replace(/\.$/, '')] !== undefined) {
      // `April 12 2025`, `12 April 2025`, `April 2025`, `April 12`.
      const month = MONTHS[t.replace(/\.$/, '')]!;
      const prev = parts.pendingDay;
      let day = prev ?? 1;
      let year: number | undefined;
      if (prev === undefined && next !== undefined && /^\d{1,2}$/.test(next)) {
        day = Number(next);
        i++;
      }
      const after = tokens[i + 1];
      if (after !== undefined && /^\d{4}$/.test(after)) {
        year = Number(after);
        i++;
      }
      delete parts.pendingDay;
      parts.date = { y: year ?? NaN, m: month, d: day };
      continue;
    }
    if (/^\d{1,2}$/.test(t) && next !== undefined && MONTHS[next.replace(/\.$/, '')] !== undefined) {
      parts.pendingDay = Number(t);
      continue;
    }
    if (/^\d{4}$/.test(t) && parts.date && Number.isNaN(parts.date.y)) {
      parts.date.y = Number(t);
      continue;
    }
    const clock = parseClock(t);
    if (clock) {
      parts.time = clock;
      continue;
    }
    const off = parseOffset(t);
    if (off !== undefined) {
      parts.offsetMinutes = off;
      continue;
    }
    return false;
  }
  return parts.pendingDay === undefined;
}

function fullYear(text: string): number {
  const n = Number(text);
  if (text.length === 4) return n;
  return n < 70 ? 2000 + n : 1900 + n;
}

/**
 * A `strtotime`-like parser for the date inputs the originals accept: Unix timestamps (numbers or
 * numeric strings), `YYYY-MM-DD[ HH:MM[:SS]]` (also with `T` and a `Z`/`±HH:MM` zone), `MM/DD/YYYY`,
 * `DD-MM-YYYY`, month names (`April 12, 2025`, `12 Apr 2025`), times (`14:00`, `9am`, `9:30 pm`,
 * `noon`, `midnight`), and relative forms (`now`, `today`, `tomorrow`, `yesterday 23:59`, `+2 weeks`,
 * `3 days ago`, `next friday`, `last month`, `first day of next month`). Text without a zone is read in
 * `zone`. Returns the moment in `zone`, or undefined when the text is not a date.
 */
/**
 * A wall time that occurs twice (the autumn repeated hour) at its first occurrence, as PHP resolves
 * it; Luxon picks the second. Other times are returned unchanged.
 */
export function firstOccurrence<T extends DateTime>(dt: T): T {
  if (!dt.isValid || dt.zone.type === 'fixed') return dt;
  const ts = dt.toMillis();
  const wall = ts + dt.offset * 60_000;
  let first = ts;
  for (const offset of [dt.zone.offset(ts - 86_400_000), dt.zone.offset(ts + 86_400_000)]) {
    const candidate = wall - offset * 60_000;
    if (candidate < first && dt.zone.offset(candidate) === offset) first = candidate;
  }
  return first === ts ? dt : (DateTime.fromMillis(first, { zone: dt.zone }) as T);
}

export function parseDateTime(input: unknown, zone: string, now: Date): DateTime | undefined {
  const z = normaliseZone(zone) ?? 'UTC';
  if (typeof input === 'number') return Number.isFinite(input) ? DateTime.fromSeconds(Math.trunc(input), { zone: z }) : undefined;
  if (typeof input !== 'string') return undefined;
  const text = input.trim();
  if (text === '') return undefined;
  if (/^[+-]?\d+(\.\d+)?$/.test(text) && !/^\d{4}$/.test(text)) {
    const n = Number(text);
    return Number.isFinite(n) && Math.abs(n) < 1e13 ? DateTime.fromSeconds(Math.trunc(n), { zone: z }) : undefined;
  }
  if (/^@-?\d+$/.test(text)) return DateTime.fromSeconds(Number(text.slice(1)), { zone: z });

  const iso = ISO_LIKE.exec(text);
  if (iso) {
    const offset = iso[7] !== undefined ? parseOffset(iso[7]) : undefined;
    if (iso[7] !== undefined && offset === undefined) return undefined;
    const fields = {
      year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]),
      hour: Number(iso[4] ?? 0), minute: Number(iso[5] ?? 0), second: Number(iso[6] ?? 0),
    };
    const dt = offset !== undefined
      ? DateTime.fromObject(fields, { zone: FixedOffsetZone.instance(offset) }).setZone(z)
      : firstOccurrence(DateTime.fromObject(fields, { zone: z }));
    return dt.isValid && dt.day === fields.day ? dt : undefined;
  }

  const parts: Parts = { rel: {} };
  if (!parseTokens(tokenize(text), parts)) return undefined;
  const base = DateTime.fromJSDate(now, { zone: z });
  let dt = base;
  if (parts.date) {
    const y = Number.isNaN(parts.date.y) ? base.year : parts.date.y;
    const candidate = DateTime.fromObject({ year: y, month: parts.date.m, day: parts.date.d }, { zone: z });
    if (!candidate.isValid || candidate.day !== parts.date.d) return undefined;
    dt = candidate;
  }
  if (parts.resetTime || parts.date) dt = dt.startOf('day');
  if (parts.time) dt = firstOccurrence(dt.set({ hour: parts.time.h, minute: parts.time.mi, second: parts.time.s, millisecond: 0 }));
  if (Object.keys(parts.rel).length > 0) dt = dt.plus(parts.rel);
  if (parts.dayOf) dt = parts.dayOf === 'first' ? dt.startOf('month') : dt.endOf('month').startOf('day');
  if (parts.weekday) {
    const { day, dir } = parts.weekday;
    let diff = day - dt.weekday;
    if (dir === 1) diff = diff <= 0 ? diff + 7 : diff;
    else if (dir === -1) diff = diff >= 0 ? diff - 7 : diff;
    else diff = diff < 0 ? diff + 7 : diff;
    dt = dt.plus({ days: diff });
    if (parts.time) dt = dt.set({ hour: parts.time.h, minute: parts.time.mi, second: parts.time.s });
  }
  if (parts.offsetMinutes !== undefined) {
    dt = DateTime.fromObject(
      { year: dt.year, month: dt.month, day: dt.day, hour: dt.hour, minute: dt.minute, second: dt.second },
      { zone: FixedOffsetZone.instance(parts.offsetMinutes) },
    ).setZone(z);
  }
  return dt.isValid ? dt.set({ millisecond: 0 }) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

const ALL_BLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)';

/**
 * WordPress `wpautop`: double line breaks become paragraphs, single ones `<br />` (outside block
 * elements), block-level tags are not wrapped, `<pre>` contents are left alone.
 */
export function wpautop(text: string, br = true): string {
  if (text.trim() === '') return '';
  let pee = `${text}\n`;
  const pres: string[] = [];
  if (pee.includes('<pre')) {
    pee = pee.replace(/<pre[\s\S]*?<\/pre>/gi, (m) => {
      pres.push(m);
      return `<pre wp-pre-tag-${pres.length - 1}></pre>`;
    });
  }
  pee = pee.replace(/<br\s*\/?>\s*<br\s*\/?>/gi, '\n\n');
  pee = pee.replace(new RegExp(`(<${ALL_BLOCKS}[\\s/>])`, 'gi'), '\n\n$1');
  pee = pee.replace(new RegExp(`(</${ALL_BLOCKS}>)`, 'gi'), '$1\n\n');
  pee = pee.replace(/<hr\s*?\/?>/gi, '<hr />\n\n');
  pee = pee.replace(/\r\n|\r/g, '\n');
  // Newlines inside tags are spaces.
  pee = pee.replace(/<[^>]*>/g, (tag) => tag.replace(/\n/g, ' '));
  pee = pee.replace(/\n\n+/g, '\n\n');
  const pees = pee.split(/\n\s*\n/).filter((p) => p !== '');
  pee = '';
  for (const tinkle of pees) pee += `<p>${tinkle.replace(/^\n+|\n+$/g, '')}</p>\n`;
  pee = pee.replace(/<p>\s*<\/p>/g, '');
  pee = pee.replace(/<p>([^<]+)<\/(div|address|form)>/g, '<p>$1</p></$2>');
  pee = pee.replace(new RegExp(`<p>\\s*(</?${ALL_BLOCKS}[^>]*>)\\s*</p>`, 'gi'), '$1');
  pee = pee.replace(/<p>(<li.+?)<\/p>/g, '$1');
  pee = pee.replace(/<p><blockquote([^>]*)>/gi, '<blockquote$1><p>');
  pee = pee.replace(/<\/blockquote><\/p>/g, '</p></blockquote>');
  pee = pee.replace(new RegExp(`<p>\\s*(</?${ALL_BLOCKS}[^>]*>)`, 'gi'), '$1');
  pee = pee.replace(new RegExp(`(</?${ALL_BLOCKS}[^>]*>)\\s*</p>`, 'gi'), '$1');
  if (br) {
    pee = pee.replace(/<(script|style|svg)[\s\S]*?<\/\1>/gi, (m) => m.replace(/\n/g, '<WPPreserveNewline />'));
    pee = pee.replace(/<br>|<br\/>/g, '<br />');
    pee = pee.replace(/(<br \/>)?\s*\n/g, (m, brTag) => (brTag ? m : '<br />\n'));
    pee = pee.replace(/<WPPreserveNewline \/>/g, '\n');
  }
  pee = pee.replace(new RegExp(`(</?${ALL_BLOCKS}[^>]*>)\\s*<br />`, 'gi'), '$1');
  pee = pee.replace(/<br \/>(\s*<\/?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)/gi, '$1');
  pee = pee.replace(/\n<\/p>$/g, '</p>');
  if (pres.length > 0) pee = pee.replace(/<pre wp-pre-tag-(\d+)><\/pre>/g, (_m, i: string) => pres[Number(i)]!);
  return pee;
}

/** A content field as `the_content` renders it (paragraphs), trimmed. */
export function renderContent(text: string): string {
  return wpautop(text).trim();
}

/** A title as `the_title` renders it, trimmed. */
export function renderTitle(text: string): string {
  return text.trim();
}

/** Text of an HTML fragment (tags stripped, whitespace collapsed), for JSON-LD and search. */
export function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------
// Post rows
// ---------------------------------------------------------------------------------------------

/** A stored post row as every area reads it. */
export type PostRecord = Selectable<PostsTable>;

/** Posts by ID (any type), one query. */
export async function getPostsByIds(db: Db, ids: readonly number[]): Promise<Map<number, PostRecord>> {
  const out = new Map<number, PostRecord>();
  if (ids.length === 0) return out;
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db.selectFrom('posts').selectAll().where('id', 'in', unique.slice(i, i + 500)).execute();
    for (const r of rows) out.set(Number(r.id), { ...r, id: Number(r.id), author: Number(r.author), parent: Number(r.parent), menu_order: Number(r.menu_order) });
  }
  return out;
}

/** One post of `type` by ID, or undefined. */
export async function getPost(db: Db, id: number, type?: string): Promise<PostRecord | undefined> {
  const post = (await getPostsByIds(db, [id])).get(id);
  return post && (type === undefined || post.type === type) ? post : undefined;
}

/** Statuses WordPress registers for posts. */
export const POST_STATUSES = Object.freeze(['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit'] as const);

/** Statuses `post_status=any` covers (everything but trash and auto-draft). */
export const ANY_STATUSES = Object.freeze(['publish', 'future', 'draft', 'pending', 'private'] as const);
