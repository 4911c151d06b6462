/**
 * @module namespaces/seo/errors
 * Messages and error codes of the SEO namespace (the original's texts).
 */
import { RestError } from '../../rest/errors.js';

export const SEO_MESSAGES = {
  saveFailed: 'Could not save some options in the database',
  optionSaveFailed: 'Could not save the option in the database',
  notNewPostType: 'Post type is not new.',
  postTypeDismissed: 'Post type is no longer new.',
  notNewTaxonomy: 'Taxonomy is not new.',
  taxonomyDismissed: 'Taxonomy is no longer new.',
  invalidContentType: 'Invalid content type.',
  invalidTaxonomy: 'Invalid taxonomy.',
  termWithoutTaxonomy: 'Term needs a provided taxonomy.',
  taxonomyWithoutTerm: 'Taxonomy needs a provided term.',
  invalidTerm: 'Invalid term.',
  notFoundFile: (url: string) => `Cannot get the size of ${url} because of unknown reasons.`,
  externalFile: (url: string) => `Cannot get the size of ${url} because it is hosted externally.`,
  invalidUrl: 'The URL is not valid.',
  tokenEmpty: 'Token usage failed. Token is empty.',
  notConfigured: (name: string) => `The ranking tool is not configured (REMOTE_${name}_URL).`,
  authFailed: 'Authentication failed',
  limitExceeded: 'Account limit exceeded',
  indexingFailed: 'An error occurred while indexing.',
} as const;

export const SeoErrors = {
  /** `wpseo_error_indexing`: an indexing batch failed. */
  indexing: (detail: string, objectType?: string, objectId?: number) =>
    new RestError('wpseo_error_indexing', SEO_MESSAGES.indexingFailed, 500, {
      stackTrace: detail,
      ...(objectType ? { object_type: objectType } : {}),
      ...(objectId !== undefined ? { object_id: objectId } : {}),
    }),
} as const;
