/**
 * @module namespaces/spamfilter/errors
 * Error catalogue of `spamfilter/v1`: the original's (Akismet) codes, statuses and messages.
 */
import { RestError } from '../../rest/errors.js';

export const SPAMFILTER_MESSAGES = {
  hardcoded: "This site's API key is hardcoded and cannot be changed via the API.",
  hardcodedDelete: "This site's API key is hardcoded and cannot be deleted.",
  invalidKey: 'The value provided is not a valid and registered API key.',
} as const;

/** Messages of the webhook: `malformed` is an error, the others are per-comment outcomes. */
export const WEBHOOK_MESSAGES = {
  malformed: "The 'comments' parameter must be an array.",
  noMatch: 'Could not find matching comment.',
  multiple: 'Multiple comments matched request.',
} as const;

export const SpamfilterErrors = {
  /** `DELETE /key` says the key cannot be deleted; the writes that it cannot be changed. */
  hardcodedKey: (deleting = false) => new RestError('hardcoded_key', deleting ? SPAMFILTER_MESSAGES.hardcodedDelete : SPAMFILTER_MESSAGES.hardcoded, 409),
  invalidKey: () => new RestError('invalid_key', SPAMFILTER_MESSAGES.invalidKey, 400),
  malformedWebhook: () => new RestError('malformed_request', WEBHOOK_MESSAGES.malformed, 400),
} as const;
