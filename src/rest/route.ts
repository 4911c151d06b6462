/**
 * @module rest/route
 * Route declarations: the single source for matching, validation, permissions, batch eligibility,
 * discovery and generated documentation.
 *
 * @example
 * export const ticketRoutes = defineRoutes('eventsuite/tickets/v1', [
 *   { path: '/tickets/{id}', endpoints: [
 *     { methods: READABLE, args: { id: idArg('Ticket ID.') }, permission: allowAll, handler: getTicket },
 *   ] },
 * ]);
 */
import type { RestError } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

export const READABLE = Object.freeze(['GET'] as const);
export const CREATABLE = Object.freeze(['POST'] as const);
export const EDITABLE = Object.freeze(['POST', 'PUT', 'PATCH'] as const);
export const DELETABLE = Object.freeze(['DELETE'] as const);
export const ALLMETHODS = Object.freeze(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const);

export type SchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/**
 * One argument's JSON-schema subset as WordPress understands it. Keys are emitted in discovery in
 * declaration order (only the allowed keywords), with `required` appended last.
 * `validate` and `sanitize` are private: never emitted. As in WordPress, an arg with its own `sanitize`
 * and no `validate` is not type-checked (e.g. `absint` arguments).
 */
export interface ArgSchema {
  title?: string;
  description?: string;
  default?: unknown;
  type?: SchemaType | readonly SchemaType[] | string;
  format?: string;
  enum?: readonly unknown[];
  items?: ArgSchema;
  properties?: Record<string, ArgSchema>;
  additionalProperties?: boolean | ArgSchema;
  patternProperties?: Record<string, ArgSchema>;
  minProperties?: number;
  maxProperties?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  anyOf?: readonly ArgSchema[];
  oneOf?: readonly ArgSchema[];
  /** Top level: boolean. Inside an object schema: draft-04 list or draft-03 boolean per property. */
  required?: boolean | readonly string[];
  context?: readonly string[];
  readonly?: boolean;
  /**
   * A default that depends on the clock ("yesterday at 23:59"), computed per request from the app's
   * clock; discovery and the generated docs show its value at the document's build as `default`, in
   * this key's place. See {@link defaultOf}.
   */
  defaultAt?: (now: Date) => unknown;
  /**
   * Replaces schema validation. Return true, false (generic message), a message string or a RestError.
   * `now` is the app clock's time for this request (for relative dates).
   */
  validate?: (value: unknown, req: RestRequest, name: string, now: Date) => boolean | string | RestError;
  /** Replaces schema sanitisation; `now` as for `validate`. */
  sanitize?: (value: unknown, req: RestRequest, name: string, now: Date) => unknown;
  /**
   * An asynchronous check (one that needs the database), run with the sanitised value after every
   * arg passed or failed validation and before the permission check; see {@link ArgCheck}.
   */
  check?: ArgCheck;
}

/**
 * What an {@link ArgCheck} answers: `true` (or nothing) accepts; `false` rejects with WordPress's
 * generic "Invalid parameter."; a string or a RestError rejects with that message (and `details`).
 * Every rejection of a request is collected into one `rest_invalid_param`. To end the request at once
 * with another error (a 404 for a path ID naming nothing), throw a RestError.
 */
export type ArgCheckVerdict = boolean | string | RestError | undefined | void;

/**
 * An asynchronous argument check. Runs only for an arg that has a value (supplied or default) and
 * passed its own validation, in arg declaration order. What it loads for the handler goes in
 * `req.locals` (see `rest/locals.ts`).
 */
export type ArgCheck<C = any> = (value: unknown, req: RestRequest, ctx: C, name: string) => ArgCheckVerdict | Promise<ArgCheckVerdict>;

/**
 * Per-request state: what a check loaded for the permission and the handler (the event, the ticket).
 * Areas declare their keys by augmenting this interface:
 * `declare module '../../rest/route.js' { interface RequestLocals { event?: EventRecord } }`.
 */
export interface RequestLocals {
  [key: string]: unknown;
}

export type ArgSchemas = Record<string, ArgSchema>;

/** The signed-in user as the REST core sees it. `auth/` provides the implementation. */
export interface RestUser {
  readonly id: number;
  readonly login: string;
  readonly email: string;
  readonly displayName: string;
  readonly roles: readonly string[];
  /** Primitive capability check (`edit_posts`, `manage_options`, ...). */
  can(capability: string): boolean;
}

/** How the current user was authenticated. */
export interface AuthInfo {
  /** `signature`: a request signed by a remote service an area trusts (the site connection's hub). */
  method: 'app-password' | 'cookie' | 'signature' | 'none';
  /** For `signature`: signed with the site's own token (the hub acting for the site, no user) or a user's. */
  signedWith?: 'site' | 'user';
  /** UUID of the application password that authenticated the request, for `/introspect`. */
  appPasswordUuid?: string;
  /** Session token of a cookie session (nonces are bound to it). */
  sessionToken?: string;
}

/** A transport-neutral request. HTTP and batch both build one. */
export interface RestRequest {
  method: HttpMethod;
  /** The route path, e.g. `/eventsuite/events/v1/events/5` (no API root, no query). */
  route: string;
  /** Query-string parameters, parsed PHP-style. */
  query: Record<string, unknown>;
  /** Form or multipart body parameters. */
  body: Record<string, unknown>;
  /** Parsed JSON body (only with a JSON content type). */
  json: Record<string, unknown> | undefined;
  /** Raw body text, if any (used for JSON parsing and webhooks). */
  rawBody: string | undefined;
  /** Captures from the route path. */
  urlParams: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Uploaded files of a multipart body, by field name. */
  files: Record<string, UploadedFile>;
  user: RestUser | null;
  auth: AuthInfo;
  /** Client address (for rate limits and `last_ip`). */
  ip: string;
  /**
   * The merged parameters after validation and sanitisation: JSON > body > query > URL > defaults,
   * with declared args replaced by their sanitised values. Undeclared params pass through untouched.
   */
  params: Record<string, unknown>;
  /** True when the client supplied `name` (not null) in any source, as opposed to a default. */
  has(name: string): boolean;
  /** Per-request state shared by checks, permissions and the handler. */
  locals: RequestLocals;
}

export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/** An arg's default at `now`: its `defaultAt` computed with the app's clock, else its `default`. */
export function defaultOf(arg: ArgSchema, now: Date): unknown {
  return arg.defaultAt ? arg.defaultAt(now) : arg.default;
}

/** What a handler may return instead of a plain body, to set status or headers. */
export class RestResponse {
  constructor(
    public data: unknown,
    public status = 200,
    public headers: Record<string, string> = {},
  ) {}
}

/** Shorthand for a response with a status and headers. */
export function respond(data: unknown, options: { status?: number; headers?: Record<string, string> } = {}): RestResponse {
  return new RestResponse(data, options.status ?? 200, { ...options.headers });
}

/** Services available to every handler. The concrete type lives in `app-context.ts`. */
export interface HandlerContext {
  readonly [key: string]: unknown;
}

export type PermissionResult = boolean | RestError;
export type Permission<C = any> = (req: RestRequest, ctx: C) => PermissionResult | Promise<PermissionResult>;
export type Handler<C = any> = (req: RestRequest, ctx: C) => unknown | Promise<unknown>;

export interface EndpointDef<C = any> {
  methods: readonly HttpMethod[];
  args?: ArgSchemas;
  permission: Permission<C>;
  handler: Handler<C>;
  /** Opt-in to `/batch/v1` (shown as `allow_batch: {"v1": true}`). */
  allowBatch?: boolean;
  /** Hide from discovery (still dispatchable). */
  showInIndex?: boolean;
  /**
   * Keeps the files of a multipart body (`req.files`) without declaring a `file` argument (a form
   * whose file fields are not known in advance). Other routes read multipart fields only.
   */
  acceptsUploads?: boolean;
  /**
   * Signed-out GET answers may be reused for this many milliseconds (same route and query). Any
   * write dispatched by this process starts afresh; see `rest/response-cache.ts`.
   */
  publicCacheMs?: number;
}

export interface RouteDef<C = any> {
  /**
   * The path after the namespace. `{name}` takes its pattern from the shared table in `registry.ts`;
   * `{name:regex}` gives the original's own pattern where it differs.
   */
  path: string;
  endpoints: readonly EndpointDef<C>[];
  /** Item schema, shown with `context=help` and in OPTIONS answers. */
  schema?: () => Record<string, unknown>;
  /**
   * Reshapes every answer of the route, argument errors included (WordPress's
   * `rest_pre_serve_request` for a route, e.g. oEmbed's XML output).
   */
  render?: (res: RestResponse, req: RestRequest) => RestResponse;
}

export interface NamespaceRoutes<C = any> {
  namespace: string;
  routes: readonly RouteDef<C>[];
}

/** Declare a namespace's routes. Frozen so nobody changes them after boot. */
export function defineRoutes<C = any>(namespace: string, routes: RouteDef<C>[]): NamespaceRoutes<C> {
  return Object.freeze({ namespace, routes: Object.freeze(routes.map((r) => Object.freeze(r))) });
}
