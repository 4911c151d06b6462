/**
 * @module namespaces/shop-admin/errors
 * Error catalogue of `shop-admin`; codes are the original's (WooCommerce `wc-admin`).
 */
import { invalidParam, RestError } from '../../rest/errors.js';
import { invalidEmailError } from '../../rest/formats.js';
import { authorizationStatus } from '../../rest/permissions.js';
import type { RestRequest } from '../../rest/route.js';

export const SHOP_ADMIN_MESSAGES = {
  cannotView: 'Sorry, you cannot view this resource.',
  cannotEdit: 'Sorry, you cannot edit this resource.',
  cannotCreate: 'Sorry, you are not allowed to create new posts.',
  cannotManagePlugins: 'Sorry, you are not allowed to manage plugins.',
  mustSupply: 'You must supply an array of options.',
  mustSupplyValues: 'You must supply an array of options and values.',
  optionForbidden: 'Sorry, you cannot manage these options.',
  optionViewForbidden: 'Sorry, you cannot view these options.',
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
  invalidProductsInformation: 'products_information must describe the ticket.',
  comingSoon: 'This store is coming soon.',
  marketplaceNotConfigured: 'No marketplace is configured (REMOTE_MARKETPLACE_URL).',
  noRequestToken: 'No request token: start with request-marketplace-connect.',
  mailNotConfigured: 'Outgoing mail is not configured (SMTP_URL).',
  magicLinkNotSent: 'The sign-in link could not be sent.',
  paymentsNotConfigured: (which: string) => `Payment provider ${which} is not configured (REMOTE_PAYMENTS_${which}_URL).`,
  themeMissing: 'Specified file failed upload test: upload a theme package as the pluginzip file.',
  cannotUploadThemes: 'Sorry, you are not allowed to install themes on this site.',
  cannotInstallThemes: 'Sorry, you cannot install themes.',
  cannotManageThemes: 'Sorry, you cannot manage themes.',
  themeInstall: (slug: string) => `The requested theme \`${slug}\` could not be installed.`,
  themeNotZip: 'Only .zip theme packages can be uploaded.',
  experimentNameRequired: 'Sorry, experiment_name is required.',
} as const;

export const ShopAdminErrors = {
  cannotView: (req: RestRequest) => new RestError('woocommerce_rest_cannot_view', SHOP_ADMIN_MESSAGES.cannotView, authorizationStatus(req)),
  cannotEdit: (req: RestRequest) => new RestError('woocommerce_rest_cannot_view', SHOP_ADMIN_MESSAGES.cannotEdit, authorizationStatus(req)),
  cannotCreate: (req: RestRequest) => new RestError('woocommerce_rest_cannot_create', SHOP_ADMIN_MESSAGES.cannotCreate, authorizationStatus(req)),
  cannotManagePlugins: (req: RestRequest) => new RestError('woocommerce_rest_cannot_update', SHOP_ADMIN_MESSAGES.cannotManagePlugins, authorizationStatus(req)),
  optionForbidden: (req: RestRequest) => new RestError('woocommerce_rest_cannot_update', SHOP_ADMIN_MESSAGES.optionForbidden, authorizationStatus(req)),
  optionViewForbidden: (req: RestRequest) => new RestError('woocommerce_rest_cannot_view', SHOP_ADMIN_MESSAGES.optionViewForbidden, authorizationStatus(req)),
  // CASE: the original answers a missing `options` with 500; it is the client's mistake, so 400.
  mustSupply: () => new RestError('woocommerce_rest_cannot_view', SHOP_ADMIN_MESSAGES.mustSupply, 400),
  // CASE: the write side of `mustSupply`, a body that is not an object of option names and values; the original answers 500, a client's mistake, so 400.
  mustSupplyValues: () => new RestError('woocommerce_rest_cannot_update', SHOP_ADMIN_MESSAGES.mustSupplyValues, 400),
  experimentNameRequired: () => new RestError('woocommerce_rest_experiment_name_required', SHOP_ADMIN_MESSAGES.experimentNameRequired, 400),
  invalidTask: () => new RestError('woocommerce_rest_invalid_task', SHOP_ADMIN_MESSAGES.invalidTask, 404),
  invalidTaskList: () => new RestError('woocommerce_rest_invalid_task_list', SHOP_ADMIN_MESSAGES.invalidTaskList, 404),
  unhideInvalidTaskList: () => new RestError('woocommerce_tasks_invalid_task_list', SHOP_ADMIN_MESSAGES.invalidTaskList, 404),
  // CASE: the original sends this with HTTP 500 (a bare status in the error data); an empty list is a 400.
  invalidPlugins: () => new RestError('woocommerce_rest_invalid_plugins', SHOP_ADMIN_MESSAGES.invalidPlugins, 400),
  invalidTheme: () => new RestError('woocommerce_rest_invalid_theme', SHOP_ADMIN_MESSAGES.invalidTheme, 400),
  invalidEmail: () => invalidParam('store_email', invalidEmailError(SHOP_ADMIN_MESSAGES.invalidEmail)),
  unauthorizedNotice: () => new RestError('unauthorized', SHOP_ADMIN_MESSAGES.unauthorizedNotice, 401),
  // CASE: the original answers these with 500 (bare status); a missing connection is a 409-style precondition.
  connectorInactive: () => new RestError('woocommerce_rest_jetpack_not_active', SHOP_ADMIN_MESSAGES.connectorInactive, 409),
  connectorNotConnected: () => new RestError('jetpack_not_connected', SHOP_ADMIN_MESSAGES.connectorInactive, 409),
  aiNotAllowed: () => new RestError('ai_connection_not_allowed', SHOP_ADMIN_MESSAGES.aiNotAllowed, 403),
  aiUser: () => new RestError('woocommerce_rest_invalid_user', SHOP_ADMIN_MESSAGES.aiUser, 403),
  aiUnavailable: () => new RestError('ai_service_unavailable', SHOP_ADMIN_MESSAGES.aiUnavailable, 503),
  invalidBusinessDescription: () => new RestError('invalid_business_description', SHOP_ADMIN_MESSAGES.invalidBusinessDescription, 400),
  productCreation: (why: string) => new RestError('woocommerce_rest_product_creation_error', `${SHOP_ADMIN_MESSAGES.productCreation} ${why}`, 400),
  aiService: (message: string) => new RestError('ai_service_error', message, 502),
  invalidProductsInformation: () => new RestError('invalid_products_information', SHOP_ADMIN_MESSAGES.invalidProductsInformation, 400),
  comingSoon: (req: RestRequest) => new RestError('shop_coming_soon', SHOP_ADMIN_MESSAGES.comingSoon, authorizationStatus(req)),
  /** Activating a marketing extension failed: the extension work's first message. */
  invalidPlugin: (message: string) => new RestError('woocommerce_rest_invalid_plugin', message, 400),
  // CASE: the original answers remote failures with 500 (bare status); an unreachable or refusing
  // marketplace is a bad gateway, a missing configuration 503, a missing token the client's mistake.
  marketplaceConnect: (message: string) => new RestError('woocommerce_rest_helper_connect', message, 502),
  marketplaceNotConfigured: () => new RestError('woocommerce_rest_helper_connect', SHOP_ADMIN_MESSAGES.marketplaceNotConfigured, 503),
  noRequestToken: () => new RestError('woocommerce_rest_helper_connect', SHOP_ADMIN_MESSAGES.noRequestToken, 400),
  mailNotConfigured: () => new RestError('error_sending_mobile_magic_link', SHOP_ADMIN_MESSAGES.mailNotConfigured, 503),
  magicLinkNotSent: () => new RestError('error_sending_mobile_magic_link', SHOP_ADMIN_MESSAGES.magicLinkNotSent, 502),
  paymentsNotConfigured: (which: string) =>
    new RestError('woocommerce_rest_payments_not_configured', SHOP_ADMIN_MESSAGES.paymentsNotConfigured(which), 400),
  cannotUploadThemes: (req: RestRequest) => new RestError('woocommerce_rest_cannot_view', SHOP_ADMIN_MESSAGES.cannotUploadThemes, authorizationStatus(req)),
  cannotInstallThemes: (req: RestRequest) => new RestError('woocommerce_rest_cannot_update', SHOP_ADMIN_MESSAGES.cannotInstallThemes, authorizationStatus(req)),
  cannotManageThemes: (req: RestRequest) => new RestError('woocommerce_rest_cannot_update', SHOP_ADMIN_MESSAGES.cannotManageThemes, authorizationStatus(req)),
  // CASE: the original answers a missing upload with 500 (no status); it is the client's mistake, so 400.
  invalidFile: (message: string) => new RestError('woocommerce_rest_invalid_file', message, 400),
  // CASE: the original answers 500 when a theme cannot be installed; here only known themes can be, so an unknown slug is a 400.
  themeInstall: (slug: string) => new RestError('woocommerce_rest_theme_install', SHOP_ADMIN_MESSAGES.themeInstall(slug), 400),
} as const;
