import { defineRoutes } from '../../rest/route.js';

export const coreRoutes = defineRoutes('core/v2', []);
