/**
 * @module rest/php-values
 * The PHP value model of WordPress's schema code: lists are JS arrays, PHP associative arrays plain
 * objects; `rest_is_*` tests, `rest_sanitize_*` conversions, PHP equality and serialisation keys,
 * and the English number and list formatting of its messages.
 */
import type { ArgSchema, SchemaType } from './route.js';
import { isPhpNumeric, isScalar, parseList, phpFloatval, phpIntval } from './php-query.js';
import { asciiLower, isContainer } from './php-builtins.js';

// ---------------------------------------------------------------------------------------------
// PHP value model: lists are JS arrays, PHP associative arrays are plain objects
// ---------------------------------------------------------------------------------------------

export type Dict = Record<string, unknown>;

export const ALLOWED_TYPES: ReadonlySet<string> = new Set(['array', 'object', 'string', 'number', 'integer', 'boolean', 'null']);
export const INT_KEY = /^(?:0|-?[1-9]\d*)$/;

export function isMap(value: unknown): value is Dict {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isTypeList(type: ArgSchema['type']): type is readonly SchemaType[] {
  return Array.isArray(type);
}

/** Assigns without ever invoking the `__proto__` setter. */
export function setOwn(target: Dict, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

export function entriesOf(value: Dict | readonly unknown[]): [string, unknown][] {
  return Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
}

export function lookup(container: Dict | readonly unknown[], key: string): { found: boolean; value: unknown } {
  if (Array.isArray(container)) {
    const index = INT_KEY.test(key) ? Number(key) : -1;
    return index >= 0 && index < container.length ? { found: true, value: container[index] } : { found: false, value: undefined };
  }
  const map = container as Dict;
  return Object.hasOwn(map, key) ? { found: true, value: map[key] } : { found: false, value: undefined };
}

/** `rest_is_boolean`. */
export function isBooleanLike(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'string') {
    if (value.length > 5) return false;
    const lower = asciiLower(value);
    return lower === 'false' || lower === 'true' || lower === '0' || lower === '1';
  }
  return typeof value === 'number' && (value === 0 || value === 1);
}

/** `rest_sanitize_boolean`. */
export function toBoolean(value: unknown): boolean {
  if (typeof value === 'string') {
    if (value.length <= 5) {
      const lower = asciiLower(value);
      if (lower === 'false' || lower === '0') return false;
    }
    return value !== '';
  }
  if (typeof value === 'number') return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** `rest_is_integer`. */
export function isIntegerLike(value: unknown): boolean {
  if (!isPhpNumeric(value)) return false;
  const n = phpFloatval(value);
  return Number.isInteger(n) || n === Infinity || n === -Infinity;
}

/** `rest_is_array`: any scalar (split by wp_parse_list), a list, or a map with only integer keys. */
export function isArrayLike(value: unknown): boolean {
  if (isScalar(value) || Array.isArray(value)) return true;
  return isMap(value) && Object.keys(value).every((k) => INT_KEY.test(k));
}

/** `rest_sanitize_array`. */
export function toList(value: unknown): unknown[] {
  if (isScalar(value)) return parseList(value);
  if (Array.isArray(value)) return value;
  return isMap(value) ? Object.values(value) : [];
}

/** `rest_is_object`: a map, a list (a PHP array) or `""`. */
export function isObjectLike(value: unknown): boolean {
  return value === '' || isContainer(value);
}

/** `rest_sanitize_object`, without copying a map. */
export function toRecord(value: unknown): Dict {
  if (Array.isArray(value)) {
    const out: Dict = {};
    value.forEach((v, i) => (out[i] = v));
    return out;
  }
  return isMap(value) ? value : {};
}

/** `rest_get_best_type_for_value`. */
export function bestTypeFor(value: unknown, types: readonly string[]): string {
  if (value === '' && types.includes('string')) return 'string';
  for (const type of types) {
    switch (type) {
      case 'array':
        if (isArrayLike(value)) return type;
        break;
      case 'object':
        if (isObjectLike(value)) return type;
        break;
      case 'integer':
        if (isIntegerLike(value)) return type;
        break;
      case 'number':
        if (isPhpNumeric(value)) return type;
        break;
      case 'boolean':
        if (isBooleanLike(value)) return type;
        break;
      case 'string':
        if (typeof value === 'string') return type;
        break;
      case 'null':
        if (value == null) return type;
        break;
    }
  }
  return '';
}

/** `rest_handle_multi_type_schema`: unknown type names win when nothing else matches. */
export function resolveTypeList(value: unknown, types: readonly string[]): string {
  return bestTypeFor(value, types) || types.find((t) => !ALLOWED_TYPES.has(t)) || '';
}

/** `rest_are_values_equal`: deep, key order ignored for maps, int and float equal. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (isContainer(a) && isContainer(b)) {
    const entries = entriesOf(a);
    if (entries.length !== (Array.isArray(b) ? b.length : Object.keys(b).length)) return false;
    return entries.every(([key, value]) => {
      const other = lookup(b, key);
      return other.found && valuesEqual(value, other.value);
    });
  }
  return a === b || (a == null && b == null);
}

/** What `serialize(rest_stabilize_value($v))` distinguishes: type, value, and map keys in sorted order. */
export function stableKey(value: unknown): string {
  if (value == null) return 'N;';
  switch (typeof value) {
    case 'boolean':
      return value ? 'b:1;' : 'b:0;';
    case 'number':
      return Number.isInteger(value) ? `i:${value};` : `d:${value};`;
    case 'string':
      return `s:${JSON.stringify(value)};`;
    case 'object': {
      const entries = entriesOf(value as Dict).sort(([a], [b]) => compareKeys(a, b));
      return `a:{${entries.map(([k, v]) => `${INT_KEY.test(k) ? 'i' : 's'}:${JSON.stringify(k)};${stableKey(v)}`).join('')}}`;
    }
    default:
      return `x:${String(value)};`;
  }
}

export function compareKeys(a: string, b: string): number {
  if (INT_KEY.test(a) && INT_KEY.test(b)) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

export function hasUniqueItems(list: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of list) {
    const key = stableKey(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/** PHP `json_encode` flavour used in enum messages: `/` and non-ASCII escaped. */
export function phpJsonEncode(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/[/\u0080-\uffff]/g, (c) =>
    c === '/' ? '\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `mb_strlen`: Unicode code points. */
export function mbStrlen(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;

/** `number_format_i18n` in English: rounded, thousands separated by commas. */
export function count(n: number): string {
  const rounded = Math.sign(n) * Math.round(Math.abs(n));
  return String(rounded).replace(THOUSANDS, ',');
}

export function plural(n: number, one: string, many: string): string {
  return phpIntval(n) === 1 ? one : many;
}

/** `wp_sprintf('%l')`: `a`, `a and b`, `a, b, and c`. */
export function listJoin(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}
