/**
 * @module namespaces/events/discovery
 * The original's API discovery on the site's public pages: `X-TEC-API-VERSION`, `X-TEC-API-ROOT` and
 * `X-TEC-API-ORIGIN` headers and the matching `<head>` markup, through which calendar clients (another
 * calendar's event import among them) find the events API from any page URL.
 */
import { esc } from '../../admin/html.js';
import type { AppContext } from '../../app-context.js';
import type { PageDiscovery } from '../../site-hooks.js';

/**
 * The events API URL a page points clients at: the event of a single event page, the archive's
 * filter on a category, tag or venue page, otherwise the namespace.
 */
export function pageApiRoot(ctx: AppContext, page: { event?: number; filter?: Record<string, string | number> } = {}): string {
  if (page.event !== undefined) return ctx.urls.rest(`/eventsuite/events/v1/events/${page.event}`);
  const filter = Object.entries(page.filter ?? {});
  if (filter.length === 0) return ctx.urls.rest('/eventsuite/events/v1/');
  return `${ctx.urls.rest('/eventsuite/events/v1/events/')}?${new URLSearchParams(filter.map(([k, v]) => [k, String(v)])).toString()}`;
}

/** The discovery headers, pointing at `apiRoot`. */
export function discoveryHeaders(ctx: AppContext, apiRoot = pageApiRoot(ctx)): Record<string, string> {
  return { 'X-TEC-API-VERSION': 'v1', 'X-TEC-API-ROOT': apiRoot, 'X-TEC-API-ORIGIN': ctx.urls.home };
}

/** The same discovery in a page's head, as the original prints it (`wp_head`). */
export function discoveryMeta(ctx: AppContext, apiRoot = pageApiRoot(ctx)): string {
  return `<meta name="tec-api-version" content="v1"><meta name="tec-api-origin" content="${esc(ctx.urls.home)}"><link rel="alternate" href="${esc(apiRoot)}" />`;
}

/** The discovery of the site's own pages (front page, author archive, posts): the namespace. */
export const sitePageDiscovery: PageDiscovery = (ctx) => ({ headers: discoveryHeaders(ctx), head: discoveryMeta(ctx) });
