/**
 * @module http/home-page
 * The site's front page. Clients find the API from it the way they do on WordPress: the
 * `Link: <api root>; rel="https://api.w.org/"` header (wpapi's `discover()` starts here). With `embed`
 * in the query (`/?p=<id>&embed=true`) it is the framed embed view of a post instead, when an area offers one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { esc } from '../admin/html.js';
import { renderContent } from '../content/posts.js';
import { pageFragments } from '../site-hooks.js';
import { sendSitePage } from './site-page.js';
import { servePostById } from './post-pages.js';

/** The page chosen as the front page (`show_on_front` = `page`), if it is published. */
async function frontPage(ctx: AppContext): Promise<{ title: string; content: string } | undefined> {
  if ((await ctx.options.get('show_on_front')) !== 'page') return undefined;
  const id = Number(await ctx.options.get('page_on_front'));
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  return ctx.db.selectFrom('posts').select(['title', 'content']).where('id', '=', id).where('type', '=', 'page').where('status', '=', 'publish').executeTakeFirst();
}

/** Answers `GET /` (no `rest_route`). */
export async function serveHomePage(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { embed } = request.query as Record<string, unknown>;
  const [embedView] = ctx.areas.contributions('embedView');
  if (embedView && typeof embed === 'string' && embed !== '') return embedView(ctx, request, reply);
  const single = await servePostById(ctx, request, reply);
  if (single) return single;
  const name = String(await ctx.options.get('blogname'));
  const description = String(await ctx.options.get('blogdescription'));
  const { apiRoot, home, admin } = ctx.urls;
  const front = await frontPage(ctx);
  const body = `<h1>${esc(front ? front.title : name)}</h1>${front ? `\n<div class="front-page">${renderContent(front.content)}</div>` : `${description ? `\n<p>${esc(description)}</p>` : ''}\n${await pageFragments(ctx, 'frontPageSection')}`}
<ul>
<li><a href="${esc(apiRoot)}">REST API</a></li>
<li><a href="${esc(home)}/events/?ical=1">Events calendar (iCalendar)</a></li>
<li><a href="${esc(admin)}wp-login.php">Sign in</a></li>
</ul>`;
  const head = `\n<link rel="alternate" type="text/calendar" title="${esc(name)} events" href="${esc(home)}/events/?ical=1">`;
  // The front page's permalink is the home URL itself (`get_permalink` of `page_on_front`).
  return sendSitePage(ctx, reply, { title: name, head, body, permalink: front ? `${home}/` : undefined });
}
