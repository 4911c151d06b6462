/**
 * @module namespaces/mailing-list/field-formatter
 * Posted values in the shape the list service expects for a merge field's type, as the original's
 * `MC4WP_Field_Formatter` makes them: an address object from text or parts, a birthday as `MM/DD`,
 * a date as `YYYY-MM-DD`, a language code, a yes/no. PHP's loose rules are kept where they decide
 * the outcome (`29/07` is read day first; a date PHP cannot read is the Unix epoch's).
 *
 * @example
 * birthday('29/07', undefined, now); // '07/29'
 * date('5/5/2016', now);             // '2016-05-05'
 */
import { DateTime } from 'luxon';
import { parseDateTime } from '../../content/date-parse.js';
import { phpTrim, phpTruthy } from '../../rest/php-builtins.js';
import { isPhpNumeric, phpString } from '../../rest/php-query.js';
import { INT_KEY } from '../../rest/php-values.js';

/**
 * A value on which the original fails with a PHP fatal error (`trim()` of a list, `in_array()` on
 * text): the sign-up ends there, before anything is written.
 */
export class SignupFatalError extends Error {
  constructor(what: string) {
    super(what);
    this.name = 'SignupFatalError';
  }
}

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
const valuesOf = (v: Record<string, unknown> | unknown[]): unknown[] => (Array.isArray(v) ? v : Object.values(v));

/** PHP `join($glue, $list)`: a nested list is the word `Array`. */
export function phpJoin(glue: string, list: Record<string, unknown> | unknown[]): string {
  return valuesOf(list).map(phpString).join(glue);
}

/** PHP `trim()` of a posted value; PHP 8 stops with a TypeError on a list. */
function trimScalar(value: unknown, what: string): string {
  if (isMap(value)) throw new SignupFatalError(`trim(): ${what} is a list`);
  return phpTrim(phpString(value));
}

/**
 * PHP 8 `$text <op> $n` for a string and an integer: numerically when the text is numeric, else as
 * text against the number's digits. Negative, zero or positive.
 */
function compareToInt(text: string, n: number): number {
  if (isPhpNumeric(text)) return Math.sign(Number(text) - n);
  const digits = String(n);
  return text < digits ? -1 : text > digits ? 1 : 0;
}

/** `address`: text is split on commas (empty parts dropped) into addr1, city, state, zip and country; parts fill in the empty defaults. */
export function address(value: unknown): unknown {
  if (typeof value === 'string') {
    const pieces = value.split(',').filter((p) => p !== '' && p !== '0');
    const out: Record<string, unknown> = {
      // CASE: PHP reads a missing first part as null (text made only of commas).
      addr1: pieces[0] ?? null,
      city: pieces[1] ?? '',
      state: pieces[2] ?? '',
      zip: pieces[3] ?? '',
    };
    if (phpTruthy(pieces[4])) out.country = pieces[4];
    return out;
  }
  if (isMap(value)) {
    // array_merge: named parts replace the defaults, numbered ones are appended and renumbered.
    const out: Record<string, unknown> = { addr1: '', city: '', state: '', zip: '' };
    let next = 0;
    for (const [k, v] of Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)) {
      if (INT_KEY.test(k)) out[String(next++)] = v;
      else out[k] = v;
    }
    return out;
  }
  return value;
}

/** `birthday`: `MM/DD` whatever the order given (`DD/MM` lists, or a first part above 12, are read day first). */
export function birthday(value: unknown, options: unknown, now: Date): unknown {
  const format = isMap(options) && !Array.isArray(options) && (options as Record<string, unknown>).date_format !== undefined ? (options as Record<string, unknown>).date_format : 'MM/DD';
  let text: unknown = value;
  if (isMap(value)) {
    const parts = value as Record<string, unknown>;
    text = !Array.isArray(value) && parts.month !== undefined && parts.day !== undefined ? `${phpString(parts.month)}/${phpString(parts.day)}` : phpJoin('/', value);
  }
  const trimmed = trimScalar(text, 'the birthday');
  if (!phpTruthy(trimmed)) return trimmed;
  let slashed = trimmed.replace(/[.-]/g, '/');
  const values = slashed.split('/');
  if (format === 'DD/MM' || (compareToInt(values[0]!, 12) > 0 && compareToInt(values[0]!, 31) <= 0 && values[1] !== undefined && compareToInt(values[1], 12) <= 0)) {
    slashed = values.reverse().join('/');
  }
  return gmdate(strtotime(slashed, now), 'MM/dd');
}

/** `date`: `YYYY-MM-DD` from text or year, month and day parts. */
export function date(value: unknown, now: Date): unknown {
  let text: unknown = value;
  if (isMap(value)) {
    const parts = value as Record<string, unknown>;
    text = !Array.isArray(value) && parts.year !== undefined && parts.month !== undefined && parts.day !== undefined ? `${phpString(parts.year)}/${phpString(parts.month)}/${phpString(parts.day)}` : phpJoin('/', value);
  }
  const trimmed = trimScalar(text, 'the date');
  if (!phpTruthy(trimmed)) return trimmed;
  return gmdate(strtotime(trimmed, now), 'yyyy-MM-dd');
}

const LANGUAGES_KEPT_WHOLE = ['pt_PT', 'es_ES', 'fr_CA'];

/** `language`: the first two bytes of a locale (`nl_NL` → `nl`), except the locales the service knows whole. */
export function language(value: unknown): string {
  const text = trimScalar(value, 'the language');
  return LANGUAGES_KEPT_WHOLE.includes(text) ? text : Buffer.from(text).subarray(0, 2).toString('utf8');
}

/** `boolean`: `'false'` and `'0'` are no, anything else as PHP casts it. */
export function boolean(value: unknown): boolean {
  if (value === 'false' || value === '0') return false;
  return phpTruthy(value);
}

/** The formatter for a merge field type, as the original finds it (`method_exists`, any case). */
export function formatterFor(type: string): ((value: unknown, options: unknown, now: Date) => unknown) | undefined {
  switch (type.toLowerCase()) {
    case 'address':
      return (v) => address(v);
    case 'birthday':
      return birthday;
    case 'date':
      return (v, _o, now) => date(v, now);
    case 'language':
      return (v) => language(v);
    case 'boolean':
      return (v) => boolean(v);
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// strtotime / gmdate, in UTC (WordPress runs PHP in UTC)
// ---------------------------------------------------------------------------------------------

const MONTH = '(0?[1-9]|1[0-2])';
const DAY = '([0-2]?[0-9]|3[01])';
const MONTH_DAY = new RegExp(`^${MONTH}/${DAY}$`);
const MONTH_DAY_YEAR = new RegExp(`^${MONTH}/${DAY}/(\\d{1,4})$`);
const YEAR_MONTH_DAY = new RegExp(`^(\\d{4})/${MONTH}/${DAY}$`);
const DAY_MONTH_YEAR = new RegExp(`^${DAY}[.\\t-]${MONTH}[.-](\\d{4})$`);

/** Two- and three-digit years as PHP reads them: below 70 is 20xx, else 19xx. */
function fullYear(digits: string): number {
  const y = Number(digits);
  return digits.length >= 4 ? y : y < 70 ? 2000 + y : 1900 + y;
}

/** Midnight UTC of a date whose day may overflow its month, as PHP lets it (`2/30` is 1 or 2 March, `3/0` the last of February). */
function utcMidnight(year: number, month: number, day: number): number {
  const d = new Date(Date.UTC(2000, month - 1, day));
  d.setUTCFullYear(year, month - 1, day);
  return Math.floor(d.getTime() / 1000);
}

/** `strtotime` for the text the formatter builds: seconds, or undefined where PHP answers false. */
export function strtotime(text: string, now: Date): number | undefined {
  let m = MONTH_DAY.exec(text);
  if (m) return utcMidnight(now.getUTCFullYear(), Number(m[1]), Number(m[2]));
  m = MONTH_DAY_YEAR.exec(text);
  if (m) return utcMidnight(fullYear(m[3]!), Number(m[1]), Number(m[2]));
  m = YEAR_MONTH_DAY.exec(text);
  if (m) return utcMidnight(Number(m[1]), Number(m[2]), Number(m[3]));
  m = DAY_MONTH_YEAR.exec(text);
  if (m) return utcMidnight(Number(m[3]), Number(m[2]), Number(m[1]));
  const parsed = parseDateTime(text, 'UTC', now);
  return parsed ? Math.floor(parsed.toSeconds()) : undefined;
}

/** `gmdate($format, $time)`; PHP reads `false` (text it could not read) as 0, the epoch. */
function gmdate(seconds: number | undefined, format: 'MM/dd' | 'yyyy-MM-dd'): string {
  const dt = DateTime.fromSeconds(seconds ?? 0, { zone: 'UTC' });
  if (format === 'MM/dd') return dt.toFormat('MM/dd');
  const year = dt.year < 0 ? `-${String(-dt.year).padStart(4, '0')}` : String(dt.year).padStart(4, '0');
  return `${year}-${dt.toFormat('MM-dd')}`;
}
