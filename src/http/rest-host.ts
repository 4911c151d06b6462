/**
 * @module http/rest-host
 * Maps HTTP to RestRequests and back: the pretty `/wp-json/...` URLs, `?rest_route=`, method
 * override, authentication before routing, OPTIONS and HEAD, then the shared dispatcher.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../auth/types.js';
import { errorResponse, type Dispatcher } from '../rest/dispatch.js';
import type { Discovery } from '../rest/discovery.js';
import { CoreErrors, RestError } from '../rest/errors.js';
import { parsePhpQuery } from '../rest/php-query.js';
import { createRestRequest } from '../rest/request.js';
import { RestResponse, type HttpMethod } from '../rest/route.js';
import { errorWire, serveResponse, valueOf, type WireResponse } from '../rest/serve.js';
import { readBody, type ParsedBody } from './body.js';
import { isMultipartRequest, readMultipart, takesUploads } from './multipart.js';
import { NO_CACHE, restHeaders } from './headers.js';

export interface RestHostOptions {
  apiPath: string;
  apiRoot: string;
  /** Bytes of a request body (`BODY_LIMIT`); multipart bodies are held to it here. */
  bodyLimit: number;
  dispatcher: Dispatcher;
  /** The current discovery (it changes when areas are switched). */
  discovery: () => Discovery;
  authenticator: Authenticator;
  /** The site's front page, for `/` without `rest_route`. */
  home(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

const METHODS = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

function lowerHeaders(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = req.headers;
  for (const k in raw) {
    const v = raw[k];
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** The route of a pretty URL: trimmed of trailing slashes, `/` when empty. */
function normaliseRoute(route: string): string {
  let decoded = route;
  try {
    decoded = decodeURIComponent(route);
  } catch {
    // keep it undecoded: it will simply not match
  }
  const trimmed = decoded.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

type Headers = Readonly<Record<string, string>>;

/** Status and body of `wire`, with the header sets in order, a later value replacing an earlier one. */
function send(reply: FastifyReply, wire: Omit<WireResponse, 'headers'>, ...headerSets: Headers[]): FastifyReply {
  reply.code(wire.status);
  for (const headers of headerSets) for (const k in headers) reply.header(k, headers[k]);
  return reply.send(wire.body ?? '');
}

const CLOSE: Headers = { Connection: 'close' };

/** Registers the REST routes on Fastify. */
export function registerRestHost(app: FastifyInstance, opts: RestHostOptions): void {
  const { dispatcher, discovery, authenticator, apiRoot } = opts;

  const handle = async (request: FastifyRequest, reply: FastifyReply, routePath: string) => {
    const headers = lowerHeaders(request);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const override = typeof query._method === 'string' ? query._method : headers['x-http-method-override'];
    const usedHeaderOverride = typeof query._method !== 'string' && headers['x-http-method-override'] !== undefined;
    const realMethod = request.method.toUpperCase() as HttpMethod;
    const method = (override ? override.toUpperCase() : realMethod) as HttpMethod;
    const origin = headers.origin;
    const fixed = (noCache: boolean) => restHeaders(apiRoot, origin, noCache);

    // Early answers go through the same shaping as dispatched ones (`_envelope`, `_jsonp`), as WordPress.
    const serveError = (error: RestError) => serveResponse(errorResponse(error), { query, head: method === 'HEAD', apiRoot, embed: async () => null });

    if (!METHODS.has(method)) {
      const wire = await serveError(CoreErrors.noRoute());
      return send(reply, wire, fixed(false), usedHeaderOverride ? NO_CACHE : {}, wire.headers);
    }

    const route = routePath;
    const multipart = isMultipartRequest(request);
    let parsed: ParsedBody = multipart ? { body: {}, rawBody: undefined, files: {} } : readBody(method, headers['content-type'], request.body);

    // A multipart body is read once, for a route that exists: by a signature check that covers it
    // (once the signature itself verified), else after authentication.
    let form: Promise<ParsedBody | RestError | undefined> | undefined;
    const readForm = () =>
      (form ??= (async () => {
        const found = method === 'OPTIONS' ? undefined : discovery().registry.match(route, method === 'HEAD' ? 'GET' : method);
        if (!found) return undefined;
        try {
          return await readMultipart(request, { maxBytes: opts.bodyLimit, keepFiles: takesUploads(found.endpoint) });
        } catch (err) {
          if (err instanceof RestError) return err;
          throw err;
        }
      })());

    // Authentication errors come before everything, even unknown routes.
    const received = { method: realMethod, url: request.url, rawBody: parsed.rawBody, multipart, ...(multipart ? { readMultipart: readForm } : {}) };
    let outcome = await authenticator.authenticate({ headers, query, body: parsed.body, ip: request.ip, request: received });
    // Otherwise the body is read only now: after the credentials were checked. A cookie nonce may
    // travel in it, so a refused nonce waits for the body.
    const refused = outcome instanceof RestError && outcome.code !== 'rest_cookie_invalid_nonce';
    if (multipart && (form !== undefined || !refused)) {
      const read = await readForm();
      if (read instanceof RestError) {
        // The rest of the body is not read: close the connection after the answer.
        const wire = errorWire(read);
        return send(reply, wire, fixed(true), wire.headers, CLOSE);
      }
      if (read) {
        parsed = read;
        const signed = !(outcome instanceof RestError) && outcome.auth.method === 'signature';
        if (!refused && !signed && Object.hasOwn(parsed.body, '_wpnonce')) outcome = await authenticator.authenticate({ headers, query, body: parsed.body, ip: request.ip, request: received });
      }
    }
    if (outcome instanceof RestError) {
      // A refused sign-in (429 too_many_failed_logins) says when to try again (Retry-After).
      const wire = await serveError(outcome);
      return send(reply, wire, fixed(true), wire.headers);
    }
    // What a signed-in user or the hub acting for the site is answered is nobody else's to cache.
    const fixedHeaders = fixed(outcome.user !== null || outcome.auth.method === 'signature');
    const userHeaders = outcome.headers;

    if (method === 'OPTIONS') {
      const found = discovery().optionsFor(route);
      if (!found) {
        const wire = await serveResponse(new RestResponse([], 200), { query, head: false, apiRoot, embed: async () => null });
        return send(reply, wire, fixedHeaders, userHeaders, wire.headers);
      }
      const req = createRestRequest({ method: 'OPTIONS', route, query, body: parsed.body, headers, user: outcome.user, auth: outcome.auth, ip: request.ip });
      req.urlParams = (discovery().registry.matchAll(route)[0]?.urlParams) ?? {};
      const allow = await dispatcher.allowHeader({ route: found.route, urlParams: req.urlParams }, req);
      const wire = await serveResponse(new RestResponse(found.data, 200, { Allow: allow }), { query, head: false, apiRoot, embed: async () => null });
      return send(reply, wire, fixedHeaders, userHeaders, wire.headers);
    }

    const head = method === 'HEAD';
    const req = createRestRequest({
      method: head ? 'GET' : method,
      route,
      query,
      body: parsed.body,
      rawBody: parsed.rawBody,
      files: parsed.files,
      headers,
      user: outcome.user,
      auth: outcome.auth,
      ip: request.ip,
    });
    const res = await dispatcher.dispatch(req);
    const wire = await serveResponse(res, {
      query,
      head,
      apiRoot,
      embed: (href) => embedFetch(href),
    });
    const extra = usedHeaderOverride && wire.status >= 400 && wire.status < 500 ? NO_CACHE : {};
    return send(reply, wire, fixedHeaders, userHeaders, extra, wire.headers);

    async function embedFetch(href: string): Promise<unknown> {
      if (!href.startsWith(apiRoot)) return null;
      const rest = href.slice(apiRoot.length);
      const q = rest.indexOf('?');
      const subQuery = q === -1 ? {} : parsePhpQuery(rest.slice(q + 1));
      if (subQuery.context === undefined) subQuery.context = 'embed';
      const subRoute = normaliseRoute(q === -1 ? rest : rest.slice(0, q));
      const sub = createRestRequest({ method: 'GET', route: subRoute, query: subQuery, headers, user: outcome instanceof RestError ? null : outcome.user, auth: req.auth, ip: request.ip });
      const r = await dispatcher.dispatch(sub);
      return valueOf(r.data);
    }
  };

  const prefix = opts.apiPath;
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
  const pretty = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url;
    const path = url.split('?')[0]!;
    const at = path.indexOf(prefix);
    // WordPress reads its query vars from the query string before the rewrite's: a `rest_route`
    // there wins over the route in the /wp-json/ path (WP::parse_request).
    const query = (request.query ?? {}) as Record<string, unknown>;
    const queried = typeof query.rest_route === 'string' && query.rest_route !== '' ? query.rest_route : undefined;
    return handle(request, reply, normaliseRoute(queried ?? path.slice(at + prefix.length)));
  };
  for (const url of [prefix, `${prefix}/*`, `/index.php${prefix}`, `/index.php${prefix}/*`]) {
    app.route({ method: [...methods], url, handler: pretty });
  }
  // Plain permalinks: `/?rest_route=/ns/route` and `/index.php?rest_route=...`.
  const plain = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    if (typeof query.rest_route !== 'string') {
      const method = request.method.toUpperCase();
      return request.url.startsWith('/index.php') || (method !== 'GET' && method !== 'HEAD') ? reply.callNotFound() : opts.home(request, reply);
    }
    return handle(request, reply, normaliseRoute(query.rest_route));
  };
  // Their HEAD is Fastify's own (from GET): the front page's answer keeps its length and loses its body;
  // the API's HEAD, answered here without a body, is the same either way.
  for (const url of ['/', '/index.php']) app.route({ method: methods.filter((m) => m !== 'HEAD'), url, handler: plain });
}
