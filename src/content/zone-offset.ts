/**
 * @module content/zone-offset
 * Stored local times (`YYYY-MM-DD HH:MM:SS` in a zone) as ISO 8601 with the zone's offset, exactly as
 * luxon's `DateTime.fromObject(…, {zone}).toISO({suppressMilliseconds: true})` writes them, without
 * luxon's cost: luxon asks `Intl.DateTimeFormat#formatToParts` for the offset on every call (three
 * times per time converted, microseconds each), which the event presenters paid for every date shown.
 * Here a zone's offsets are read once per UTC year into a table of its transitions, and each
 * conversion is a binary search in it. Anything outside the plain case (an invalid field, a year
 * outside 1–9999, an offset of fractional minutes, as local mean times before 1900 have) goes through
 * luxon itself.
 */
import { DateTime, Info, type Zone } from 'luxon';

/** A zone's offsets over one UTC year: `offsets[i]` (minutes) holds from `starts[i]` (ms) on. */
interface YearTable {
  starts: number[];
  offsets: number[];
}

const tables = new Map<string, YearTable>();
/** Zones × years in use stay few; the bound only keeps odd input from growing the map. */
const MAX_TABLES = 2_000;
/**
 * The table is built by sampling every six hours and bisecting each change to the millisecond, so it
 * assumes no zone changes its offset twice within six hours (none in the time zone database does).
 */
const STEP_MS = 6 * 3_600_000;

/** Milliseconds of a UTC date-time; years 0–99 are years 0–99 (plain `Date.UTC` reads them as 19xx). */
function utcMillis(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const d = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime();
}

function yearTable(zone: Zone, year: number): YearTable {
  const key = `${zone.name}\u0000${year}`;
  const known = tables.get(key);
  if (known) return known;
  const from = utcMillis(year, 1, 1, 0, 0, 0);
  const to = utcMillis(year + 1, 1, 1, 0, 0, 0);
  let cursor = from;
  let current = zone.offset(from);
  const table: YearTable = { starts: [from], offsets: [current] };
  while (cursor < to) {
    const next = Math.min(cursor + STEP_MS, to);
    if (zone.offset(next) === current) {
      cursor = next;
      continue;
    }
    let lo = cursor;
    let hi = next;
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (zone.offset(mid) === current) lo = mid;
      else hi = mid;
    }
    current = zone.offset(hi);
    table.starts.push(hi);
    table.offsets.push(current);
    cursor = hi;
  }
  if (tables.size >= MAX_TABLES) tables.clear();
  tables.set(key, table);
  return table;
}

/** `zone`'s offset in minutes at `ts`, as `zone.offset(ts)` answers it. */
export function zoneOffset(zone: Zone, ts: number): number {
  if (zone.isUniversal) return zone.offset(ts);
  const { starts, offsets } = yearTable(zone, new Date(ts).getUTCFullYear());
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= ts) lo = mid;
    else hi = mid - 1;
  }
  return offsets[lo]!;
}

const zones = new Map<string, Zone>();

function zoneNamed(name: string): Zone {
  let zone = zones.get(name);
  if (!zone) {
    zone = Info.normalizeZone(name);
    if (zones.size >= MAX_TABLES) zones.clear();
    zones.set(name, zone);
  }
  return zone;
}

/** luxon's `fixOffset`: the instant of local time `localTs` in `zone`, starting from the guess `o`. */
function fixOffset(localTs: number, o: number, zone: Zone): [number, number] {
  let utcGuess = localTs - o * 60_000;
  const o2 = zoneOffset(zone, utcGuess);
  if (o === o2) return [utcGuess, o];
  utcGuess -= (o2 - o) * 60_000;
  const o3 = zoneOffset(zone, utcGuess);
  if (o2 === o3) return [utcGuess, o2];
  return [localTs - Math.min(o2, o3) * 60_000, Math.max(o2, o3)];
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad4 = (n: number) => String(n).padStart(4, '0');

function daysInMonth(year: number, month: number): number {
  return new Date(utcMillis(year, month + 1, 0, 0, 0, 0)).getUTCDate();
}

const DB_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function viaLuxon(parts: number[], zoneName: string, local: string): string {
  const [year, month, day, hour, minute, second] = parts as [number, number, number, number, number, number];
  const dt = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone: zoneName });
  return dt.isValid ? (dt.toISO({ suppressMilliseconds: true }) ?? local) : local;
}

/**
 * `local` (stored `YYYY-MM-DD HH:MM:SS`) in the zone named `zoneName` (a luxon zone name) as ISO 8601
 * with its offset; `local` itself when it is not such a date or the zone is unknown. Like luxon, an
 * ambiguous local time (a clock turned back) takes the occurrence whose offset the zone has now.
 */
export function localToIso(local: string, zoneName: string): string {
  const m = DB_DATE.exec(local);
  if (!m) return local;
  const parts = m.slice(1).map(Number);
  const [year, month, day, hour, minute, second] = parts as [number, number, number, number, number, number];
  const zone = zoneNamed(zoneName);
  if (!zone.isValid) return local;
  const plain = year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) && hour <= 23 && minute <= 59 && second <= 59;
  if (!plain) return viaLuxon(parts, zoneName, local);
  const [ts, offset] = fixOffset(utcMillis(year, month, day, hour, minute, second), zoneOffset(zone, Date.now()), zone);
  if (!Number.isInteger(offset) || !Number.isInteger(ts)) return viaLuxon(parts, zoneName, local);
  const shown = new Date(ts + offset * 60_000);
  const y = shown.getUTCFullYear();
  if (y < 0 || y > 9999) return viaLuxon(parts, zoneName, local);
  const date = `${pad4(y)}-${pad2(shown.getUTCMonth() + 1)}-${pad2(shown.getUTCDate())}T${pad2(shown.getUTCHours())}:${pad2(shown.getUTCMinutes())}:${pad2(shown.getUTCSeconds())}`;
  if (zone.isUniversal && offset === 0) return `${date}Z`;
  const abs = Math.abs(offset);
  return `${date}${offset < 0 ? '-' : '+'}${pad2(Math.trunc(abs / 60))}:${pad2(abs % 60)}`;
}
