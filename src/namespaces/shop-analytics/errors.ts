/**
 * @module namespaces/shop-analytics/errors
 * Error catalogue of the analytics routes; codes and messages are the original's (WooCommerce
 * Analytics). Its permission codes are also shop-admin's: both areas answer as WooCommerce does.
 */
import { RestError } from '../../rest/errors.js';
import { authorizationStatus } from '../../rest/permissions.js';
import type { RestRequest } from '../../rest/route.js';

export const ANALYTICS_MESSAGES = {
  cannotList: 'Sorry, you cannot list resources.',
  cannotEdit: 'Sorry, you cannot edit this resource.',
  emptyIndicatorQuery: 'A list of stats to query must be provided.',
} as const;

export const AnalyticsErrors = {
  cannotList: (req: RestRequest) => new RestError('woocommerce_rest_cannot_view', ANALYTICS_MESSAGES.cannotList, authorizationStatus(req)),
  cannotEdit: (req: RestRequest) => new RestError('woocommerce_rest_cannot_edit', ANALYTICS_MESSAGES.cannotEdit, authorizationStatus(req)),
  /** `reports/performance-indicators` without `stats`. */
  emptyIndicatorQuery: () => new RestError('woocommerce_analytics_performance_indicators_empty_query', ANALYTICS_MESSAGES.emptyIndicatorQuery, 400),
} as const;
