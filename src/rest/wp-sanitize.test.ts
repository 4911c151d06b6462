import { describe, it, expect } from 'vitest';
import { escUrlRaw, sanitizeTextareaField, sanitizeTextField } from './wp-sanitize.js';

describe('escUrlRaw (esc_url_raw, as the uri format applies it)', () => {
  const rows: [label: string, value: unknown, expected: string][] = [
    ['keeps a normal URL', 'https://example.com/a?b=c#d', 'https://example.com/a?b=c#d'],
    ['encodes spaces', 'http://example.com/a b', 'http://example.com/a%20b'],
    ['adds http:// to a bare host', 'example.com', 'http://example.com'],
    ['strips data:', 'data:text/html;base64,PHNjcmlwdD4=', ''],
    ['strips a disguised scheme', 'java\tscript:alert(1)', ''],
    ['strips feed: wrapping javascript:', 'feed:javascript:alert(1)', ''],
    ['keeps relative paths', '/relative/path?x=1', '/relative/path?x=1'],
    ['keeps mailto:', 'mailto:a@b.co', 'mailto:a@b.co'],
    ['lower-cases the scheme', 'HTTPS://EX.COM', 'https://EX.COM'],
    ['removes unsafe characters', ' http://x.com/<script>"', 'http://x.com/script'],
    ['removes encoded CR/LF', 'http://x.com/%0d%0aSet-Cookie', 'http://x.com/Set-Cookie'],
    ['encodes brackets outside the host', 'http://[::1]/a[0]', 'http://[::1]/a%5B0%5D'],
  ];
  it.each(rows)('uri %s', (_label, value, expected) => {
    expect(escUrlRaw(value)).toBe(expected);
  });

  it('escUrlRaw leaves an empty string alone', () => {
    expect(escUrlRaw('')).toBe('');
  });
});

describe('sanitizeTextField / sanitizeTextareaField', () => {
  const text: [unknown, string][] = [
    ['a < b', 'a &lt; b'],
    ['a<b', 'a&lt;b'],
    ['a<b>c', 'ac'],
    ['<script>alert(1)</script>hi', 'hi'],
    ['<a title=">">x</a>', 'x'],
    ['x<!-- hidden -->y', 'xy'],
    ['100%25 sure', '100 sure'],
    ['%AB%cd', ''],
    ['\uD800', ''],
    ['😀 ok', '😀 ok'],
    [5, '5'],
    [['a'], ''],
  ];
  it.each(text)('sanitizeTextField(%j) is %j', (value, expected) => {
    expect(sanitizeTextField(value)).toBe(expected);
  });

  it('sanitizeTextareaField keeps inner newlines but trims', () => {
    expect(sanitizeTextareaField('\n line 1\nline 2 \n')).toBe('line 1\nline 2');
  });
});
