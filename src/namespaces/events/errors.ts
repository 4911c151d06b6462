/**
 * @module namespaces/events/errors
 * The events calendar's error catalogue: the originals' codes, statuses and English messages.
 * An invalid parameter found late is `invalidParam` of `rest/errors.ts`.
 */
import { RestError } from '../../rest/errors.js';

/** Code → [status, message]. Codes are the originals'. */
export const EVENT_ERRORS = {
  'event-not-accessible': [403, 'The requested event is not accessible'],
  'rest-event-not-found': [404, 'The requested event does not exist'],
  'event-password-protected': [403, 'The requested event is not accessible without a password'],
  'event-archive-page-not-found': [404, 'The requested event archive page does not exist'],
  'venue-archive-page-not-found': [404, 'The requested venue archive page does not exist'],
  'organizer-archive-page-not-found': [404, 'The requested organizer archive page does not exist'],
  'venue-not-accessible': [403, 'The requested venue is not accessible'],
  'organizer-not-accessible': [403, 'The requested organizer is not accessible'],
  'could-not-update-event': [403, 'The event could not be updated'],
  'event-is-in-trash': [410, 'The event is already trashed'],
  'venue-is-in-trash': [410, 'The venue is already trashed'],
  'organizer-is-in-trash': [410, 'The organizer is already trashed'],
  'could-not-create-venue': [400, 'The venue could not be created from the provided data'],
  'could-not-create-organizer': [400, 'The organizer could not be created from the provided data'],
  'could-not-update-venue': [400, 'The venue could not be updated'],
  'could-not-update-organizer': [400, 'The organizer could not be updated'],
  'invalid-linked-post-id': [400, 'The provided linked post ID is not valid'],
  'could-not-delete-event': [500, 'The event could not be deleted'],
  'could-not-delete-venue': [500, 'The venue could not be deleted'],
  'could-not-delete-organizer': [500, 'The organizer could not be deleted'],
  term_exists: [400, 'A term with the name provided already exists with this parent.'],
  rest_term_invalid: [400, 'Parent term does not exist.'],
  rest_taxonomy_not_hierarchical: [400, 'Cannot set parent term, taxonomy is not hierarchical.'],
} as const satisfies Record<string, readonly [number, string]>;

export type EventErrorCode = keyof typeof EVENT_ERRORS;

/** A catalogue error, optionally with extra `data` or a specific message. */
export function eventError(code: EventErrorCode, data?: Record<string, unknown>, message?: string): RestError {
  const [status, text] = EVENT_ERRORS[code];
  return new RestError(code, message ?? text, status, data);
}

/** Messages with details. */
export const EVENT_MESSAGES = {
  notFound: (id: unknown) => `Event with ID ${String(id)} does not exist.`,
} as const;

/** Messages of the arg checks that run in this area. */
export const ARG_MESSAGES = {
  endBeforeStart: 'The event end date must not be before its start date.',
} as const;
