/**
 * @module namespaces/events/events.present
 * The event object (reference 1.1) from an {@link EventRecord} and the page's batch-loaded relations,
 * including the blanking of password-protected events and the single-event JSON-LD.
 */
import { dateDetails, normaliseZone, renderContent, renderTitle, stripTags } from '../../content/posts.js';
import type { MediaFacts } from '../../content/media.js';
import { localToIso } from '../../content/zone-offset.js';
import type { TermRecord } from '../../content/terms.js';
import type { SiteUrls } from '../../config.js';
import { CATEGORY_TAXONOMY, TAG_TAXONOMY } from './caps.js';
import { displayCost } from './cost.js';
import type { EventRecord } from './events.repo.js';
import type { EventFieldProvider } from './extensions.js';
import {
  EVENTS_NAMESPACE, globalIds, imageObject, organizerJsonLd, presentEmbeddedTerm, presentOrganizer,
  presentVenue, venueJsonLd, dropEmpty, type LinkedPresentOptions,
} from './linked.present.js';
import type { OrganizerRecord, VenueRecord } from './linked.repo.js';

/** Everything the presenter needs besides the event, loaded once per page. */
export interface EventPage {
  urls: SiteUrls;
  venueIds: Map<number, number[]>;
  organizerIds: Map<number, number[]>;
  venues: Map<number, VenueRecord>;
  organizers: Map<number, OrganizerRecord>;
  terms: Map<number, TermRecord[]>;
  /** Per provider (registration order): its fields per event ID. */
  extras: { provider: EventFieldProvider; fields: Map<number, Record<string, unknown>> }[];
  /** Venue and organizer objects already built for this page, by post ID (shared, never mutated). */
  presented?: Map<number, Record<string, unknown>>;
  /** Embedded term objects already built for this page, by term ID (shared, never mutated). */
  presentedTerms?: Map<number, Record<string, unknown>>;
  /** File facts of the page's images (events', venues', organizers'), by attachment ID. */
  media?: ReadonlyMap<number, MediaFacts>;
}

export interface PresentOptions {
  /** Single-event answers add `json_ld`. */
  single: boolean;
  /** Blank the protected fields (password-protected event shown without its password). */
  redact: boolean;
}

const EMPTY_COST_DETAILS = { currency_symbol: '', currency_position: '', currency_code: '', values: [] as string[] };

/** Schema.org Event of an event (single GET only). */
export function eventJsonLd(page: EventPage, ev: EventRecord, venues: VenueRecord[], organizers: OrganizerRecord[]): Record<string, unknown> {
  const url = page.urls.permalink(ev);
  const out: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: renderTitle(ev.title),
    description: stripTags(ev.excerpt || ev.content),
  };
  if (ev.image_url) out.image = ev.image_url;
  out.url = url;
  out.eventAttendanceMode = 'https://schema.org/OfflineEventAttendanceMode';
  out.eventStatus = 'https://schema.org/EventScheduled';
  const zone = normaliseZone(ev.timezone) ?? 'UTC';
  out.startDate = localToIso(ev.startLocal, zone);
  out.endDate = localToIso(ev.endLocal, zone);
  if (venues.length > 0) out.location = venues.length === 1 ? venueJsonLd(page.urls, venues[0]!) : venues.map((v) => venueJsonLd(page.urls, v));
  if (organizers.length > 0) out.organizer = organizers.length === 1 ? organizerJsonLd(page.urls, organizers[0]!) : organizers.map((o) => organizerJsonLd(page.urls, o));
  if (ev.costValues.length > 0) {
    out.offers = dropEmpty({
      '@type': 'Offer',
      price: ev.costValues[0],
      priceCurrency: ev.currencyCode,
      url,
      category: 'primary',
      availability: 'inStock',
      validFrom: `${ev.date_gmt.replace(' ', 'T')}+00:00`,
    });
    (out.offers as Record<string, unknown>).price = ev.costValues[0];
  }
  out.performer = 'Organization';
  return out;
}

/** The object `make` builds for `id`, built once per page when the page keeps them in `built`. */
function builtOnce(built: Map<number, Record<string, unknown>> | undefined, id: number, make: () => Record<string, unknown>): Record<string, unknown> {
  if (!built) return make();
  let out = built.get(id);
  if (!out) built.set(id, (out = make()));
  return out;
}

/** A venue/organizer object, built once per page however many of its events the page shows. */
function linkedObject<T extends { id: number }>(page: EventPage, record: T, present: (urls: SiteUrls, record: T, options: LinkedPresentOptions) => Record<string, unknown>): Record<string, unknown> {
  return builtOnce(page.presented, record.id, () => present(page.urls, record, { media: page.media }));
}

/** The embedded terms of `taxonomy` among `terms`, each term object built once per page. */
function embeddedTerms(page: EventPage, terms: readonly TermRecord[], taxonomy: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const t of terms) if (t.taxonomy === taxonomy) out.push(builtOnce(page.presentedTerms, t.id, () => presentEmbeddedTerm(page.urls, t)));
  return out;
}

/** The event object. Keys are in the originals' order; extension fields are merged last. */
export function presentEvent(page: EventPage, ev: EventRecord, options: PresentOptions): Record<string, unknown> {
  // A trashed venue/organizer is never shown, even if a link to it was left behind.
  const venues = (page.venueIds.get(ev.id) ?? []).map((id) => page.venues.get(id)).filter((v): v is VenueRecord => v !== undefined && v.status !== 'trash');
  const organizers = (page.organizerIds.get(ev.id) ?? []).map((id) => page.organizers.get(id)).filter((o): o is OrganizerRecord => o !== undefined && o.status !== 'trash');
  const terms = page.terms.get(ev.id) ?? [];
  const url = page.urls.permalink(ev);
  const r = options.redact;

  const data: Record<string, unknown> = {
    id: ev.id,
    ...globalIds(page.urls, ev.id, ev.lineage),
    author: String(ev.author),
    status: ev.status,
    date: ev.date,
    date_utc: ev.date_gmt,
    modified: ev.modified,
    modified_utc: ev.modified_gmt,
    url,
    rest_url: page.urls.rest(`${EVENTS_NAMESPACE}/events/${ev.id}`),
    title: renderTitle(ev.title),
    description: r ? '' : (ev.contentHtml ?? renderContent(ev.content)),
    excerpt: r ? '' : (ev.excerptHtml ?? renderContent(ev.excerpt)),
    slug: ev.slug,
    image: r ? false : imageObject(ev.image_url, ev.imageId, page.media?.get(ev.imageId)),
    all_day: r ? null : ev.allDay,
    start_date: ev.startLocal,
    start_date_details: dateDetails(ev.startLocal),
    end_date: ev.endLocal,
    end_date_details: dateDetails(ev.endLocal),
    utc_start_date: ev.startUtc,
    utc_start_date_details: dateDetails(ev.startUtc),
    utc_end_date: ev.endUtc,
    utc_end_date_details: dateDetails(ev.endUtc),
    timezone: ev.timezone,
    timezone_abbr: ev.timezoneAbbr,
    cost: r ? '' : displayCost(ev.cost, ev.costValues, ev.currencySymbol, ev.currencyPosition),
    cost_details: r
      ? { ...EMPTY_COST_DETAILS, values: [] }
      : { currency_symbol: ev.currencySymbol, currency_code: ev.currencyCode, currency_position: ev.currencyPosition, values: [...ev.costValues] },
    website: r ? '' : (ev.website ?? url),
    show_map: r ? null : (ev.showMap ?? true),
    show_map_link: r ? null : (ev.showMapLink ?? true),
    hide_from_listings: r ? null : ev.hideFromListings,
    sticky: r ? null : ev.menu_order === -1,
    featured: r ? null : ev.featured,
    categories: r ? [] : embeddedTerms(page, terms, CATEGORY_TAXONOMY),
    tags: r ? [] : embeddedTerms(page, terms, TAG_TAXONOMY),
    venue: r || venues.length === 0 ? [] : venues.length === 1 ? linkedObject(page, venues[0]!, presentVenue) : venues.map((v) => linkedObject(page, v, presentVenue)),
    organizer: r ? [] : organizers.map((o) => linkedObject(page, o, presentOrganizer)),
    custom_fields: [],
  };
  if (options.single) data.json_ld = eventJsonLd(page, ev, venues, organizers);
  for (const { provider, fields } of page.extras) {
    const extra = fields.get(ev.id);
    if (!extra) continue;
    if (r) {
      for (const key of Object.keys(extra)) {
        if (provider.redacted && Object.hasOwn(provider.redacted, key)) data[key] = provider.redacted[key];
      }
    } else {
      Object.assign(data, extra);
    }
  }
  return data;
}

/**
 * The fields of an event object the calendar views show (title, link, dates, flags, cost, image,
 * excerpt, venue and organizers), with the values of {@link presentEvent}: pages of them need no
 * terms, no extension fields and no date details.
 */
export function presentCalendarEvent(page: EventPage, ev: EventRecord, redact: boolean): Record<string, unknown> {
  const venues = (page.venueIds.get(ev.id) ?? []).map((id) => page.venues.get(id)).filter((v): v is VenueRecord => v !== undefined && v.status !== 'trash');
  const organizers = (page.organizerIds.get(ev.id) ?? []).map((id) => page.organizers.get(id)).filter((o): o is OrganizerRecord => o !== undefined && o.status !== 'trash');
  const url = page.urls.permalink(ev);
  return {
    id: ev.id,
    url,
    title: renderTitle(ev.title),
    excerpt: redact ? '' : (ev.excerptHtml ?? renderContent(ev.excerpt)),
    image: redact ? false : imageObject(ev.image_url, ev.imageId, page.media?.get(ev.imageId)),
    all_day: redact ? null : ev.allDay,
    start_date: ev.startLocal,
    end_date: ev.endLocal,
    timezone: ev.timezone,
    cost: redact ? '' : displayCost(ev.cost, ev.costValues, ev.currencySymbol, ev.currencyPosition),
    sticky: redact ? null : ev.menu_order === -1,
    featured: redact ? null : ev.featured,
    venue: redact || venues.length === 0 ? [] : venues.length === 1 ? linkedObject(page, venues[0]!, presentVenue) : venues.map((v) => linkedObject(page, v, presentVenue)),
    organizer: redact ? [] : organizers.map((o) => linkedObject(page, o, presentOrganizer)),
  };
}
