import { defineRoutes } from '../../rest/route.js';

export const oembedRoutes = defineRoutes('oembed/1.0', []);
