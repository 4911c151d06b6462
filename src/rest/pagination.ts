/**
 * @module rest/pagination
 * The one pagination helper of every list: the `page` / `per_page` args ({@link paginationArgs}),
 * the page a request asks for ({@link paginate}: the client's value, else the site setting, else the
 * declared default, bounded once), and the headers `X-WP-Total`, `X-WP-TotalPages` and `Link`
 * next/prev built from the current query with `page` replaced ({@link paginationHeaders}).
 *
 * @example
 * const PAGING: PaginationOptions = { perPage: 10, max: 50, clamp: true, setting: 'posts_per_page' };
 * args: { ...paginationArgs(PAGING), search: searchArg() }
 * const { page, perPage, offset } = await paginate(req, ctx, PAGING);
 * return respond(items, { headers: paginationHeaders(req, collectionUrl, { total, page, perPage }) });
 */
import { isPhpNumeric, phpIntval } from './php-query.js';
import type { ArgSchema, RestRequest } from './route.js';

/** Options of {@link paginationArgs} and {@link paginate}; declare them once per list and pass both the same. */
export interface PaginationOptions {
  /** Default page size, shown in discovery (default 10). */
  perPage?: number;
  /** Largest page size (default 100). */
  max?: number;
  /** Smallest page size (default 1). */
  min?: number;
  /**
   * `false` (core WordPress): `page` ≥ 1 and `per_page` in min…max are schema bounds (shown in
   * discovery; out of range → 400 with WordPress's messages). `true` (the originals that clamp, e.g.
   * the events calendar): both must be positive integers (else 400 "Invalid parameter."), larger page
   * sizes become `max`, and no bounds are shown.
   */
  clamp?: boolean;
  /** Site option holding the page size used when the client sends none (e.g. `posts_per_page`). */
  setting?: string;
  /** Descriptions of the two args (defaults: the core collection texts). */
  pageDescription?: string;
  perPageDescription?: string;
}

const PAGE_DESCRIPTION = 'Current page of the collection.';
const PER_PAGE_DESCRIPTION = 'Maximum number of items to be returned in result set.';

function positiveInt(value: unknown): boolean {
  if (typeof value === 'boolean' || !isPhpNumeric(value)) return false;
  const n = Number(value);
  return Number.isInteger(n) && n > 0;
}

/** The `page` and `per_page` args of a list (key order: page, per_page). */
export function paginationArgs(options: PaginationOptions = {}): { page: ArgSchema; per_page: ArgSchema } {
  const { perPage = 10, max = 100, min = 1, clamp = false } = options;
  const page = options.pageDescription ?? PAGE_DESCRIPTION;
  const size = options.perPageDescription ?? PER_PAGE_DESCRIPTION;
  if (clamp) {
    return {
      page: { default: 1, description: page, type: 'integer', validate: positiveInt },
      per_page: {
        default: perPage,
        description: size,
        type: 'integer',
        validate: (v) => positiveInt(v) && Number(v) >= min,
        // CASE: the originals clamp larger values rather than refusing them.
        sanitize: (v) => Math.min(max, phpIntval(v)),
      },
    };
  }
  return {
    page: { description: page, type: 'integer', default: 1, minimum: 1 },
    per_page: { description: size, type: 'integer', default: perPage, minimum: min, maximum: max },
  };
}

/** What {@link paginate} needs of the app context. */
export interface SettingsReader {
  options: { get(name: string, fallback?: number): Promise<unknown> };
}

/** The page a list request asks for. */
export interface Page {
  page: number;
  perPage: number;
  /** Items before the page: `(page - 1) * perPage`. */
  offset: number;
}

/**
 * The page and page size of a request whose args came from {@link paginationArgs} (already
 * validated and bounded there): `per_page` as the client sent it, else the `setting` (bounded to
 * min…max; a setting that is no positive integer falls back to `perPage`), else the declared default.
 */
export async function paginate(req: RestRequest, ctx: SettingsReader, options: PaginationOptions = {}): Promise<Page> {
  const { perPage: fallback = 10, max = 100, min = 1 } = options;
  const page = Math.max(1, phpIntval(req.params.page ?? 1) || 1);
  let perPage: number;
  if (req.has('per_page') || options.setting === undefined) {
    perPage = phpIntval(req.params.per_page ?? fallback) || fallback;
  } else {
    const setting = Number(await ctx.options.get(options.setting, fallback));
    perPage = Math.min(max, Math.max(min, Number.isInteger(setting) && setting > 0 ? setting : fallback));
  }
  return { page, perPage, offset: safeOffset((page - 1) * perPage) };
}

/** PHP-style query string (`a[0]=1&a[1]=2`, `m[k]=v`), for links that round-trip through parse_str. */
export function buildPhpQuery(params: Record<string, unknown>, prefix?: string): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    const key = prefix ? `${prefix}[${k}]` : k;
    if (typeof v === 'object') {
      const nested = buildPhpQuery(Array.isArray(v) ? Object.fromEntries(v.map((x, i) => [String(i), x])) : (v as Record<string, unknown>), key);
      if (nested) parts.push(nested);
    } else {
      const s = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(s)}`);
    }
  }
  return parts.join('&');
}

export interface PageInfo {
  total: number;
  page: number;
  perPage: number;
}

/** Total pages of a collection (0 when empty). */
export function totalPages({ total, perPage }: Pick<PageInfo, 'total' | 'perPage'>): number {
  return perPage > 0 ? Math.ceil(total / perPage) : 0;
}

/**
 * The pagination headers of a list response.
 * @param baseUrl absolute URL of the collection (no query).
 */
export function paginationHeaders(req: RestRequest, baseUrl: string, info: PageInfo): Record<string, string> {
  const pages = totalPages(info);
  const headers: Record<string, string> = { 'X-WP-Total': String(info.total), 'X-WP-TotalPages': String(pages) };
  const link = (page: number) => {
    const query = { ...req.query, page };
    delete (query as Record<string, unknown>).rest_route;
    return `<${baseUrl}?${buildPhpQuery(query)}>`;
  };
  const parts: string[] = [];
  if (info.page > 1) parts.push(`${link(Math.min(info.page - 1, Math.max(pages, 1)))}; rel="prev"`);
  if (info.page < pages) parts.push(`${link(info.page + 1)}; rel="next"`);
  if (parts.length > 0) headers.Link = parts.join(', ');
  return headers;
}

/** Largest row offset a query is given: a 32-bit count no table here reaches. */
const MAX_OFFSET = 2_147_483_647;

/**
 * A row offset every engine accepts: `page=99999999999999999999` makes `(page - 1) * per_page` a
 * float beyond 64 bits, which the databases refuse; clamped, it reads past the end like any page
 * after the last.
 */
export function safeOffset(offset: number): number {
  return Number.isFinite(offset) && offset > 0 ? Math.min(Math.trunc(offset), MAX_OFFSET) : 0;
}
