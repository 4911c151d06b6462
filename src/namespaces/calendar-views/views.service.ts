/**
 * @module namespaces/calendar-views/views.service
 * One entry point for every rendering of a view: the REST route and the public pages both call
 * {@link renderView} with the URL being shown and the visitor.
 */
import { DateTime } from 'luxon';
import type { AppContext } from '../../app-context.js';
import { siteTimeZone } from '../../content/posts.js';
import type { Caller } from './events-source.js';
import { dayModel, listModel, monthModel, viewSettings, type ViewModel } from './models.js';
import { renderContainer, type RenderEnv } from './render.js';
import { parseViewUrl, VIEWS, type ViewRequest, type ViewSlug } from './view-url.js';

export const VIEWS_NS = 'eventsuite/views/v2';

export interface RenderInput {
  url: string;
  view?: string;
  viewData?: Record<string, unknown>;
  prevUrl?: string;
  shouldManageUrl?: boolean;
  initialLoad?: boolean;
}

/** The views switched on (option `tribeEnableViews`, set by the onboarding wizard). */
export async function enabledViews(ctx: AppContext): Promise<ViewSlug[]> {
  const stored = await ctx.options.get<unknown>('tribeEnableViews');
  const list = Array.isArray(stored) ? stored.filter((v): v is ViewSlug => (VIEWS as readonly string[]).includes(v as string)) : [];
  return list.length > 0 ? list : [...VIEWS];
}

/** The default view (option `viewOption`) when it is enabled, else the first enabled one. */
async function defaultView(ctx: AppContext, enabled: ViewSlug[]): Promise<ViewSlug> {
  const v = await ctx.options.get<unknown>('viewOption');
  return enabled.includes(v as ViewSlug) ? (v as ViewSlug) : enabled.includes('month') ? 'month' : enabled[0]!;
}

/** The view request for a URL; undefined when the URL is no calendar page. */
export async function viewRequestFor(ctx: AppContext, input: Pick<RenderInput, 'url' | 'view' | 'viewData'>): Promise<ViewRequest | undefined> {
  const enabled = await enabledViews(ctx);
  const req = parseViewUrl(input.url, ctx.urls.home, await defaultView(ctx, enabled), { ...(input.view ? { view: input.view } : {}), ...(input.viewData ? { data: input.viewData } : {}) });
  if (req && !enabled.includes(req.view)) req.view = await defaultView(ctx, enabled);
  return req;
}

export async function buildModel(ctx: AppContext, caller: Caller, req: ViewRequest): Promise<ViewModel> {
  const settings = await viewSettings(ctx);
  if (req.view === 'month') return monthModel(ctx, caller, req, settings);
  if (req.view === 'day') return dayModel(ctx, caller, req);
  return listModel(ctx, caller, req, settings);
}

export async function renderEnv(ctx: AppContext, input: Partial<RenderInput>, archive = ''): Promise<RenderEnv> {
  const zone = await siteTimeZone(ctx.options);
  return {
    home: ctx.urls.home, archive, restUrl: ctx.urls.rest(`/${VIEWS_NS}/html`), siteName: String(await ctx.options.get('blogname')),
    dateFormat: String(await ctx.options.get('date_format')), timeFormat: String(await ctx.options.get('time_format')),
    startOfWeek: (await viewSettings(ctx)).startOfWeek, enabledViews: await enabledViews(ctx), shouldManageUrl: input.shouldManageUrl ?? true,
    isInitialLoad: input.initialLoad ?? false, prevUrl: input.prevUrl ?? '', now: DateTime.fromJSDate(ctx.now()).setZone(zone),
  };
}

/** The container markup for the URL, or undefined when it is no calendar page. */
export async function renderView(ctx: AppContext, caller: Caller, input: RenderInput): Promise<{ html: string; req: ViewRequest; model: ViewModel } | undefined> {
  const req = await viewRequestFor(ctx, input);
  if (!req) return undefined;
  const model = await buildModel(ctx, caller, req);
  return { html: renderContainer(model, req, await renderEnv(ctx, input, req.archive)), req, model };
}
