/**
 * @module jobs/schedule
 * Recurring schedules: "every N seconds/minutes/hours" or "daily at HH:MM" (UTC), and the next slot.
 */

/** `'30s'`, `'5m'`, `'2h'`, `'daily 03:30'`, or the object forms. */
export type Every = string | { seconds: number } | { dailyAt: string };

export interface ScheduleSpec {
  everySeconds: number | null;
  dailyAt: string | null;
}

const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** Reads a schedule; throws on anything else (a programming mistake, not user input). */
export function parseEvery(every: Every): ScheduleSpec {
  if (typeof every === 'object' && 'seconds' in every) return interval(every.seconds);
  const daily = typeof every === 'object' ? every.dailyAt : /^daily[ @]?(\d\d:\d\d)$/.exec(every.trim())?.[1];
  if (daily !== undefined) {
    const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(daily);
    if (!m) throw new Error(`schedule: bad time of day ${JSON.stringify(daily)} (HH:MM, UTC)`);
    return { everySeconds: null, dailyAt: daily };
  }
  const m = /^(\d+)\s*([smh])$/.exec(String(every).trim());
  if (!m) throw new Error(`schedule: ${JSON.stringify(every)} is not '<N>s', '<N>m', '<N>h' or 'daily HH:MM'`);
  return interval(Number(m[1]) * UNIT[m[2]!]!);
}

function interval(seconds: number): ScheduleSpec {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 366 * 86_400) throw new Error(`schedule: every ${seconds} s is out of range`);
  return { everySeconds: seconds, dailyAt: null };
}

/** The first slot strictly after `after`. */
export function nextRun(spec: ScheduleSpec, after: Date): Date {
  if (spec.everySeconds !== null) return new Date(Math.floor(after.getTime() / 1000) * 1000 + spec.everySeconds * 1000);
  const [h, m] = spec.dailyAt!.split(':').map(Number) as [number, number];
  const slot = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), h, m));
  if (slot.getTime() <= after.getTime()) slot.setUTCDate(slot.getUTCDate() + 1);
  return slot;
}

/** UTC `YYYY-MM-DD HH:MM:SS`, the format of every `_gmt` column. */
export function gmt(date: Date): string {
  return date.toISOString().replace('T', ' ').slice(0, 19);
}

/** Parses a `_gmt` column value. */
export function fromGmt(text: string): Date {
  return new Date(`${text.replace(' ', 'T')}Z`);
}
