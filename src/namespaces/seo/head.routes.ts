/**
 * @module namespaces/seo/head.routes
 * `GET /get_head?url=`: the head of any public URL of this site, for headless front ends.
 */
import type { AppContext } from '../../app-context.js';
import { CoreErrors } from '../../rest/errors.js';
import { allowAll } from '../../rest/permissions.js';
import { READABLE, respond, type RestRequest, type RouteDef } from '../../rest/route.js';
import { SEO_MESSAGES } from './errors.js';
import { buildHead } from './head/head.service.js';
import { getSeoOption } from './store.js';

function isUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export async function getHead(req: RestRequest, ctx: AppContext) {
  // CASE: the original registers the route only while headless endpoints are enabled.
  if (!(await getSeoOption<boolean>(ctx, 'enable_headless_rest_endpoints'))) return CoreErrors.noRoute();
  const head = await buildHead(ctx, String(req.params.url));
  return respond({ html: head.html, json: head.json, status: head.status }, { status: head.status });
}

export const headRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/get_head',
    endpoints: [{
      methods: READABLE,
      args: { url: { description: 'The url to get the head for.', required: true, validate: (v) => isUrl(v) || SEO_MESSAGES.invalidUrl } },
      permission: allowAll,
      handler: getHead,
    }],
  },
];
