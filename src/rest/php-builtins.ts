/**
 * @module rest/php-builtins
 * PHP built-ins that the schema validators and the WordPress sanitisers reproduce exactly:
 * `trim` / `ltrim` with PHP's default character list, byte-wise (ASCII-only) `strtolower`, and
 * `is_array($v) || is_object($v)`, and PHP truthiness.
 *
 * @example
 * phpTrim('\0 a \x0B');      // 'a'
 * asciiLower('ÄB');         // 'Äb'
 * isContainer(['a']);       // true
 */

const PHP_TRIM = ' \t\n\r\0\x0B';

/** PHP `trim($text, $chars)`; `chars` is a plain character list (no `a..z` ranges). */
export function phpTrim(text: string, chars = PHP_TRIM): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** PHP `ltrim($text)` with the default character list. */
export function phpLtrim(text: string): string {
  let start = 0;
  while (start < text.length && PHP_TRIM.includes(text[start]!)) start++;
  return start === 0 ? text : text.slice(start);
}

/** PHP 8 `strtolower`: only `A`–`Z` change. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** PHP `is_array($v) || is_object($v)`: a list or a map (any non-null JS object). */
export function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === 'object';
}

/**
 * PHP truthiness of a request value (`if ($v)`, `empty()`, `array_filter`): `false`, `0`, `''`, `'0'`,
 * `null` and empty arrays are false; a map is a PHP array too, so an empty one is false.
 */
export function phpTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '' || value === '0') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}
