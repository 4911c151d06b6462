/**
 * @module namespaces/seo/indexing.routes
 * `indexing/*` and `link-indexing/*`: one batch per call, `next_url` set while batches come back full.
 */
import type { AppContext } from '../../app-context.js';
import { requireCapability } from '../../rest/permissions.js';
import { CREATABLE, type RestRequest, type RouteDef } from '../../rest/route.js';
import { SeoErrors } from './errors.js';
import { indexArchives, indexGeneral, indexLinks, indexPosts, indexTerms, INDEXING_LIMITS } from './indexing.service.js';
import { setSeoOption } from './store.js';

export const SEO_NS = 'seo/v1';

type BatchAction = (ctx: AppContext) => Promise<unknown[]>;

/** Runs one batch; on failure stores the "indexing failed" flag and answers `wpseo_error_indexing`. */
function batchRoute(path: string, action: BatchAction, limit: number): RouteDef<AppContext> {
  const handler = async (_req: RestRequest, ctx: AppContext) => {
    let objects: unknown[];
    try {
      objects = await action(ctx);
    } catch (e) {
      ctx.log.error({ err: e, path }, 'seo indexing failed');
      await setSeoOption(ctx, 'indexing_reason', 'indexing_failed');
      return SeoErrors.indexing(e instanceof Error ? e.name : 'Error');
    }
    return { objects, next_url: objects.length >= limit ? ctx.urls.rest(`${SEO_NS}${path}`) : false };
  };
  return { path, endpoints: [{ methods: CREATABLE, permission: requireCapability('edit_posts'), handler }] };
}

function stepRoute(path: string, step: (ctx: AppContext) => Promise<void>): RouteDef<AppContext> {
  const handler = async (_req: RestRequest, ctx: AppContext) => {
    await step(ctx);
    return { objects: [], next_url: false };
  };
  return { path, endpoints: [{ methods: CREATABLE, permission: requireCapability('edit_posts'), handler }] };
}

export const indexingRouteDefs: RouteDef<AppContext>[] = [
  stepRoute('/indexing/prepare', async (ctx) => {
    await setSeoOption(ctx, 'indexing_started', Math.floor(ctx.now().getTime() / 1000));
    await setSeoOption(ctx, 'indexing_reason', '');
    await setSeoOption(ctx, 'indexables_indexing_completed', false);
  }),
  batchRoute('/indexing/posts', (ctx) => indexPosts(ctx), INDEXING_LIMITS.posts),
  batchRoute('/indexing/terms', (ctx) => indexTerms(ctx), INDEXING_LIMITS.terms),
  batchRoute('/indexing/post-type-archives', (ctx) => indexArchives(ctx), INDEXING_LIMITS.archives),
  batchRoute('/indexing/general', (ctx) => indexGeneral(ctx), INDEXING_LIMITS.general),
  stepRoute('/indexing/indexables-complete', async (ctx) => {
    await setSeoOption(ctx, 'indexables_indexing_completed', true);
  }),
  stepRoute('/indexing/complete', async (ctx) => {
    await setSeoOption(ctx, 'indexing_started', null);
    await setSeoOption(ctx, 'indexables_indexing_completed', true);
  }),
  batchRoute('/link-indexing/posts', (ctx) => indexLinks(ctx, 'post'), INDEXING_LIMITS.links),
  batchRoute('/link-indexing/terms', (ctx) => indexLinks(ctx, 'term'), INDEXING_LIMITS.links),
];
