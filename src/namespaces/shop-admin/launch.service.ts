/**
 * @module namespaces/shop-admin/launch.service
 * Launch your store: coming-soon mode (options `woocommerce_coming_soon`, `woocommerce_store_pages_only`,
 * `woocommerce_private_link`, `woocommerce_share_key`) and the gates that really hide the site from
 * visitors while the store is coming soon: the whole public calendar, or with store pages only just
 * the store (ticket sales: the tickets API). Owners (shop managers, administrators) see everything, and
 * so do visitors with the share link while the private link is on. The routes are in `launch.routes.ts`.
 */
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { esc } from '../../admin/html.js';
import { pageSession } from '../../admin/session.js';
import type { GateAnswer } from '../../site-hooks.js';
import type { RestError } from '../../rest/errors.js';
import type { RestRequest } from '../../rest/route.js';
import { ShopAdminErrors } from './errors.js';

export const COMING_SOON_OPTION = 'woocommerce_coming_soon';
export const STORE_PAGES_ONLY_OPTION = 'woocommerce_store_pages_only';
export const PRIVATE_LINK_OPTION = 'woocommerce_private_link';
export const SHARE_KEY_OPTION = 'woocommerce_share_key';
export const SURVEY_OPTION = 'woocommerce_admin_launch_your_store_survey_completed';
/** The share link's query parameter and the cookie that remembers it. */
export const SHARE_PARAM = 'share';
const SHARE_COOKIE = 'eventsuite_share';

/** API namespaces whose reads are hidden from visitors while the whole site is coming soon. */
const SITE_NAMESPACES = ['/eventsuite/events/v1', '/eventsuite/tickets/v1', '/eventsuite/views/v2', '/oembed/1.0'];
/** The store's: hidden while only the store pages are coming soon (the calendar stays public). */
const STORE_NAMESPACES = ['/eventsuite/tickets/v1'];

/** What is coming soon: nothing, the store only, or the whole site. */
async function comingSoon(ctx: AppContext): Promise<'no' | 'store' | 'site'> {
  if ((await ctx.options.get<string>(COMING_SOON_OPTION, 'no')) !== 'yes') return 'no';
  return (await ctx.options.get<string>(STORE_PAGES_ONLY_OPTION, 'no')) === 'yes' ? 'store' : 'site';
}

function isOwner(user: { can(cap: string): boolean } | null): boolean {
  return user !== null && (user.can('manage_woocommerce') || user.can('administrator'));
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** The share link lets a visitor in only while the private link is on. */
async function validShareKey(ctx: AppContext, given: unknown): Promise<boolean> {
  if ((await ctx.options.get<string>(PRIVATE_LINK_OPTION, 'no')) !== 'yes') return false;
  const key = await ctx.options.get<string>(SHARE_KEY_OPTION, '');
  if (typeof given !== 'string' || key === '' || given.length !== key.length) return false;
  return crypto.timingSafeEqual(Buffer.from(given), Buffer.from(key));
}

/** Visitors' API reads of what is coming soon: 401. */
export async function comingSoonApiGate(req: RestRequest, ctx: AppContext): Promise<RestError | undefined> {
  const under = (namespaces: readonly string[]) => namespaces.some((ns) => req.route === ns || req.route.startsWith(`${ns}/`));
  // The store's namespaces are among the site's: other routes never read the options.
  if (req.method !== 'GET' || isOwner(req.user) || !under(SITE_NAMESPACES)) return undefined;
  const mode = await comingSoon(ctx);
  if (mode === 'no' || (mode === 'store' && !under(STORE_NAMESPACES))) return undefined;
  if (await validShareKey(ctx, cookieValue(req.headers.cookie, SHARE_COOKIE))) return undefined;
  return ShopAdminErrors.comingSoon(req);
}

/**
 * Visitors see the coming-soon page instead of the public pages while the whole site is coming soon
 * (the store has no pages of its own: tickets are sold through the API); the share link lets one in.
 */
export async function comingSoonPageGate(request: FastifyRequest, ctx: AppContext): Promise<GateAnswer | undefined> {
  if ((await comingSoon(ctx)) !== 'site') return undefined;
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (await validShareKey(ctx, query[SHARE_PARAM])) {
    return {
      status: 302,
      headers: {
        Location: request.url.replace(new RegExp(`([?&])${SHARE_PARAM}=[^&]*&?`), '$1').replace(/[?&]$/, ''),
        'Set-Cookie': `${SHARE_COOKIE}=${String(query[SHARE_PARAM])}; Path=/; HttpOnly; SameSite=Lax`,
        'Cache-Control': 'no-store',
      },
      body: '',
    };
  }
  if (await validShareKey(ctx, cookieValue(request.headers.cookie, SHARE_COOKIE))) return undefined;
  const session = await pageSession(ctx, request);
  if (session && isOwner(session.user)) return undefined;
  const name = String(await ctx.options.get('blogname'));
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(name)}: coming soon</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;background:#f6f7f7;color:#1e1e1e}main{text-align:center;padding:2rem}h1{font-size:2.5rem;margin:0 0 .5rem}</style>
</head><body><main><h1>${esc(name)}</h1><p class="coming-soon">Coming soon. Our events calendar opens shortly.</p></main></body></html>`;
  return { status: 200, headers: { 'Content-Type': 'text/html; charset=UTF-8', 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' }, body };
}
