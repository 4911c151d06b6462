/**
 * @module namespaces/events/caps
 * WordPress's meta capabilities (`read_post`, `edit_post`, `delete_post`) for the calendar's post types,
 * mapped to their primitive capabilities as `map_meta_cap` does: `edit_tribe_events`,
 * `edit_others_tribe_events`, `edit_published_tribe_events`, `read_private_tribe_events`, …
 */
import type { RestUser } from '../../rest/route.js';

/** Post types of this area. */
export const EVENT_TYPE = 'tribe_events';
export const VENUE_TYPE = 'tribe_venue';
export const ORGANIZER_TYPE = 'tribe_organizer';
/** Taxonomies of this area (tags are WordPress's shared `post_tag`). */
export const CATEGORY_TAXONOMY = 'tribe_events_cat';
export const TAG_TAXONOMY = 'post_tag';

export type CalendarPostType = typeof EVENT_TYPE | typeof VENUE_TYPE | typeof ORGANIZER_TYPE;

/** The plural capability base of a post type (`capability_type` second element). */
const CAP_BASE: Record<CalendarPostType, string> = {
  [EVENT_TYPE]: 'tribe_events',
  [VENUE_TYPE]: 'tribe_venues',
  [ORGANIZER_TYPE]: 'tribe_organizers',
};

type Primitive = 'edit' | 'edit_others' | 'edit_published' | 'edit_private' | 'publish' | 'read_private' | 'delete' | 'delete_others' | 'delete_published' | 'delete_private';

/** `edit_tribe_events`, `publish_tribe_venues`, … */
export function capName(type: CalendarPostType, primitive: Primitive): string {
  return `${primitive}_${CAP_BASE[type]}`;
}

/** The user holds the primitive capability. */
export function can(user: RestUser | null, type: CalendarPostType, primitive: Primitive): boolean {
  return user !== null && user.can(capName(type, primitive));
}

/** A taxonomy's term capabilities (`manage_terms` for create, `edit_terms`, `delete_terms`). */
export type TermCapability = 'manage_terms' | 'edit_terms' | 'delete_terms';

/**
 * The primitive each term capability maps to. Neither taxonomy names its own, so WordPress's default
 * applies: `manage_categories`, which editors and administrators hold.
 */
const TERM_CAPS: Record<string, Record<TermCapability, string>> = {
  [CATEGORY_TAXONOMY]: { manage_terms: 'manage_categories', edit_terms: 'manage_categories', delete_terms: 'manage_categories' },
  [TAG_TAXONOMY]: { manage_terms: 'manage_categories', edit_terms: 'manage_categories', delete_terms: 'manage_categories' },
};

/** The user holds the taxonomy's term capability. */
export function canTerms(user: RestUser | null, taxonomy: string, capability: TermCapability): boolean {
  const primitive = TERM_CAPS[taxonomy]?.[capability];
  return user !== null && primitive !== undefined && user.can(primitive);
}

/** The parts of a post the meta capabilities look at. */
export interface OwnedPost {
  status: string;
  author: number;
}

const PUBLISHED = new Set(['publish', 'future']);

/** `edit_post`: own posts need `edit_*`, others' `edit_others_*`; published and private need more. */
export function canEditPost(user: RestUser | null, type: CalendarPostType, post: OwnedPost): boolean {
  if (!user) return false;
  const own = post.author === user.id;
  if (!can(user, type, own ? 'edit' : 'edit_others')) return false;
  if (own && !can(user, type, 'edit')) return false;
  if (PUBLISHED.has(post.status) && !can(user, type, 'edit_published')) return false;
  if (post.status === 'private' && !own && !can(user, type, 'edit_private')) return false;
  return true;
}

/** `delete_post`, mapped like `edit_post` with the `delete_*` primitives. */
export function canDeletePost(user: RestUser | null, type: CalendarPostType, post: OwnedPost): boolean {
  if (!user) return false;
  const own = post.author === user.id;
  if (!can(user, type, 'delete')) return false;
  if (!own && !can(user, type, 'delete_others')) return false;
  if (PUBLISHED.has(post.status) && !can(user, type, 'delete_published')) return false;
  if (post.status === 'private' && !can(user, type, 'delete_private')) return false;
  return true;
}

/** `read_post`: published for everyone, private for readers of private posts (or the author), the rest for editors of the post. */
export function canReadPost(user: RestUser | null, type: CalendarPostType, post: OwnedPost): boolean {
  if (post.status === 'publish') return true;
  if (!user) return false;
  if (post.status === 'private') return post.author === user.id || can(user, type, 'read_private');
  return canEditPost(user, type, post);
}

/**
 * Ticket "manage access" without an API key: users who can `edit_users` or `tribe_manage_attendees`
 * see events hidden from listings (Event Tickets' exception).
 */
export function hasManageAccess(user: RestUser | null): boolean {
  return user !== null && (user.can('edit_users') || user.can('tribe_manage_attendees'));
}

/**
 * How long a signed-out read of the calendar may be reused (`publicCacheMs`): public calendar data
 * changes rarely, and a moment's reuse keeps hot lists off the database.
 */
export const PUBLIC_READ_CACHE_MS = 2_000;
