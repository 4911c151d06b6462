/**
 * @module namespaces/events/write-guard
 * What WordPress applies to a calendar post write because of who writes it, called by the event,
 * venue and organizer write handlers before the service stores anything:
 *
 * - Users without `unfiltered_html` (authors, contributors) have titles, descriptions and excerpts
 *   filtered by kses (`content/kses.ts`), as `kses_init_filters` does on save; nested venues and
 *   organizers created with an event too. Editors and administrators keep raw HTML.
 * - Setting `author` to anyone but oneself needs the type's `edit_others_*` capability, with
 *   WordPress's `rest_cannot_edit_others` (`WP_REST_Posts_Controller` permission checks).
 */
import { ksesPost, ksesTitle } from '../../content/kses.js';
import { CoreErrors } from '../../rest/errors.js';
import type { RestUser } from '../../rest/route.js';
import { can, EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE, type CalendarPostType } from './caps.js';
import type { EventInput } from './events.service.js';
import type { LinkedInput } from './linked.service.js';
import type { LinkedKind } from './linked.repo.js';

const MESSAGES = {
  create: 'Sorry, you are not allowed to create posts as this user.',
  update: 'Sorry, you are not allowed to update posts as this user.',
} as const;

const LINKED_TYPE: Record<LinkedKind, CalendarPostType> = { venue: VENUE_TYPE, organizer: ORGANIZER_TYPE };

function filtered(value: unknown, filter: (html: string) => string): unknown {
  return typeof value === 'string' ? filter(value) : typeof value === 'number' ? filter(String(value)) : value;
}

/** Throws `rest_cannot_edit_others` when `author` names someone else and the user may not. */
function assertAuthor(user: RestUser | null, type: CalendarPostType, author: unknown, create: boolean): void {
  if (author === undefined || author === null || author === '' || Number(author) === 0) return;
  if (user !== null && Number(author) === user.id) return;
  if (can(user, type, 'edit_others')) return;
  throw CoreErrors.forbidden(user !== null, create ? MESSAGES.create : MESSAGES.update, 'rest_cannot_edit_others');
}

function guardLinkedFields(user: RestUser | null, kind: LinkedKind, input: LinkedInput, create: boolean, raw: boolean): LinkedInput {
  assertAuthor(user, LINKED_TYPE[kind], input.author, create);
  if (raw) return input;
  const out: LinkedInput = { ...input };
  if (out[kind] !== undefined) out[kind] = filtered(out[kind], ksesTitle);
  if (out.description !== undefined) out.description = filtered(out.description, ksesPost);
  return out;
}

/** Venues or organizers sent inside an event: each object (not an ID) is a create. */
function guardNested(user: RestUser | null, kind: LinkedKind, value: unknown, raw: boolean): unknown {
  const one = (item: unknown): unknown =>
    item !== null && typeof item === 'object' && !Array.isArray(item) ? guardLinkedFields(user, kind, item as LinkedInput, true, raw) : item;
  if (Array.isArray(value)) return value.map(one);
  if (value !== null && typeof value === 'object') {
    const rec = value as Record<string, unknown>;
    const keys = Object.keys(rec);
    // A map of list positions (`venue[0][venue]=…`) or one object.
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) return Object.fromEntries(keys.map((k) => [k, one(rec[k])]));
    return one(value);
  }
  return value;
}

/** The event fields as they may be stored for this user; throws `rest_cannot_edit_others`. */
export function guardEventWrite(user: RestUser | null, input: EventInput, create: boolean): EventInput {
  assertAuthor(user, EVENT_TYPE, input.author, create);
  const raw = user?.can('unfiltered_html') === true;
  const out: EventInput = { ...input };
  if (!raw) {
    if (out.title !== undefined) out.title = filtered(out.title, ksesTitle);
    if (out.description !== undefined) out.description = filtered(out.description, ksesPost);
    if (out.excerpt !== undefined) out.excerpt = filtered(out.excerpt, ksesPost);
  }
  if (out.venue !== undefined) out.venue = guardNested(user, 'venue', out.venue, raw);
  if (out.organizer !== undefined) out.organizer = guardNested(user, 'organizer', out.organizer, raw);
  return out;
}

/** The venue or organizer fields as they may be stored for this user; throws `rest_cannot_edit_others`. */
export function guardLinkedWrite(user: RestUser | null, kind: LinkedKind, input: LinkedInput, create: boolean): LinkedInput {
  return guardLinkedFields(user, kind, input, create, user?.can('unfiltered_html') === true);
}
