/**
 * @module namespaces/marketplace/errors
 * Error catalogue of the marketplace routes. Most failures are the original's bare
 * `{success: false, data}` envelopes (`marketplace.routes.ts`), not errors.
 */
import { RestError } from '../../rest/errors.js';

export const MARKETPLACE_MESSAGES = {
  couldNotInstall: (why: string) => `The installation could not be started: ${why}`,
} as const;

export const MarketplaceErrors = {
  // CASE: the original answers with a bare 500; the marketplace failing is a bad gateway here.
  couldNotInstall: (why: string) => new RestError('could-not-install', MARKETPLACE_MESSAGES.couldNotInstall(why), 502),
} as const;
