/**
 * @module namespaces/shop-admin/errors
 * Error catalogue of `shop-admin`; codes are the original's (WooCommerce `wc-admin`).
 */
import { RestError } from '../../rest/errors.js';
import type { RestRequest } from '../../rest/route.js';

export const SHOP_ADMIN_MESSAGES = {
  cannotView: 'Sorry, you cannot view this resource.',
  cannotEdit: 'Sorry, you cannot edit this resource.',
  cannotCreate: 'Sorry, you are not allowed to create new posts.',
  cannotManagePlugins: 'Sorry, you are not allowed to manage plugins.',
  mustSupply: 'You must supply an array of options.',
  optionForbidden: 'Sorry, you cannot manage these options.',
  invalidTask: 'Sorry, no task with that ID was found.',
  invalidTaskList: 'Sorry, that task list was not found',
  invalidPlugins: 'Plugins must be a non-empty array.',
  invalidTheme: 'Invalid theme.',
  profileUpdated: 'Onboarding profile data has been updated.',
  invalidEmail: 'Invalid email address',
  unauthorizedNotice: 'Sorry, you are not allowed to dismiss this notice.',
  connectorInactive: 'The site connector is not active.',
  aiNotAllowed: 'AI content generation is not allowed on this store.',
  aiUser: 'You are not allowed to use AI content generation.',
  aiUnavailable: 'No AI service is configured (REMOTE_AI_URL).',
  invalidBusinessDescription: 'Invalid business description.',
  productCreation: 'The product could not be created.',
} as const;

const status = (req: RestRequest) => (req.user ? 403 : 401);

export const ShopAdminErrors = {
  cannotView: (req: RestRequest) => new RestError('woocommerce_rest_cannot_view', SHOP_ADMIN_MESSAGES.cannotView, status(req)),
  cannotEdit: (req: RestRequest) => new RestError('woocommerce_rest_cannot_view', SHOP_ADMIN_MESSAGES.cannotEdit, status(req)),
  cannotCreate: (req: RestRequest) => new RestError('woocommerce_rest_cannot_create', SHOP_ADMIN_MESSAGES.cannotCreate, status(req)),
  cannotManagePlugins: (req: RestRequest) => new RestError('woocommerce_rest_cannot_update', SHOP_ADMIN_MESSAGES.cannotManagePlugins, status(req)),
  optionForbidden: (req: RestRequest) => new RestError('woocommerce_rest_cannot_update', SHOP_ADMIN_MESSAGES.optionForbidden, status(req)),
  // CASE: the original answers a missing `options` with 500; it is the client's mistake, so 400.
  mustSupply: () => new RestError('woocommerce_rest_cannot_view', SHOP_ADMIN_MESSAGES.mustSupply, 400),
  invalidTask: () => new RestError('woocommerce_rest_invalid_task', SHOP_ADMIN_MESSAGES.invalidTask, 404),
  invalidTaskList: () => new RestError('woocommerce_rest_invalid_task_list', SHOP_ADMIN_MESSAGES.invalidTaskList, 404),
  unhideInvalidTaskList: () => new RestError('woocommerce_tasks_invalid_task_list', SHOP_ADMIN_MESSAGES.invalidTaskList, 404),
  // CASE: the original sends this with HTTP 500 (a bare status in the error data); an empty list is a 400.
  invalidPlugins: () => new RestError('woocommerce_rest_invalid_plugins', SHOP_ADMIN_MESSAGES.invalidPlugins, 400),
  invalidTheme: () => new RestError('woocommerce_rest_invalid_theme', SHOP_ADMIN_MESSAGES.invalidTheme, 400),
  invalidEmail: () =>
    new RestError('rest_invalid_param', 'Invalid parameter(s): store_email', 400, {
      params: { store_email: SHOP_ADMIN_MESSAGES.invalidEmail },
      details: { store_email: { code: 'rest_invalid_email', message: SHOP_ADMIN_MESSAGES.invalidEmail, data: null } },
    }),
  unauthorizedNotice: () => new RestError('unauthorized', SHOP_ADMIN_MESSAGES.unauthorizedNotice, 401),
  // CASE: the original answers these with 500 (bare status); a missing connection is a 409-style precondition.
  connectorInactive: () => new RestError('woocommerce_rest_jetpack_not_active', SHOP_ADMIN_MESSAGES.connectorInactive, 409),
  connectorNotConnected: () => new RestError('jetpack_not_connected', SHOP_ADMIN_MESSAGES.connectorInactive, 409),
  aiNotAllowed: () => new RestError('ai_connection_not_allowed', SHOP_ADMIN_MESSAGES.aiNotAllowed, 403),
  aiUser: () => new RestError('woocommerce_rest_invalid_user', SHOP_ADMIN_MESSAGES.aiUser, 403),
  aiUnavailable: () => new RestError('ai_service_unavailable', SHOP_ADMIN_MESSAGES.aiUnavailable, 503),
  invalidBusinessDescription: () => new RestError('invalid_business_description', SHOP_ADMIN_MESSAGES.invalidBusinessDescription, 400),
  productCreation: (why: string) => new RestError('woocommerce_rest_product_creation_error', `${SHOP_ADMIN_MESSAGES.productCreation} ${why}`, 400),
} as const;
