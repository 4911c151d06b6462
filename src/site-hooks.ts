/**
 * @module site-hooks
 * Extension points owned by the app itself. Through the gates an area may turn visitors away from
 * the whole site (the shop's coming-soon mode): `apiGate` runs for every API request after its
 * route matched and before its permission check; `pageGate` runs for every page outside the API and
 * the admin; the first gate that answers wins. `pageStylesheet` adds a stylesheet (a path under the
 * site's home) to every public page (the shop's theme), `pageNotice` a notice at the top of every
 * public page (the shop's store notice), and `frontPageSection` content to the front page while no
 * page is chosen as the front page (the shop's AI-written headline and about text). `pageDiscovery`
 * adds API discovery headers and head markup to the site's own pages (the calendar's `X-TEC-API-*`);
 * `singularHead` adds head markup to the page of one post, given its permalink (oEmbed discovery);
 * `embedView` answers the front page's `?embed=` requests (the framed view of a `?p=<id>` post).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './app-context.js';
import type { RestError } from './rest/errors.js';
import type { RestRequest } from './rest/route.js';

/** Undefined to let the request through, or the error to answer instead. */
export type ApiGate = (req: RestRequest, ctx: AppContext) => Promise<RestError | undefined>;

/** What a page gate answers instead of the page. */
export interface GateAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Undefined to let the visitor through, or the page to show instead. */
export type PageGate = (request: FastifyRequest, ctx: AppContext) => Promise<GateAnswer | undefined>;

declare module './area.js' {
  interface ExtensionPoints {
    apiGate: ApiGate;
    pageGate: PageGate;
    pageStylesheet: string;
    pageNotice: PageFragment;
    frontPageSection: PageFragment;
    pageDiscovery: PageDiscovery;
    singularHead: SingularHead;
    embedView: EmbedView;
  }
}

/** Answers a request of the front page carrying `embed` (`/?p=<id>&embed=true`). */
export type EmbedView = (ctx: AppContext, request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** Markup an area adds to the `<head>` of a single post's page, from the post's permalink. */
export type SingularHead = (ctx: AppContext, permalink: string) => string;

/** The enabled areas' head markup for the page of the post at `permalink`. */
export function singularHead(ctx: AppContext, permalink: string): string {
  return ctx.areas.contributions('singularHead').map((head) => head(ctx, permalink)).join('');
}

/** Discovery an area adds to the site's own public pages: response headers and `<head>` markup. */
export type PageDiscovery = (ctx: AppContext) => { headers: Record<string, string>; head: string };

/** The enabled areas' discovery for a public page, merged. */
export function pageDiscovery(ctx: AppContext): { headers: Record<string, string>; head: string } {
  const parts = ctx.areas.contributions('pageDiscovery').map((discover) => discover(ctx));
  return { headers: Object.assign({}, ...parts.map((p) => p.headers)), head: parts.map((p) => p.head).join('') };
}

/** Markup (escaped or filtered) an area adds to public pages, or '' for none. */
export type PageFragment = (ctx: AppContext) => Promise<string>;

/** Runs the enabled areas' API gates. */
export async function checkApiGates(req: RestRequest, ctx: AppContext): Promise<RestError | undefined> {
  for (const gate of ctx.areas.contributions('apiGate')) {
    const answer = await gate(req, ctx);
    if (answer) return answer;
  }
  return undefined;
}

/** Runs the enabled areas' page gates. */
export async function checkPageGates(request: FastifyRequest, ctx: AppContext): Promise<GateAnswer | undefined> {
  for (const gate of ctx.areas.contributions('pageGate')) {
    const answer = await gate(request, ctx);
    if (answer) return answer;
  }
  return undefined;
}

/** The enabled areas' fragments of one point: `pageNotice` (the top of public pages) or `frontPageSection`. */
export async function pageFragments(ctx: AppContext, point: 'pageNotice' | 'frontPageSection'): Promise<string> {
  const parts = await Promise.all(ctx.areas.contributions(point).map((fragment) => fragment(ctx)));
  return parts.filter(Boolean).join('\n');
}

/** `<link rel="stylesheet">` tags of the enabled areas' stylesheets, for public pages. */
export function stylesheetLinks(ctx: AppContext): string {
  return ctx.areas
    .contributions('pageStylesheet')
    .map((path) => `<link rel="stylesheet" href="${ctx.urls.home}${path}">`)
    .join('\n');
}
