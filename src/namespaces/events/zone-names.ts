/**
 * @module namespaces/events/zone-names
 * A zone's abbreviation at a moment (`CEST`, `IST`, `EDT`), as event objects (`timezone_abbr`) and the
 * iCalendar feed (`TZNAME`) show it.
 */
import type { DateTime } from 'luxon';
import { zoneAbbreviation } from '../../content/posts.js';

/** Locales whose short zone names cover most zones' abbreviations (EST, CET, BST, AEST, IST). */
const NAME_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN'];

/** The zone's common abbreviation at that moment, else what WordPress prints (`+09`, `UTC+5`). */
export function zoneAbbr(dt: DateTime): string {
  if (dt.zone.type !== 'fixed') {
    for (const locale of NAME_LOCALES) {
      const short = dt.setLocale(locale).offsetNameShort ?? '';
      if (short !== '' && !/^GMT[+-]/.test(short)) return short;
    }
  }
  return zoneAbbreviation(dt);
}
