/**
 * @module storage/tables/events
 * Tables of the events calendar area: one typed detail row per event, venue and organizer post (keyed
 * by the post ID, deleted with the post), and the event → venue / organizer links. Dates are text
 * `YYYY-MM-DD HH:MM:SS`; booleans are 0/1.
 */
import type { ColumnType } from 'kysely';

export interface EventDetailsTable {
  post_id: number;
  /** Mirror of `posts.status`, kept by the events service so list queries never touch `posts`. */
  status: string;
  /** Wall-clock start and end in the event's own time zone. */
  start_local: string;
  end_local: string;
  /** The same instants in UTC: every date filter and the default ordering use these. */
  start_utc: string;
  end_utc: string;
  /** IANA name or `UTC+5`-style offset; '' when unset. */
  timezone: string;
  timezone_abbr: string;
  all_day: number;
  /** Cost as entered (display text without the currency symbol); '' when none. */
  cost: string;
  /** JSON array of numeric strings, ascending. */
  cost_values: string;
  currency_symbol: string;
  currency_code: string;
  /** `prefix`, `postfix` or ''. */
  currency_position: string;
  /** null = no website stored (the permalink is shown instead). */
  website: string | null;
  /** null = never set (reported as true). */
  show_map: number | null;
  show_map_link: number | null;
  hide_from_listings: number;
  featured: number;
  /** Featured image attachment ID (0 when the image is a bare URL or none). */
  image_id: number;
  /** JSON array of origin global IDs (imports). */
  lineage: string;
  /** `description`/`excerpt` as rendered HTML, written with the post; null = render the raw text. */
  content_html: ColumnType<string | null, string | null | undefined, string | null>;
  excerpt_html: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface EventVenuesTable {
  event_id: number;
  venue_id: number;
  position: number;
}

export interface EventOrganizersTable {
  event_id: number;
  organizer_id: number;
  position: number;
}

export interface VenueDetailsTable {
  post_id: number;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateprovince: string;
  show_map: number;
  show_map_link: number;
  geo_lat: number | null;
  geo_lng: number | null;
  image_id: number;
  lineage: string;
}

export interface OrganizerDetailsTable {
  post_id: number;
  phone: string;
  website: string;
  email: string;
  image_id: number;
  lineage: string;
}

/** iCalendar import: item key (`UID` or `UID#RECURRENCE-ID`) → the event it became. */
export interface EventImportUidsTable {
  uid: string;
  post_id: number;
  /** JSON of the item's fields as last imported (compared on the next run). */
  fields: string;
  imported_gmt: string;
}

/**
 * Events per status, listing visibility, UTC start day and UTC end day (`YYYY-MM-DD`), kept by triggers
 * on `event_details`: archive totals over wide windows sum these (`countEventsInWindow`).
 */
export interface EventWindowDaysTable {
  status: string;
  /** `hide_from_listings` of the events counted. */
  hidden: number;
  start_day: string;
  end_day: string;
  n: number;
}

/**
 * One row per event and term, with the columns the archive filters and sorts on, ordered by term and
 * start; kept by triggers on `term_relationships`, `event_details` and `posts`. Lists filtered by
 * terms read their page and total from it (`events-list.repo`).
 */
export interface EventTermIndexTable {
  term_id: number;
  start_utc: string;
  /** `posts.date_gmt` of the event: the archive's second sort key. */
  date_gmt: string;
  post_id: number;
  end_utc: string;
  status: string;
  hide_from_listings: number;
  featured: number;
}

export interface EventTables {
  event_details: EventDetailsTable;
  event_window_days: EventWindowDaysTable;
  event_term_index: EventTermIndexTable;
  event_venues: EventVenuesTable;
  event_organizers: EventOrganizersTable;
  venue_details: VenueDetailsTable;
  organizer_details: OrganizerDetailsTable;
  event_import_uids: EventImportUidsTable;
}
