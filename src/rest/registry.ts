/**
 * @module rest/registry
 * Holds every namespace's routes, checks the whole table at boot, compiles the matchers and freezes.
 *
 * @example
 * const registry = new Registry([coreRoutes, eventRoutes]);
 * registry.match('/eventsuite/events/v1/events/5'); // { route, params: { id: '5' } }
 */
import type { ArgSchema, EndpointDef, HttpMethod, NamespaceRoutes, RouteDef } from './route.js';

/** Shared path-variable patterns (the interface's conventions); `{name:regex}` overrides per route. */
export const PATH_VARIABLES: Readonly<Record<string, string>> = Object.freeze({
  id: '[\\d]+',
  slug: '[^/]+',
  job_id: '[a-z0-9_-]+',
});

/** JSON-schema types, plus `file` for multipart uploads (as the originals declare them; the value arrives in `req.files`). */
const KNOWN_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object', 'null', 'file']);

/** A route after boot: its WordPress key, matcher and owning namespace. */
export interface CompiledRoute {
  /** `""` for `/` and `/batch/v1`. */
  namespace: string;
  /** The discovery key: `/ns/path/(?P<id>[\d]+)`. */
  key: string;
  /** True when the path has no variables (so `_links.self` is emitted). */
  fixed: boolean;
  /** Absolute path when fixed. */
  def: RouteDef;
  regex: RegExp;
  /** All methods of all endpoints, in registration order. */
  methods: HttpMethod[];
}

export interface RouteMatch {
  route: CompiledRoute;
  urlParams: Record<string, string>;
}

/** Thrown at boot for a bad declaration; names the route. */
export class RouteDeclarationError extends Error {}

function compilePath(namespace: string, path: string): { key: string; regex: RegExp; vars: string[] } {
  const vars: string[] = [];
  const body = path.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)(?::((?:[^{}]|\{[^{}]*\})+))?\}/g, (_m, name: string, pattern?: string) => {
    const p = pattern ?? PATH_VARIABLES[name];
    if (p === undefined) throw new RouteDeclarationError(`${namespace}${path}: no pattern for path variable {${name}}`);
    vars.push(name);
    return `(?P<${name}>${p})`;
  });
  const trimmed = body.replace(/^\/+|\/+$/g, '');
  const key = namespace === '' ? `/${trimmed}` : trimmed === '' ? `/${namespace}` : `/${namespace}/${trimmed}`;
  const jsSource = key.replace(/\(\?P</g, '(?<');
  return { key, regex: new RegExp(`^${jsSource}$`, 'i'), vars };
}

function checkArg(where: string, name: string, arg: ArgSchema): void {
  const types = arg.type === undefined ? [] : Array.isArray(arg.type) ? arg.type : [arg.type];
  for (const t of types) if (!KNOWN_TYPES.has(t as string)) throw new RouteDeclarationError(`${where}: arg ${name} has unknown type ${String(t)}`);
  if (arg.default !== undefined && arg.default !== null) {
    if (arg.enum && !arg.enum.some((e) => JSON.stringify(e) === JSON.stringify(arg.default))) {
      throw new RouteDeclarationError(`${where}: default of arg ${name} is outside its enum`);
    }
    if (typeof arg.default === 'number') {
      if (arg.minimum !== undefined && arg.default < arg.minimum) throw new RouteDeclarationError(`${where}: default of arg ${name} is below its minimum`);
      if (arg.maximum !== undefined && arg.default > arg.maximum) throw new RouteDeclarationError(`${where}: default of arg ${name} is above its maximum`);
    }
  }
}

function checkEndpoint(where: string, ep: EndpointDef, vars: string[]): void {
  if (typeof ep.handler !== 'function') throw new RouteDeclarationError(`${where}: missing handler`);
  if (typeof ep.permission !== 'function') throw new RouteDeclarationError(`${where}: missing permission`);
  if (ep.methods.length === 0) throw new RouteDeclarationError(`${where}: no methods`);
  for (const [name, arg] of Object.entries(ep.args ?? {})) checkArg(where, name, arg);
  for (const v of vars) {
    if (!ep.args || !(v in ep.args)) throw new RouteDeclarationError(`${where}: path variable {${v}} has no arg`);
  }
}

/** All routes, checked, compiled and frozen. */
export class Registry {
  readonly routes: readonly CompiledRoute[];
  /** Namespaces in registration order. */
  readonly namespaces: readonly string[];
  readonly #byNamespace = new Map<string, CompiledRoute[]>();
  readonly #prefixes: readonly { prefix: string; routes: readonly CompiledRoute[] }[];
  readonly #unprefixed: readonly CompiledRoute[];
  /** Changes whenever the route table changes; discovery caches key on it. */
  readonly version: number;
  static #versions = 0;

  /**
   * @param core routes without a namespace (`/`, `/batch/v1`), registered first.
   * @param namespaces namespaces in registration order. Each gets its index route `/{namespace}`
   * just before its first route.
   * @param indexRoute builds the index route of a namespace.
   */
  constructor(core: readonly RouteDef[], namespaces: readonly NamespaceRoutes[], indexRoute: (namespace: string) => RouteDef) {
    const compiled: CompiledRoute[] = [];
    const seen = new Map<string, Set<string>>();
    const add = (namespace: string, def: RouteDef) => {
      const { key, regex, vars } = compilePath(namespace, def.path);
      const methods: HttpMethod[] = [];
      const used = seen.get(key) ?? new Set<string>();
      def.endpoints.forEach((ep, i) => {
        const where = `${key} (endpoint ${i})`;
        checkEndpoint(where, ep, vars);
        for (const m of ep.methods) {
          if (used.has(m)) throw new RouteDeclarationError(`${key}: duplicate method ${m}`);
          used.add(m);
          methods.push(m);
        }
      });
      seen.set(key, used);
      const route: CompiledRoute = Object.freeze({ namespace, key, fixed: vars.length === 0, def, regex, methods });
      compiled.push(route);
      if (namespace !== '') {
        const list = this.#byNamespace.get(namespace) ?? [];
        list.push(route);
        this.#byNamespace.set(namespace, list);
      }
    };
    for (const def of core) add('', def);
    const names: string[] = [];
    for (const ns of namespaces) {
      if (!names.includes(ns.namespace)) {
        names.push(ns.namespace);
        add(ns.namespace, indexRoute(ns.namespace));
      }
      for (const def of ns.routes) add(ns.namespace, def);
    }
    this.routes = Object.freeze(compiled);
    this.namespaces = Object.freeze(names);
    this.#prefixes = names.map((ns) => ({ prefix: `/${ns.toLowerCase()}/`, routes: this.#byNamespace.get(ns) ?? [] }));
    // A path no namespace prefixes can only match a core route, or a route of a namespace whose
    // name holds regex syntax (`oembed/1.0`: the dot matches any character, as in WordPress).
    this.#unprefixed = compiled.filter((r) => r.namespace === '' || !/^[a-z0-9_/-]+$/i.test(r.namespace));
    this.version = ++Registry.#versions;
    Object.freeze(this);
  }

  /** Routes of one namespace, in registration order (undefined for an unknown namespace). */
  namespaceRoutes(namespace: string): readonly CompiledRoute[] | undefined {
    return this.#byNamespace.get(namespace);
  }

  /** Routes to try for `path`: those of namespaces prefixing it, or every route when none does. */
  #candidates(path: string): readonly CompiledRoute[] {
    const lower = `${path.toLowerCase()}/`;
    let candidates: readonly CompiledRoute[] | undefined;
    for (const { prefix, routes } of this.#prefixes) {
      if (!lower.startsWith(prefix)) continue;
      candidates = candidates === undefined ? routes : [...candidates, ...routes];
    }
    return candidates ?? this.#unprefixed;
  }

  /** Every route matching `path` (any method), in registration order, WordPress style. */
  matchAll(path: string): RouteMatch[] {
    const out: RouteMatch[] = [];
    for (const route of this.#candidates(path)) {
      const m = route.regex.exec(path);
      if (m) out.push({ route, urlParams: { ...(m.groups ?? {}) } });
    }
    return out;
  }

  /** The route that serves `method` on `path`: the first in registration order that matches and has it. */
  match(path: string, method: HttpMethod): (RouteMatch & { endpoint: EndpointDef }) | undefined {
    for (const route of this.#candidates(path)) {
      if (!route.methods.includes(method)) continue;
      const m = route.regex.exec(path);
      if (!m) continue;
      const endpoint = route.def.endpoints.find((e) => e.methods.includes(method))!;
      return { route, urlParams: { ...(m.groups ?? {}) }, endpoint };
    }
    return undefined;
  }
}
