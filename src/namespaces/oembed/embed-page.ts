/**
 * @module namespaces/oembed/embed-page
 * The page the embed `html` frames: `<permalink>embed/` for events, venues and organizers. A small
 * card (title, excerpt, site) that other sites may frame, as WordPress's embed template.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { esc } from '../../admin/html.js';
import { permalinkFor, resolvePermalink } from './permalinks.js';

const EXCERPT_WORDS = 35;

/** Plain text of stored HTML, cut to a number of words. */
function excerptOf(html: string, words: number): string {
  const text = html.replace(/<[^>]*>/g, ' ').replace(/&[a-z0-9#]+;/gi, ' ').replace(/\s+/g, ' ').trim();
  const list = text.split(' ');
  return list.length > words ? `${list.slice(0, words).join(' ')} …` : text;
}

async function embedPage(ctx: AppContext, request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply): Promise<FastifyReply> {
  const url = `${ctx.urls.home}${request.url.split('?')[0]}`;
  const post = await resolvePermalink(ctx, url);
  if (!post) {
    reply.callNotFound();
    return reply;
  }
  const siteName = String(await ctx.options.get('blogname'));
  const link = permalinkFor(ctx, post);
  const excerpt = excerptOf(post.excerpt || post.content, EXCERPT_WORDS);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(post.title)} – ${esc(siteName)}</title>
<style>body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1d2327}article{border:1px solid #dcdcde;padding:1.25rem;max-width:600px;box-sizing:border-box}h1{font-size:1.25rem;margin:0 0 .5rem}a{color:#2271b1}img{max-width:100%;height:auto}footer{margin-top:1rem;font-size:.85rem;color:#50575e}</style>
</head><body><article>
${post.image_url ? `<img src="${esc(post.image_url)}" alt="">` : ''}<h1><a href="${esc(link)}" target="_top">${esc(post.title)}</a></h1>
${excerpt ? `<p>${esc(excerpt)}</p>` : ''}
<footer><a href="${esc(ctx.urls.home)}" target="_top">${esc(siteName)}</a></footer>
</article></body></html>`;
  return reply
    .code(200)
    .header('Content-Type', 'text/html; charset=UTF-8')
    .header('X-WP-embed', 'true')
    .header('X-Content-Type-Options', 'nosniff')
    // Meant to be framed by other sites, but runs no script and loads only images.
    .header('Content-Security-Policy', "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; base-uri 'none'")
    .send(html);
}

/** Registers `/<type base>/<slug>/embed/` for every embeddable post type (`/event/<slug>/embed/`, …). */
export function registerEmbedPages(app: FastifyInstance, ctx: AppContext): void {
  for (const { permalinkBase: base } of ctx.areas.postTypes.embeddable()) {
    const handler = (request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply) => embedPage(ctx, request, reply);
    app.get(`/${base}/:slug/embed/`, handler);
    app.get(`/${base}/:slug/embed`, handler);
  }
}
