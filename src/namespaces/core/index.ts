/**
 * @module namespaces/core
 * The `core/v2` namespace (upstream `wp/v2`): the current user and application passwords.
 */
import { defineArea } from '../../area.js';
import type { AppContext } from '../../app-context.js';
import { defineRoutes } from '../../rest/route.js';
import { applicationPasswordRoutes } from './application-passwords.routes.js';
import { userRoutes } from './users.routes.js';

export const coreRoutes = defineRoutes<AppContext>('core/v2', [...userRoutes, ...applicationPasswordRoutes]);

export const coreArea = defineArea({
  id: 'core',
  title: 'Users and application passwords',
  description: 'The signed-in user and application-password management (core/v2).',
  required: true,
  namespaces: [coreRoutes],
});
