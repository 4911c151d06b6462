/**
 * @module rest/dispatch
 * The one pipeline, in WordPress's order: match → JSON body → required args → validation →
 * sanitisation → asynchronous arg checks → permission → handler. Stages are separately callable so batch can validate every
 * item before running any.
 *
 * @example
 * const dispatcher = new Dispatcher(registry, ctx, log);
 * const res = await dispatcher.dispatch(createRestRequest({ method: 'GET', route: '/' }));
 */
import { checkArgs } from './args.js';
import { runChecks } from './checks.js';
import { CoreErrors, RestError, isRestError, retryAfterHeader, type ParamFailure } from './errors.js';
import type { Registry, RouteMatch } from './registry.js';
import { isJsonMediaType, mergedParams } from './request.js';
import { noteWrite } from './write-generation.js';
import { ResponseCache } from './response-cache.js';
import { RestResponse, type EndpointDef, type HttpMethod, type RestRequest } from './route.js';

/** Where a request stands after the validation stages. */
export interface Prepared {
  req: RestRequest;
  match?: RouteMatch;
  endpoint?: EndpointDef;
  /** The first failure (no route, bad JSON, missing or invalid args). */
  error?: RestError;
  /** Args found invalid by validation; the async checks add theirs before the error is answered. */
  failures?: Record<string, ParamFailure>;
}

export interface ErrorLogger {
  error(obj: unknown, msg?: string): void;
}

/** Turns an unexpected error that is really the client's (e.g. a value out of a column's range) into a RestError. */
export type ErrorClassifier = (err: unknown) => RestError | undefined;

/** Runs after a route matched and before its permission check; a RestError turns the request away. */
export type RequestGate = (req: RestRequest) => Promise<RestError | undefined>;

/** Runs requests through the registry. One instance per app. */
export class Dispatcher<C = unknown> {
  readonly #cache = new ResponseCache();
  readonly #registry: () => Registry;

  /** @param registry the route table, or a function answering the current one (it changes when areas are switched). */
  constructor(
    registry: Registry | (() => Registry),
    readonly ctx: C,
    readonly log: ErrorLogger,
    readonly classify: ErrorClassifier = () => undefined,
    readonly gate: RequestGate = async () => undefined,
    /** The app's clock: clock-dependent defaults and relative dates in args are computed with it. */
    readonly now: () => Date = () => new Date(),
  ) {
    this.#registry = typeof registry === 'function' ? registry : () => registry;
  }

  /** The route table requests are matched against. */
  get registry(): Registry {
    return this.#registry();
  }

  /** Match (unless `found` is the match already made), parse the JSON body, and check args. Never throws. */
  prepare(req: RestRequest, method: HttpMethod = req.method, found: RouteFound | null | undefined = this.registry.match(req.route, method) ?? null): Prepared {
    if (!found) return { req, error: CoreErrors.noRoute() };
    const { endpoint, ...match } = found;
    req.urlParams = match.urlParams;
    if (req.json === undefined && req.rawBody && isJsonMediaType(req.headers['content-type'])) {
      try {
        const parsed: unknown = JSON.parse(req.rawBody);
        req.json = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
      } catch (e) {
        return { req, match, endpoint, error: CoreErrors.invalidJson(e instanceof Error && /control character/i.test(e.message)) };
      }
    }
    const merged = mergedParams(req);
    const { values, error, failures } = checkArgs(endpoint.args ?? {}, merged, req, this.now());
    req.params = { ...merged, ...values };
    return error ? { req, match, endpoint, error, failures } : { req, match, endpoint, failures };
  }

  /** Async arg checks, permission, then handler; turns every outcome into a RestResponse. */
  async execute(prepared: Prepared): Promise<RestResponse> {
    const { req, endpoint, error, failures } = prepared;
    // An invalid-args error waits for the checks, to answer every invalid arg at once.
    const waits = error !== undefined && failures !== undefined && Object.keys(failures).length > 0;
    if (!endpoint || (error && !waits)) return errorResponse(error ?? CoreErrors.noRoute());
    try {
      return await this.#run(req, endpoint, failures ?? {});
    } finally {
      if (!SAFE_METHODS.has(req.method)) noteWrite();
    }
  }

  async #run(req: RestRequest, endpoint: EndpointDef, failures: Record<string, ParamFailure>): Promise<RestResponse> {
    try {
      const invalid = await runChecks(endpoint.args ?? {}, req, this.ctx, failures);
      if (invalid) return errorResponse(invalid);
      const turnedAway = await this.gate(req);
      if (turnedAway) return errorResponse(turnedAway);
      const allowed = await endpoint.permission(req, this.ctx);
      if (allowed !== true) {
        return errorResponse(isRestError(allowed) ? allowed : CoreErrors.forbidden(req.user !== null));
      }
      const result = await endpoint.handler(req, this.ctx);
      if (result instanceof RestResponse) return result;
      if (isRestError(result)) return errorResponse(result);
      return new RestResponse(result);
    } catch (e) {
      if (isRestError(e)) return errorResponse(e);
      const clientError = this.classify(e);
      if (clientError) return errorResponse(clientError);
      this.log.error({ err: e, route: req.route, method: req.method }, 'unhandled error in handler');
      return errorResponse(CoreErrors.internal());
    }
  }

  /** The whole pipeline for one request, with the `Allow` header of the matched route. */
  async dispatch(req: RestRequest): Promise<RestResponse> {
    // A reusable signed-out answer is looked up before validation: only successes are kept, and the
    // key is the whole query, so the same request validates the same way.
    const found = req.method === 'GET' && req.user === null ? (this.registry.match(req.route, 'GET') ?? null) : undefined;
    const ttl = found?.endpoint.publicCacheMs;
    const key = ttl ? this.#cache.keyOf(req) : undefined;
    const cached = key ? this.#cache.get(key) : undefined;
    if (cached) return cached;
    const prepared = this.prepare(req, req.method, found);
    let res = await this.execute(prepared);
    if (prepared.match) {
      res.headers.Allow = await this.allowHeader(prepared.match, req);
      const render = prepared.match.route.def.render;
      if (render) res = render(res, req);
    }
    return key && ttl && !prepared.error ? this.#cache.set(key, res, ttl) : res;
  }

  /** Methods of the route whose permission check passes for this request, joined WordPress style. */
  async allowHeader(match: RouteMatch, req: RestRequest): Promise<string> {
    const allowed: string[] = [];
    for (const ep of match.route.def.endpoints) {
      let ok = false;
      try {
        ok = (await ep.permission(req, this.ctx)) === true;
      } catch {
        ok = false;
      }
      if (ok) allowed.push(...ep.methods);
    }
    return allowed.join(', ');
  }
}

const SAFE_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'OPTIONS']);

type RouteFound = RouteMatch & { endpoint: EndpointDef };

/** A RestResponse carrying an error body with the error's status. */
export function errorResponse(error: RestError): RestResponse {
  return new RestResponse(error, error.status, retryAfterHeader(error));
}
