/**
 * @module content/slugs
 * Slugs as WordPress makes and looks them up: `sanitize_title` (accents removed, lower-cased, every
 * other non-ASCII character kept as lower-case percent-encoded UTF-8, so `Привет` is stored as
 * `%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82`), the form a lookup by path takes (`get_page_by_path`), and
 * the cut to a length that never splits an encoded character (`_truncate_post_slug`).
 *
 * @example
 * sanitizeTitle('Café Müller — Live'); // 'cafe-muller-live'
 * sanitizeTitle('Концерт 2026');       // '%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82-2026'
 * pathSlug('концерт-2026');            // the same: how a by-slug route finds it
 */

/** Longest slug WordPress stores (`post_name` is varchar(200)). */
export const MAX_SLUG_LENGTH = 200;

/** `remove_accents` for what Unicode decomposition does not give: ligatures and letters with no base + mark form. */
const LATIN_SPECIALS: Record<string, string> = {
  ß: 'ss', Æ: 'AE', æ: 'ae', Ø: 'O', ø: 'o', Đ: 'D', đ: 'd', Ł: 'L', ł: 'l', Þ: 'TH', þ: 'th', Ð: 'DH', ð: 'dh',
  Œ: 'OE', œ: 'oe', Ħ: 'H', ħ: 'h', ı: 'i', ĸ: 'k', Ŀ: 'L', ŀ: 'l', ŉ: 'N', Ŋ: 'N', ŋ: 'n', ſ: 's', Ŧ: 'T', ŧ: 't',
  Ĳ: 'IJ', ĳ: 'ij', ª: 'a', º: 'o', '€': 'E', '£': '',
};

/** Latin letters with accents (Latin-1 Supplement, Extended-A and -B, Extended Additional), and the signs `remove_accents` maps. */
const ACCENTED = /[\u00aa\u00ba\u00a3\u20ac\u00c0-\u024f\u1e00-\u1eff]/g;
const COMBINING_MARK = /[\u0300-\u036f]/g;

/** WordPress `remove_accents` (default locale): Latin letters lose their accents; other scripts are left alone. */
function removeAccents(text: string): string {
  return text.replace(ACCENTED, (c) => LATIN_SPECIALS[c] ?? c.normalize('NFD').replace(COMBINING_MARK, ''));
}

/**
 * WordPress `utf8_uri_encode`: ASCII as is, every other character as its UTF-8 bytes in lower-case
 * `%xx`, stopping before the character that would make the result longer than `length`.
 */
function utf8UriEncode(text: string, length: number): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) {
      if (out.length >= length) break;
      out += ch;
      continue;
    }
    let encoded = '';
    for (const byte of Buffer.from(ch, 'utf8')) encoded += `%${byte.toString(16)}`;
    if (out.length + encoded.length > length) break;
    out += encoded;
  }
  return out;
}

/** Encoded characters `sanitize_title_with_dashes` drops when saving: soft hyphen, ¡ ¿, angle and curly quotes, bullet, © ® ° … ™, lone accents, invisible formatting. */
const DROPPED_WHEN_SAVED = new RegExp(
  [
    '%c2%ad', '%c2%a1', '%c2%bf', '%c2%ab', '%c2%bb', '%e2%80%b9', '%e2%80%ba', '%e2%80%98', '%e2%80%99', '%e2%80%9c', '%e2%80%9d',
    '%e2%80%9a', '%e2%80%9b', '%e2%80%9e', '%e2%80%9f', '%e2%80%a2', '%c2%a9', '%c2%ae', '%c2%b0', '%e2%80%a6', '%e2%84%a2', '%c2%b4',
    '%cb%8a', '%cc%81', '%cd%81', '%cc%80', '%cc%84', '%cc%8c', '%e2%80%8b', '%e2%80%8c', '%e2%80%8d', '%e2%80%8e', '%e2%80%8f',
    '%e2%80%aa', '%e2%80%ab', '%e2%80%ac', '%e2%80%ad', '%e2%80%ae', '%ef%bb%bf', '%ef%bf%bc',
  ].join('|'),
  'g',
);
/** Encoded spaces and dashes that become a dash when saving: no-break space, en and em dash, the wide Unicode spaces, line and paragraph separators. */
const DASHED_WHEN_SAVED = /%c2%a0|%e2%80%9[34]|%e2%80%8[0-9a]|%e2%80%a[89f]/g;

/**
 * WordPress `sanitize_title_with_dashes`. `save` (what a stored slug gets) also drops typographic
 * signs and turns dashes, wide spaces, `&nbsp;`/`&ndash;`/`&mdash;` and `/` into dashes; a lookup
 * (`query`) does not.
 */
function sanitizeWithDashes(title: string, context: 'save' | 'query'): string {
  let t = title
    .replace(/<[^>]*>/g, '')
    .replace(/%([a-fA-F0-9]{2})/g, '---$1---')
    .replace(/%/g, '')
    .replace(/---([a-fA-F0-9]{2})---/g, '%$1');
  t = utf8UriEncode(t.toLowerCase(), MAX_SLUG_LENGTH).toLowerCase();
  if (context === 'save') {
    t = t
      .replace(DASHED_WHEN_SAVED, '-')
      .replace(/&nbsp;|&#160;|&ndash;|&#8211;|&mdash;|&#8212;|\//g, '-')
      .replace(DROPPED_WHEN_SAVED, '')
      .replace(/%c3%97/g, 'x');
  }
  return t
    .replace(/&.+?;/g, '')
    .replace(/\./g, '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * WordPress `sanitize_title` as a slug is saved: accents removed, then {@link sanitizeWithDashes}.
 * Empty when nothing is left (callers choose the fallback).
 */
export function sanitizeTitle(title: string): string {
  return sanitizeWithDashes(removeAccents(title), 'save');
}

/** WordPress `sanitize_title_with_dashes` used as an argument's sanitiser (not the save context): accents kept, lower-cased, dashed. */
export function sanitizeTitleWithDashes(title: string): string {
  return sanitizeWithDashes(title, 'query');
}

/** PHP `urldecode`, to bytes: `+` is a space and `%xx` a byte; a malformed escape stays as written. */
function urlDecode(text: string): Buffer {
  const spaced = text.replace(/\+/g, ' ');
  const bytes: number[] = [];
  for (let i = 0; i < spaced.length; i++) {
    if (spaced[i] === '%' && /^[0-9a-fA-F]{2}$/.test(spaced.slice(i + 1, i + 3))) {
      bytes.push(parseInt(spaced.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const code = spaced.charCodeAt(i);
      if (code < 0x80) bytes.push(code);
      else {
        const ch = String.fromCodePoint(spaced.codePointAt(i)!);
        bytes.push(...Buffer.from(ch, 'utf8'));
        i += ch.length - 1;
      }
    }
  }
  return Buffer.from(bytes);
}

/** PHP `rawurlencode`: every byte but `A-Z a-z 0-9 - _ . ~` as upper-case `%XX`. */
function rawUrlEncode(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The slug `get_page_by_path` looks for when given one path segment, written or percent-encoded:
 * `привет`, `%D0%BF…` and `%d0%bf…` all name the post stored as `%d0%bf…`.
 */
export function pathSlug(segment: string): string {
  return sanitizeWithDashes(rawUrlEncode(urlDecode(segment)).replace(/%20/g, ' '), 'query');
}

/**
 * A slug cut to `length` characters without splitting a percent-encoded character, trailing dashes
 * dropped (WordPress `_truncate_post_slug`).
 */
export function truncateSlug(slug: string, length: number): string {
  if (slug.length <= length) return slug.replace(/-+$/, '');
  const cut = /%[0-9a-f]{2}/.test(slug) ? utf8UriEncode(urlDecode(slug).toString('utf8'), length) : slug.slice(0, length);
  return cut.replace(/-+$/, '');
}
