import { DateTime, Info } from 'luxon';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localToIso, zoneOffset } from './zone-offset.js';

/** What the presenters wrote before: luxon itself. */
function luxonIso(local: string, zone: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(local);
  if (!m) return local;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const dt = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone });
  return dt.isValid ? (dt.toISO({ suppressMilliseconds: true }) ?? local) : local;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A small deterministic generator, so a failure names its case. */
function generator(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const ZONES = [
  'UTC', 'UTC+5:30', 'UTC-9:30', 'UTC+14', 'America/New_York', 'Europe/London', 'Europe/Berlin', 'Australia/Lord_Howe',
  'Asia/Kathmandu', 'America/Sao_Paulo', 'Pacific/Apia', 'Africa/Casablanca', 'America/St_Johns', 'Pacific/Chatham',
  'Asia/Tehran', 'Europe/Dublin', 'America/Santiago', 'Antarctica/Troll', 'Not/A_Zone',
];

describe('localToIso', () => {
  afterEach(() => vi.useRealTimers());

  it('writes what luxon writes for random local times in many zones, over centuries', () => {
    const next = generator(20261128);
    for (let i = 0; i < 2_000; i++) {
      const zone = ZONES[next(ZONES.length)]!;
      const year = i % 3 === 0 ? [1850, 1901, 1942, 1970, 1996, 2075, 2140][next(7)]! : 2020 + next(12);
      const local = `${pad(year, 4)}-${pad(1 + next(12))}-${pad(1 + next(31))} ${pad(next(24))}:${pad(next(60))}:${pad(next(60))}`;
      expect(localToIso(local, zone), `${local} ${zone}`).toBe(luxonIso(local, zone));
    }
  });

  it('matches luxon around every transition of a year, for gaps, overlaps and half-hour shifts', () => {
    for (const zone of ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Chatham', 'America/Santiago']) {
      const z = Info.normalizeZone(zone);
      for (let day = 0; day < 366; day++) {
        const start = Date.UTC(2027, 0, 1 + day);
        if (z.offset(start) === z.offset(start + 86_400_000)) continue;
        // Every quarter hour of the local days around the change.
        for (let minutes = -24 * 60; minutes <= 48 * 60; minutes += 15) {
          const local = DateTime.fromMillis(start + minutes * 60_000, { zone: 'UTC' }).toFormat('yyyy-MM-dd HH:mm:ss');
          expect(localToIso(local, zone), `${local} ${zone}`).toBe(luxonIso(local, zone));
        }
      }
    }
  });

  it('takes the occurrence of an ambiguous time by the offset the zone has now, as luxon does', () => {
    for (const now of ['2027-01-15T12:00:00Z', '2027-07-15T12:00:00Z']) {
      vi.useFakeTimers({ now: new Date(now), toFake: ['Date'] });
      expect(localToIso('2027-11-07 01:30:00', 'America/New_York')).toBe(luxonIso('2027-11-07 01:30:00', 'America/New_York'));
      vi.useRealTimers();
    }
    vi.useFakeTimers({ now: new Date('2027-01-15T12:00:00Z'), toFake: ['Date'] });
    expect(localToIso('2027-11-07 01:30:00', 'America/New_York')).toBe('2027-11-07T01:30:00-05:00');
    vi.useFakeTimers({ now: new Date('2027-07-15T12:00:00Z'), toFake: ['Date'] });
    expect(localToIso('2027-11-07 01:30:00', 'America/New_York')).toBe('2027-11-07T01:30:00-04:00');
  });

  it('writes Z for fixed zones at zero only, and the offset of named zones at zero', () => {
    expect(localToIso('2027-01-10 10:00:00', 'UTC')).toBe('2027-01-10T10:00:00Z');
    expect(localToIso('2027-01-10 10:00:00', 'Europe/London')).toBe('2027-01-10T10:00:00+00:00');
    expect(localToIso('2027-03-28 01:30:00', 'Europe/London')).toBe('2027-03-28T02:30:00+01:00');
    expect(localToIso('2027-01-10 10:00:00', 'UTC+5:30')).toBe('2027-01-10T10:00:00+05:30');
  });

  it('leaves what is not a stored date, or has an unknown zone, as it is, and hands odd fields to luxon', () => {
    for (const [local, zone] of [
      ['garbage', 'UTC'], ['2027-02-30 10:00:00', 'Europe/Berlin'], ['2027-01-10 24:00:00', 'Europe/Berlin'],
      ['2027-01-10 23:60:00', 'UTC'], ['0000-01-01 00:00:00', 'UTC'], ['0050-06-01 12:00:00', 'Europe/Berlin'],
      ['9999-12-31 23:00:00', 'Pacific/Kiritimati'], ['2027-01-10 10:00:00', 'Not/A_Zone'], ['1880-06-01 12:00:00', 'Europe/Amsterdam'],
    ] as const) {
      expect(localToIso(local, zone), `${local} ${zone}`).toBe(luxonIso(local, zone));
    }
    expect(localToIso('2027-01-10 10:00:00', 'Not/A_Zone')).toBe('2027-01-10 10:00:00');
  });
});

describe('zoneOffset', () => {
  it('answers what the zone answers, at random instants and at the instants either side of each change', () => {
    const next = generator(7);
    for (const name of ZONES.filter((z) => z !== 'Not/A_Zone')) {
      const zone = Info.normalizeZone(name);
      for (let i = 0; i < 300; i++) {
        const ts = Date.UTC([1900, 1944, 1979, 2026, 2100][next(5)]!, 0, 1) + next(366) * 86_400_000 + next(86_400_000);
        expect(zoneOffset(zone, ts), `${name} ${ts}`).toBe(zone.offset(ts));
      }
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += 3_600_000) {
        if (zone.offset(t) === zone.offset(t + 3_600_000)) continue;
        let change = t;
        for (let s = t; s <= t + 3_600_000; s += 60_000) {
          expect(zoneOffset(zone, s), `${name} ${s}`).toBe(zone.offset(s));
          if (zone.offset(s) === zone.offset(t)) change = s;
        }
        for (let s = change; s <= change + 61_000; s += 500) expect(zoneOffset(zone, s), `${name} ${s}`).toBe(zone.offset(s));
      }
    }
  });
});
