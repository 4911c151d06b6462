/**
 * The pieces of the redirect after a sign-up that WordPress provides: `wp_sanitize_redirect`,
 * `sanitize_email` and PHP's `urlencode`.
 */
import { describe, expect, it } from 'vitest';
import { sanitizeEmail, sanitizeRedirect, urlencode } from './redirect-url.js';

describe('redirect URL helpers', () => {
  it('wp_sanitize_redirect: spaces and UTF-8 encoded, other characters a URL may not hold dropped, %0d/%0a removed', () => {
    expect(sanitizeRedirect('https://example.org/a b?x=ü')).toBe('https://example.org/a%20b?x=%c3%bc');
    expect(sanitizeRedirect('https://example.org/{x}<y>"z"')).toBe('https://example.org/xyz');
    // Removing one pair can make another: none is left.
    expect(sanitizeRedirect('https://example.org/%0%0d%0Aa%0D')).toBe('https://example.org/');
    expect(sanitizeRedirect("/p?q=[1](2)!*@~+,;:'")).toBe('/p?q=[1](2)!*@~+,;:');
  });

  it('sanitize_email: characters an address may not hold removed, no address without a dotted domain', () => {
    expect(sanitizeEmail('ann(x)@exa_mple.org')).toBe('annx@example.org');
    expect(sanitizeEmail('ann@-example-.org.')).toBe('ann@example.org');
    expect(sanitizeEmail('ann@localhost')).toBe('');
    expect(sanitizeEmail('@a.bc')).toBe('');
    expect(sanitizeEmail('a@b.c')).toBe('');
  });

  it('urlencode: letters, digits and -_. kept, a space is +', () => {
    expect(urlencode('a b~c/ä.-_')).toBe('a+b%7Ec%2F%C3%A4.-_');
  });
});
