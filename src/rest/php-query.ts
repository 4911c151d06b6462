/**
 * @module rest/php-query
 * PHP's `parse_str` for query strings and form bodies, WordPress's `wp_parse_list` /
 * `wp_parse_id_list`, and the PHP scalar conversions (`is_numeric`, `(int)`, `(float)`, `(string)`)
 * the argument code relies on.
 *
 * @example
 * parsePhpQuery('a[]=1&a[]=2&b[x]=3&c.d=4'); // { a: ['1', '2'], b: { x: '3' }, c_d: '4' }
 * parseList('1, 2,,3');                       // ['1', '2', '3']
 */

/** PHP `max_input_vars`: pairs beyond this are ignored. */
const MAX_VARS = 1000;
/** PHP `max_input_nesting_level`: a deeper name drops the whole top-level variable. */
const MAX_DEPTH = 64;

/** Canonical decimal integers become integer keys in a PHP array (`"5"` → 5, not `"05"`). */
const INT_KEY = /^(?:0|-?[1-9]\d*)$/;
const NAME_SPECIALS = /[ .]/g;
const UNTERMINATED_SPECIALS = /[ .[]/g;
const PLUS = /\+/g;
/** PCRE `\s` without the `u` flag, plus the comma: wp_parse_list's separator. */
const LIST_SEPARATORS = /[\t\n\v\f\r ,]+/;

type Key = string | number;
type PhpValue = string | PhpArray;

/** A PHP array: insertion-ordered, integer or string keys, with PHP's next free index. */
class PhpArray {
  readonly entries = new Map<Key, PhpValue>();
  next = 0;

  get(key: Key): PhpValue | undefined {
    return this.entries.get(key);
  }

  set(key: Key | null, value: PhpValue): void {
    if (key === null) {
      key = this.next;
    }
    if (typeof key === 'number' && key >= this.next) this.next = key + 1;
    this.entries.set(key, value);
  }

  delete(key: Key): void {
    this.entries.delete(key);
  }
}

function normalizeKey(key: string): Key {
  if (INT_KEY.test(key)) {
    const n = Number(key);
    if (Number.isSafeInteger(n)) return n;
  }
  return key;
}

/** `urldecode`: `+` is a space, `%XX` a byte, a malformed escape stays literal; bytes are read as UTF-8. */
function urlDecode(text: string): string {
  const s = text.includes('+') ? text.replace(PLUS, ' ') : text;
  if (!s.includes('%')) return s;
  const src = Buffer.from(s, 'utf8');
  const out = Buffer.allocUnsafe(src.length);
  let o = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === 0x25 && i + 2 < src.length) {
      const hi = hexValue(src[i + 1]!);
      const lo = hexValue(src[i + 2]!);
      if (hi >= 0 && lo >= 0) {
        out[o++] = hi * 16 + lo;
        i += 2;
        continue;
      }
    }
    out[o++] = c;
  }
  return out.toString('utf8', 0, o);
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/** `php_register_variable_ex`: file one decoded `name=value` pair into `root`. */
function register(root: PhpArray, rawName: string, value: string): void {
  // CASE: the name is a C string in PHP, so a decoded NUL ends it.
  const nul = rawName.indexOf('\0');
  let name = nul >= 0 ? rawName.slice(0, nul) : rawName;
  let start = 0;
  while (name.charCodeAt(start) === 32) start++;
  if (start > 0) name = name.slice(start);

  const bracket = name.indexOf('[');
  let base = bracket < 0 ? name : name.slice(0, bracket);
  if (base.includes(' ') || base.includes('.')) base = base.replace(NAME_SPECIALS, '_');
  if (base === '') return;

  // null stands for `[]` (append).
  const path: (string | null)[] = [];
  if (bracket >= 0) {
    let pos = bracket;
    for (;;) {
      if (path.length + 1 > MAX_DEPTH) {
        root.delete(base);
        return;
      }
      const from = pos + 1;
      if (name[from] === ']') {
        path.push(null);
        pos = from;
      } else {
        const close = name.indexOf(']', from);
        if (close < 0) {
          // CASE: an unterminated first bracket is part of the plain name (`a[b` → `a_b`).
          if (path.length === 0) base += '_' + name.slice(from).replace(UNTERMINATED_SPECIALS, '_');
          break;
        }
        path.push(name.slice(from, close));
        pos = close;
      }
      if (name[pos + 1] !== '[') break;
      pos += 1;
    }
  }

  // Top-level keys stay strings: the root never appends and becomes a plain object anyway.
  let table = root;
  let key: Key | null = base;
  for (const segment of path) {
    let child = key === null ? undefined : table.get(key);
    if (!(child instanceof PhpArray)) {
      child = new PhpArray();
      table.set(key, child);
    }
    table = child;
    key = segment === null ? null : normalizeKey(segment);
  }
  table.set(key, value);
}

function toJs(value: PhpValue): unknown {
  if (typeof value === 'string') return value;
  let isList = true;
  let expected = 0;
  for (const key of value.entries.keys()) {
    if (key !== expected++) {
      isList = false;
      break;
    }
  }
  if (isList) return Array.from(value.entries.values(), toJs);
  return toObject(value);
}

function toObject(table: PhpArray): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of table.entries) {
    // CASE: an own `__proto__` would turn later Object.assign/merges into prototype writes.
    if (key === '__proto__') continue;
    out[key] = toJs(value);
  }
  return out;
}

/**
 * PHP `parse_str`: `a[]=1&a[]=2` and `a[0]=1&a[1]=2` give lists, other keys (`a[k]=v`, `a[5]=v`) give
 * maps, nesting works (`a[x][y]=1`), the last duplicate wins, `.` and space in a top-level name become
 * `_`, leading spaces of a name are dropped, `+` is a space and malformed `%` escapes are kept
 * literally. Never throws. At most 1000 pairs are read and a name nested deeper than 64 levels
 * discards its variable (PHP's defaults); `__proto__` keys are dropped.
 *
 * Known difference: PHP keeps integer keys in insertion order (`a[1]=x&a[0]=y`); a JS object orders
 * them ascending.
 */
export function parsePhpQuery(qs: string): Record<string, unknown> {
  const root = new PhpArray();
  let count = 0;
  let pos = 0;
  while (pos <= qs.length) {
    let end = qs.indexOf('&', pos);
    if (end < 0) end = qs.length;
    if (end > pos) {
      if (++count > MAX_VARS) break;
      const pair = qs.slice(pos, end);
      const eq = pair.indexOf('=');
      if (eq < 0) register(root, urlDecode(pair), '');
      else register(root, urlDecode(pair.slice(0, eq)), urlDecode(pair.slice(eq + 1)));
    }
    pos = end + 1;
  }
  return toObject(root);
}

// ---------------------------------------------------------------------------------------------
// PHP scalar conversions
// ---------------------------------------------------------------------------------------------

/** PHP 8 numeric string: optional surrounding whitespace, sign, decimal or exponent notation. */
const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/;
const NUMERIC_PREFIX = /^[ \t\n\r\v\f]*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/;

/** True for a JS string, number or boolean (PHP `is_scalar`). */
export function isScalar(value: unknown): value is string | number | boolean {
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean';
}

/** PHP `is_numeric`: numbers, and strings such as `"5"`, `" 5"`, `"-2.5"`, `"1e3"`, `".5"`. */
export function isPhpNumeric(value: unknown): boolean {
  if (typeof value === 'number') return true;
  return typeof value === 'string' && NUMERIC.test(value);
}

/** PHP `(float)`: the leading numeric part of a string, 0 when there is none. */
export function phpFloatval(value: unknown): number {
  switch (typeof value) {
    case 'number':
      return value;
    case 'boolean':
      return value ? 1 : 0;
    case 'string': {
      const m = NUMERIC_PREFIX.exec(value);
      return m ? Number(m[1]) : 0;
    }
    case 'object':
      if (value === null) return 0;
      return Array.isArray(value) ? (value.length > 0 ? 1 : 0) : Object.keys(value).length > 0 ? 1 : 0;
    default:
      return 0;
  }
}

/** PHP `(int)`: truncates toward zero; non-finite values give 0. */
export function phpIntval(value: unknown): number {
  const n = phpFloatval(value);
  return Number.isFinite(n) ? Math.trunc(n) + 0 : 0;
}

/** WordPress `absint`. */
export function absint(value: unknown): number {
  return Math.abs(phpIntval(value));
}

/** PHP `(string)`: `true` → `"1"`, `false`/`null` → `""`, arrays → `"Array"`, floats as PHP prints them. */
export function phpString(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return phpNumberString(value);
    case 'boolean':
      return value ? '1' : '';
    case 'bigint':
      return value.toString();
    case 'object':
      return value === null ? '' : 'Array';
    default:
      return '';
  }
}

function phpNumberString(n: number): string {
  if (Number.isSafeInteger(n)) return String(n);
  if (Number.isNaN(n)) return 'NAN';
  if (!Number.isFinite(n)) return n > 0 ? 'INF' : '-INF';
  const s = String(n);
  const e = s.indexOf('e');
  if (e < 0) return s;
  const mantissa = s.slice(0, e);
  const exponent = s.slice(e + 1);
  return `${mantissa.includes('.') ? mantissa : mantissa + '.0'}E${exponent.startsWith('-') ? exponent : '+' + exponent.replace('+', '')}`;
}

// ---------------------------------------------------------------------------------------------
// wp_parse_list / wp_parse_id_list
// ---------------------------------------------------------------------------------------------

/**
 * `wp_parse_list`: a scalar is split on runs of commas or whitespace, dropping empty pieces
 * (`"1, 2,,3"` → `["1","2","3"]`); an array or map keeps its scalar entries, as PHP strings.
 */
export function parseList(value: unknown): string[] {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value : Object.values(value);
    const out: string[] = [];
    for (const entry of entries) if (isScalar(entry)) out.push(phpString(entry));
    return out;
  }
  const text = phpString(value);
  if (text === '') return [];
  const parts = text.split(LIST_SEPARATORS);
  if (parts[0] === '') parts.shift();
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** `wp_parse_id_list`: `parseList`, then `absint` each entry, first occurrences kept. */
export function parseIdList(value: unknown): number[] {
  return [...new Set(parseList(value).map(absint))];
}
