/**
 * @module namespaces/oembed/embed-page
 * The page the embed `html` frames: `<permalink>embed/` for types with a URL base, `<permalink>&embed=true`
 * for the `?p=<id>` types (served through the front page's `embedView` hook). A small card (title,
 * excerpt, site) that other sites may frame, with the class names of WordPress's embed template; a URL
 * naming nothing embeddable gets the template's "cannot be found" card with a 404. A password-protected
 * post's card shows "Protected: <title>" and a notice instead of its excerpt, and its featured image, as
 * the original's template does (`post-text.ts`).
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { esc } from '../../admin/html.js';
import { mediaFactsByUrl, sizeUrl, type MediaFacts } from '../../content/media.js';
import { permalinkFor, resolvePermalink, type PostRow } from './permalinks.js';
import { PROTECTED_EXCERPT, embedTitle, isProtected } from './post-text.js';

const EXCERPT_WORDS = 35;

const MESSAGES = {
  notFoundHeading: 'Oops! That embed cannot be found.',
  notFoundText: 'It looks like nothing was found at this location. Maybe try visiting %s directly?',
  continueReading: 'Continue reading',
} as const;

const STYLE =
  'body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1d2327}.wp-embed{border:1px solid #dcdcde;padding:1.25rem;max-width:600px;box-sizing:border-box}' +
  '.wp-embed-heading{font-size:1.25rem;font-weight:600;margin:0 0 .5rem}a{color:#2271b1}img{max-width:100%;height:auto}' +
  '.wp-embed-footer{margin-top:1rem;font-size:.85rem;color:#50575e}.screen-reader-text{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}';

/**
 * The framed page's side of the embed protocol (the embedding page's is `EMBED_SCRIPT` of
 * embed.present.ts, or WordPress's own): it posts `{message, value, secret}` to the parent, with the
 * secret of its URL's `#?secret=` — `height` when loaded, resized or asked (`ready`), so the parent
 * shows the frame at the card's height, and `link` for a click on a link, which the sandbox keeps the
 * frame from following itself.
 */
const FRAME_SCRIPT = [
  '(function (w, d) {',
  "  'use strict';",
  '  if (w.self === w.top || !w.addEventListener || !d.querySelector) return;',
  "  var secret = '';",
  '  var readSecret = function () { var m = /[#&?]secret=([a-zA-Z0-9]{10})/.exec(w.location.hash); if (m) secret = m[1]; };',
  '  var send = function (message, value) { readSecret(); if (secret) w.parent.postMessage({ message: message, value: value, secret: secret }, \'*\'); };',
  "  var sendHeight = function () { if (d.body) send('height', Math.ceil(d.body.getBoundingClientRect().height)); };",
  "  d.addEventListener('click', function (e) {",
  '    if (e.button !== 0 || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;',
  "    var a = e.target && e.target.closest ? e.target.closest('a[href]') : null;",
  '    if (!a) return;',
  '    e.preventDefault();',
  "    send('link', a.href);",
  '  }, false);',
  "  w.addEventListener('message', function (e) {",
  "    if (e.source === w.parent && e.data && e.data.message === 'ready' && e.data.secret === secret) sendHeight();",
  '  }, false);',
  "  d.addEventListener('DOMContentLoaded', sendHeight, false);",
  "  w.addEventListener('load', sendHeight, false);",
  "  w.addEventListener('resize', sendHeight, false);",
  '  readSecret();',
  '})(window, document);',
].join('\n');

/** The page's one script, allowed by its hash. */
const FRAME_SCRIPT_CSP = `'sha256-${crypto.createHash('sha256').update(FRAME_SCRIPT).digest('base64')}'`;

/** Plain text of stored HTML, cut to a number of words; `cut` tells whether anything was left out. */
function excerptOf(html: string, words: number): { text: string; cut: boolean } {
  const text = html.replace(/<[^>]*>/g, ' ').replace(/&[a-z0-9#]+;/gi, ' ').replace(/\s+/g, ' ').trim();
  const list = text.split(' ');
  return list.length > words ? { text: list.slice(0, words).join(' '), cut: true } : { text, cut: false };
}

/** The featured image of a card: which file, its size, and whether it is wide (above the title) or not (below). */
interface CardImage {
  url: string;
  width?: number;
  height?: number;
  shape: 'rectangular' | 'square';
}

/**
 * The card's image as the original's embed template picks it: of the library image's sizes, the one
 * of the widest aspect (the image itself when none is wider than square), `rectangular` from 1.75:1.
 * An image outside the library is shown whole, as a square card's.
 */
export function cardImage(url: string, facts: MediaFacts | undefined): CardImage {
  let ratio = 1;
  let chosen: { url: string; width: number; height: number } | undefined;
  for (const size of facts?.sizes ?? []) {
    if (size.height > 0 && size.width / size.height > ratio) {
      ratio = size.width / size.height;
      chosen = { url: sizeUrl(url, size), width: size.width, height: size.height };
    }
  }
  const shape = ratio >= 1.75 ? 'rectangular' : 'square';
  if (chosen) return { ...chosen, shape };
  return facts ? { url, width: facts.width, height: facts.height, shape } : { url, shape };
}

/**
 * The card of one post; a cut excerpt ends with the template's "Continue reading" link. A protected
 * post's excerpt is the notice, whole (`get_the_excerpt` answers it before any trimming).
 */
function postCard(post: PostRow, link: string, siteLink: string, image: CardImage | undefined): string {
  const title = embedTitle(post);
  const excerpt = isProtected(post) ? { text: PROTECTED_EXCERPT, cut: false } : excerptOf(post.excerpt || post.content, EXCERPT_WORDS);
  const more = excerpt.cut
    ? ` &hellip; <a href="${esc(link)}" class="wp-embed-more" target="_top">${MESSAGES.continueReading} <span class="screen-reader-text">${esc(title)}</span></a>`
    : '';
  const size = image?.width && image.height ? ` width="${image.width}" height="${image.height}"` : '';
  const figure = image ? `<div class="wp-embed-featured-image ${image.shape}"><a href="${esc(link)}" target="_top"><img src="${esc(image.url)}"${size} alt=""></a></div>\n` : '';
  return `<div class="wp-embed">
${image?.shape === 'rectangular' ? figure : ''}<p class="wp-embed-heading"><a href="${esc(link)}" target="_top">${esc(title)}</a></p>
${image?.shape === 'square' ? figure : ''}${excerpt.text ? `<div class="wp-embed-excerpt"><p>${esc(excerpt.text)}${more}</p></div>` : ''}
<div class="wp-embed-footer">${siteLink}</div>
</div>`;
}

function notFoundCard(siteLink: string, home: string, siteName: string): string {
  const visit = `<strong><a href="${esc(home)}" target="_top">${esc(siteName)}</a></strong>`;
  return `<div class="wp-embed">
<p class="wp-embed-heading">${esc(MESSAGES.notFoundHeading)}</p>
<div class="wp-embed-excerpt"><p>${esc(MESSAGES.notFoundText).replace('%s', visit)}</p></div>
<div class="wp-embed-footer">${siteLink}</div>
</div>`;
}

/** Answers the embed view of `url`: the post's card, or the not-found card with a 404. */
export async function sendEmbedPage(ctx: AppContext, url: string, reply: FastifyReply): Promise<FastifyReply> {
  const post = await resolvePermalink(ctx, url);
  const siteName = String(await ctx.options.get('blogname'));
  const siteLink = `<a href="${esc(ctx.urls.home)}" target="_top">${esc(siteName)}</a>`;
  const image = post?.image_url ? cardImage(post.image_url, await mediaFactsByUrl(ctx.db, ctx.urls.home, post.image_url)) : undefined;
  const card = post ? postCard(post, permalinkFor(ctx, post), siteLink, image) : notFoundCard(siteLink, ctx.urls.home, siteName);
  // CASE: the document title is `wp_get_document_title`'s, from `single_post_title`: no "Protected: ".
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${post ? `${esc(post.title)} – ` : ''}${esc(siteName)}</title>
<meta name="robots" content="noindex, follow">
<style>${STYLE}</style>
</head><body>
${card}
<script>${FRAME_SCRIPT}</script>
</body></html>`;
  return reply
    .code(post ? 200 : 404)
    .header('Content-Type', 'text/html; charset=UTF-8')
    .header('X-WP-embed', 'true')
    .header('X-Content-Type-Options', 'nosniff')
    // Meant to be framed by other sites: runs its one script (by hash) and loads only images.
    .header('Content-Security-Policy', `default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; script-src ${FRAME_SCRIPT_CSP}; base-uri 'none'`)
    .send(html);
}

/** The `embedView` hook: `/?p=<id>&embed=true` and the like, answered from the whole URL. */
export function serveEmbedView(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  return sendEmbedPage(ctx, `${ctx.urls.home}${request.url}`, reply);
}

/** Registers `/<type base>/<slug>/embed/` for every embeddable post type with a URL base (`/event/<slug>/embed/`, …). */
export function registerEmbedPages(app: FastifyInstance, ctx: AppContext): void {
  for (const { permalinkBase: base } of ctx.areas.postTypes.embeddable()) {
    if (base === undefined) continue;
    const handler = (request: FastifyRequest, reply: FastifyReply) => sendEmbedPage(ctx, `${ctx.urls.home}${request.url.split('?')[0]}`, reply);
    app.get(`/${base}/:slug/embed/`, handler);
    app.get(`/${base}/:slug/embed`, handler);
  }
}
