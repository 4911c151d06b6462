/**
 * @module namespaces/event-import/url-fields
 * The URL fields of an imported item (image, website, the venue's and organizers' websites), whatever
 * fed it: an item with a control character in one is refused, and the image URL is stored in the
 * normalised form it is checked in (see `content/imported-urls.ts`).
 */
import { hasControlCharacter, normalisedHttpUrl } from '../../content/imported-urls.js';
import type { ImportedItem, SkippedItem } from './fields.js';

/** The item with its image URL normalised, or why it is refused. */
export function checkedUrls(item: ImportedItem): ImportedItem | SkippedItem {
  const f = item.fields;
  const urls: [string, string | null | undefined][] = [
    ['image', f.image],
    ['website', f.website],
    ['venue website', f.venue?.website],
    ...f.organizers.map((o): [string, string | undefined] => ['organizer website', o.website]),
  ];
  for (const [field, value] of urls) {
    if (value && hasControlCharacter(value)) return { uid: item.key, reason: `${field} holds a control character` };
  }
  const image = f.image ? normalisedHttpUrl(f.image) : null;
  return image === f.image ? item : { key: item.key, fields: { ...f, image } };
}
