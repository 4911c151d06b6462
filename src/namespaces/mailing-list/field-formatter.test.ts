/**
 * The merge field formats, as the original's `tests/FieldFormatterTest.php` asserts them, and the
 * PHP readings behind them (day-first order, overflowing days, text PHP cannot read).
 */
import { describe, expect, it } from 'vitest';
import { address, birthday, boolean, date, formatterFor, language, SignupFatalError, strtotime } from './field-formatter.js';

const NOW = new Date('2026-03-10T12:00:00Z');

describe('merge field formats (MC4WP_Field_Formatter)', () => {
  it('address: comma text into its parts, partial parts filled with empty defaults', () => {
    const parts = { addr1: '795 E DRAGRAM', addr2: '', city: 'TUCSON', state: 'AZ', zip: '85705', country: 'USA' };
    // The empty addr2 is dropped from the text, so the rest moves up one place.
    expect(address(Object.values(parts).join(','))).toEqual({ addr1: '795 E DRAGRAM', city: 'TUCSON', state: 'AZ', zip: '85705', country: 'USA' });
    expect(address('795 E DRAGRAM')).toEqual({ addr1: '795 E DRAGRAM', city: '', state: '', zip: '' });
    expect(address({ city: 'TUCSON' })).toEqual({ addr1: '', city: 'TUCSON', state: '', zip: '' });
    // Numbered parts are appended after the defaults (array_merge), pieces are not trimmed.
    expect(address(['a', 'b'])).toEqual({ addr1: '', city: '', state: '', zip: '', 0: 'a', 1: 'b' });
    expect(address('Main St, Springfield')).toMatchObject({ addr1: 'Main St', city: ' Springfield' });
    expect(address(',,,')).toEqual({ addr1: null, city: '', state: '', zip: '' });
  });

  it('birthday: MM/DD from month/day, day/month, parts, full dates and other separators', () => {
    expect(birthday('07/29', undefined, NOW)).toBe('07/29');
    expect(birthday('29/07', undefined, NOW)).toBe('07/29');
    expect(birthday({ day: '29', month: '7' }, undefined, NOW)).toBe('07/29');
    expect(birthday(['29', '7'], undefined, NOW)).toBe('07/29');
    expect(birthday('1990/7/29', undefined, NOW)).toBe('07/29');
    expect(birthday('1990-07-29', undefined, NOW)).toBe('07/29');
    expect(birthday('29.07.1990', undefined, NOW)).toBe('07/29');
    // A DD/MM list reads every value day first.
    expect(birthday('05/07', { date_format: 'DD/MM' }, NOW)).toBe('07/05');
    expect(birthday('05/07', { date_format: 'MM/DD' }, NOW)).toBe('05/07');
    // strtotime lets a day overflow its month (2026 is no leap year), and gives up on text it cannot read: the epoch.
    expect(birthday('02/30', undefined, NOW)).toBe('03/02');
    expect(birthday('not a date', undefined, NOW)).toBe('01/01');
    expect(birthday(' ', undefined, NOW)).toBe('');
  });

  it('date: YYYY-MM-DD from slashes either way round, ISO text and parts', () => {
    expect(date('2016/5/5', NOW)).toBe('2016-05-05');
    expect(date('5/5/2016', NOW)).toBe('2016-05-05');
    expect(date({ day: '5', month: '5', year: '2016' }, NOW)).toBe('2016-05-05');
    expect(date('2016-05-05', NOW)).toBe('2016-05-05');
    expect(date('05.06.2016', NOW)).toBe('2016-06-05');
    expect(date('May 5, 2016', NOW)).toBe('2016-05-05');
    expect(date('12/25/99', NOW)).toBe('1999-12-25');
    expect(date('soon', NOW)).toBe('1970-01-01');
  });

  it('boolean: "false" and "0" are no, the rest as PHP casts it', () => {
    for (const no of ['false', '0', 0, false, '']) expect(boolean(no), String(no)).toBe(false);
    for (const yes of ['true', '1', 1, true, 'on']) expect(boolean(yes), String(yes)).toBe(true);
  });

  it('language: two letters, except the locales kept whole', () => {
    const cases: Record<string, string> = { pt_PT: 'pt_PT', es_ES: 'es_ES', fr_CA: 'fr_CA', pt_BR: 'pt', fr_FR: 'fr', nl_NL: 'nl', en_US: 'en' };
    for (const [input, output] of Object.entries(cases)) expect(language(input)).toBe(output);
    expect(() => language(['nl'])).toThrow(SignupFatalError);
  });

  it('finds a formatter by merge field type in any case, none for plain types', () => {
    expect(formatterFor('Birthday')).toBeDefined();
    expect(formatterFor('phone')).toBeUndefined();
    expect(formatterFor('dropdown')).toBeUndefined();
  });

  it('strtotime reads month/day in the current year, m/d/y with two-digit years, Y/m/d and d.m.Y', () => {
    expect(strtotime('7/29', NOW)).toBe(Date.UTC(2026, 6, 29) / 1000);
    expect(strtotime('7/29/69', NOW)).toBe(Date.UTC(2069, 6, 29) / 1000);
    expect(strtotime('7/29/70', NOW)).toBe(Date.UTC(1970, 6, 29) / 1000);
    expect(strtotime('2024/3/0', NOW)).toBe(Date.UTC(2024, 1, 29) / 1000);
    expect(strtotime('29.07.1990', NOW)).toBe(Date.UTC(1990, 6, 29) / 1000);
  });
});
