/**
 * @module content/imported-urls
 * URL fields of content that arrives from elsewhere (imports, feeds): a control character in one is
 * refused outright — a CR/LF in a stored URL once let an imported image forge a whole VEVENT in the
 * public iCalendar feed — and URLs are kept in the form the WHATWG parser normalises them to, the
 * form that was checked.
 */

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** True when `text` holds a control character (see {@link CONTROL}). */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * An http(s) URL with a host in its normalised form (`new URL(…).href`); null for anything else. The
 * caller refuses values with control characters first: the parser would silently drop tabs and line
 * breaks, so the stored URL would differ from the one sent.
 */
export function normalisedHttpUrl(value: string): string | null {
  const text = value.trim();
  if (text === '' || hasControlCharacter(text)) return null;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url.href : null;
  } catch {
    return null;
  }
}
