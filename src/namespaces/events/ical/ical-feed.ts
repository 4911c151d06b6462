/**
 * @module namespaces/events/ical/ical-feed
 * The iCalendar export of The Events Calendar (`Tribe__Events__iCal`), built with ical.js from event
 * objects as the REST archive presents them: a VCALENDAR with PRODID, X-WR-CALNAME, X-ORIGINAL-URL and
 * X-WR-CALDESC, one VTIMEZONE per zone the timed events use (the zone's real offset transitions over
 * the years the events cover), and one VEVENT per event — DTSTART/DTEND in TZID form (all-day events
 * as VALUE=DATE with an exclusive DTEND), DTSTAMP, CREATED, LAST-MODIFIED, UID `<id>@<host>` (the
 * original's `<id>-<start epoch>-<end epoch>@<host>` changes when an event is rescheduled, so a
 * subscriber's calendar would keep the old occurrence beside the new one), SUMMARY, plain-text
 * DESCRIPTION, URL, LOCATION, GEO, ORGANIZER, CATEGORIES and ATTACH for the image. Lines end in CRLF
 * and are folded at 75 octets, as RFC 5545 3.1 asks.
 *
 * @example
 * const text = buildIcalFeed(events, { name: 'My site', url: 'https://example.org/events/', home: 'https://example.org' }, new Date());
 */
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { hasControlCharacter } from '../../../content/imported-urls.js';
import { normaliseZone } from '../../../content/posts.js';
import { zoneAbbr } from '../zone-names.js';

/** The parts of a REST event object (reference 1.1) the feed reads. */
export interface FeedEvent {
  id: number;
  title: string;
  /** Rendered HTML (blank for password-protected events seen without the password). */
  description: string;
  url: string;
  all_day: boolean | null;
  /** `YYYY-MM-DD HH:MM:SS` in the event's zone, and in UTC. */
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  date_utc: string;
  modified_utc: string;
  image: false | { url: string; extension?: string };
  /**
   * Password-protected and shown without its password: the REST object is blanked, so DESCRIPTION
   * says so instead, as the original's feed does.
   */
  protected?: boolean;
  /** One venue object, a list of them, or `[]`. */
  venue: FeedVenue | FeedVenue[];
  organizer: FeedOrganizer[];
  categories: { name: string }[];
}

export interface FeedVenue {
  venue?: string;
  address?: string;
  city?: string;
  state?: string;
  province?: string;
  stateprovince?: string;
  zip?: string;
  country?: string;
  geo_lat?: number;
  geo_lng?: number;
}

export interface FeedOrganizer {
  organizer?: string;
  email?: string;
  url?: string;
}

/** The calendar's own properties. */
export interface FeedCalendar {
  /** Site name (`blogname`): PRODID, X-WR-CALNAME, X-WR-CALDESC. */
  name: string;
  /** The page the feed belongs to (X-ORIGINAL-URL). */
  url: string;
  /** Home URL; its host ends every UID. */
  home: string;
  /** Zone of events whose own `timezone` is empty (the site's setting). */
  defaultTimezone?: string;
  /** The Outlook export (`?outlook-ical=1`): the original leaves X-WR-CALNAME out of it. */
  outlook?: boolean;
}

/** DESCRIPTION of a password-protected event seen without its password (the original's wording). */
export const PROTECTED_DESCRIPTION = 'Content is protected.';

const DB_DATE = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/** `YYYY-MM-DD[ HH:MM:SS]` as wall-clock fields. */
function wallClock(text: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } | undefined {
  const m = DB_DATE.exec(text.trim());
  if (!m) return undefined;
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0) };
}

/** A UTC `YYYY-MM-DD HH:MM:SS` as epoch milliseconds (NaN when malformed). */
function utcMillis(text: string): number {
  const w = wallClock(text);
  return w ? Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) : Number.NaN;
}

function utcTime(ms: number): ICAL.Time {
  return ICAL.Time.fromJSDate(new Date(ms), true);
}

function floatingTime(w: { year: number; month: number; day: number; hour: number; minute: number; second: number }): ICAL.Time {
  return ICAL.Time.fromData({ year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute, second: w.second, isDate: false });
}

function dateValue(year: number, month: number, day: number): ICAL.Time {
  return ICAL.Time.fromData({ year, month, day, isDate: true });
}

// ---------------------------------------------------------------------------------------------
// Plain text
// ---------------------------------------------------------------------------------------------

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’', sbquo: '‚',
  ldquo: '“', rdquo: '”', bdquo: '„', hellip: '…', copy: '©', reg: '®', trade: '™', euro: '€', pound: '£', yen: '¥',
  cent: '¢', deg: '°', middot: '·', bull: '•', laquo: '«', raquo: '»', times: '×', divide: '÷', prime: '′', Prime: '″',
};

/** `html_entity_decode`: named entities of everyday text, decimal and hex references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref] ?? whole;
  });
}

/**
 * Control characters other than tab and line feed are no TEXT in iCalendar (RFC 5545 3.3.11); clients
 * refuse or cut the feed at them. Line feeds are written escaped (`\n`).
 */
const NON_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Text of rendered HTML as the original writes DESCRIPTION: line and paragraph breaks kept, tags dropped, entities decoded. */
export function plainText(html: string): string {
  const text = html
    .replace(/\r\n?/g, '\n')
    .replace(/<br\s*\/?>\s*\n?/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote|tr)>\s*/gi, '\n\n')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .replace(/\r\n?/g, '\n')
    .replace(NON_TEXT, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// ---------------------------------------------------------------------------------------------
// Time zones
// ---------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
/** Longest span a VTIMEZONE describes (a feed spanning more keeps the last 30 years' transitions). */
const MAX_SPAN_MS = 30 * 366 * DAY_MS;

function offsetMinutes(zone: string, ms: number): number {
  return DateTime.fromMillis(ms, { zone }).offset;
}

/** Instants in [from, to) where the zone's UTC offset changes, to the millisecond. */
export function offsetTransitions(zone: string, from: number, to: number): number[] {
  const out: number[] = [];
  let t = from;
  let offset = offsetMinutes(zone, t);
  while (t < to) {
    const next = Math.min(t + DAY_MS, to);
    const nextOffset = offsetMinutes(zone, next);
    if (nextOffset !== offset) {
      let lo = t;
      let hi = next;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetMinutes(zone, mid) === offset) lo = mid;
        else hi = mid;
      }
      out.push(hi);
      offset = nextOffset;
    }
    t = next;
  }
  return out;
}

function observance(zone: string, at: number, fromOffset: number): ICAL.Component {
  const dt = DateTime.fromMillis(at, { zone });
  const comp = new ICAL.Component(dt.isInDST ? 'daylight' : 'standard');
  // DTSTART is the onset in the local time in force before it (RFC 5545 3.6.5).
  const before = DateTime.fromMillis(at, { zone: 'UTC' }).plus({ minutes: fromOffset });
  comp.addPropertyWithValue('dtstart', floatingTime({ year: before.year, month: before.month, day: before.day, hour: before.hour, minute: before.minute, second: before.second }));
  comp.addPropertyWithValue('tzoffsetfrom', ICAL.UtcOffset.fromSeconds(fromOffset * 60));
  comp.addPropertyWithValue('tzoffsetto', ICAL.UtcOffset.fromSeconds(dt.offset * 60));
  comp.addPropertyWithValue('tzname', zoneAbbr(dt));
  return comp;
}

/**
 * A VTIMEZONE for `tzid` (an IANA name, `UTC`, or a `UTC+5`-style offset) covering the instants
 * `from`–`to`: the offset in force at the start of `from`'s year, then every transition until the end
 * of `to`'s year. Undefined for a name that is no zone.
 */
export function buildVtimezone(tzid: string, from: number, to: number): ICAL.Component | undefined {
  const zone = normaliseZone(tzid);
  if (!zone) return undefined;
  const start = DateTime.fromMillis(from, { zone }).startOf('year').toMillis();
  const end = Math.min(DateTime.fromMillis(Math.max(from, to), { zone }).endOf('year').toMillis() + 1, start + MAX_SPAN_MS);
  const comp = new ICAL.Component('vtimezone');
  comp.addPropertyWithValue('tzid', tzid);
  const first = offsetMinutes(zone, start);
  comp.addSubcomponent(observance(zone, start, first));
  let previous = first;
  for (const at of offsetTransitions(zone, start, end)) {
    comp.addSubcomponent(observance(zone, at, previous));
    previous = offsetMinutes(zone, at);
  }
  return comp;
}

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

function venuesOf(ev: FeedEvent): FeedVenue[] {
  if (Array.isArray(ev.venue)) return ev.venue;
  return ev.venue && typeof ev.venue === 'object' ? [ev.venue] : [];
}

/** `LOCATION`: the venue's name and address parts, comma separated (as the original). */
export function locationText(v: FeedVenue): string {
  const region = v.stateprovince || v.state || v.province;
  return [v.venue, v.address, v.city, region, v.zip, v.country]
    .map((s) => (s === undefined ? '' : plainText(String(s))))
    .filter((s) => s !== '')
    .join(', ');
}

const IMAGE_TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif', svg: 'image/svg+xml', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff' };

function hostOf(home: string): string {
  try {
    return new URL(home).host;
  } catch {
    return home.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/.*$/, '');
  }
}

function addUtc(comp: ICAL.Component, name: string, dbUtc: string): void {
  const ms = utcMillis(dbUtc);
  if (!Number.isNaN(ms)) comp.addPropertyWithValue(name, utcTime(ms));
}

function timedProperty(name: 'dtstart' | 'dtend', local: string, utc: string, tzid: string | undefined): ICAL.Property | undefined {
  const prop = new ICAL.Property(name);
  const w = wallClock(local);
  if (tzid && w) {
    prop.setParameter('tzid', tzid);
    prop.setValue(floatingTime(w));
    return prop;
  }
  const ms = utcMillis(utc);
  if (Number.isNaN(ms)) return undefined;
  prop.setValue(utcTime(ms));
  return prop;
}

/** The zone a timed event is written in: its own, else the calendar default; undefined when neither is a zone. */
function eventTzid(ev: FeedEvent, calendar: FeedCalendar): string | undefined {
  const tz = (ev.timezone || calendar.defaultTimezone || '').trim();
  return tz !== '' && normaliseZone(tz) ? tz : undefined;
}

function buildVevent(ev: FeedEvent, calendar: FeedCalendar, host: string, stamp: ICAL.Time): ICAL.Component {
  const comp = new ICAL.Component('vevent');
  if (ev.all_day) {
    const s = wallClock(ev.start_date);
    const e = wallClock(ev.end_date) ?? s;
    if (s && e) {
      comp.addPropertyWithValue('dtstart', dateValue(s.year, s.month, s.day));
      // DTEND of an all-day event is the day after its last day.
      const after = DateTime.fromObject({ year: e.year, month: e.month, day: e.day }, { zone: 'UTC' }).plus({ days: 1 });
      comp.addPropertyWithValue('dtend', dateValue(after.year, after.month, after.day));
    }
  } else {
    const tzid = eventTzid(ev, calendar);
    const start = timedProperty('dtstart', ev.start_date, ev.utc_start_date, tzid);
    const end = timedProperty('dtend', ev.end_date, ev.utc_end_date, tzid);
    if (start) comp.addProperty(start);
    if (end) comp.addProperty(end);
  }
  comp.addPropertyWithValue('dtstamp', stamp);
  addUtc(comp, 'created', ev.date_utc);
  addUtc(comp, 'last-modified', ev.modified_utc);
  // The event's identity only (not its times), so a rescheduled event updates in subscribers' calendars.
  comp.addPropertyWithValue('uid', `${ev.id}@${host}`);
  comp.addPropertyWithValue('summary', plainText(ev.title));
  const description = ev.protected ? PROTECTED_DESCRIPTION : plainText(ev.description ?? '');
  if (description !== '') comp.addPropertyWithValue('description', description);
  if (ev.url) comp.addPropertyWithValue('url', ev.url);

  const venue = venuesOf(ev)[0];
  if (venue) {
    const location = locationText(venue);
    if (location !== '') comp.addPropertyWithValue('location', location);
    if (typeof venue.geo_lat === 'number' && typeof venue.geo_lng === 'number') comp.addPropertyWithValue('geo', [venue.geo_lat, venue.geo_lng]);
  }

  const organizer = ev.organizer?.[0];
  if (organizer && (organizer.organizer || organizer.email)) {
    const prop = new ICAL.Property('organizer');
    // A parameter value cannot hold a double quote (RFC 5545 3.2); the original turns it into a single one.
    if (organizer.organizer) prop.setParameter('cn', plainText(organizer.organizer).replace(/"/g, "'").replace(/\n/g, ' '));
    const url = organizer.url !== undefined && hasControlCharacter(organizer.url) ? calendar.home : (organizer.url ?? calendar.home);
    prop.setValue(organizer.email ? `mailto:${organizer.email}` : url);
    comp.addProperty(prop);
  }

  const categories = (ev.categories ?? []).map((c) => plainText(c.name)).filter((n) => n !== '');
  if (categories.length > 0) {
    const prop = new ICAL.Property('categories');
    prop.setValues(categories);
    comp.addProperty(prop);
  }

  // A URL value is written as it is (no escaping in iCalendar): one with a line break would end the
  // VEVENT. Imports and the REST routes refuse such URLs; rows stored before that are left out here.
  if (!ev.protected && ev.image && ev.image.url && !hasControlCharacter(ev.image.url)) {
    const prop = new ICAL.Property('attach');
    const ext = (ev.image.extension ?? /\.([a-z0-9]+)(?:[?#]|$)/i.exec(ev.image.url)?.[1] ?? '').toLowerCase();
    const type = IMAGE_TYPES[ext];
    if (type) prop.setParameter('fmttype', type);
    prop.setValue(ev.image.url);
    comp.addProperty(prop);
  }
  return comp;
}

/**
 * The iCalendar text of `events` (CRLF line ends, folded at 75 octets). Events keep their order.
 * `now` is DTSTAMP.
 */
export function buildIcalFeed(events: readonly FeedEvent[], calendar: FeedCalendar, now: Date): string {
  const cal = new ICAL.Component('vcalendar');
  const name = plainText(calendar.name);
  cal.addPropertyWithValue('version', '2.0');
  cal.addPropertyWithValue('prodid', `-//${name} - eventsuite//NONSGML v1.0//EN`);
  cal.addPropertyWithValue('calscale', 'GREGORIAN');
  cal.addPropertyWithValue('method', 'PUBLISH');
  if (!calendar.outlook && name !== '') cal.addPropertyWithValue('x-wr-calname', name);
  cal.addPropertyWithValue('x-original-url', calendar.url);
  cal.addPropertyWithValue('x-wr-caldesc', `Events for ${name}`);

  // ---- One VTIMEZONE per zone of the timed events, over the span they cover.
  const spans = new Map<string, { from: number; to: number }>();
  for (const ev of events) {
    if (ev.all_day) continue;
    const tzid = eventTzid(ev, calendar);
    const from = utcMillis(ev.utc_start_date);
    const to = utcMillis(ev.utc_end_date);
    if (!tzid || Number.isNaN(from)) continue;
    const span = spans.get(tzid);
    const end = Number.isNaN(to) ? from : to;
    spans.set(tzid, span ? { from: Math.min(span.from, from), to: Math.max(span.to, end) } : { from, to: end });
  }
  for (const [tzid, span] of spans) {
    const vtz = buildVtimezone(tzid, span.from, span.to);
    if (vtz) cal.addSubcomponent(vtz);
  }

  // ---- Events.
  const host = hostOf(calendar.home);
  const stamp = utcTime(Math.floor(now.getTime() / 1000) * 1000);
  for (const ev of events) cal.addSubcomponent(buildVevent(ev, calendar, host, stamp));
  return foldLines(cal.toString());
}

/** Octets of a code point in UTF-8. */
function utf8Length(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/**
 * `text` with every content line folded so that no physical line, its leading space included, is
 * longer than 75 octets, never inside a character (RFC 5545 3.1), each ending in CRLF. ical.js folds
 * 75 octets after the leading space (76 in all), so its folds are undone first.
 */
export function foldLines(text: string): string {
  const out: string[] = [];
  for (const line of text.replace(/\r\n[ \t]/g, '').split('\r\n')) {
    if (line === '') continue;
    let current = '';
    let octets = 0;
    for (const ch of line) {
      const size = utf8Length(ch.codePointAt(0)!);
      if (octets + size > 75) {
        out.push(current);
        current = ' ';
        octets = 1;
      }
      current += ch;
      octets += size;
    }
    out.push(current);
  }
  return `${out.join('\r\n')}\r\n`;
}
