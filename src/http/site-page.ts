/**
 * @module http/site-page
 * The document around the site's own public pages outside the calendar (the front page, the author
 * archive, a single post): the API discovery link and the areas' discovery, stylesheets and notices.
 */
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../app-context.js';
import { esc } from '../admin/html.js';
import { pageDiscovery, pageFragments, singularHead, stylesheetLinks } from '../site-hooks.js';

export interface SitePage {
  title: string;
  /** Escaped markup inside `<main>`. */
  body: string;
  /** Extra escaped markup in `<head>`. */
  head?: string;
  /** The permalink of the one post the page shows (its areas' `singularHead` markup joins the head). */
  permalink?: string;
  status?: number;
}

export async function sendSitePage(ctx: AppContext, reply: FastifyReply, page: SitePage): Promise<FastifyReply> {
  const discovery = pageDiscovery(ctx);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.title)}</title>
<link rel="https://api.w.org/" href="${esc(ctx.urls.apiRoot)}">${discovery.head}${page.head ?? ''}${page.permalink ? `\n${singularHead(ctx, page.permalink)}` : ''}
${stylesheetLinks(ctx)}
</head><body>
${await pageFragments(ctx, 'pageNotice')}
<main>
${page.body}
</main></body></html>`;
  return reply
    .code(page.status ?? 200)
    .headers(discovery.headers)
    .header('Content-Type', 'text/html; charset=UTF-8')
    .header('Link', `<${ctx.urls.apiRoot}>; rel="https://api.w.org/"`)
    .send(html);
}
