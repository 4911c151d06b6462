/**
 * @module content/date-parse
 * A `strtotime`-like parser for the date inputs the originals accept (ISO-like text, `next friday
 * 18:00`, `+2 days`, timestamps), in the site time zone, relative to the app clock.
 *
 * @example
 * const when = parseDateTime('next friday 18:00', zone, ctx.now()); // luxon DateTime or undefined
 */
import { DateTime, FixedOffsetZone } from 'luxon';
import { normaliseZone } from './post-dates.js';

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

/**
 * A `strtotime`-like parser for the date inputs the originals accept: Unix timestamps (numbers or
 * numeric strings), `YYYY-MM-DD[ HH:MM[:SS]]` (also with `T` and a `Z`/`±HH:MM` zone), `MM/DD/YYYY`,
 * `DD-MM-YYYY`, month names (`April 12, 2025`, `12 Apr 2025`), times (`14:00`, `9am`, `9:30 pm`,
 * `noon`, `midnight`), and relative forms (`now`, `today`, `tomorrow`, `yesterday 23:59`, `+2 weeks`,
 * `3 days ago`, `next friday`, `last month`, `first day of next month`). Text without a zone is read in
 * `zone`. Returns the moment in `zone`, or undefined when the text is not a date.
 */
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
