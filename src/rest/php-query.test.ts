import { describe, it, expect } from 'vitest';
import { absint, isPhpNumeric, parseIdList, parseList, parsePhpQuery, phpFloatval, phpIntval, phpString } from './php-query.js';

describe('parsePhpQuery (PHP parse_str)', () => {
  const rows: [string, string, Record<string, unknown>][] = [
    ['plain pairs', 'a=1&b=2', { a: '1', b: '2' }],
    ['empty string', '', {}],
    ['pushes give a list (wpapi)', 'a[]=1&a[]=2', { a: ['1', '2'] }],
    ['sequential indexes give a list (@wordpress/url)', 'a[0]=1&a[1]=2', { a: ['1', '2'] }],
    ['a single index 0 is a list', 'a[0]=1', { a: ['1'] }],
    ['an index not starting at 0 is a map', 'a[1]=x', { a: { 1: 'x' } }],
    ['a named key is a map', 'a[k]=v', { a: { k: 'v' } }],
    ['nested keys', 'a[x][y]=1', { a: { x: { y: '1' } } }],
    ['last duplicate scalar wins', 'a=1&a=2', { a: '2' }],
    ['dot in a top-level name becomes _', 'a.b=1', { a_b: '1' }],
    ['space in a top-level name becomes _', 'a b=1', { a_b: '1' }],
    ['+ in a name is a space, then _', 'a+b=1', { a_b: '1' }],
    ['encoded dot in a name becomes _', 'a%2Eb=1', { a_b: '1' }],
    ['+ in a value is a space', 'q=a+b', { q: 'a b' }],
    ['percent escapes decode', 'q=%41%62', { q: 'Ab' }],
    ['UTF-8 escapes decode', 'q=%E2%82%AC', { q: '€' }],
    ['invalid UTF-8 becomes U+FFFD', 'q=%FF', { q: '\uFFFD' }],
    ['malformed escapes stay literal', 'q=%zz&r=%4&s=%', { q: '%zz', r: '%4', s: '%' }],
    ['encoded & and = inside a value', 'q=a%26b%3Dc', { q: 'a&b=c' }],
    ['name without = has an empty value', 'flag', { flag: '' }],
    ['empty names and empty pairs are skipped', '=x&&b=1&', { b: '1' }],
    ['leading spaces of a name are dropped', '+a=1', { a: '1' }],
    ['dots inside brackets are kept', 'a[b.c]=1', { a: { 'b.c': '1' } }],
    ['top-level dots before a bracket still change', 'a.b[c.d]=1', { a_b: { 'c.d': '1' } }],
    ['unterminated first bracket joins the name', 'a[b.c=1', { a_b_c: '1' }],
    ['unterminated later bracket is ignored', 'a[b][c=1', { a: { b: '1' } }],
    ['text after a closing bracket is ignored', 'a[b]c=1', { a: { b: '1' } }],
    ['an array replaces an earlier scalar', 'a=1&a[]=2', { a: ['2'] }],
    ['a scalar replaces an earlier array', 'a[]=1&a=2', { a: '2' }],
    ['pushes of nested maps', 'a[][x]=1&a[][x]=2', { a: [{ x: '1' }, { x: '2' }] }],
    ['push continues after an explicit index', 'a[0]=x&a[]=y', { a: ['x', 'y'] }],
    ['push continues after the highest index', 'a[5]=x&a[]=y', { a: { 5: 'x', 6: 'y' } }],
    ['an index overwritten in place', 'a[]=1&a[]=2&a[0]=z', { a: ['z', '2'] }],
    ['a zero-padded index is a string key', 'a[05]=x', { a: { '05': 'x' } }],
    ['encoded brackets are brackets', 'a%5B%5D=1&a%5B%5D=2', { a: ['1', '2'] }],
    ['a NUL ends the name', 'a%00b=1', { a: '1' }],
    ['a value may hold a NUL', 'a=x%00y', { a: 'x\0y' }],
    ['an empty key inside brackets after a push', 'a[][]=1', { a: [['1']] }],
  ];
  it.each(rows)('%s: %s', (_label, qs, expected) => {
    expect(parsePhpQuery(qs)).toStrictEqual(expected);
  });

  const hostile = ['%', '%%%', '[', ']]]', '&&&', '=&=', 'a[=1', '[]=1', 'a]=1', '%E2%82', 'a[%5D=1', '\uD800=1'];
  it.each(hostile)('never throws on %j', (qs) => {
    expect(() => parsePhpQuery(qs)).not.toThrow();
  });

  const pollution: [string, Record<string, unknown>][] = [
    ['__proto__[polluted]=1', {}],
    ['__proto__=1', {}],
    ['a[__proto__][polluted]=1', { a: {} }],
    ['constructor[prototype][polluted]=1', { constructor: { prototype: { polluted: '1' } } }],
    ['prototype[polluted]=1', { prototype: { polluted: '1' } }],
  ];
  const prototypesOf = (value: unknown): unknown[] =>
    value !== null && typeof value === 'object'
      ? [Object.getPrototypeOf(value), ...Object.values(value).flatMap(prototypesOf)]
      : [];
  it.each(pollution)('does not pollute prototypes with %s', (qs, expected) => {
    const parsed = parsePhpQuery(qs);
    // CASE: an own `constructor` key defeats toStrictEqual's class check, so compare the wire form.
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(expected));
    for (const proto of prototypesOf(parsed)) expect([Object.prototype, Array.prototype]).toContain(proto);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  });

  it('keeps 64 levels of nesting', () => {
    const parsed = parsePhpQuery(`a${'[x]'.repeat(64)}=1`);
    let node: unknown = parsed.a;
    for (let i = 0; i < 63; i++) node = (node as Record<string, unknown>).x;
    expect(node).toStrictEqual({ x: '1' });
  });

  it('drops the whole variable beyond 64 levels', () => {
    expect(parsePhpQuery(`a=keep&b=1&b${'[x]'.repeat(65)}=2`)).toStrictEqual({ a: 'keep' });
  });

  it('reads at most 1000 pairs', () => {
    const qs = Array.from({ length: 1001 }, (_, i) => `k${i}=${i}`).join('&');
    const parsed = parsePhpQuery(qs);
    expect(Object.keys(parsed)).toHaveLength(1000);
    expect(parsed.k999).toBe('999');
    expect(parsed.k1000).toBeUndefined();
  });

  it('stays fast on a long hostile string', () => {
    const started = performance.now();
    parsePhpQuery('a'.concat('['.repeat(200_000), '=1&', '&'.repeat(200_000), 'x[]=1&'.repeat(50_000)));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('parseList (wp_parse_list)', () => {
  const rows: [string, unknown, string[]][] = [
    ['commas with spaces and empties', '1, 2,,3', ['1', '2', '3']],
    ['whitespace separates', 'a b', ['a', 'b']],
    ['tabs and newlines separate', ' a \n b\t', ['a', 'b']],
    ['a single word', 'single', ['single']],
    ['empty string', '', []],
    ['only separators', ', ,\t,', []],
    ['NBSP is not a separator', 'a\u00a0b', ['a\u00a0b']],
    ['an integer', 5, ['5']],
    ['true', true, ['1']],
    ['false', false, []],
    ['null', null, []],
    ['a list keeps scalar entries', ['a', 1, true, false, null, { x: 1 }, [2]], ['a', '1', '1', '']],
    ['a list is not split further', ['a b', 'c,d'], ['a b', 'c,d']],
    ['a map keeps its values', { x: 'a', y: 'b' }, ['a', 'b']],
  ];
  it.each(rows)('%s', (_label, input, expected) => {
    expect(parseList(input)).toStrictEqual(expected);
  });
});

describe('parseIdList (wp_parse_id_list)', () => {
  const rows: [unknown, number[]][] = [
    ['1,2,3', [1, 2, 3]],
    ['3,-3,3', [3]],
    [['1', 'abc', '2.9'], [1, 0, 2]],
    ['', []],
    [[' 7', 7, '7'], [7]],
    ['12abc 4', [12, 4]],
  ];
  it.each(rows)('%j', (input, expected) => {
    expect(parseIdList(input)).toStrictEqual(expected);
  });
});

describe('PHP scalar conversions', () => {
  const numeric: [unknown, boolean][] = [
    ['5', true], [' 5', true], ['5 ', true], ['-2.5', true], ['+3', true], ['.5', true], ['5.', true],
    ['1e3', true], ['1E-3', true], [5, true], [2.5, true],
    ['', false], [' ', false], ['abc', false], ['5a', false], ['0x1A', false], ['1e', false], ['.', false],
    [true, false], [null, false], [[5], false],
  ];
  it.each(numeric)('is_numeric(%j) is %s', (value, expected) => {
    expect(isPhpNumeric(value)).toBe(expected);
  });

  const ints: [unknown, number][] = [
    ['5.9', 5], ['-3.7', -3], ['12abc', 12], ['abc', 0], ['1e3', 1000], [' 42', 42], [true, 1], [false, 0],
    [null, 0], [[], 0], [[1], 1], [Number.NaN, 0], [Number.POSITIVE_INFINITY, 0], [-0.5, 0],
  ];
  it.each(ints)('(int) %j is %d', (value, expected) => {
    expect(Object.is(phpIntval(value), expected)).toBe(true);
  });

  it.each([['2.5abc', 2.5], ['x', 0], ['-1e2', -100], [true, 1]] as [unknown, number][])('(float) %j is %d', (value, expected) => {
    expect(phpFloatval(value)).toBe(expected);
  });

  it.each([[-7, 7], ['-7', 7], ['x', 0]] as [unknown, number][])('absint(%j) is %d', (value, expected) => {
    expect(absint(value)).toBe(expected);
  });

  const strings: [unknown, string][] = [
    [true, '1'], [false, ''], [null, ''], [5, '5'], [1.5, '1.5'], [1e-7, '1.0E-7'], [1.5e21, '1.5E+21'],
    [Number.NaN, 'NAN'], [Number.NEGATIVE_INFINITY, '-INF'], [['a'], 'Array'], ['x', 'x'],
  ];
  it.each(strings)('(string) %s is %j', (value, expected) => {
    expect(phpString(value)).toBe(expected);
  });
});
