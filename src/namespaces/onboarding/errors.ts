/**
 * @module namespaces/onboarding/errors
 * Error catalogue of the onboarding wizard (the original's codes and messages).
 */
import { invalidParam, RestError } from '../../rest/errors.js';

export const ONBOARDING_MESSAGES = {
  invalidNonce: 'Invalid nonce.',
} as const;

export const OnboardingErrors = {
  /**
   * A bad `action_nonce`: the validator's `tec_invalid_nonce` (403 in its data) wrapped in a 400
   * `rest_invalid_param`, as WordPress reports a validate callback's WP_Error.
   */
  invalidNonce: () => invalidParam('action_nonce', new RestError('tec_invalid_nonce', ONBOARDING_MESSAGES.invalidNonce, 403, { status: 403 })),
} as const;
