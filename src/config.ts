/**
 * @module config
 * One typed configuration, read from the environment and command-line flags.
 */
import net from 'node:net';
import path from 'node:path';

export interface Config {
  /** Port to listen on (`PORT`, default 8080). */
  port: number;
  /** Address to bind (`HOST`, default 127.0.0.1). */
  host: string;
  /** `postgres://…` or a SQLite file path (`DATABASE_URL`, default `./data/eventsuite.sqlite`). */
  databaseUrl: string;
  /** PostgreSQL: named prepared statements (`DATABASE_PREPARED_STATEMENTS`, default on; `off` behind PgBouncer in transaction mode). */
  databasePreparedStatements: boolean;
  /** Public base URL of the site, no trailing slash (`BASE_URL`, default `http://localhost:PORT`). */
  baseUrl: string;
  /** Path of the REST root under the base URL. */
  apiPath: string;
  /** Path of the admin pages under the base URL. */
  adminPath: string;
  /** Maximum request body in bytes (`BODY_LIMIT`, default 10 MiB). */
  bodyLimit: number;
  /**
   * `local`, `development` or `production` (`ENVIRONMENT`; unset: `local` only when HOST is a loopback
   * address and BASE_URL is unset or loopback, else `production`). `local` allows application
   * passwords and redirect URLs over plain http and outbound fetches to private addresses.
   */
  environment: 'local' | 'development' | 'production';
  /** pino level (`LOG_LEVEL`, default info). */
  logLevel: string;
  /** SMTP URL for outgoing mail (`SMTP_URL`, e.g. `smtp://127.0.0.1:2525`); unset = mail is refused. */
  smtpUrl: string | undefined;
  /** Sender address (`MAIL_FROM`). */
  mailFrom: string;
  /** Number of worker processes for `serve --workers` (`WORKERS`, default 1). */
  workers: number;
  /**
   * Proxies whose `X-Forwarded-For` is believed (`TRUST_PROXY`: `true`, or a comma list of
   * addresses/CIDRs). Default: none, so clients cannot choose the address rate limits key on.
   */
  trustProxy: boolean | string[];
  /** Endpoints of remote services, by name (`REMOTE_<NAME>_URL`). */
  remotes: Record<string, string>;
  /** Bearer key of the OpenAI-compatible service at `REMOTE_AI_URL` (`AI_API_KEY`). */
  aiApiKey: string | undefined;
  /** Ids of areas switched off (`DISABLED_AREAS`, a comma list such as `spamfilter,seo`). */
  disabledAreas: string[];
  /** Spam-filter API key fixed by the environment (`SPAMFILTER_API_KEY`); read-only through the API. */
  spamfilterApiKey: string | undefined;
  /** Directory of the site's media files, served under `{base}/wp-content/uploads/` (`UPLOADS_DIR`, default `data/uploads`). */
  uploadsDir: string;
  /** Site connection offline mode (`CONNECTOR_OFFLINE_MODE=1`): connecting is refused. */
  connectorOffline: boolean;
  /**
   * How long SIGTERM waits for in-flight requests and running jobs (`SHUTDOWN_GRACE_SECONDS`, default
   * 8); a job still running then is handed back to the queue. Keep it under the orchestrator's own
   * grace period (Docker: 10 s, Kubernetes: 30 s — raise `stop_grace_period` with it).
   */
  shutdownGraceMs: number;
}

export type ConfigOverrides = Partial<Config>;

function int(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (!value || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/** A loopback name or address literal: `localhost`, `127.x.y.z`, `::1` (not `127.0.0.1.nip.io`). */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return net.isIPv4(bare) && bare.startsWith('127.');
}

function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Build the configuration from `env`, then apply explicit overrides (flags, tests). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): Readonly<Config> {
  const port = overrides.port ?? int(env.PORT, 8080);
  const remotes: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    const m = /^REMOTE_([A-Z0-9_]+)_URL$/.exec(k);
    if (m && v) remotes[m[1]!.toLowerCase()] = v.replace(/\/+$/, '');
  }
  const baseUrl = (env.BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const host = env.HOST || '127.0.0.1';
  // Unset: production (http redirect URLs refused, outbound fetches limited to public addresses),
  // except for a real loopback bind: HOST a loopback address and BASE_URL unset or loopback too.
  const loopbackOnly = isLoopbackHost(host) && (!env.BASE_URL || isLoopbackUrl(env.BASE_URL));
  const environment = (['local', 'development', 'production'] as const).find((e) => e === env.ENVIRONMENT) ?? (loopbackOnly ? 'local' : 'production');
  const config: Config = {
    port,
    host,
    databaseUrl: env.DATABASE_URL || path.join('data', 'eventsuite.sqlite'),
    databasePreparedStatements: !/^(off|false|0|no)$/i.test(env.DATABASE_PREPARED_STATEMENTS ?? ''),
    baseUrl,
    apiPath: '/wp-json',
    adminPath: '/wp-admin',
    bodyLimit: int(env.BODY_LIMIT, 10 * 1024 * 1024),
    environment,
    logLevel: env.LOG_LEVEL || 'info',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'eventsuite@localhost',
    workers: int(env.WORKERS, 1) || 1,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    remotes,
    aiApiKey: env.AI_API_KEY || undefined,
    disabledAreas: (env.DISABLED_AREAS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    spamfilterApiKey: env.SPAMFILTER_API_KEY?.trim() || undefined,
    uploadsDir: env.UPLOADS_DIR || path.join('data', 'uploads'),
    connectorOffline: env.CONNECTOR_OFFLINE_MODE === '1' || env.CONNECTOR_OFFLINE_MODE === 'true',
    shutdownGraceMs: int(env.SHUTDOWN_GRACE_SECONDS, 8) * 1000,
    ...overrides,
  };
  return Object.freeze(config);
}

/** The absolute URLs the interface emits. */
export interface SiteUrls {
  /** Home URL, no trailing slash. */
  home: string;
  /** API root with a trailing slash: `{base}/wp-json/`. */
  apiRoot: string;
  /** Admin URL with a trailing slash: `{base}/wp-admin/`. */
  admin: string;
  /** Absolute URL of a REST route (`/ns/v1/x`). */
  rest(route: string, query?: Record<string, string | number>): string;
  /**
   * The public URL of a post (`get_permalink`): `/<type base>/<slug>/` for published posts of a type
   * with a URL base, `?post_type=<type>&p=<id>` for drafts, `?p=<id>` for types without one.
   */
  permalink(post: PermalinkTarget): string;
}

/** The identity of a post, enough to build its permalink (no status: published). */
export interface PermalinkTarget {
  id: number;
  type: string;
  slug: string;
  status?: string;
}

const DRAFT_LIKE = new Set(['draft', 'pending', 'auto-draft', 'future']);

/** Characters a slug may keep unencoded in a path segment; `%` stays so stored percent-encoded slugs are not encoded twice. */
const SEGMENT_UNSAFE = /[^A-Za-z0-9\-._~%!$&'()*+,;=:@]/gu;

/** Encodes what a path segment may not hold. */
export function pathSegment(text: string): string {
  return text.replace(SEGMENT_UNSAFE, (c) => encodeURIComponent(c));
}

/**
 * URLs derived from a configuration and the declared post types (`permalinkBase` by type; without
 * them every post has a plain `?p=` link).
 */
export function siteUrls(config: Pick<Config, 'baseUrl' | 'apiPath' | 'adminPath'>, postTypes?: { get(type: string): { permalinkBase?: string } | undefined }): SiteUrls {
  const apiRoot = `${config.baseUrl}${config.apiPath}/`;
  return {
    home: config.baseUrl,
    apiRoot,
    admin: `${config.baseUrl}${config.adminPath}/`,
    rest(route, query) {
      const url = apiRoot + route.replace(/^\/+/, '');
      if (!query || Object.keys(query).length === 0) return url;
      return `${url}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;
    },
    permalink(post) {
      const home = config.baseUrl;
      if (post.status !== undefined && (DRAFT_LIKE.has(post.status) || post.slug === '')) return `${home}/?post_type=${post.type}&p=${post.id}`;
      const base = postTypes?.get(post.type)?.permalinkBase;
      if (base === undefined || post.slug === '') return `${home}/?p=${post.id}`;
      return `${home}/${base}/${pathSegment(post.slug)}/`;
    },
  };
}
