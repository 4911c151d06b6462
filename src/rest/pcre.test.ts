import { describe, it, expect } from 'vitest';
import { matchesPattern } from './pcre.js';

describe('matchesPattern (PCRE as preg_match("#…#u") runs it)', () => {
  const rows: [label: string, pattern: string, value: string, matches: boolean][] = [
    ['pattern is unanchored', 'b', 'abc', true],
    ['PCRE $ matches before a final newline', '^\\d+$', '12\n', true],
    ['PCRE . does not match a newline', '^a.b$', 'a\nb', false],
    ['a # in the pattern is literal', '^#[a-f]+$', '#abc', true],
    ['Unicode property classes work', '^\\p{L}+$', 'héllo', true],
    ['\\s is ASCII whitespace only', '^\\s$', '\u00a0', false],
    ['POSIX classes', '^[[:alpha:]]+$', 'ab1', false],
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
