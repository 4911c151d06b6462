/**
 * @module namespaces/events/ical/ical-fields
 * The event fields of one VEVENT as `ical-parse.ts` imports them: LOCATION (and Apple's structured
 * location) → venue, ORGANIZER → organizer, CATEGORIES, URL, an image ATTACH, STATUS:CANCELLED, and
 * the refusal of URLs holding control characters.
 */
import type ICAL from 'ical.js';
import { hasControlCharacter, normalisedHttpUrl } from '../../../content/imported-urls.js';
import type { ImportFields } from './ical-parse.js';

export function str(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.map(str).join(',');
  return String(v);
}

export function httpUrl(value: unknown): string | null {
  return normalisedHttpUrl(str(value));
}

/** Why the VEVENT's URL or an ATTACH holds a control character (refused: see content/imported-urls); undefined when none does. */
export function controlCharacterInUrls(comp: ICAL.Component): string | undefined {
  if (hasControlCharacter(str(comp.getFirstPropertyValue('url')))) return 'URL holds a control character';
  for (const prop of comp.getAllProperties('attach')) {
    if (prop.getParameter('encoding') || prop.getParameter('value') === 'BINARY') continue;
    if (hasControlCharacter(str(prop.getFirstValue()))) return 'ATTACH holds a control character';
  }
  return undefined;
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function venueOf(comp: ICAL.Component): ImportFields['venue'] {
  const location = str(comp.getFirstPropertyValue('location')).trim();
  const title = str(comp.getFirstProperty('x-apple-structured-location')?.getParameter('x-title')).trim();
  if (title !== '') {
    const rest = location.startsWith(title) ? location.slice(title.length).replace(/^[\s,]+/, '') : location;
    return rest !== '' && rest !== title ? { venue: title, address: rest } : { venue: title };
  }
  return location === '' ? null : { venue: location };
}

export function organizerOf(comp: ICAL.Component): ImportFields['organizer'] {
  const prop = comp.getFirstProperty('organizer');
  if (!prop) return null;
  const cn = str(prop.getParameter('cn')).trim();
  const value = str(prop.getFirstValue()).trim();
  const m = /^mailto:(.+)$/i.exec(value);
  let email = m ? m[1]!.trim() : '';
  try {
    email = decodeURIComponent(email);
  } catch {
    // keep it as written
  }
  if (!EMAIL.test(email)) email = '';
  const name = cn || email;
  if (name === '') return null;
  return email !== '' ? { organizer: name, email } : { organizer: name };
}

export function categoriesOf(comp: ICAL.Component): string[] {
  const out: string[] = [];
  for (const prop of comp.getAllProperties('categories')) {
    for (const v of prop.getValues()) {
      const name = str(v).trim();
      if (name !== '' && !out.includes(name)) out.push(name);
    }
  }
  return out;
}

const IMAGE_PATH = /\.(jpe?g|png|gif|webp|avif|svg|bmp|tiff?)(?:[?#]|$)/i;

export function imageOf(comp: ICAL.Component): string | null {
  for (const prop of comp.getAllProperties('attach')) {
    if (prop.getParameter('encoding') || prop.getParameter('value') === 'BINARY') continue;
    const url = httpUrl(prop.getFirstValue());
    if (!url) continue;
    const type = str(prop.getParameter('fmttype')).toLowerCase();
    if (type.startsWith('image/') || (type === '' && IMAGE_PATH.test(url))) return url;
  }
  return null;
}

export function isCancelled(comp: ICAL.Component): boolean {
  return str(comp.getFirstPropertyValue('status')).trim().toUpperCase() === 'CANCELLED';
}
