/**
 * @module namespaces/shop-analytics/intervals
 * The time intervals of the stats reports (hour, day, ISO week, month, quarter, year): the id of the
 * interval holding a site-local date, the same id computed in SQL from a site-local date column (so
 * reports group in the database, distinct counts included), and every interval of a window.
 */
import { DateTime } from 'luxon';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isoWeekOf } from '../../storage/dialect.js';

export const INTERVALS = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

export interface Slot {
  id: string;
  start: DateTime;
  end: DateTime;
}

/** The id and bounds of the interval holding `dt`: `YYYY-MM-DD HH`, `YYYY-MM-DD`, `YYYY-WW` (ISO), `YYYY-MM`, `YYYY-Q`, `YYYY`. */
export function bucket(dt: DateTime, interval: Interval): Slot {
  const start = dt.startOf(interval);
  const id =
    interval === 'hour' ? start.toFormat('yyyy-MM-dd HH')
    : interval === 'day' ? start.toFormat('yyyy-MM-dd')
    : interval === 'week' ? `${start.toFormat('kkkk')}-${start.toFormat('WW')}`
    : interval === 'month' ? start.toFormat('yyyy-MM')
    : interval === 'quarter' ? `${start.toFormat('yyyy')}-${start.quarter}`
    : start.toFormat('yyyy');
  return { id, start, end: dt.endOf(interval) };
}

/** Every interval of [after, before], oldest first, the first and last clipped to the window. */
export function slotsOf(after: DateTime, before: DateTime, interval: Interval): Slot[] {
  const slots: Slot[] = [];
  for (let cursor = after; cursor <= before; cursor = bucket(cursor, interval).end.plus({ milliseconds: 1 })) {
    const b = bucket(cursor, interval);
    slots.push({ id: b.id, start: b.start < after ? after : b.start, end: b.end > before ? before : b.end });
  }
  return slots;
}

/** The {@link bucket} id of a `YYYY-MM-DD HH:MM:SS` site-local column, in SQL. */
export function bucketKey(db: Kysely<any>, column: string, interval: Interval): RawBuilder<string> {
  const c = sql.ref(column);
  switch (interval) {
    case 'hour': return sql<string>`substr(${c}, 1, 13)`;
    case 'day': return sql<string>`substr(${c}, 1, 10)`;
    case 'week': return isoWeekOf(db, c);
    case 'month': return sql<string>`substr(${c}, 1, 7)`;
    case 'quarter': return sql<string>`substr(${c}, 1, 4) || '-' || CAST((CAST(substr(${c}, 6, 2) AS integer) + 2) / 3 AS varchar(1))`;
    case 'year': return sql<string>`substr(${c}, 1, 4)`;
  }
}

/** More intervals than a report answers (an hourly report over decades would hold hundreds of thousands). */
export const MAX_INTERVALS = 20_000;

/** About how many intervals [after, before] holds (at most one more than it does). */
export function intervalCount(after: DateTime, before: DateTime, interval: Interval): number {
  return Math.floor(before.diff(after, interval === 'week' ? 'weeks' : `${interval}s`).as(`${interval}s`)) + 1;
}
