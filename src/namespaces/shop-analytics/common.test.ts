import { describe, expect, it } from 'vitest';
import { fromDbDate, toDbDate } from '../../content/posts.js';
import { DEFAULT_EXCLUDED_STATUSES, excludedStatuses, gmtToLocal } from './common.js';

/** What gmtToLocal answered before its direct path: luxon's parser, then the zone, then the formatter. */
function throughParser(gmt: string, zone: string): string {
  const dt = fromDbDate(gmt, 'UTC');
  return dt ? toDbDate(dt.setZone(zone)) : gmt;
}

describe('gmtToLocal', () => {
  const zones = ['UTC', 'Europe/Paris', 'America/St_Johns', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Kiritimati', 'UTC+5:30', 'UTC-3', 'Not/AZone'];
  const texts = [
    '2026-03-29 00:59:59', '2026-03-29 01:00:00', '2026-10-25 00:30:00', '2024-02-29 12:00:00', '9999-12-31 23:59:59', '1900-01-01 00:00:00',
    // Not dates, or not in the stored format: the parser decides.
    '2023-02-29 12:00:00', '2026-02-30 10:00:00', '2026-13-01 00:00:00', '2026-01-01 24:00:00', '2026-01-01 23:60:00', '0099-01-01 00:00:00',
    '0000-00-00 00:00:00', '', 'garbage', '2026-1-01 00:00:00', ' 2026-01-01 00:00:00', '2026-01-01T00:00:00',
  ];
  it('answers what the parser answers, across DST changes, odd offsets and bad input', () => {
    for (const zone of zones) for (const text of texts) expect([zone, text, gmtToLocal(text, zone)]).toEqual([zone, text, throughParser(text, zone)]);
  });
  it('converts to the zone', () => {
    expect(gmtToLocal('2026-07-01 10:00:00', 'Europe/Paris')).toBe('2026-07-01 12:00:00');
    expect(gmtToLocal('2026-01-01 10:00:00', 'Asia/Kathmandu')).toBe('2026-01-01 15:45:00');
  });
});

describe('excludedStatuses', () => {
  const withOption = (value: unknown) => ({ options: { get: async <T>(_name: string, fallback: T) => (value === undefined ? fallback : (value as T)) } }) as never;
  it('defaults when never saved, keeps a saved empty list, trims saved slugs and drops blank ones', async () => {
    expect(await excludedStatuses(withOption(undefined))).toEqual([...DEFAULT_EXCLUDED_STATUSES].sort());
    expect(await excludedStatuses(withOption([]))).toEqual([]);
    expect(await excludedStatuses(withOption([' pending ', '', ' ']))).toEqual(['pending']);
  });
});
