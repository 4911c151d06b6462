/**
 * @module namespaces/shop-admin/themes.page
 * `/theme.css`: the active theme's stylesheet, linked by every public page.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { activeThemeCss } from './themes.service.js';

export function registerThemeStylesheet(app: FastifyInstance, ctx: AppContext): void {
  app.get('/theme.css', async (_request, reply) =>
    reply.header('Content-Type', 'text/css; charset=UTF-8').header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff').send(await activeThemeCss(ctx)),
  );
}
