/**
 * @module rest/pagination
 * Pagination headers every list route uses: `X-WP-Total`, `X-WP-TotalPages` and `Link` next/prev
 * built from the current query with `page` replaced.
 */
import type { RestRequest } from './route.js';

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
