/**
 * @module namespaces/events/linked.present
 * Venue, organizer and term objects in the originals' shapes, plus the pieces every calendar object
 * shares (permalinks, global IDs, images).
 */
import { sizeUrl, type MediaFacts } from '../../content/media.js';
import { renderContent, renderTitle, stripTags } from '../../content/posts.js';
import type { TermRecord } from '../../content/terms.js';
import type { SiteUrls } from '../../config.js';
import { CATEGORY_TAXONOMY } from './caps.js';
import type { OrganizerRecord, VenueRecord } from './linked.repo.js';

/** The namespace every URL of this area is built in. */
export const EVENTS_NAMESPACE = 'eventsuite/events/v1';

const RENDERED_MAX_ENTRIES = 2_000;
const RENDERED_MAX_TEXT = 16_384;
/** Characters (texts and their HTML) the memo holds at most. */
export const RENDERED_MAX_CHARS = 4 * 1024 * 1024;
const rendered = new Map<string, string>();
let renderedChars = 0;

/**
 * `renderContent` remembered by text: the same few venues and organizers appear on page after page,
 * and their descriptions would otherwise be rendered for every event that shows them.
 */
export function renderLinkedContent(text: string): string {
  if (text === '') return '';
  let html = rendered.get(text);
  if (html !== undefined) return html;
  html = renderContent(text);
  if (text.length <= RENDERED_MAX_TEXT) {
    for (const [t, h] of rendered) {
      if (rendered.size < RENDERED_MAX_ENTRIES && renderedChars + text.length + html.length <= RENDERED_MAX_CHARS) break;
      rendered.delete(t);
      renderedChars -= t.length + h.length;
    }
    rendered.set(text, html);
    renderedChars += text.length + html.length;
  }
  return html;
}

/** Texts and characters the memo holds (tests). */
export function renderedMemoSize(): { entries: number; chars: number } {
  return { entries: rendered.size, chars: renderedChars };
}

/** `host/path` of the home URL, the origin part of global IDs. */
export function globalIdOrigin(urls: SiteUrls): string {
  let origin = origins.get(urls);
  if (origin === undefined) origins.set(urls, (origin = urls.home.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '')));
  return origin;
}

/** {@link globalIdOrigin} by site (every event, venue and organizer object asks). */
const origins = new WeakMap<SiteUrls, string>();

/** `cal.example.org?id=412` and the lineage (own ID first, then stored origins). */
export function globalIds(urls: SiteUrls, id: number, lineage: readonly string[]): { global_id: string; global_id_lineage: string[] } {
  const own = `${globalIdOrigin(urls)}?id=${id}`;
  return { global_id: own, global_id_lineage: [...new Set([own, ...lineage])] };
}

/**
 * The featured image object (`false` when none), with its file's facts and smaller sizes when it is in
 * the media library (TEC's `get_featured_image`: the attachment metadata without `file` and
 * `image_meta`, each size with its URL instead of its file); empty values are left out as the
 * originals do.
 */
export function imageObject(url: string, attachmentId: number, facts?: MediaFacts): false | Record<string, unknown> {
  if (!url) return false;
  const path = url.split(/[?#]/)[0] ?? '';
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  const out: Record<string, unknown> = { url };
  if (attachmentId > 0) out.id = attachmentId;
  if (ext) out.extension = ext;
  if (!facts) return out;
  out.width = facts.width;
  out.height = facts.height;
  out.filesize = facts.filesize;
  if (facts.sizes.length > 0) {
    const sizes: Record<string, unknown> = {};
    for (const s of facts.sizes) sizes[s.name] = { width: s.width, height: s.height, 'mime-type': facts.mime, filesize: s.filesize, url: sizeUrl(path, s) };
    out.sizes = sizes;
  }
  if (facts.originalFile) out.original_image = facts.originalFile;
  return out;
}

/** What the linked presenters take besides the record. */
export interface LinkedPresentOptions {
  jsonLd?: boolean;
  /** File facts of the images shown, by attachment ID (`mediaFactsOf`). */
  media?: ReadonlyMap<number, MediaFacts>;
}

/** PHP `array_filter` without a callback: drops '', '0', 0, false, null, [] values. */
export function dropEmpty(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // `for…in` rather than `Object.entries`: the same keys in the same order (plain objects), without
  // an array per entry; venue and organizer objects of every page go through here.
  for (const k in obj) {
    const v = obj[k];
    if (v === '' || v === '0' || v === 0 || v === false || v === null || v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out;
}

/** Schema.org Place of a venue. */
export function venueJsonLd(urls: SiteUrls, v: VenueRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '@type': 'Place',
    name: renderTitle(v.title),
    description: stripTags(v.excerpt || v.content),
    url: urls.permalink(v),
    address: dropEmpty({ '@type': 'PostalAddress', streetAddress: v.address, addressLocality: v.city, addressRegion: v.stateprovince || v.state || v.province, postalCode: v.zip, addressCountry: v.country }),
    telephone: v.phone,
    sameAs: v.website,
  };
  if (v.geoLat !== null && v.geoLng !== null) out.geo = { '@type': 'GeoCoordinates', latitude: v.geoLat, longitude: v.geoLng };
  if (v.image_url) out.image = v.image_url;
  return dropEmpty(out);
}

/** Schema.org Person of an organizer. */
export function organizerJsonLd(urls: SiteUrls, o: OrganizerRecord): Record<string, unknown> {
  return dropEmpty({
    '@type': 'Person',
    name: renderTitle(o.title),
    description: stripTags(o.excerpt || o.content),
    url: urls.permalink(o),
    telephone: o.phone,
    email: o.email,
    sameAs: o.website,
    image: o.image_url,
  });
}

/** The venue object (1.2): empty values dropped, then map flags and global IDs appended. */
export function presentVenue(urls: SiteUrls, v: VenueRecord, options: LinkedPresentOptions = {}): Record<string, unknown> {
  const data: Record<string, unknown> = dropEmpty({
    id: v.id,
    author: String(v.author),
    status: v.status,
    date: v.date,
    date_utc: v.date_gmt,
    modified: v.modified,
    modified_utc: v.modified_gmt,
    url: urls.permalink(v),
    venue: renderTitle(v.title),
    description: renderLinkedContent(v.content),
    excerpt: renderLinkedContent(v.excerpt),
    slug: v.slug,
    image: imageObject(v.image_url, v.imageId, options.media?.get(v.imageId)),
    address: v.address,
    city: v.city,
    country: v.country,
    province: v.province,
    state: v.state,
    zip: v.zip,
    phone: v.phone,
    website: v.website,
    stateprovince: v.stateprovince,
  });
  if (v.geoLat !== null && v.geoLng !== null) {
    data.geo_lat = v.geoLat;
    data.geo_lng = v.geoLng;
  }
  if (options.jsonLd) data.json_ld = { '@context': 'http://schema.org', ...venueJsonLd(urls, v) };
  data.show_map = v.showMap;
  data.show_map_link = v.showMapLink;
  Object.assign(data, globalIds(urls, v.id, v.lineage));
  return data;
}

/** The organizer object (1.3): every empty value dropped. */
export function presentOrganizer(urls: SiteUrls, o: OrganizerRecord, options: LinkedPresentOptions = {}): Record<string, unknown> {
  const data: Record<string, unknown> = {
    id: o.id,
    author: String(o.author),
    status: o.status,
    date: o.date,
    date_utc: o.date_gmt,
    modified: o.modified,
    modified_utc: o.modified_gmt,
    url: urls.permalink(o),
    organizer: renderTitle(o.title),
    description: renderLinkedContent(o.content),
    excerpt: renderLinkedContent(o.excerpt),
    slug: o.slug,
    image: imageObject(o.image_url, o.imageId, options.media?.get(o.imageId)),
    phone: o.phone,
    website: o.website,
    email: o.email,
  };
  if (options.jsonLd) data.json_ld = { '@context': 'http://schema.org', ...organizerJsonLd(urls, o) };
  Object.assign(data, globalIds(urls, o.id, o.lineage));
  return dropEmpty(data);
}

/** Route segment of a taxonomy. */
export function termRouteBase(taxonomy: string): 'categories' | 'tags' {
  return taxonomy === CATEGORY_TAXONOMY ? 'categories' : 'tags';
}

/** `urls` of a term: self, collection and (with a parent) up. */
export function termUrls(urls: SiteUrls, t: TermRecord): Record<string, string> {
  const base = termRouteBase(t.taxonomy);
  const out: Record<string, string> = {
    self: urls.rest(`${EVENTS_NAMESPACE}/${base}/${t.id}`),
    collection: urls.rest(`${EVENTS_NAMESPACE}/${base}`),
  };
  if (t.parent !== 0) out.up = urls.rest(`${EVENTS_NAMESPACE}/${base}/${t.parent}`);
  return out;
}

/** The public archive link of a term. */
export function termLink(urls: SiteUrls, t: TermRecord): string {
  return t.taxonomy === CATEGORY_TAXONOMY ? `${urls.home}/events/category/${t.slug}/` : `${urls.home}/tag/${t.slug}/`;
}

/** A term as embedded in an event: the raw term row plus `id` and `urls`. */
export function presentEmbeddedTerm(urls: SiteUrls, t: TermRecord): Record<string, unknown> {
  return {
    name: t.name,
    slug: t.slug,
    term_group: 0,
    term_taxonomy_id: t.id,
    taxonomy: t.taxonomy,
    description: t.description,
    parent: t.parent,
    count: t.count,
    filter: 'raw',
    id: t.id,
    urls: termUrls(urls, t),
  };
}

/** A term as the category/tag routes answer it (the terms controller's shape, `link` renamed `url`). */
export function presentTerm(urls: SiteUrls, t: TermRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: t.id,
    count: t.count,
    description: t.description,
    url: termLink(urls, t),
    name: t.name,
    slug: t.slug,
    taxonomy: t.taxonomy,
  };
  if (t.taxonomy === CATEGORY_TAXONOMY) out.parent = t.parent;
  out.meta = [];
  out.urls = termUrls(urls, t);
  return out;
}
