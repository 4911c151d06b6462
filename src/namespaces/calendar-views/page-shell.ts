/**
 * @module namespaces/calendar-views/page-shell
 * The document around the calendar's public pages: a readable, responsive style, the site header,
 * the original's API discovery headers, and the small script that navigates between views by
 * calling the views REST route and swapping the container (links and the search form work without it).
 */
import type { FastifyReply } from 'fastify';
import { esc } from '../../admin/html.js';
import type { AppContext } from '../../app-context.js';
import { pageFragments, singularHead, stylesheetLinks } from '../../site-hooks.js';
import { discoveryHeaders, discoveryMeta, pageApiRoot } from '../events/index.js';
import { jsonForScript } from './render.js';

const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#141827;background:#fff}
a{color:#334aff}a:hover{color:#1a2fc2}.site-header{border-bottom:1px solid #e4e4e4;padding:.75rem 1rem}.site-header a{color:#141827;text-decoration:none;font-weight:700}
main{max-width:1200px;margin:0 auto;padding:1rem}.tribe-events-header{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin-bottom:1rem}
.tribe-events-c-events-bar{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;flex:1 1 420px}.tribe-events-c-events-bar label{position:absolute;left:-9999px}
.tribe-events-c-events-bar input{padding:.45rem .6rem;border:1px solid #c4c4c4;border-radius:4px;font:inherit;min-width:0;flex:1 1 160px}
button,.tribe-common-c-btn-border-small{padding:.45rem .9rem;border:1px solid #334aff;border-radius:4px;background:#334aff;color:#fff;font:inherit;cursor:pointer;text-decoration:none}
.tribe-common-c-btn-border-small{background:#fff;color:#334aff}.tribe-events-c-view-selector ul{list-style:none;margin:0;padding:0;display:flex;gap:.75rem}
.tribe-events-c-view-selector__list-item--active a{font-weight:700;color:#141827}.tribe-events-c-top-bar{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;width:100%}
.tribe-events-c-top-bar h1{font-size:1.5rem;margin:0}.tribe-events-calendar-month{width:100%;border-collapse:collapse;table-layout:fixed}
.tribe-events-calendar-month th{font-size:.8rem;text-transform:uppercase;color:#5d5d5d;padding:.25rem}.tribe-events-calendar-month td{border:1px solid #e4e4e4;vertical-align:top;height:7rem;padding:.25rem;font-size:.85rem;overflow:hidden}
.tribe-events-calendar-month__day--other-month{background:#fafafa;color:#999}.tribe-events-calendar-month__day--current .tribe-events-calendar-month__day-date a{background:#334aff;color:#fff;border-radius:50%;padding:0 .4rem}
.tribe-events-calendar-month__multiday-event{background:#e6e9ff;border-radius:3px;padding:0 .25rem;margin:.1rem 0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.tribe-events-calendar-month__multiday-event-hidden{height:1.3rem}.tribe-events-calendar-month__calendar-event{margin:.15rem 0;overflow:hidden;text-overflow:ellipsis}
.tribe-events-calendar-list__month-separator{font-size:1rem;border-bottom:1px solid #e4e4e4;margin:1.5rem 0 .5rem}article{padding:.75rem 0;border-bottom:1px solid #f0f0f0}
article h3{margin:0 0 .25rem;font-size:1.15rem}.tribe-events-c-messages__message{background:#f7f6f6;padding:.75rem 1rem;border-left:4px solid #334aff;margin:1rem 0}
.tribe-events-view-loader:not([hidden]){position:fixed;top:0;left:0;right:0;padding:.25rem;background:#334aff;color:#fff;text-align:center}
.tribe-events-c-ical{margin-top:1.5rem}.event-single dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}.event-single dt{font-weight:700}
@media (max-width:700px){.tribe-events-calendar-month td{height:4rem;font-size:.7rem}.tribe-events-calendar-month__calendar-event time{display:none}main{padding:.5rem}}`;

/** Switches views through the REST route (text/html) and swaps the container; falls back to a normal page load. */
const SCRIPT = `(function(){
var nonces=JSON.parse(document.querySelector('[data-js="tribe-events-view-nonce-data"]').textContent||'{}');
function container(){return document.querySelector('[data-js="tribe-events-view"]');}
function load(url,data,push){var c=container();if(!c){location.href=url;return;}
var loader=c.querySelector('.tribe-events-view-loader');if(loader)loader.hidden=false;
var body=new URLSearchParams();body.set('url',url);body.set('prev_url',location.href);body.set('should_manage_url','true');
Object.keys(nonces).forEach(function(k){body.set(k,nonces[k]);});Object.keys(data||{}).forEach(function(k){body.set('view_data['+k+']',data[k]);});
fetch(c.getAttribute('data-view-rest-url'),{method:'POST',body:body,credentials:'same-origin'}).then(function(r){if(!r.ok)throw new Error(r.status);return r.text();})
.then(function(html){var t=document.createElement('div');t.innerHTML=html;var n=t.firstElementChild;c.replaceWith(n);
var d=JSON.parse(n.querySelector('[data-js="tribe-events-view-data"]').textContent);if(push)history.pushState({url:d.url},'',d.url);document.title=d.title;
var h=n.querySelector('h1');if(h){h.setAttribute('tabindex','-1');h.focus();}}).catch(function(){location.href=url;});}
document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a[data-js="tribe-events-view-link"]');
if(!a||e.ctrlKey||e.metaKey||e.shiftKey||e.button!==0)return;e.preventDefault();load(a.href,{},true);});
document.addEventListener('submit',function(e){var f=e.target;if(!f.matches('[data-js="tribe-events-view-form"]'))return;e.preventDefault();
var q=new URLSearchParams(new FormData(f));var url=f.action+(q.toString()?'?'+q:'');var data={};q.forEach(function(v,k){data[k]=v;});load(url,data,true);});
window.addEventListener('popstate',function(e){if(e.state&&e.state.url)load(e.state.url,{},false);});})();`;

export interface Shell {
  title: string;
  body: string;
  nonces?: Record<string, string>;
  head?: string;
  /** The permalink of the one post the page shows (its areas' `singularHead` markup joins the head). */
  permalink?: string;
  /** What the discovery headers point at (`pageApiRoot` of the events area); the namespace by default. */
  apiRoot?: string;
  /** Rendered for a signed-in visitor (private events, their nonces): no shared cache may keep it. */
  signedIn?: boolean;
}

export async function sendPage(ctx: AppContext, reply: FastifyReply, page: Shell, status = 200): Promise<FastifyReply> {
  const site = String(await ctx.options.get('blogname'));
  const apiRoot = page.apiRoot ?? pageApiRoot(ctx);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.title)} – ${esc(site)}</title>
<link rel="alternate" type="text/calendar" title="${esc(site)} iCal Feed" href="${esc(ctx.urls.home)}/events/?ical=1">
<link rel="https://api.w.org/" href="${esc(ctx.urls.apiRoot)}">
${discoveryMeta(ctx, apiRoot)}
<style>${STYLE}</style>
${stylesheetLinks(ctx)}${page.head ?? ''}${page.permalink ? `\n${singularHead(ctx, page.permalink)}` : ''}
</head><body>
${await pageFragments(ctx, 'pageNotice')}
<header class="site-header"><a href="${esc(ctx.urls.home)}/events/">${esc(site)}</a></header>
<main id="main">
${page.body}
</main>
${page.nonces ? `<script data-js="tribe-events-view-nonce-data" type="application/json">${jsonForScript(page.nonces)}</script>\n<script>${SCRIPT}</script>` : ''}
</body></html>`;
  // As WordPress's nocache_headers() for signed-in users: their pages show what only they may see.
  if (page.signedIn) reply.header('Cache-Control', 'no-cache, must-revalidate, max-age=0, private');
  return reply.code(status).headers(discoveryHeaders(ctx, apiRoot)).header('Link', `<${ctx.urls.apiRoot}>; rel="https://api.w.org/"`).header('Content-Type', 'text/html; charset=UTF-8').header('X-Content-Type-Options', 'nosniff').send(html);
}
