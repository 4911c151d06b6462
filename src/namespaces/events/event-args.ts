/**
 * @module namespaces/events/event-args
 * Argument declarations of the calendar routes, as the originals register them (key order, types,
 * defaults, descriptions), with the originals' validators attached. Discovery and `/doc` are
 * generated from these.
 */
import { DateTime } from 'luxon';
import { ANY_STATUSES, POST_STATUSES, DB_FORMAT } from '../../content/posts.js';
import { parseIdList, parseList } from '../../rest/php-query.js';
import { paginationArgs, type PaginationOptions } from '../../rest/pagination.js';
import type { ArgSchema, RestRequest } from '../../rest/route.js';
import { defineArgs, typedArg } from '../../rest/typed.js';
import { can, type CalendarPostType } from './caps.js';
import {
  checkOrganizerFields, checkVenueFields, isEventPathId, isImage, isNonEmptyString, isPositiveInt, isPositiveIntList, isPostStatus, isStringValue,
  isTime, isTimezoneOrEmpty, isUrlOrEmpty, linkedRefs, termRefs,
} from './validators.js';

/** A list filter's value: kept as the list of strings `wp_parse_list` makes of it. */
const asList = (v: unknown) => parseList(v);

/** An arg whose own `sanitize` passes the value through as sent (its handler parses it). */
const passThrough = (arg: ArgSchema): ArgSchema => arg;

/**
 * `filter_post_status_list`: non-editors may only ask for `publish`; editors any registered status,
 * or `any`.
 */
function statusList(type: CalendarPostType) {
  return (value: unknown, req: RestRequest): boolean => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return false;
    const list = parseList(value);
    if (list.length === 0) return false;
    if (!can(req.user, type, 'edit')) return list.length === 1 && list[0] === 'publish';
    // CASE: the originals' own `rest_url` for an editor carries `status=any` (every status but the
    // trash) and then refuse it when followed; we take it, so the link they hand out works.
    return list.every((s) => s === 'any' || (POST_STATUSES as readonly string[]).includes(s));
  };
}

/** A status list with `any` spelled out. */
const asStatusList = (v: unknown) => [...new Set(parseList(v).flatMap((s) => (s === 'any' ? [...ANY_STATUSES] : [s])))];

/**
 * Page sizes of the calendar's lists: `posts_per_page` when the client sends none, larger values
 * clamped to 50 (the originals' behaviour), never shown as bounds.
 */
export const CALENDAR_PAGING: PaginationOptions = { perPage: 10, max: 50, clamp: true, setting: 'posts_per_page' };

function pagingArgs(page: string, perPage: string): { page: ArgSchema; per_page: ArgSchema } {
  return paginationArgs({ ...CALENDAR_PAGING, pageDescription: page, perPageDescription: perPage });
}


// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/**
 * `text` of a moment, computed again only when the second changes: the archive's clock defaults are
 * text to the second, and every list request computes them (zone date arithmetic, tens of µs).
 */
function perSecond(text: (now: Date) => string): (now: Date) => string {
  let second = Number.NaN;
  let value = '';
  return (now) => {
    const s = Math.floor(now.getTime() / 1000);
    if (s !== second) {
      value = text(now);
      second = s;
    }
    return value;
  };
}

/** GET /events. */
export function eventArchiveArgs() {
  return defineArgs({
    ...pagingArgs('The archive page to return', 'The number of events to return on each page'),
    start_date: {
      defaultAt: perSecond((now) => DateTime.fromJSDate(now).minus({ days: 1 }).set({ hour: 23, minute: 59, second: 0 }).toFormat(DB_FORMAT)),
      description: 'Events that start on the specified date',
      type: 'string',
      validate: isTime,
    },
    end_date: {
      defaultAt: perSecond((now) => DateTime.fromJSDate(now).plus({ months: 24 }).toFormat(DB_FORMAT)),
      description: 'Events that end on the specified date',
      type: 'string',
      validate: isTime,
    },
    starts_before: { description: 'Events that start before the specified date', validate: isTime },
    starts_after: { description: 'Events that start after the specified date', validate: isTime },
    ends_before: { description: 'Events that end before the specified date', validate: isTime },
    ends_after: { description: 'Events that end after the specified date', validate: isTime },
    strict_dates: {
      default: 'false',
      description: 'Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.',
      validate: (v) => (typeof v === 'string' && v !== '') || typeof v === 'boolean' || v === 0 || v === 1,
    },
    search: { description: 'Events should contain the specified string in the title or description', type: 'string', validate: isNonEmptyString },
    categories: typedArg<string[]>({
      description: 'Events should be assigned one of the specified categories slugs or IDs',
      type: 'array',
      items: { type: 'integer' },
      validate: (v) => parseList(v).length > 0 && !(v !== null && typeof v === 'object' && !Array.isArray(v)),
      sanitize: asList,
    }),
    tags: typedArg<string[]>({
      description: 'Events should be assigned one of the specified tags slugs or IDs',
      type: 'array',
      items: { type: 'integer' },
      validate: (v) => parseList(v).length > 0 && !(v !== null && typeof v === 'object' && !Array.isArray(v)),
      sanitize: asList,
    }),
    venue: { description: 'Events should be assigned one of the specified venue IDs', type: 'array', items: { type: 'integer' }, validate: isPositiveIntList, sanitize: parseIdList },
    organizer: { description: 'Events should be assigned one of the specified organizer IDs', type: 'array', items: { type: 'integer' }, validate: isPositiveIntList, sanitize: parseIdList },
    featured: { description: 'Events should be filtered by their featured status', type: 'boolean' },
    status: typedArg<string[]>({ description: 'The event post status', type: 'string', format: 'string', validate: statusList('tribe_events'), sanitize: asStatusList }),
    geoloc: { description: 'Requires Events Calendar Pro. Events should be filtered by whether their venue has geolocation data', type: 'boolean' },
    geoloc_lat: { description: 'Requires Events Calendar Pro. Events should be filtered by their venue latitude location, must also provide geoloc_lng', type: 'number', format: 'double' },
    geoloc_lng: { description: 'Requires Events Calendar Pro. Events should be filtered by their venue longitude location, must also provide geoloc_lat', type: 'number', format: 'double' },
    include: {
      description: 'Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.',
      type: 'array',
      items: { type: 'integer' },
      validate: isPositiveIntList,
      sanitize: parseIdList,
    },
    post_parent: { description: 'Events should be filtered by their post_parent being the specified one.', type: 'integer', validate: isPositiveInt },
    ticketed: { description: 'Filter events with or without tickets.', type: 'boolean' },
  });
}

/** `id` (+ `password`) of GET/DELETE /events/{id}. */
export function eventReadArgs() {
  return defineArgs({
    id: { type: 'integer', description: 'the event post ID', required: true, validate: isEventPathId },
    password: { type: 'string', description: 'The event password, required to read a password-protected event' },
  });
}

/** `slug` of GET/DELETE /events/by-slug/{slug}. */
export function eventSlugArgs() {
  return defineArgs({ slug: { type: 'string', description: 'the event slug', required: true } });
}

function linkedWriteValidator(kind: 'venue' | 'organizer') {
  return (value: unknown): boolean | string => {
    const refs = linkedRefs(value);
    if (!refs) return false;
    for (const ref of refs) {
      if ('fields' in ref) {
        const verdict = kind === 'venue' ? checkVenueFields(ref.fields) : checkOrganizerFields(ref.fields);
        if (verdict !== true) return verdict;
      }
    }
    return true;
  };
}

/** Event fields of POST /events; with `required: false` everywhere for updates. */
export function eventWriteArgs(create: boolean) {
  const req = (yes: boolean) => (create && yes ? ({ required: true } as const) : {});
  return defineArgs({
    author: { type: 'integer', description: 'The event author ID', validate: isPositiveInt },
    date: { type: 'string', description: 'The event publication date', validate: isTime },
    date_utc: { type: 'string', description: 'The event publication date (UTC timezone)', validate: isTime },
    title: { type: 'string', description: 'The event title', ...req(true), validate: isNonEmptyString },
    description: { type: 'string', description: 'The event description', validate: isStringValue },
    slug: { type: 'string', description: 'The event slug', validate: isStringValue },
    excerpt: { type: 'string', description: 'The event excerpt', validate: isStringValue },
    status: { type: 'string', description: 'The event post status', validate: isPostStatus },
    timezone: { type: 'string', description: 'The event timezone', validate: isTimezoneOrEmpty },
    all_day: { default: false, type: 'boolean', description: 'Whether the event lasts the whole day or not' },
    start_date: { type: 'string', description: 'The event start date and time', ...req(true), validate: isTime },
    end_date: { type: 'string', description: 'The event end date and time', ...req(true), validate: isTime },
    image: { type: 'string', description: 'The event featured image ID or URL', validate: (v, r) => v === '' || isImage(v, r) },
    cost: {
      description: 'The event cost',
      validate: (v) => typeof v === 'string' || typeof v === 'number' || (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')),
    },
    website: { default: null, type: 'string', description: 'The event website URL', validate: isUrlOrEmpty },
    show_map: { type: 'boolean', description: 'Whether the event should show a map or not' },
    show_map_link: { type: 'boolean', description: 'Whether the event should show a map link or not' },
    hide_from_listings: { type: 'boolean', description: 'Whether events should be hidden in the calendar view or not' },
    sticky: { type: 'boolean', description: 'Whether the event should be sticky in the calendar view or not' },
    featured: { type: 'boolean', description: 'Whether the event should be featured on the site or not' },
    categories: passThrough({
      default: null,
      type: 'array',
      items: { type: 'integer' },
      description: 'The event category IDs or names',
      validate: (v) => termRefs(v) !== undefined,
      sanitize: (v) => v,
    }),
    tags: passThrough({
      default: null,
      type: 'array',
      items: { type: 'integer' },
      description: 'The event tag IDs or names',
      validate: (v) => termRefs(v) !== undefined,
      sanitize: (v) => v,
    }),
    venue: passThrough({ default: null, type: 'array', items: { type: 'integer' }, description: 'The event venue ID or data', validate: linkedWriteValidator('venue'), sanitize: (v) => v }),
    organizer: passThrough({ default: null, type: 'array', items: { type: 'integer' }, description: 'The event organizer IDs or data', validate: linkedWriteValidator('organizer'), sanitize: (v) => v }),
  });
}

/** POST/PUT/PATCH /events/{id}. */
export function eventEditArgs() {
  return { ...eventReadArgs(), ...eventWriteArgs(false) };
}

// ---------------------------------------------------------------------------------------------
// Venues and organizers
// ---------------------------------------------------------------------------------------------

/** GET /venues and /organizers. */
export function linkedArchiveArgs(kind: 'venue' | 'organizer') {
  const plural = kind === 'venue' ? 'venues' : 'organizers';
  return defineArgs({
    ...pagingArgs('The archive page to return', `The number of ${plural} to return on each page`),
    search: { description: `Limit results to those matching a string`, type: 'string', validate: isNonEmptyString },
    event: { description: `Limit results to ${plural} associated with the specified event`, type: 'integer', validate: isPositiveInt },
    has_events: { description: `Limit results to ${plural} that have events`, validate: (v) => typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number' },
    only_with_upcoming: { default: false, description: `Limit results to ${plural} that have upcoming events` },
    status: typedArg<string[]>({ description: `The ${kind} post status`, type: 'string', validate: statusList(kind === 'venue' ? 'tribe_venue' : 'tribe_organizer'), sanitize: asStatusList }),
  });
}

/** `id` of GET/DELETE single venue/organizer. */
export function linkedReadArgs(kind: 'venue' | 'organizer') {
  return defineArgs({ id: { type: 'integer', description: `the ${kind} post ID`, required: true, validate: isPositiveInt } });
}

/** `slug` of by-slug venue/organizer routes. */
export function linkedSlugArgs(kind: 'venue' | 'organizer') {
  return defineArgs({ slug: { type: 'string', description: `the ${kind} slug`, required: true } });
}

const text = (description: string, validate: ArgSchema['validate'] = isStringValue): ArgSchema => ({ default: null, type: 'string', description, validate });

/** Venue fields (create: `venue` required). */
export function venueWriteArgs(create: boolean) {
  return defineArgs({
    venue: { type: 'string', description: 'The venue name', ...(create ? ({ required: true } as const) : {}), validate: isNonEmptyString },
    author: { type: 'integer', description: 'The venue author ID', validate: isPositiveInt },
    date: { type: 'string', description: 'The venue publication date', validate: isTime },
    date_utc: { type: 'string', description: 'The venue publication date (UTC timezone)', validate: isTime },
    description: text('The venue description'),
    status: { type: 'string', description: 'The venue post status', validate: isPostStatus },
    show_map: { default: null, type: 'string', description: 'Whether the map should be shown for the venue or not' },
    show_map_link: { default: null, type: 'string', description: 'Whether the map link should be shown for the venue or not' },
    address: text('The venue address'),
    city: text('The venue city'),
    country: text('The venue country'),
    province: text('The venue province'),
    state: text('The venue state'),
    zip: text('The venue ZIP code'),
    phone: text('The venue phone number'),
    stateprovince: text('The venue state or province'),
    website: text('The venue website URL', isUrlOrEmpty),
    image: text('The venue featured image ID or URL', (v, r) => v === '' || isImage(v, r)),
  });
}

/** Organizer fields (create: `organizer` required). */
export function organizerWriteArgs(create: boolean) {
  return defineArgs({
    organizer: { default: null, type: 'string', description: 'The organizer name', ...(create ? ({ required: true } as const) : {}), validate: isNonEmptyString },
    author: { default: null, type: 'integer', description: 'The organizer author ID', validate: isPositiveInt },
    date: { default: null, type: 'string', description: 'The organizer publication date', validate: isTime },
    date_utc: { default: null, type: 'string', description: 'The organizer publication date (UTC timezone)', validate: isTime },
    description: text('The organizer description'),
    status: { default: null, type: 'string', description: 'The organizer post status', validate: isPostStatus },
    phone: text('The organizer phone number'),
    website: text('The organizer website', isUrlOrEmpty),
    email: text('The organizer e-mail address', (v) => v === '' || (typeof v === 'string' && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v))),
    image: text('The organizer featured image ID or URL', (v, r) => v === '' || isImage(v, r)),
  });
}

// ---------------------------------------------------------------------------------------------
// Categories and tags
// ---------------------------------------------------------------------------------------------

const TERM_ORDERBY = ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'];

/** GET /categories and /tags. */
export function termArchiveArgs(hierarchical: boolean) {
  const paging = paginationArgs(CALENDAR_PAGING);
  return defineArgs({
    // The core terms controller's key order: description, type, default.
    page: { description: paging.page.description, type: 'integer', ...paging.page },
    per_page: { description: paging.per_page.description, type: 'integer', ...paging.per_page },
    search: { description: 'Limit results to those matching a string.', type: 'string' },
    exclude: { description: 'Ensure result set excludes specific IDs.', type: 'array', items: { type: 'integer' } },
    include: { description: 'Limit result set to specific IDs.', type: 'array', items: { type: 'integer' } },
    order: { description: 'Order sort attribute ascending or descending.', type: 'string', validate: (v) => typeof v === 'string' && ['asc', 'desc'].includes(v.toLowerCase()) },
    orderby: { description: 'Sort collection by term attribute.', type: 'string', validate: (v) => typeof v === 'string' && TERM_ORDERBY.includes(v) },
    hide_empty: { description: 'Whether to hide terms not assigned to any posts.', type: 'boolean', default: 1 },
    ...(hierarchical ? { parent: { description: 'Limit result set to terms assigned to a specific parent.', type: 'integer' } as const } : {}),
    post: { description: 'Limit result set to terms assigned to a specific post.', type: 'integer' },
    event: { description: 'Limit result set to terms assigned to a specific event (an alias of the "post" parameter).', type: 'integer' },
    slug: { description: 'Limit result set to terms with one or more specific slugs.', type: 'string', validate: isNonEmptyString },
  });
}

/** `id` of single category/tag routes. */
export function termReadArgs(kind: 'category' | 'tag') {
  return defineArgs({ id: { type: 'integer', description: `the event ${kind} term ID`, required: true, validate: isPositiveInt } });
}

/** Category/tag fields (create: `name` required). */
export function termWriteArgs(kind: 'category' | 'tag', create: boolean) {
  return defineArgs({
    name: { type: 'string', description: `The event ${kind} term name`, ...(create ? ({ required: true } as const) : {}), validate: isNonEmptyString },
    // Sent on create, they must say something (an empty one is refused, not stored).
    description: { type: 'string', description: `The event ${kind} term description`, validate: create ? isNonEmptyString : isStringValue },
    slug: { type: 'string', description: `The event ${kind} term slug`, validate: create ? isNonEmptyString : isStringValue },
    ...(kind === 'category' ? { parent: { type: 'integer', description: 'The event category term parent term ID' } as const } : {}),
  });
}
