/**
 * @module namespaces/event-import/url-fields
 * The URL fields of an imported item (the images and websites of the event, its venue and organizers),
 * whatever fed it: an item with a control character in one is refused, and image URLs are stored in
 * the normalised form they are checked in (see `content/imported-urls.ts`).
 */
import { hasControlCharacter, normalisedHttpUrl } from '../../content/imported-urls.js';
import type { ImportedItem, SkippedItem } from './fields.js';

/** A linked post's copy with its image URL normalised (left out when it is no http(s) URL). */
function withNormalisedImage<T extends { image?: string }>(linked: T): T {
  if (linked.image === undefined) return linked;
  const { image, ...rest } = linked;
  const normalised = normalisedHttpUrl(image);
  if (normalised === image) return linked;
  return (normalised ? { ...rest, image: normalised } : rest) as T;
}

/** The item with its image URLs normalised, or why it is refused. */
export function checkedUrls(item: ImportedItem): ImportedItem | SkippedItem {
  const f = item.fields;
  const urls: [string, string | null | undefined][] = [
    ['image', f.image],
    ['website', f.website],
    ['venue website', f.venue?.website],
    ['venue image', f.venue?.image],
    ...f.organizers.flatMap((o): [string, string | undefined][] => [['organizer website', o.website], ['organizer image', o.image]]),
  ];
  for (const [field, value] of urls) {
    if (value && hasControlCharacter(value)) return { uid: item.key, reason: `${field} holds a control character` };
  }
  const image = f.image ? normalisedHttpUrl(f.image) : null;
  const venue = f.venue ? withNormalisedImage(f.venue) : null;
  const organizers = f.organizers.map(withNormalisedImage);
  const same = image === f.image && venue === f.venue && organizers.every((o, i) => o === f.organizers[i]);
  return same ? item : { key: item.key, fields: { ...f, image, venue, organizers } };
}
