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

/** The job a handler is running: which attempt, and its dedupe key. */
export interface JobRun {
  id: number;
  key: string;
  kind: string;
  /** 1 for the first run. */
  attempt: number;
  dedupeKey: string | null;
}

/**
 * A background job handler; the jobs runner calls it with the job's payload (at least once: be
 * idempotent). Throwing queues the job again with backoff until its attempts are used up.
 */
export type JobHandler = (ctx: AppContext, payload: unknown, job: JobRun) => Promise<void>;

/** A recurring job an area wants (stored in `job_schedules` when the runner starts). */
export interface ScheduleDef {
  /** Unique schedule name, e.g. `events.publish-due`. */
  name: string;
  /** One of some area's `jobs` kinds. */
  kind: string;
  /** `'30s'`, `'5m'`, `'1h'` or `'daily 03:30'` (UTC). */
  every: string;
  payload?: unknown;
}

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
  /** Background jobs by kind (kinds are global: prefix them with the area id, `events.publish-due`). */
  readonly jobs?: Readonly<Record<string, JobHandler>>;
  /** Recurring jobs, stored in `job_schedules` when the jobs runner starts. */
  readonly schedules?: readonly ScheduleDef[];
  /** Values for other areas' extension points. */
  readonly contributes?: Contributions;
}

/** Declares an area; frozen so nothing changes it after boot. */
export function defineArea(def: AreaDef): AreaDef {
  if (!/^[a-z][a-z0-9-]*$/.test(def.id)) throw new Error(`area id ${JSON.stringify(def.id)}: lower-case letters, digits and dashes`);
  return Object.freeze({ ...def });
}
