/**
 * @module namespaces/contact-forms/errors
 * Error catalogue of `contact-form/v1`: the original's (Contact Form 7) codes, statuses and messages.
 */
import { RestError } from '../../rest/errors.js';

export const CF7_MESSAGES = {
  cannotRead: 'You are not allowed to access contact forms.',
  cannotCreate: 'You are not allowed to create a contact form.',
  cannotAccess: 'You are not allowed to access the requested contact form.',
  notFound: 'The requested contact form was not found.',
  exists: 'Cannot create existing contact form.',
  cannotSave: 'There was an error saving the contact form.',
  cannotDelete: 'There was an error deleting the contact form.',
  unsupported: 'The request payload format is not supported.',
  noUnitTag: 'There is no valid unit tag.',
  tooMany: 'Too many submissions from your address. Please try again later.',
} as const;

export const ContactFormErrors = {
  /** The original's meta capabilities refuse with 403 even when signed out. */
  forbidden: (message: string) => new RestError('wpcf7_forbidden', message, 403),
  notFound: () => new RestError('wpcf7_not_found', CF7_MESSAGES.notFound, 404),
  exists: () => new RestError('wpcf7_post_exists', CF7_MESSAGES.exists, 400),
  unsupportedMediaType: () => new RestError('wpcf7_unsupported_media_type', CF7_MESSAGES.unsupported, 415),
  tooManyRequests: () => new RestError('rest_too_many_requests', CF7_MESSAGES.tooMany, 429),
  noUnitTag: () => new RestError('wpcf7_unit_tag_not_found', CF7_MESSAGES.noUnitTag, 400),
  cannotDelete: () => new RestError('wpcf7_cannot_delete', CF7_MESSAGES.cannotDelete, 500),
} as const;
