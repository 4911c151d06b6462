/**
 * @module namespaces/mailing-list/errors
 * Error catalogue of `mailinglist/v1` (the original's codes and messages). Sign-up validation
 * failures are not errors here: they answer 400 with the form's own message (`form.routes.ts`).
 */
import { RestError } from '../../rest/errors.js';

export const MAILINGLIST_MESSAGES = {
  notFound: 'Resource does not exist.',
} as const;

export const MailingListErrors = {
  /** No sign-up form with the posted `_mc4wp_form_id`. */
  formNotFound: () => new RestError('not_found', MAILINGLIST_MESSAGES.notFound, 404),
} as const;
