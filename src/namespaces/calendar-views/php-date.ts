/**
 * @module namespaces/calendar-views/php-date
 * PHP `date()` formats (the site's `date_format` and `time_format` settings) applied to a luxon date.
 */
import type { DateTime } from 'luxon';

const SUFFIX = (d: number) => (d % 10 === 1 && d !== 11 ? 'st' : d % 10 === 2 && d !== 12 ? 'nd' : d % 10 === 3 && d !== 13 ? 'rd' : 'th');

const TOKENS: Record<string, (dt: DateTime) => string> = {
  d: (dt) => dt.toFormat('dd'), D: (dt) => dt.toFormat('ccc'), j: (dt) => String(dt.day), l: (dt) => dt.toFormat('cccc'),
  N: (dt) => String(dt.weekday), S: (dt) => SUFFIX(dt.day), w: (dt) => String(dt.weekday % 7), z: (dt) => String(dt.ordinal - 1),
  W: (dt) => dt.toFormat('WW'), F: (dt) => dt.toFormat('LLLL'), m: (dt) => dt.toFormat('LL'), M: (dt) => dt.toFormat('LLL'),
  n: (dt) => String(dt.month), t: (dt) => String(dt.daysInMonth), L: (dt) => (dt.isInLeapYear ? '1' : '0'), o: (dt) => String(dt.weekYear),
  Y: (dt) => String(dt.year), y: (dt) => dt.toFormat('yy'), a: (dt) => (dt.hour < 12 ? 'am' : 'pm'), A: (dt) => (dt.hour < 12 ? 'AM' : 'PM'),
  g: (dt) => String(dt.hour % 12 || 12), G: (dt) => String(dt.hour), h: (dt) => String(dt.hour % 12 || 12).padStart(2, '0'),
  H: (dt) => dt.toFormat('HH'), i: (dt) => dt.toFormat('mm'), s: (dt) => dt.toFormat('ss'), e: (dt) => dt.zoneName ?? 'UTC',
  T: (dt) => dt.offsetNameShort ?? 'UTC', P: (dt) => dt.toFormat('ZZ'), O: (dt) => dt.toFormat('ZZZ'), U: (dt) => String(Math.floor(dt.toSeconds())),
};

/** `format` as PHP's `date()` would print `dt` (English names; `\x` escapes a character). */
export function phpDate(format: string, dt: DateTime): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c === '\\' && i + 1 < format.length) out += format[++i];
    else out += TOKENS[c] ? TOKENS[c](dt) : c;
  }
  return out;
}
