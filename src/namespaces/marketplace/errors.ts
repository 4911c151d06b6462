/**
 * @module namespaces/marketplace/errors
 * Error catalogue and sentences of the marketplace routes. Most failures are the original's bare
 * `{success: false, data}` envelopes (`marketplace.routes.ts`), not errors; their sentences are the
 * original's, since the extensions screen shows them as they come.
 */
import { RestError } from '../../rest/errors.js';

export const MARKETPLACE_MESSAGES = {
  couldNotInstall: (why: string) => `Could not start the installation process. Reason: ${why}`,
  notConnected: 'Authentication failed.',
  subscriptionNotFound: 'Subscription not found',
  connected: 'Your subscription has been connected.',
  disconnected: 'Your subscription has been disconnected.',
  noSubscription: 'We could not find a subscription with the provided product key.',
  cannotActivate: 'You do not have permission to activate plugins.',
  cannotSwitchTheme: 'You do not have permission to switch themes.',
  unsupportedType: 'This product type is not supported.',
  notInstalled: 'This product is not installed.',
  alreadyActive: 'This product is already active.',
  activated: 'This product has been activated.',
  activationFailed: 'There was an error activating this plugin.',
  alreadyInstalled: 'This product is already installed.',
  noInstallUrl: 'There was an error getting the install URL for this product.',
  cannotInstall: 'You do not have permission to install plugins.',
} as const;

export const MarketplaceErrors = {
  // CASE: the original answers with a bare 500: the marketplace failing is a bad gateway (502) here, and
  // a store not connected to it (the original's "Authentication failed.", sent with no status) is a 400.
  couldNotInstall: (why: string, status: 400 | 502) => new RestError('could-not-install', MARKETPLACE_MESSAGES.couldNotInstall(why), status),
} as const;
