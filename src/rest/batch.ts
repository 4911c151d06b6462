/**
 * @module rest/batch
 * `POST /batch/v1`: validates every item first, then (unless `require-all-validate` found a failure)
 * runs them in order through the same dispatcher, with the caller's identity. Always answers 207.
 */
import type { Dispatcher, Prepared } from './dispatch.js';
import { CoreErrors, RestError } from './errors.js';
import { filterFields, parseFields } from './fields.js';
import { parsePhpQuery } from './php-query.js';
import { createRestRequest } from './request.js';
import { CREATABLE, RestResponse, type HttpMethod, type RestRequest, type RouteDef } from './route.js';
import { allowAll } from './permissions.js';

export const MAX_BATCH_SIZE = 25;

interface BatchItem {
  method?: string;
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string | string[]>;
}

interface Envelope {
  body: unknown;
  status: number;
  headers: Record<string, string> | [];
}

function envelope(res: RestResponse): Envelope {
  const headers: Envelope['headers'] = Object.keys(res.headers).length > 0 ? res.headers : [];
  const body = res.data instanceof RestError ? res.data.toJSON() : res.data;
  return { body, status: res.status, headers };
}

function errorEnvelope(error: RestError): Envelope {
  return { body: error.toJSON(), status: error.status, headers: [] };
}

/**
 * Splits a sub-request path into route and query (`wp_parse_url`); undefined when it cannot be
 * parsed. A full URL gives its path and a relative path is kept as it is: neither names a route, so
 * such items answer rest_no_route, as the original's.
 */
function parsePath(path: string): { route: string; query: Record<string, unknown> } | undefined {
  if (/[\u0000-\u001f]/.test(path)) return undefined;
  if (/^[a-z][a-z\d+.-]*:/i.test(path)) {
    let url: URL;
    try {
      url = new URL(path);
    } catch {
      return undefined;
    }
    return parsePath(`${url.pathname}${url.search}`);
  }
  if (path.startsWith('//')) return undefined;
  const q = path.indexOf('?');
  const route = q === -1 ? path : path.slice(0, q);
  let decoded: string;
  try {
    decoded = decodeURIComponent(route);
  } catch {
    return undefined;
  }
  return { route: decoded, query: q === -1 ? {} : parsePhpQuery(path.slice(q + 1)) };
}

function subRequest(item: BatchItem, outer: RestRequest): RestRequest | undefined {
  const parsed = parsePath(item.path);
  if (!parsed) return undefined;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(item.headers ?? {})) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : String(v);
  return createRestRequest({
    method: (item.method ?? 'POST').toUpperCase() as HttpMethod,
    route: parsed.route,
    query: parsed.query,
    body: item.body ?? {},
    headers,
    user: outer.user,
    auth: outer.auth,
    ip: outer.ip,
  });
}

/** The batch route, bound to the app's dispatcher. */
export function batchRoute(dispatcher: () => Dispatcher): RouteDef {
  const run = async (req: RestRequest) => {
    const d = dispatcher();
    const items = req.params.requests as BatchItem[];
    const strict = req.params.validation === 'require-all-validate';

    // Validation pass over every item, index-aligned, before anything runs.
    const prepared: (Prepared | RestError)[] = items.map((item) => {
      const sub = subRequest(item, req);
      if (!sub) return CoreErrors.parsePathFailed();
      // The opt-in is checked right after matching, before the item's args (serve_batch_request_v1).
      const found = d.registry.match(sub.route, sub.method) ?? null;
      if (found && !found.endpoint.allowBatch) {
        const { endpoint, ...match } = found;
        sub.urlParams = match.urlParams;
        return { req: sub, match, endpoint, error: CoreErrors.batchNotAllowed() };
      }
      return d.prepare(sub, sub.method, found);
    });

    const failedOf = (p: Prepared | RestError) => (p instanceof RestError ? p : p.error);
    if (strict && prepared.some((p) => failedOf(p) !== undefined)) {
      const responses = prepared.map((p) => {
        const err = failedOf(p);
        return err ? errorEnvelope(err) : null;
      });
      return new RestResponse({ failed: 'validation', responses }, 207);
    }

    const responses: Envelope[] = [];
    for (const p of prepared) {
      if (p instanceof RestError) {
        responses.push(errorEnvelope(p));
        continue;
      }
      const res = await d.execute(p);
      if (p.match) res.headers.Allow = await d.allowHeader(p.match, p.req);
      const fields = parseFields(p.req.query._fields);
      if (fields && res.status < 400) res.data = filterFields(res.data, fields);
      responses.push(envelope(res));
    }
    return new RestResponse({ responses }, 207);
  };

  return {
    path: '/batch/v1',
    endpoints: [
      {
        methods: CREATABLE,
        args: {
          validation: { type: 'string', enum: ['require-all-validate', 'normal'], default: 'normal' },
          requests: {
            required: true,
            type: 'array',
            maxItems: MAX_BATCH_SIZE,
            items: {
              type: 'object',
              properties: {
                method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
                path: { type: 'string', required: true },
                body: { type: 'object', properties: {}, additionalProperties: true },
                headers: {
                  type: 'object',
                  properties: {},
                  additionalProperties: { type: ['string', 'array'], items: { type: 'string' } },
                },
              },
            },
          },
        },
        permission: allowAll,
        handler: run,
      },
    ],
  };
}
