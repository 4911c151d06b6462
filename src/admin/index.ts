/**
 * @module admin
 * Server-rendered admin pages (sign-in, dashboard, authorize application).
 */
export { registerAdminPages } from './admin.routes.js';
