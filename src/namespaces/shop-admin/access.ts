/**
 * @module namespaces/shop-admin/access
 * Permission checks of `shop-admin`, with the original's error codes.
 */
import type { Permission } from '../../rest/route.js';
import { ShopAdminErrors } from './errors.js';

/** `manage_woocommerce`, else `woocommerce_rest_cannot_view` (401/403). */
export const canViewShop: Permission = (req) => req.user?.can('manage_woocommerce') === true || ShopAdminErrors.cannotView(req);

/** `manage_woocommerce` for writes, with the original's "cannot edit" text. */
export const canEditShop: Permission = (req) => req.user?.can('manage_woocommerce') === true || ShopAdminErrors.cannotEdit(req);

/** Task routes: `manage_woocommerce`, else `woocommerce_rest_cannot_create`. */
export const canManageTasks: Permission = (req) => req.user?.can('manage_woocommerce') === true || ShopAdminErrors.cannotCreate(req);

/** Plugin install/activate and their jobs: `install_plugins`. */
export const canInstallPlugins: Permission = (req) => req.user?.can('install_plugins') === true || ShopAdminErrors.cannotManagePlugins(req);

/** Starting the site connector's connection: a shop manager may (`manage_woocommerce`), with the plugin routes' error. */
export const canConnectSite: Permission = (req) => req.user?.can('manage_woocommerce') === true || ShopAdminErrors.cannotManagePlugins(req);

/** Launch your store: `manage_woocommerce` or an administrator (plain `rest_forbidden` otherwise). */
export const canLaunchStore: Permission = (req) => req.user?.can('manage_woocommerce') === true || req.user?.can('administrator') === true;
