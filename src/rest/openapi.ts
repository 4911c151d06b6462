/**
 * @module rest/openapi
 * The OpenAPI documents, generated from the same route declarations as discovery (nothing described
 * twice): one OpenAPI 3.1 document for the whole API (`/openapi.json`), and a namespace's own
 * `/doc` in an original's form, configured per namespace ({@link namespaceDocument}).
 */
import { argData } from './discovery.js';
import type { Registry } from './registry.js';
import { defaultOf, type ArgSchema, type EndpointDef, type RouteDef } from './route.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** JSON Schema of one arg: the discovery keywords minus WordPress's boolean `required`. */
function jsonSchema(arg: ArgSchema, now: Date): Record<string, unknown> {
  const { required: _required, ...rest } = argData(arg, now);
  void _required;
  return fixSchema(rest);
}

/** WordPress writes empty maps as `[]` and allows draft-03 booleans; OpenAPI wants objects. */
function fixSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties') {
      const props = Array.isArray(v) ? {} : (v as Record<string, Record<string, unknown>>);
      const required: string[] = [];
      out.properties = Object.fromEntries(
        Object.entries(props).map(([name, s]) => {
          if (s.required === true) required.push(name);
          const { required: _r, ...inner } = s;
          void _r;
          return [name, fixSchema(inner)];
        }),
      );
      if (required.length > 0) out.required = required;
    } else if ((k === 'items' || k === 'additionalProperties') && v && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = fixSchema(v as Record<string, unknown>);
    } else if (k === 'exclusiveMinimum' || k === 'exclusiveMaximum') {
      continue; // draft-04 booleans; the bounds stay inclusive in the document
    } else out[k] = v;
  }
  return out;
}

function operation(method: string, ep: EndpointDef, pathVars: Map<string, string>, tag: string, now: Date): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = [];
  const bodyProps: Record<string, unknown> = {};
  const bodyRequired: string[] = [];
  for (const [name, arg] of Object.entries(ep.args ?? {})) {
    if (pathVars.has(name)) {
      parameters.push({ name, in: 'path', required: true, schema: { type: 'string', pattern: `^${pathVars.get(name)}$` }, ...(arg.description ? { description: arg.description } : {}) });
    } else if (BODY_METHODS.has(method)) {
      bodyProps[name] = jsonSchema(arg, now);
      if (arg.required === true) bodyRequired.push(name);
    } else {
      parameters.push({ name, in: 'query', required: arg.required === true, schema: jsonSchema(arg, now), ...(arg.description ? { description: arg.description } : {}) });
    }
  }
  const op: Record<string, unknown> = { tags: [tag], operationId: `${method.toLowerCase()}_${tag}_${[...pathVars.keys()].join('_')}`, parameters };
  if (BODY_METHODS.has(method) && Object.keys(bodyProps).length > 0) {
    const schema = { type: 'object', properties: bodyProps, ...(bodyRequired.length ? { required: bodyRequired } : {}) };
    op.requestBody = {
      required: bodyRequired.length > 0,
      content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
    };
  }
  op.responses = {
    default: { description: 'WordPress-shaped response; errors are `{code, message, data: {status}}`.' },
  };
  if (ep.allowBatch) op['x-allow-batch'] = true;
  return op;
}

/**
 * Builds the OpenAPI 3.1 document. `apiRoot` is the absolute REST root (with trailing slash); `now`
 * the app clock's time, for clock-dependent defaults.
 */
export function openApiDocument(registry: Registry, apiRoot: string, info: { title: string; version: string }, now: Date = new Date()): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const seen = new Map<string, number>();
  for (const route of registry.routes) {
    const vars = new Map<string, string>();
    const path = route.key.replace(/\(\?P<([^>]+)>((?:[^()]|\((?:[^()])*\))+)\)/g, (_m, name: string, pattern: string) => {
      vars.set(name, pattern);
      return `{${name}}`;
    });
    const tag = route.namespace || 'root';
    const item: Record<string, unknown> = (paths[path] ??= {});
    for (const ep of route.def.endpoints) {
      if (ep.showInIndex === false) continue;
      for (const m of ep.methods) {
        const op = operation(m, ep, vars, tag, now);
        const base = `${m.toLowerCase()}${route.key.replace(/[^a-zA-Z0-9]+/g, '_')}`.replace(/_+$/, '');
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        op.operationId = n === 0 ? base : `${base}_${n}`;
        item[m.toLowerCase()] = op;
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: 'Generated from the route declarations. Every route also accepts `_fields`, `_embed`, `_envelope`, `_method` and `_jsonp` as WordPress does.' },
    servers: [{ url: apiRoot.replace(/\/$/, '') }],
    components: {
      securitySchemes: { applicationPassword: { type: 'http', scheme: 'basic', description: 'User login or e-mail and an application password.' } },
    },
    security: [{}, { applicationPassword: [] }],
    tags: registry.namespaces.map((name) => ({ name })),
    paths,
  };
}

// ---------------------------------------------------------------------------------------------
// A namespace's own `/doc` document (the originals' Swagger documentation endpoints)
// ---------------------------------------------------------------------------------------------

/** The schema keywords a namespace document may copy from an arg declaration. */
export type DocSchemaKey = 'type' | 'format' | 'enum' | 'default' | 'minimum' | 'maximum' | 'items' | 'properties';

/**
 * How one namespace's `/doc` document (OpenAPI 3.0.0 in an original's form) is written. Everything
 * that differs between the originals' documents is here; parameters and request bodies always come
 * from the route declarations.
 */
export interface NamespaceDocOptions {
  info: { version: string; title: string; description: string };
  /** `servers[0].url`. */
  serverUrl: string;
  /** `components.schemas`. */
  schemas: Record<string, unknown>;
  /** Top-level key order: `components` before `servers` (the calendar) or last (tickets). */
  componentsFirst: boolean;
  /** The documented route paths, in the document's order; default every route, in declaration order. */
  paths?: readonly string[];
  /** An arg's `schema`. */
  schema: {
    /** Keywords copied from the declaration, in this order (a `defaultAt` shows as `default`). */
    keys: readonly DocSchemaKey[];
    /** One `type` (the first of a list; this one when none is declared), `items` reduced to its type. */
    singleType?: string;
    /** Leave out a `null` default. */
    skipNullDefault?: boolean;
    /** A schema of its own for some args (undefined: the generic one). */
    special?: (arg: ArgSchema) => Record<string, unknown> | undefined;
  };
  /** Query parameters taken as CSV or a list (`style: form, explode: false`). */
  isList: (arg: ArgSchema) => boolean;
  /** `description` of a parameter whose arg has none. */
  noDescription: string;
  /** Body fields: a description only when the arg has one (otherwise always, `noDescription` when missing). */
  bodyDescriptionIfAny?: boolean;
  /** An operation's `responses`; `path` as documented, `method` lower-case. */
  responses: (path: string, method: string, vars: ReadonlySet<string>) => Record<string, unknown>;
}

/** `/events/{id:\d+}` → `/events/{id}` and the names of its path variables. */
export function docPath(path: string): { path: string; vars: Set<string> } {
  const vars = new Set<string>();
  const out = path.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)(?::(?:[^{}]|\{[^{}]*\})+)?\}/g, (_m, name: string) => {
    vars.add(name);
    return `{${name}}`;
  });
  return { path: out, vars };
}

function docSchema(arg: ArgSchema, style: NamespaceDocOptions['schema'], now: Date): Record<string, unknown> {
  const special = style.special?.(arg);
  if (special) return special;
  const out: Record<string, unknown> = {};
  for (const key of style.keys) {
    if (key === 'type' && style.singleType !== undefined) {
      const type = Array.isArray(arg.type) ? arg.type[0] : arg.type;
      out.type = typeof type === 'string' ? type : style.singleType;
    } else if (key === 'items' && style.singleType !== undefined) {
      if (arg.items !== undefined && out.type === 'array') out.items = { type: (arg.items.type as string | undefined) ?? style.singleType };
    } else {
      const value = key === 'default' ? defaultOf(arg, now) : arg[key];
      if (value === undefined || (value === null && key === 'default' && style.skipNullDefault)) continue;
      out[key] = value;
    }
  }
  return out;
}

function docOperation(method: string, ep: EndpointDef, vars: ReadonlySet<string>, path: string, options: NamespaceDocOptions, now: Date): Record<string, unknown> {
  const body = BODY_METHODS.has(method);
  const parameters: Record<string, unknown>[] = [];
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, arg] of Object.entries(ep.args ?? {})) {
    const inPath = vars.has(name);
    if (body && !inPath) {
      const description = options.bodyDescriptionIfAny ? (arg.description ? { description: arg.description } : {}) : { description: arg.description ?? options.noDescription };
      properties[name] = { ...docSchema(arg, options.schema, now), ...description };
      if (arg.required === true) required.push(name);
      continue;
    }
    const param: Record<string, unknown> = {
      name,
      in: inPath ? 'path' : 'query',
      description: arg.description ?? options.noDescription,
      schema: docSchema(arg, options.schema, now),
      required: inPath || arg.required === true,
    };
    if (options.isList(arg)) Object.assign(param, { style: 'form', explode: false });
    parameters.push(param);
  }
  const op: Record<string, unknown> = {};
  if (parameters.length > 0) op.parameters = parameters;
  if (Object.keys(properties).length > 0) {
    op.requestBody = {
      content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) } } },
    };
  }
  op.responses = options.responses(path, method.toLowerCase(), vars);
  return op;
}

/**
 * A namespace's `/doc` document, generated from its route declarations (endpoints hidden from
 * discovery are left out); `now` is the app clock's time, for clock-dependent defaults.
 *
 * @example
 * namespaceDocument(ticketRoutes, { info, serverUrl, schemas, componentsFirst: false, ... }, ctx.now());
 */
export function namespaceDocument(routes: readonly RouteDef[], options: NamespaceDocOptions, now: Date): Record<string, unknown> {
  const selected = options.paths ? options.paths.flatMap((p) => routes.filter((r) => r.path === p).slice(0, 1)) : routes;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of selected) {
    const { path, vars } = docPath(route.path);
    const item = (paths[path] ??= {});
    for (const ep of route.endpoints) {
      if (ep.showInIndex === false) continue;
      for (const m of ep.methods) item[m.toLowerCase()] = docOperation(m, ep, vars, path, options, now);
    }
  }
  const components = { schemas: options.schemas };
  const servers = [{ url: options.serverUrl }];
  return options.componentsFirst
    ? { openapi: '3.0.0', info: options.info, components, servers, paths }
    : { openapi: '3.0.0', info: options.info, servers, paths, components };
}
