/**
 * @module namespaces/events/ical/ical-parse
 * Reads `.ics` text with ical.js into importable items (the event-import area imports them). Every
 * VEVENT becomes an item: SUMMARY → title, DESCRIPTION, DTSTART/DTEND (TZID, UTC, floating or all-day
 * DATE with an exclusive DTEND), LOCATION → a venue, ORGANIZER CN → organizer, CATEGORIES →
 * categories, URL → website, an image ATTACH → image. Recurring events (RRULE/RDATE, EXDATE and
 * RECURRENCE-ID overrides) become one item per occurrence within a year either side of today, at most
 * 500 per series, each keyed `UID#RECURRENCE-ID`. Problems of single events are reported as skipped.
 */
import crypto from 'node:crypto';
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { DB_FORMAT, normaliseZone } from '../../../content/posts.js';
import { categoriesOf, controlCharacterInUrls, httpUrl, imageOf, isCancelled, organizerOf, str, venueOf } from './ical-fields.js';

/** Occurrences of one series imported at most. */
export const MAX_OCCURRENCES = 500;
/** Days either side of today within which occurrences of a series are imported. */
export const HORIZON_DAYS = 366;
/** Recurrence steps examined per series before giving up (guards FREQ=SECONDLY and the like). */
const MAX_STEPS = 20_000;

/** Why an import could not start: the source is unreadable or is no iCalendar file. */
export class IcsImportError extends Error {
  constructor(
    readonly code: 'invalid_ics' | 'unreadable_source' | 'fetch_failed',
    message: string,
  ) {
    super(message);
    this.name = 'IcsImportError';
  }
}

/** An item's event fields, normalised (what is compared between runs). */
export interface ImportFields {
  title: string;
  description: string;
  /** `YYYY-MM-DD HH:MM:SS` in `timezone`. */
  start_date: string;
  end_date: string;
  timezone: string;
  all_day: boolean;
  venue: { venue: string; address?: string } | null;
  organizer: { organizer: string; email?: string } | null;
  categories: string[];
  website: string | null;
  image: string | null;
}

export interface ImportItem {
  /** `UID`, or `UID#RECURRENCE-ID` for an occurrence of a series. */
  key: string;
  fields: ImportFields;
}

export interface SkippedItem {
  uid: string;
  reason: string;
}

export interface ParsedIcs {
  items: ImportItem[];
  skipped: SkippedItem[];
}

export interface ParseOptions {
  now: Date;
  /** Zone (luxon name) and setting text for floating times and all-day events. */
  siteZone: string;
  siteTimezone: string;
  horizonDays?: number;
  maxOccurrences?: number;
  /** Expansion window of recurring series; default `horizonDays` either side of `now`. */
  from?: Date;
  until?: Date;
}

interface Env {
  siteZone: string;
  siteTimezone: string;
  /** Zone of floating times: the calendar's X-WR-TIMEZONE, else the site's. */
  floatingZone: string;
  floatingTimezone: string;
}

interface Resolved {
  dt: DateTime;
  timezone: string;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A VCALENDAR text as its own lines and its components' blocks (unfolded); undefined when BEGIN/END do not pair up. */
function splitCalendar(body: string): { own: string[]; blocks: { name: string; lines: string[] }[] }[] | undefined {
  const calendars: { own: string[]; blocks: { name: string; lines: string[] }[] }[] = [];
  const stack: string[] = [];
  let block: { name: string; lines: string[] } | undefined;
  for (const line of body.replace(/\r\n?/g, '\n').replace(/\n[ \t]/g, '').split('\n')) {
    if (line.trim() === '') continue;
    const begin = /^BEGIN:(\S+)\s*$/i.exec(line)?.[1]?.toUpperCase();
    const end = /^END:(\S+)\s*$/i.exec(line)?.[1]?.toUpperCase();
    if (stack.length === 0) {
      if (begin !== 'VCALENDAR') return undefined;
      calendars.push({ own: [], blocks: [] });
      stack.push(begin);
    } else if (stack.length === 1) {
      if (begin) {
        block = { name: begin, lines: [line] };
        calendars.at(-1)!.blocks.push(block);
        stack.push(begin);
      } else if (end) {
        if (end !== 'VCALENDAR') return undefined;
        stack.pop();
      } else {
        calendars.at(-1)!.own.push(line);
      }
    } else {
      block!.lines.push(line);
      if (begin) stack.push(begin);
      else if (end && stack.pop() !== end) return undefined;
    }
  }
  return stack.length === 0 && calendars.length > 0 ? calendars : undefined;
}

/**
 * The VCALENDAR components of the text; throws {@link IcsImportError} when there is none. ical.js
 * refuses a whole file for one bad value (an unknown RRULE frequency, a malformed date); then each
 * component is read on its own and the VEVENTs it cannot read are reported in `skipped`.
 */
function parseCalendars(text: string, skipped: SkippedItem[]): ICAL.Component[] {
  const body = text.replace(/^\uFEFF/, '');
  if (!/BEGIN:VCALENDAR/i.test(body)) throw new IcsImportError('invalid_ics', 'not an iCalendar file: no BEGIN:VCALENDAR');
  let jcal: unknown;
  try {
    jcal = ICAL.parse(body);
  } catch (e) {
    const calendars = splitCalendar(body);
    if (!calendars) throw new IcsImportError('invalid_ics', `not a valid iCalendar file: ${errorText(e)}`);
    const kept: string[] = [];
    for (const cal of calendars) {
      const good: string[] = [];
      for (const b of cal.blocks) {
        const blockText = b.lines.join('\r\n');
        try {
          ICAL.parse(blockText);
          good.push(blockText);
        } catch (err) {
          if (b.name !== 'VEVENT') continue;
          const uid = /^UID(?:;[^:]*)?:(.*)$/im.exec(blockText)?.[1]?.trim() ?? '';
          skipped.push({ uid, reason: errorText(err) });
        }
      }
      kept.push(['BEGIN:VCALENDAR', ...cal.own, ...good, 'END:VCALENDAR'].join('\r\n'));
    }
    try {
      jcal = ICAL.parse(kept.join('\r\n'));
    } catch {
      throw new IcsImportError('invalid_ics', `not a valid iCalendar file: ${errorText(e)}`);
    }
  }
  const roots = (Array.isArray(jcal) && typeof jcal[0] === 'string' ? [jcal] : (jcal as unknown[])) as unknown[];
  const calendars = roots
    .filter((r): r is unknown[] => Array.isArray(r) && r[0] === 'vcalendar')
    .map((r) => new ICAL.Component(r as never));
  if (calendars.length === 0) throw new IcsImportError('invalid_ics', 'not an iCalendar file: no VCALENDAR component');
  return calendars;
}

/**
 * An IANA zone (or `UTC±h`) for a TZID: the name itself, or its trailing segments for prefixed
 * names such as `/mozilla.org/20050126_1/Europe/London`.
 */
export function zoneForTzid(tzid: string): string | undefined {
  const name = tzid.trim().replace(/^"|"$/g, '');
  if (normaliseZone(name)) return name;
  const parts = name.split('/').filter((p) => p !== '');
  for (let i = 1; i < parts.length; i++) {
    const tail = parts.slice(i).join('/');
    if (tail.includes('/') && normaliseZone(tail)) return tail;
  }
  return undefined;
}

function wall(t: ICAL.Time) {
  return { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second };
}

/** A date-time value as an instant in the zone it names (see the module comment for the rules). */
function resolveTime(t: ICAL.Time, tzid: string | undefined, env: Env): Resolved {
  const zone = t.zone;
  if (zone === ICAL.Timezone.utcTimezone || zone?.tzid === 'UTC') {
    return { dt: DateTime.fromObject(wall(t), { zone: 'UTC' }), timezone: 'UTC' };
  }
  const named = tzid ? zoneForTzid(tzid) : undefined;
  if (named) return { dt: DateTime.fromObject(wall(t), { zone: normaliseZone(named)! }), timezone: named };
  if (zone && zone !== ICAL.Timezone.localTimezone && zone.component) {
    // A zone only the file defines (e.g. Windows names): its VTIMEZONE gives the offset; the event is
    // kept in the site's zone.
    const w = wall(t);
    const offset = zone.utcOffset(t);
    const ms = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - offset * 1000;
    return { dt: DateTime.fromMillis(ms, { zone: env.siteZone }), timezone: env.siteTimezone };
  }
  return { dt: DateTime.fromObject(wall(t), { zone: env.floatingZone }), timezone: env.floatingTimezone };
}

function tzidOf(comp: ICAL.Component, name: 'dtstart' | 'dtend'): string | undefined {
  const v = comp.getFirstProperty(name)?.getParameter('tzid');
  const s = str(v).trim();
  return s === '' ? undefined : s;
}

interface Occurrence {
  fields: ImportFields;
  startMs: number;
  endMs: number;
}

/**
 * The fields of one occurrence: `comp` carries the texts, `start`/`end` the times (the series'
 * occurrence times, or the component's own). Returns the reason when it cannot be an event.
 */
function occurrenceOf(comp: ICAL.Component, start: ICAL.Time, end: ICAL.Time, tzids: { start?: string; end?: string }, env: Env): Occurrence | string {
  const title = str(comp.getFirstPropertyValue('summary')).trim();
  if (title === '') return 'no SUMMARY';
  const refused = controlCharacterInUrls(comp);
  if (refused) return refused;
  let fields: Pick<ImportFields, 'start_date' | 'end_date' | 'timezone' | 'all_day'>;
  let startMs: number;
  let endMs: number;
  if (start.isDate) {
    const first = DateTime.fromObject({ year: start.year, month: start.month, day: start.day }, { zone: env.floatingZone });
    let last = DateTime.fromObject({ year: end.year, month: end.month, day: end.day }, { zone: env.floatingZone });
    // DTEND of a DATE event is exclusive: the event's last day is the one before.
    if (end.isDate) last = last.minus({ days: 1 });
    if (!first.isValid || !last.isValid) return 'invalid DTSTART or DTEND';
    if (last < first) last = first;
    const endOfLast = last.endOf('day').set({ millisecond: 0 });
    fields = { start_date: first.toFormat(DB_FORMAT), end_date: endOfLast.toFormat(DB_FORMAT), timezone: env.floatingTimezone, all_day: true };
    startMs = first.toMillis();
    endMs = endOfLast.toMillis();
  } else {
    const s = resolveTime(start, tzids.start, env);
    const e = resolveTime(end, tzids.end ?? tzids.start, env);
    if (!s.dt.isValid) return 'invalid DTSTART';
    if (!e.dt.isValid) return 'invalid DTEND';
    const endInZone = e.dt.setZone(s.dt.zone);
    if (endInZone.toMillis() < s.dt.toMillis()) return 'DTEND is before DTSTART';
    fields = { start_date: s.dt.toFormat(DB_FORMAT), end_date: endInZone.toFormat(DB_FORMAT), timezone: s.timezone, all_day: false };
    startMs = s.dt.toMillis();
    endMs = endInZone.toMillis();
  }
  return {
    fields: {
      title,
      description: str(comp.getFirstPropertyValue('description')).replace(/\r\n?/g, '\n').trimEnd(),
      ...fields,
      venue: venueOf(comp),
      organizer: organizerOf(comp),
      categories: categoriesOf(comp),
      website: httpUrl(comp.getFirstPropertyValue('url')),
      image: imageOf(comp),
    },
    startMs,
    endMs,
  };
}

/** A stable UID for a VEVENT without one: a hash of its SUMMARY, DTSTART, DTEND and LOCATION. */
function derivedUid(comp: ICAL.Component): string {
  const text = (name: string) => comp.getFirstProperty(name)?.toICALString() ?? '';
  const hash = crypto.createHash('sha256').update(['summary', 'dtstart', 'dtend', 'location'].map(text).join('\n')).digest('hex');
  return `derived-${hash.slice(0, 16)}`;
}

/** Items of one series (or one single event). */
interface Limits {
  maxOccurrences: number;
  /** The expansion window (epoch ms). */
  from: number;
  to: number;
}

function expandEvent(event: ICAL.Event, uid: string, env: Env, options: Limits, out: ParsedIcs): void {
  const master = event.component;
  const masterTzids = { start: tzidOf(master, 'dtstart'), end: tzidOf(master, 'dtend') };
  if (!event.isRecurring()) {
    if (isCancelled(master)) {
      out.skipped.push({ uid, reason: 'cancelled' });
      return;
    }
    const occ = occurrenceOf(master, event.startDate, event.endDate, masterTzids, env);
    if (typeof occ === 'string') out.skipped.push({ uid, reason: occ });
    else out.items.push({ key: uid, fields: occ.fields });
    return;
  }

  const { from, to } = options;
  const reported = out.skipped.length;
  // A series none of whose occurrences falls in the window would vanish without a word: say so.
  const outsideWindow = () => {
    if (count > 0 || out.skipped.length > reported) return;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    out.skipped.push({ uid, reason: `recurring series with no occurrence between ${day(from)} and ${day(to)} (the import window; see --from and --until)` });
  };
  // Occurrences are skipped or ended on their wall-clock time read as UTC, with two days' slack for
  // zone offsets, before any zone arithmetic.
  const slack = 2 * 86_400_000;
  const wallMs = (t: ICAL.Time) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  const span = Math.max(0, wallMs(event.endDate) - wallMs(event.startDate));
  const iterator = event.iterator();
  let count = 0;
  for (let steps = 0; ; steps++) {
    if (steps >= MAX_STEPS) {
      out.skipped.push({ uid, reason: `recurrence not expanded past ${MAX_STEPS} steps` });
      return;
    }
    const next = iterator.next();
    if (!next) return outsideWindow();
    const at = wallMs(next);
    if (at - slack > to) return outsideWindow();
    if (at + span + slack < from) continue;
    const details = event.getOccurrenceDetails(next);
    const comp = details.item.component;
    const own = details.item !== event;
    // A series occurrence's end is its start plus the series' duration, in the start's zone.
    const tzids = own ? { start: tzidOf(comp, 'dtstart'), end: tzidOf(comp, 'dtend') } : { start: masterTzids.start, end: masterTzids.start };
    const key = `${uid}#${details.recurrenceId.toICALString()}`;
    const occ = occurrenceOf(comp, details.startDate, details.endDate, tzids, env);
    if (typeof occ === 'string') {
      // What is wrong with one series occurrence is wrong with all of them: the series is skipped once.
      out.skipped.push(own ? { uid: key, reason: occ } : { uid, reason: occ });
      if (own) continue;
      return;
    }
    if (occ.endMs < from) continue;
    if (occ.startMs > to) continue;
    if (count >= options.maxOccurrences) {
      out.skipped.push({ uid, reason: `only the first ${options.maxOccurrences} occurrences were imported` });
      return;
    }
    count++;
    if (isCancelled(comp)) out.skipped.push({ uid: key, reason: 'cancelled' });
    else out.items.push({ key, fields: occ.fields });
  }
}

/**
 * The importable items of an iCalendar text, and the VEVENTs skipped with their reasons. Throws
 * {@link IcsImportError} for a text that is no iCalendar file; problems of single events never throw.
 */
export function parseIcs(text: string, options: ParseOptions): ParsedIcs {
  const out: ParsedIcs = { items: [], skipped: [] };
  const horizon = (options.horizonDays ?? HORIZON_DAYS) * 86_400_000;
  const limits: Limits = {
    maxOccurrences: options.maxOccurrences ?? MAX_OCCURRENCES,
    from: options.from?.getTime() ?? options.now.getTime() - horizon,
    to: options.until?.getTime() ?? options.now.getTime() + horizon,
  };
  for (const cal of parseCalendars(text, out.skipped)) {
    let calZone: string | undefined;
    try {
      calZone = zoneForTzid(str(cal.getFirstPropertyValue('x-wr-timezone')));
    } catch {
      calZone = undefined;
    }
    const env: Env = {
      siteZone: options.siteZone,
      siteTimezone: options.siteTimezone,
      floatingZone: calZone ? normaliseZone(calZone)! : options.siteZone,
      floatingTimezone: calZone ?? options.siteTimezone,
    };

    // ---- Group the VEVENTs: series (or single events) by UID, and their overridden occurrences.
    const masters = new Map<string, ICAL.Component>();
    const overrides = new Map<string, ICAL.Component[]>();
    for (const comp of cal.getAllSubcomponents('vevent')) {
      let uid = '';
      try {
        uid = str(comp.getFirstPropertyValue('uid')).trim();
      } catch {
        uid = '';
      }
      // No UID: one derived from what the VEVENT says, the same on every run of the same file.
      if (uid === '') uid = derivedUid(comp);
      if (comp.hasProperty('recurrence-id')) overrides.set(uid, [...(overrides.get(uid) ?? []), comp]);
      else if (masters.has(uid)) out.skipped.push({ uid, reason: 'another VEVENT has the same UID' });
      else masters.set(uid, comp);
    }

    for (const [uid, comp] of masters) {
      try {
        if (!comp.hasProperty('dtstart')) {
          out.skipped.push({ uid, reason: 'no DTSTART' });
          continue;
        }
        const event = new ICAL.Event(comp, { exceptions: overrides.get(uid) ?? [], strictExceptions: false });
        expandEvent(event, uid, env, limits, out);
      } catch (e) {
        out.skipped.push({ uid, reason: errorText(e) });
      }
    }
    // Overrides whose series is not in the file are events of their own.
    for (const [uid, comps] of overrides) {
      if (masters.has(uid)) continue;
      for (const comp of comps) {
        let key = uid;
        try {
          const rid = comp.getFirstPropertyValue('recurrence-id') as ICAL.Time;
          key = `${uid}#${rid.toICALString()}`;
          if (!comp.hasProperty('dtstart')) {
            out.skipped.push({ uid: key, reason: 'no DTSTART' });
            continue;
          }
          if (isCancelled(comp)) {
            out.skipped.push({ uid: key, reason: 'cancelled' });
            continue;
          }
          const event = new ICAL.Event(comp);
          const occ = occurrenceOf(comp, event.startDate, event.endDate, { start: tzidOf(comp, 'dtstart'), end: tzidOf(comp, 'dtend') }, env);
          if (typeof occ === 'string') out.skipped.push({ uid: key, reason: occ });
          else out.items.push({ key, fields: occ.fields });
        } catch (e) {
          out.skipped.push({ uid: key, reason: errorText(e) });
        }
      }
    }
  }
  return out;
}
