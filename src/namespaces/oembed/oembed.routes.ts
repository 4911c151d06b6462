/**
 * @module namespaces/oembed/oembed.routes
 * `oembed/1.0`: `/embed` (public oEmbed for the site's own posts, JSON or XML) and `/proxy` (oEmbed
 * for any URL, for editors). Args as the original declares them.
 */
import type { AppContext } from '../../app-context.js';
import { RawBody } from '../../rest/json-text.js';
import { absint } from '../../rest/php-query.js';
import { allowAll, requireCapability } from '../../rest/permissions.js';
import { READABLE, RestResponse, defineRoutes, type ArgSchema, type RestRequest } from '../../rest/route.js';
import { RestError } from '../../rest/errors.js';
import { DEFAULT_WIDTH, embedDataForUrl } from './embed.service.js';
import { OEMBED_MESSAGES, OembedErrors } from './errors.js';
import { proxyOembed } from './proxy.service.js';
import { toOembedXml } from './xml.js';

export const OEMBED_NS = 'oembed/1.0';

const XML_TYPE = 'text/xml; charset=UTF-8';

const urlArg: ArgSchema = {
  description: 'The URL of the resource for which to fetch oEmbed data.',
  required: true,
  type: 'string',
  format: 'uri',
};

/** `wp_oembed_ensure_format`: anything but `json` or `xml` is `json`. */
function ensureFormat(value: unknown): 'json' | 'xml' {
  return value === 'xml' ? 'xml' : 'json';
}

/** `GET /oembed/1.0/embed`. */
export async function getEmbed(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const data = await embedDataForUrl(ctx, String(req.params.url ?? ''), req.params.maxwidth);
  if (!data) throw OembedErrors.invalidUrl();
  return data;
}

/** With `format=xml` every answer of `/embed`, argument errors included, is XML (`_oembed_rest_pre_serve_request`). */
function renderEmbed(res: RestResponse, req: RestRequest): RestResponse {
  if (ensureFormat(req.params.format ?? req.query.format) !== 'xml' || res.data instanceof RawBody) return res;
  const data = res.data instanceof RestError ? res.data.toJSON() : (res.data as Record<string, unknown>);
  return new RestResponse(new RawBody(XML_TYPE, toOembedXml(data)), res.status, res.headers);
}

/** `GET /oembed/1.0/proxy`. Always JSON. */
export async function getProxy(req: RestRequest, ctx: AppContext): Promise<unknown> {
  return proxyOembed(req, ctx);
}

export const oembedRoutes = defineRoutes<AppContext>(OEMBED_NS, [
  {
    path: '/embed',
    render: renderEmbed,
    endpoints: [
      {
        methods: READABLE,
        args: {
          url: urlArg,
          format: { default: 'json', sanitize: ensureFormat },
          maxwidth: { default: DEFAULT_WIDTH, sanitize: absint },
        },
        permission: allowAll,
        handler: getEmbed,
      },
    ],
  },
  {
    path: '/proxy',
    endpoints: [
      {
        methods: READABLE,
        args: {
          url: urlArg,
          format: { description: 'The oEmbed format to use.', type: 'string', default: 'json', enum: ['json', 'xml'] },
          maxwidth: { description: 'The maximum width of the embed frame in pixels.', type: 'integer', default: DEFAULT_WIDTH, sanitize: absint },
          maxheight: { description: 'The maximum height of the embed frame in pixels.', type: 'integer', sanitize: absint },
          discover: { description: 'Whether to perform an oEmbed discovery request for unsanctioned providers.', type: 'boolean', default: true },
        },
        permission: requireCapability('edit_posts', { code: 'rest_forbidden', message: OEMBED_MESSAGES.proxyForbidden }),
        handler: getProxy,
      },
    ],
  },
]);
