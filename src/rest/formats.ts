/**
 * @module rest/formats
 * The `format` keyword of WordPress schemas (`rest_validate_value_from_schema`): `date-time`
 * (`rest_parse_date`), `email` (`is_email`), `ip` (`rest_is_ip_address`), `uuid` (`wp_is_uuid`) and
 * `hex-color`, with WordPress's error codes and messages. Other formats (`uri`, `text-field`, …) are
 * not validated.
 *
 * @example
 * checkFormat('email', 'nope', 'e');          // RestError rest_invalid_email: "Invalid email address."
 * parseRestDate('2020-01-01T02:00:00+02:00'); // 1577836800
 */
import { RestError } from './errors.js';
import { isScalar, phpString } from './php-query.js';
import { phpTrim } from './php-builtins.js';

const MSG = {
  hexColor: 'Invalid hex color.',
  date: 'Invalid date.',
  email: 'Invalid email address.',
  ip: (param: string) => `${param} is not a valid IP address.`,
  uuid: (param: string) => `${param} is not a valid UUID.`,
} as const;

// CASE: the trailing `\n?` reproduces PCRE's `$`, which also matches before a final newline.
const HEX_COLOR = /^#(?:[A-Fa-f0-9]{3}){1,2}\n?$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|([+-])(\d{2})(?::(\d{2}))?)?\n?$/;
const FORCE_UTC_OFFSET = /[+-]\d+:?\d+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n?$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\n?$/;
const IPV6_HEXTET = /^[0-9a-fA-F]{1,4}$/;
const IPV4_OCTET = /^(?:0|[1-9]\d{0,2})$/;
const EMAIL_LOCAL = /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+\n?$/;
const EMAIL_SUB = /^[a-z0-9-]+\n?$/i;
const DOUBLE_DOT = /\.{2,}/;

function scalarText(value: unknown): string | undefined {
  return isScalar(value) ? phpString(value) : undefined;
}

/**
 * `rest_parse_date`: an RFC 3339 date-time (`T`, `t` or space; optional fraction; optional `Z` or
 * `±hh[:mm]`; no offset means UTC) to epoch seconds, or false. `forceUtc` replaces a trailing offset
 * with `+00:00`. Like `strtotime`, out-of-range days roll over (`02-30` is 1 March) but months above
 * 12, days above 31, hours above 24 and minutes above 59 fail.
 */
export function parseRestDate(date: string, forceUtc = false): number | false {
  const text = forceUtc ? date.replace(FORCE_UTC_OFFSET, '+00:00') : date;
  const m = DATE_TIME.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month > 12 || day > 31 || hour > 24 || minute > 59 || second > 60) return false;
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  let offset = 0;
  if (m[7]) offset = (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 3600 + Number(m[9] ?? 0) * 60);
  return Math.floor(d.getTime() / 1000) - offset;
}

/** WordPress `is_email`. */
function isEmail(value: unknown): boolean {
  const email = scalarText(value);
  if (email === undefined || email.length < 6) return false;
  const at = email.indexOf('@', 1);
  if (at < 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!EMAIL_LOCAL.test(local) || DOUBLE_DOT.test(domain)) return false;
  if (phpTrim(domain, ' \t\n\r\0\x0B.') !== domain) return false;
  const subs = domain.split('.');
  if (subs.length < 2) return false;
  return subs.every((sub) => phpTrim(sub, ' \t\n\r\0\x0B-') === sub && EMAIL_SUB.test(sub));
}

/** `rest_is_ip_address`: the IPv4 regex, else `Requests\Ipv6::check_ipv6`. */
function isIpAddress(value: unknown): boolean {
  const ip = scalarText(value);
  if (ip === undefined) return false;
  return IPV4.test(ip) || isIpv6(ip);
}

function isIpv6(input: string): boolean {
  const ip = uncompressIpv6(input);
  if (ip === null) return false;
  let v6 = ip;
  let v4: string[] = [''];
  if (ip.includes('.')) {
    const colon = ip.lastIndexOf(':');
    v6 = colon < 0 ? '' : ip.slice(0, colon);
    v4 = ip.slice(colon + 1).split('.');
  }
  const hextets = v6.split(':');
  const shapeOk = (hextets.length === 8 && v4.length === 1) || (hextets.length === 6 && v4.length === 4);
  if (!shapeOk || !hextets.every((h) => IPV6_HEXTET.test(h))) return false;
  return v4.length === 1 || v4.every((o) => IPV4_OCTET.test(o) && Number(o) <= 255);
}

function uncompressIpv6(ip: string): string | null {
  const first = ip.indexOf('::');
  if (first < 0 || ip.indexOf('::', first + 1) >= 0) return ip;
  const left = ip.slice(0, first);
  const right = ip.slice(first + 2);
  const c1 = left === '' ? -1 : left.split(':').length - 1;
  let c2 = right === '' ? -1 : right.split(':').length - 1;
  if (right.includes('.')) c2++;
  if (c1 === -1 && c2 === -1) return '0:0:0:0:0:0:0:0';
  const [unit, times, prefix] = c1 === -1 ? ['0:', 7 - c2, ''] : c2 === -1 ? [':0', 7 - c1, ''] : ['0:', 6 - c2 - c1, ':'];
  // CASE: PHP 8's str_repeat throws on a negative count; the address is invalid either way.
  if (times < 0) return null;
  return ip.replace('::', prefix + unit.repeat(times));
}

/** `wp_is_uuid` without a version: lower-case hex only. */
function isUuid(value: unknown): boolean {
  return typeof value === 'string' && UUID.test(value);
}

/** `rest_parse_hex_color` as a test: `#` and three or six hex digits. */
export function isHexColor(value: unknown): boolean {
  const color = scalarText(value);
  return color !== undefined && HEX_COLOR.test(color);
}

/** Schema validation errors carry no status of their own in WordPress; 400 is what a client sees. */
function fail(code: string, message: string): RestError {
  return new RestError(code, message, 400);
}

/** WordPress's `rest_invalid_email`, with an original's own wording where it has one. */
export function invalidEmailError(message: string = MSG.email): RestError {
  return fail('rest_invalid_email', message);
}

/**
 * The `format` check of `rest_validate_value_from_schema` for one value: undefined when it passes
 * (or the format is not one WordPress validates), else the RestError WordPress returns
 * (`rest_invalid_date`, `rest_invalid_email`, `rest_invalid_ip`, `rest_invalid_uuid`,
 * `rest_invalid_hex_color`).
 */
export function checkFormat(format: string, value: unknown, param: string): RestError | undefined {
  switch (format) {
    case 'hex-color':
      return isHexColor(value) ? undefined : fail('rest_invalid_hex_color', MSG.hexColor);
    case 'date-time': {
      const text = scalarText(value);
      return text !== undefined && parseRestDate(text) ? undefined : fail('rest_invalid_date', MSG.date);
    }
    case 'email':
      return isEmail(value) ? undefined : invalidEmailError();
    case 'ip':
      return isIpAddress(value) ? undefined : fail('rest_invalid_ip', MSG.ip(param));
    case 'uuid':
      return isUuid(value) ? undefined : fail('rest_invalid_uuid', MSG.uuid(param));
    default:
      return undefined;
  }
}
