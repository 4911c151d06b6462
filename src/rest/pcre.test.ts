import { describe, it, expect } from 'vitest';
import { matchesPattern } from './pcre.js';

describe('matchesPattern (PCRE as preg_match("#…#u") runs it)', () => {
  const rows: [label: string, pattern: string, value: string, matches: boolean][] = [
    ['pattern is unanchored', 'b', 'abc', true],
    ['PCRE $ matches before a final newline', '^\\d+$', '12\n', true],
    ['PCRE . does not match a newline', '^a.b$', 'a\nb', false],
    ['a # in the pattern is literal', '^#[a-f]+$', '#abc', true],
    ['Unicode property classes work', '^\\p{L}+$', 'héllo', true],
    // PHP's `u` modifier turns on PCRE2_UCP: the shorthand and POSIX classes are Unicode-aware.
    ['\\s includes Unicode spaces (UCP)', '^\\s$', '\u00a0', true],
    ['\\S excludes Unicode spaces (UCP)', '\\S', '\u3000\u00a0 ', false],
    ['\\w includes non-ASCII letters (UCP)', '^\\w+$', 'héllo_1', true],
    ['\\W outside a class excludes them', '\\W', 'héllo', false],
    ['\\d includes other decimal digits (UCP)', '^\\d+$', '\u0663\u0661', true],
    ['\\b sees non-ASCII letters as word characters', '\\bé', 'é', true],
    ['\\B between two letters', 'h\\Bé', 'hé', true],
    ['POSIX classes', '^[[:alpha:]]+$', 'ab1', false],
    ['POSIX classes are Unicode-aware (UCP)', '^[[:alpha:]]+$', 'héllo', true],
    ['leading inline flags', '(?i)^abc$', 'ABC', true],
    ['a lone brace is literal', '^a{$', 'a{', true],
    ['brace quantifiers still work', '^\\d{2,}$', '1', false],
    ['PCRE named groups', '^(?P<c>a)(?P=c)$', 'aa', true],
    ['escaped punctuation PCRE allows', '^\\-\\:\\@$', '-:@', true],
    ['an invalid pattern never matches and does not throw', '(', 'x', false],
    ['possessive quantifiers are unsupported, so never match', 'a++', 'aa', false],
    ['an escaped \\# breaks the WordPress delimiter', '\\#', '#', false],
  ];
  it.each(rows)('%s', (_label, pattern, value, matches) => {
    expect(matchesPattern(pattern, value)).toBe(matches);
  });

  it('compiles a pattern once (same answers on reuse)', () => {
    expect(matchesPattern('^[a-z]+$', 'abc')).toBe(true);
    expect(matchesPattern('^[a-z]+$', 'ABC')).toBe(false);
    expect(matchesPattern('^[a-z]+$', 'xyz')).toBe(true);
  });
});
