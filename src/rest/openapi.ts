/**
 * @module rest/openapi
 * One OpenAPI 3.1 document for the whole API, generated from the same route declarations as
 * discovery (nothing described twice).
 */
import { argData } from './discovery.js';
import type { Registry } from './registry.js';
import type { ArgSchema, EndpointDef } from './route.js';

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
