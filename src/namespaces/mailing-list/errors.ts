/**
 * @module namespaces/mailing-list/errors
 * Error catalogue of `mailinglist/v1` (the original's codes and messages). Sign-up validation
 * failures are not errors here: they answer 400 with the form's own message (`form.routes.ts`).
 */
import { RestError } from '../../rest/errors.js';

export const MAILINGLIST_MESSAGES = {
  notFound: 'Resource does not exist.',
  /** WordPress's answer to a PHP fatal error. */
  critical: 'There has been a critical error on this website.',
} as const;

export const MailingListErrors = {
  /** No sign-up form with the posted `_mc4wp_form_id`. */
  formNotFound: () => new RestError('not_found', MAILINGLIST_MESSAGES.notFound, 404),
  /**
   * CASE: a posted value the original cannot handle (a list where it trims text, text where it
   * looks through a list: `NAME[]`, `MC_LANGUAGE[]`, `INTERESTS=…`) stops it with a PHP fatal error,
   * which WordPress answers with 500 `internal_server_error`; the value is the client's mistake, so 400.
   */
  fatal: () => new RestError('internal_server_error', MAILINGLIST_MESSAGES.critical, 400),
} as const;
