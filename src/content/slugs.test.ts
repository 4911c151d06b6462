import { describe, expect, it } from 'vitest';
import { MAX_SLUG_LENGTH, pathSlug, sanitizeTitle, truncateSlug } from './slugs.js';
import { nextFreeSlug } from './posts.js';

const PRIVET = '%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82';

describe('sanitizeTitle', () => {
  it('makes WordPress-style slugs of Latin titles', () => {
    expect(sanitizeTitle('Spring Fair 2025!')).toBe('spring-fair-2025');
    expect(sanitizeTitle('  Café  Müller — Live ')).toBe('cafe-muller-live');
    expect(sanitizeTitle('<b>Bold</b> & "quoted"')).toBe('bold-quoted');
    expect(sanitizeTitle("Rock 'n' Roll")).toBe('rock-n-roll');
    expect(sanitizeTitle('under_score')).toBe('under_score');
    expect(sanitizeTitle('Straße, Œuvre, Łódź, Þing, Ærø')).toBe('strasse-oeuvre-lodz-thing-aero');
    expect(sanitizeTitle('Tiếng Việt Şarkı')).toBe('tieng-viet-sarki');
  });

  it('keeps other scripts as lower-case percent-encoded UTF-8, lower-cased first', () => {
    expect(sanitizeTitle('Привет')).toBe(PRIVET);
    expect(sanitizeTitle('Привет мир')).toBe(`${PRIVET}-%d0%bc%d0%b8%d1%80`);
    expect(sanitizeTitle('Йога 2026')).toBe('%d0%b9%d0%be%d0%b3%d0%b0-2026'); // й keeps its breve: not a Latin accent
    expect(sanitizeTitle('日本')).toBe('%e6%97%a5%e6%9c%ac');
    expect(sanitizeTitle('Ωmega')).toBe('%cf%89mega');
  });

  it('drops typographic signs and turns wide spaces, dashes and slashes into dashes, as a saved slug does', () => {
    expect(sanitizeTitle('“Quoted” – ‘single’…')).toBe('quoted-single');
    expect(sanitizeTitle('Rock’n’Roll™ ©')).toBe('rocknroll');
    expect(sanitizeTitle('a/b\u00a0c\u2003d')).toBe('a-b-c-d');
    expect(sanitizeTitle('3 × 4 &amp; more&nbsp;fun')).toBe('3-x-4-more-fun');
    expect(sanitizeTitle('zero\u200bwidth')).toBe('zerowidth');
  });

  it('keeps percent-encoded octets (lower-cased) and drops stray percent signs', () => {
    expect(sanitizeTitle('100%_off')).toBe('100_off');
    expect(sanitizeTitle('%D0%BF')).toBe('%d0%bf');
    expect(sanitizeTitle(sanitizeTitle('Привет мир — 2026'))).toBe(sanitizeTitle('Привет мир — 2026'));
  });

  it('cuts at 200 characters without splitting an encoded character', () => {
    const slug = sanitizeTitle('я'.repeat(100));
    expect(slug).toBe('%d1%8f'.repeat(33));
    expect(sanitizeTitle('a'.repeat(300))).toHaveLength(MAX_SLUG_LENGTH);
  });

  it('is empty when nothing is left', () => {
    expect(sanitizeTitle('!!! ???')).toBe('');
    expect(sanitizeTitle('<i></i>')).toBe('');
  });
});

describe('pathSlug (get_page_by_path)', () => {
  it('finds a stored slug written, percent-encoded in either case, or with its upper-case ASCII', () => {
    expect(pathSlug('привет')).toBe(PRIVET);
    expect(pathSlug(PRIVET)).toBe(PRIVET);
    expect(pathSlug(PRIVET.toUpperCase())).toBe(PRIVET);
    expect(pathSlug('Spring-Gala')).toBe('spring-gala');
    expect(pathSlug('spring gala')).toBe('spring-gala');
  });

  it('leaves stored slugs as they are', () => {
    for (const stored of ['spring-gala', 'a_b', PRIVET, `${PRIVET}-2`, '100_off']) expect(pathSlug(stored)).toBe(stored);
  });

  it('does not fold the case of non-ASCII letters or remove accents (a lookup, not a save)', () => {
    expect(pathSlug('Привет')).not.toBe(PRIVET);
    expect(pathSlug('café')).toBe('caf%c3%a9');
  });

  it('takes malformed escapes as written', () => {
    expect(pathSlug('%zz%d0')).toBe('%25zz%d0');
  });
});

describe('truncateSlug and numbering', () => {
  it('cuts ASCII by characters and encoded slugs by whole characters, trailing dashes dropped', () => {
    expect(truncateSlug('abc-def', 4)).toBe('abc');
    expect(truncateSlug('%d0%bf%d1%80', 8)).toBe('%d0%bf');
    expect(truncateSlug('%d0%bf%d1%80', 12)).toBe('%d0%bf%d1%80');
  });

  it('numbers a long encoded slug within 200 characters', () => {
    const base = '%d1%8f'.repeat(33); // 198
    const second = nextFreeSlug(base, new Set([base]));
    expect(second).toBe(`${base}-2`);
    const taken = new Set([base, ...Array.from({ length: 8 }, (_, i) => `${base}-${i + 2}`)]);
    const tenth = nextFreeSlug(base, taken);
    expect(tenth).toBe(`${'%d1%8f'.repeat(32)}-10`);
    expect(tenth.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
  });
});
