/**
 * @module namespaces/events/validators
 * The originals' argument validators that need no database (`is_time`, `is_string`, `is_url`,
 * `is_timezone`, `is_post_status`, `is_positive_int`, …) as `ArgSchema.validate` functions, plus the
 * sync checks of nested venue/organizer data. Checks that need the database run in the permission
 * stage (see `checks.ts`), still before the capability check as WordPress orders them.
 */
import { hasControlCharacter } from '../../content/imported-urls.js';
import { isValidTimeZone, parseDateTime, POST_STATUSES } from '../../content/posts.js';
import { isPhpNumeric, parseList } from '../../rest/php-query.js';
import type { RestRequest } from '../../rest/route.js';

/** `is_time`: a Unix timestamp or anything the date parser understands (relative to the app's clock). */
export function isTime(value: unknown, _req: RestRequest, _name: string, now: Date): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'string') return false;
  if (isPhpNumeric(value)) return true;
  return parseDateTime(value, 'UTC', now) !== undefined;
}

/** `is_string`: a non-empty string. */
export function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && value !== '0';
}

/** A string, possibly empty (optional text fields). */
export function isStringValue(value: unknown): boolean {
  return typeof value === 'string';
}

/** `is_positive_int`. */
export function isPositiveInt(value: unknown): boolean {
  if (typeof value === 'boolean') return false;
  if (!isPhpNumeric(value)) return false;
  const n = Number(value);
  return Number.isInteger(n) && n > 0;
}

/** `is_positive_int_list`: CSV or array of positive integers. */
/** Largest ID the posts table holds (a 32-bit serial): larger IDs name nothing. */
export const MAX_POST_ID = 2_147_483_647;

/** An event ID in the path: 0 or more (0 and unknown IDs answer 404, not 400, as the newer original). */
export function isEventPathId(value: unknown): boolean {
  return (typeof value === 'string' || typeof value === 'number') && /^\d+$/.test(String(value).trim());
}

export function isPositiveIntList(value: unknown): boolean {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return false;
  const list = parseList(value);
  return list.length > 0 && list.every(isPositiveInt);
}

/** An absolute http(s) URL (`FILTER_VALIDATE_URL` for the schemes a website can have). */
export function isUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.trim() === '' || hasControlCharacter(value.trim())) return false;
  try {
    const u = new URL(value.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** A URL or the empty string (clears the field). */
export function isUrlOrEmpty(value: unknown): boolean {
  return value === '' || isUrl(value);
}

/** A valid time zone or empty (the site's). */
export function isTimezoneOrEmpty(value: unknown): boolean {
  return typeof value === 'string' && (value.trim() === '' || isValidTimeZone(value));
}

/** A registered post status. */
export function isPostStatus(value: unknown): boolean {
  return typeof value === 'string' && (POST_STATUSES as readonly string[]).includes(value);
}

/** A syntactically valid e-mail address (`is_email`). */
export function isEmail(value: unknown): boolean {
  return typeof value === 'string' && /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/.test(value);
}

/** PHP `FILTER_VALIDATE_BOOLEAN` truthiness (`1`, `true`, `on`, `yes`). */
export function isTruthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  return typeof value === 'string' && ['1', 'true', 'on', 'yes'].includes(value.trim().toLowerCase());
}

const IMAGE_EXTENSIONS = /\.(jpe?g|png|gif|webp|avif|bmp|ico|svg|tiff?|heic)$/i;

/** Whether a file URL names an image (by its extension, as WordPress's wp_attachment_is_image). */
export function isImageFileUrl(url: string): boolean {
  try {
    return IMAGE_EXTENSIONS.test(new URL(url, 'http://localhost/').pathname);
  } catch {
    return false;
  }
}

/**
 * `is_image`: an attachment ID or a URL for users who may upload (the database and `HEAD` checks of
 * `checks.ts` decide whether it is an image).
 */
export function isImage(value: unknown, req: RestRequest): boolean {
  if (isPositiveInt(value)) return true;
  if (typeof value !== 'string' || !isUrl(value)) return false;
  return req.user?.can('upload_files') === true;
}

/** A linked post reference: an ID, `{id}`, or an object of create fields. */
export type LinkedRef = { id: number } | { fields: Record<string, unknown> };

/**
 * Normalises `venue` / `organizer` input to a list of references. Accepts an ID (number or numeric
 * string), a CSV of IDs, an object (`{id}` or create fields), or a list of those. Returns undefined
 * when the shape is not acceptable. An empty value gives an empty list (clears the links).
 */
export function linkedRefs(value: unknown): LinkedRef[] | undefined {
  if (value === '' || value === 0 || value === '0' || value === false) return [];
  const items: unknown[] = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? parseList(value)
      : value !== null && typeof value === 'object' && Object.keys(value).every((k) => /^\d+$/.test(k)) && Object.keys(value).length > 0
        ? Object.values(value)
        : [value];
  const out: LinkedRef[] = [];
  for (const item of items) {
    if (isPositiveInt(item)) out.push({ id: Number(item) });
    else if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
      const rec = item as Record<string, unknown>;
      if (rec.id !== undefined && rec.id !== null && rec.id !== '') {
        if (!isPositiveInt(rec.id)) return undefined;
        out.push({ id: Number(rec.id) });
      } else out.push({ fields: rec });
    } else return undefined;
  }
  return out;
}

/** Sync checks of nested venue create fields; returns a message or true. */
export function checkVenueFields(fields: Record<string, unknown>): true | string {
  if (!isNonEmptyString(fields.venue)) return 'venue is a required property of venue.';
  for (const key of ['address', 'city', 'country', 'province', 'state', 'stateprovince', 'zip', 'phone', 'description']) {
    if (fields[key] !== undefined && fields[key] !== null && typeof fields[key] !== 'string' && typeof fields[key] !== 'number') return `venue[${key}] is not of type string.`;
  }
  if (fields.website !== undefined && fields.website !== null && !isUrlOrEmpty(fields.website)) return 'venue[website] is not a valid URL.';
  if (fields.status !== undefined && !isPostStatus(fields.status)) return 'venue[status] is not a valid post status.';
  return true;
}

/** Sync checks of nested organizer create fields; returns a message or true. */
export function checkOrganizerFields(fields: Record<string, unknown>): true | string {
  if (!isNonEmptyString(fields.organizer)) return 'organizer is a required property of organizer.';
  for (const key of ['phone', 'description']) {
    if (fields[key] !== undefined && fields[key] !== null && typeof fields[key] !== 'string' && typeof fields[key] !== 'number') return `organizer[${key}] is not of type string.`;
  }
  if (fields.website !== undefined && fields.website !== null && !isUrlOrEmpty(fields.website)) return 'organizer[website] is not a valid URL.';
  if (fields.email !== undefined && fields.email !== null && fields.email !== '' && !isEmail(fields.email)) return 'organizer[email] is not a valid e-mail address.';
  if (fields.status !== undefined && !isPostStatus(fields.status)) return 'organizer[status] is not a valid post status.';
  return true;
}

/** Category/tag input: IDs or names, as a list or CSV. */
export function termRefs(value: unknown): string[] | undefined {
  if (value === '' || value === null) return [];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return undefined;
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const v of value) {
      if (typeof v === 'number' || typeof v === 'string') {
        const s = String(v).trim();
        if (s !== '') out.push(s);
      } else if (v !== null && typeof v === 'object' && 'id' in v) {
        out.push(String((v as { id: unknown }).id));
      } else return undefined;
    }
    return out;
  }
  if (typeof value === 'number') return [String(value)];
  return typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter((s) => s !== '') : undefined;
}
