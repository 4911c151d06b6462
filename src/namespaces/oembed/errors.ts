/**
 * @module namespaces/oembed/errors
 * Error catalogue of the oEmbed namespace; codes and messages are the original's.
 */
import { RestError } from '../../rest/errors.js';

export const OEMBED_MESSAGES = {
  /** `get_status_header_desc( 404 )`. */
  notFound: 'Not Found',
  proxyForbidden: 'Sorry, you are not allowed to make proxied oEmbed requests.',
} as const;

export const OembedErrors = {
  /** No local post and no provider for the URL. */
  invalidUrl: () => new RestError('oembed_invalid_url', OEMBED_MESSAGES.notFound, 404),
} as const;
