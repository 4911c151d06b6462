import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { DB_FORMAT, toDbDate } from './post-dates.js';

describe('toDbDate', () => {
  it('writes what luxon writes with the stored-date format, in any zone and any year', () => {
    const zones = ['UTC', 'America/New_York', 'Asia/Kathmandu', 'UTC+5:30'];
    for (let i = 0; i < 3_000; i++) {
      const ms = Math.round(Math.sin(i) * (i % 3 === 0 ? 8.6e15 : 4e12));
      const dt = DateTime.fromMillis(ms, { zone: zones[i % zones.length] });
      expect(toDbDate(dt), `${ms}`).toBe(dt.toFormat(DB_FORMAT));
    }
    const invalid = DateTime.fromObject({ year: 2027, month: 13 });
    expect(toDbDate(invalid)).toBe(invalid.toFormat(DB_FORMAT));
    expect(toDbDate(DateTime.fromObject({ year: 7, month: 3, day: 9, hour: 4, minute: 5, second: 6 }, { zone: 'UTC' }))).toBe('0007-03-09 04:05:06');
  });
});
