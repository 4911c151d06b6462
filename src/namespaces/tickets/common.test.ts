import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { postDatePair, toDbDate } from '../../content/posts.js';
import { globalId, gmtText, nowPair, randomHex } from './common.js';

describe('date texts without luxon', () => {
  it('gmtText writes what luxon writes, for four-digit years and beyond', () => {
    const moments = [0, 1, 999, 86_399_999, Date.UTC(2030, 5, 1, 19, 0, 59, 999), Date.UTC(1000, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59), Date.UTC(10_000, 0, 1), Date.UTC(999, 11, 31)];
    for (let i = 0; i < 200; i++) moments.push(Math.floor(Math.random() * 4_102_444_800_000));
    for (const ms of moments) {
      const date = new Date(ms);
      expect(gmtText(date)).toBe(toDbDate(DateTime.fromJSDate(date).toUTC()));
    }
  });

  it('nowPair follows the clock and the time zone second by second', async () => {
    let now = Date.UTC(2030, 5, 1, 19, 0, 0, 100);
    let zone = 'Europe/Paris';
    const ctx = { now: () => new Date(now), options: { get: async (name: string, fallback?: unknown) => (name === 'timezone_string' ? zone : fallback) } };
    const expected = () => postDatePair(new Date(now), zone);
    expect(await nowPair(ctx as never)).toEqual(expected());
    now += 800;
    expect(await nowPair(ctx as never)).toEqual(expected());
    now += 100;
    expect(await nowPair(ctx as never)).toEqual(expected());
    zone = 'America/New_York';
    expect(await nowPair(ctx as never)).toEqual(expected());
    now -= 3_600_000;
    expect(await nowPair(ctx as never)).toEqual(expected());
    expect((await nowPair(ctx as never)).local).toBe('2030-06-01 14:00:01');
  });

  it('globalId keeps the home URL host and path', () => {
    expect(globalId({ urls: { home: 'https://example.test/site/' } } as never, 'attendee', 5)).toBe('example.test/site?type=attendee&id=5');
    expect(globalId({ urls: { home: 'http://127.0.0.1:8080' } } as never, 'tribe-commerce', 7)).toBe('127.0.0.1:8080?type=tribe-commerce&id=7');
  });
});

describe('randomHex', () => {
  it('gives hex of the asked length, never the same bytes twice, across refills of its pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const hex = randomHex(i % 3 === 0 ? 16 : 5);
      expect(hex).toMatch(i % 3 === 0 ? /^[0-9a-f]{32}$/ : /^[0-9a-f]{10}$/);
      seen.add(hex);
    }
    expect(seen.size).toBe(3000);
  });
});
