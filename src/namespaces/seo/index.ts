/**
 * @module namespaces/seo
 * The SEO area, namespace `seo/v1` (the original `yoast/v1`): content analysis and the dashboard's
 * scores, indexables, first-time configuration, per-user state, the head of every public page and
 * the two ranking-tool integrations. Exports {@link seoService} for other areas.
 */
import { defineArea } from '../../area.js';
import type { AppContext } from '../../app-context.js';
import { defineRoutes, type NamespaceRoutes } from '../../rest/route.js';
import { ANALYSE_JOB, runAnalyseJob } from './analysis/analyse.job.js';
import { configurationRouteDefs } from './configuration.routes.js';
import { headRouteDefs } from './head.routes.js';
import { rememberDispatcher } from './head/public-rest.js';
import { indexingRouteDefs, SEO_NS } from './indexing.routes.js';
import { integrationsScreen } from './integrations.screen.js';
import { SEO_POST_LIST_FILTERS } from './post-list-filters.js';
import { ranktoolARouteDefs } from './ranktools/ranktool-a.routes.js';
import { ranktoolBRouteDefs } from './ranktools/ranktool-b.routes.js';
import { scoresRouteDefs } from './scores.routes.js';
import { stateRouteDefs } from './state.routes.js';

export const seoRoutes: NamespaceRoutes<AppContext> = defineRoutes<AppContext>(SEO_NS, [
  ...scoresRouteDefs,
  ...stateRouteDefs,
  ...configurationRouteDefs,
  ...indexingRouteDefs,
  ...headRouteDefs,
  ...ranktoolARouteDefs,
  ...ranktoolBRouteDefs,
]);

export const seoArea = defineArea({
  id: 'seo',
  title: 'SEO',
  description: 'Content analysis, indexables, search-engine heads of public pages, and ranking-tool integrations.',
  namespaces: [seoRoutes],
  capabilities: { administrator: ['wpseo_manage_options'] },
  jobs: { [ANALYSE_JOB]: runAnalyseJob },
  // Content written anywhere (events, venues, pages) is scored within minutes, outside the write request.
  schedules: [{ name: 'seo.analyse-stale', kind: ANALYSE_JOB, every: '5m' }],
  // The head builder reads other areas' public representations through the dispatcher.
  pages: (_app, host) => rememberDispatcher(host.ctx, host.dispatcher),
  contributes: { adminScreens: integrationsScreen, postListFilters: SEO_POST_LIST_FILTERS },
});

export { SEO_NS };
export { seoService } from './seo.public.js';
