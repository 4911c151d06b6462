/**
 * @module admin/admin.routes
 * Registers the server-rendered admin pages under `config.adminPath`: `wp-login.php`, `index.php`
 * (dashboard), `jobs.php`, `authorize-application.php`, `admin-ajax.php`, the posts screens
 * (`edit.php`, `post.php`) and `admin.php` (the screens areas contribute).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { Authenticator } from '../auth/types.js';
import type { Dispatcher } from '../rest/dispatch.js';
import { authorizeApplication } from './authorize-application.page.js';
import { adminAjax, showDashboard } from './dashboard.page.js';
import { redirect } from './html.js';
import { showJobs } from './jobs.page.js';
import { showLogin, submitLogin } from './login.page.js';
import { editPost, listPosts } from './posts.page.js';
import { adminScreen } from './screens.js';
import { adminUrl } from './session.js';

type Page = (ctx: AppContext, request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * Adds the admin pages to the Fastify app. The pages identify users by their sign-in cookie only and
 * call the auth services directly; the areas' screens read the API through the dispatcher.
 *
 * @example
 * await registerAdminPages(app, ctx, { authenticator, dispatcher });
 */
export async function registerAdminPages(
  app: FastifyInstance,
  ctx: AppContext,
  deps: { authenticator: Authenticator; dispatcher: Dispatcher<AppContext> },
): Promise<void> {
  const base = ctx.config.adminPath.replace(/\/+$/, '');
  const page = (fn: Page) => (request: FastifyRequest, reply: FastifyReply) => fn(ctx, request, reply);

  app.get(`${base}/wp-login.php`, page(showLogin));
  app.post(`${base}/wp-login.php`, page(submitLogin));
  app.get(`${base}/`, page(showDashboard));
  app.get(`${base}/index.php`, page(showDashboard));
  app.get(`${base}/jobs.php`, page(showJobs));
  app.get(base, async (_request, reply) => redirect(reply, adminUrl(ctx)));
  app.route({ method: ['GET', 'POST'], url: `${base}/authorize-application.php`, handler: page(authorizeApplication) });
  app.route({ method: ['GET', 'POST'], url: `${base}/admin-ajax.php`, handler: page(adminAjax) });
  app.route({ method: ['GET', 'POST'], url: `${base}/admin.php`, handler: (request, reply) => adminScreen(ctx, deps.dispatcher, request, reply) });
  app.get(`${base}/edit.php`, page(listPosts));
  app.route({ method: ['GET', 'POST'], url: `${base}/post.php`, handler: page(editPost) });
}
