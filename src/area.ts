/**
 * @module area
 * The one way a product area plugs into the app. Each `namespaces/<area>/index.ts` exports one
 * {@link defineArea} declaration; `namespaces/index.ts` lists them; `app.ts` loops over the list.
 * See `docs/areas.md` for the contract with `namespaces/oembed` as the worked example.
 *
 * @example
 * export const oembedArea = defineArea({
 *   id: 'oembed',
 *   title: 'Embeds',
 *   description: 'oEmbed data for this site’s content and a proxy for remote URLs.',
 *   namespaces: [oembedRoutes],
 *   pages: (app, host) => registerEmbedPages(app, host.ctx),
 * });
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.js';
import type { Authenticator } from './auth/types.js';
import type { PostTypeDef } from './content/post-types.js';
import type { Dispatcher } from './rest/dispatch.js';
import type { NamespaceRoutes } from './rest/route.js';

/**
 * Extension points one area offers the others. The area that owns a point declares it by augmenting
 * this interface from its own module:
 *
 * @example
 * declare module '../../area.js' {
 *   interface ExtensionPoints { eventFields: EventFieldProvider }
 * }
 *
 * Other areas then contribute values (`contributes: { eventFields: [ticketFieldsProvider] }`) and the
 * owner reads the values of every enabled area with `ctx.extensions.list('eventFields')`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ExtensionPoints {}

export type ExtensionPoint = keyof ExtensionPoints;

/** What an area contributes: for each extension point, one value or several. */
export type Contributions = { [K in ExtensionPoint]?: ExtensionPoints[K] | readonly ExtensionPoints[K][] };

/** What a page registrar gets besides the (area-scoped) Fastify instance. */
export interface PageHost {
  ctx: AppContext;
  authenticator: Authenticator;
  dispatcher: Dispatcher<AppContext>;
}

/** A background job handler; the jobs runner calls it with the job's payload (at least once: be idempotent). */
export type JobHandler = (ctx: AppContext, payload: unknown) => Promise<void>;

/** A site setting an area stores in `options`, with the value it has until someone changes it. */
export interface SettingDef {
  default: unknown;
  description: string;
}

/** One product area: everything the app needs to mount it. */
export interface AreaDef {
  /** Stable id, used in configuration (`DISABLED_AREAS=spamfilter,seo`) and the extensions list. */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** True for areas the site cannot run without (never switched off). */
  readonly required?: boolean;
  /** Ids of areas this one needs; it is off whenever one of them is. */
  readonly requires?: readonly string[];
  /** Namespaces and their routes. A namespace with no routes still answers its index route. */
  readonly namespaces: readonly NamespaceRoutes<AppContext>[];
  /** Content types the area stores as posts (permalinks, public types, oEmbed, capabilities). */
  readonly postTypes?: readonly PostTypeDef[];
  /** Primitive capabilities the area adds to roles, by role name. */
  readonly capabilities?: Readonly<Record<string, readonly string[]>>;
  /** Site settings the area owns, by option name. */
  readonly settings?: Readonly<Record<string, SettingDef>>;
  /** Pages outside the API (admin pages, public pages, feeds). Registered in an area-scoped instance that answers 404 while the area is off. */
  readonly pages?: (app: FastifyInstance, host: PageHost) => void | Promise<void>;
  /** Background jobs by kind. */
  readonly jobs?: Readonly<Record<string, JobHandler>>;
  /** Values for other areas' extension points. */
  readonly contributes?: Contributions;
}

/** Declares an area; frozen so nothing changes it after boot. */
export function defineArea(def: AreaDef): AreaDef {
  if (!/^[a-z][a-z0-9-]*$/.test(def.id)) throw new Error(`area id ${JSON.stringify(def.id)}: lower-case letters, digits and dashes`);
  return Object.freeze({ ...def });
}
