/**
 * @module namespaces/events/archive
 * The archive envelope of the calendar lists: `rest_url` rebuilt from the effective query (values
 * not percent-encoded, arrays as CSV, as `add_query_arg` writes them), `next_rest_url` /
 * `previous_rest_url` (omitted when there is no such page), totals and the pagination headers.
 */
import { paginationHeaders, totalPages } from '../../rest/pagination.js';
import type { RestRequest } from '../../rest/route.js';

/** One query argument of a rebuilt URL; null/undefined values are skipped. */
export type QueryPair = readonly [string, unknown];

function value(v: unknown): string {
  if (Array.isArray(v)) return v.map(value).join(',');
  if (v === true) return '1';
  if (v === false) return '0';
  return String(v);
}

/** `base?k=v&…` without percent-encoding (as WordPress's `add_query_arg`). */
export function archiveUrl(base: string, pairs: readonly QueryPair[]): string {
  const parts = pairs.filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => `${k}=${value(v)}`);
  return parts.length > 0 ? `${base}?${parts.join('&')}` : base;
}

/** The envelope fields and headers of one archive page. */
export function archivePage(
  req: RestRequest,
  opts: { base: string; collection: string; pairs: readonly QueryPair[]; page: number; perPage: number; total: number },
): { restUrl: string; nextUrl?: string; previousUrl?: string; total: number; totalPages: number; headers: Record<string, string> } {
  const { base, pairs, page, perPage, total } = opts;
  const pages = totalPages({ total, perPage });
  const withoutPage = pairs.filter(([k]) => k !== 'page');
  const restUrl = archiveUrl(base, [['page', page], ...withoutPage]);
  const out: ReturnType<typeof archivePage> = {
    restUrl,
    total,
    totalPages: pages,
    headers: {
      ...paginationHeaders(req, opts.collection, { total, page, perPage }),
      'X-TEC-Total': String(total),
      'X-TEC-TotalPages': String(pages),
    },
  };
  if (page * perPage < total) out.nextUrl = archiveUrl(base, [...withoutPage, ['page', page + 1]]);
  if (page > 1 && (page - 2) * perPage < total) out.previousUrl = page === 2 ? archiveUrl(base, withoutPage) : archiveUrl(base, [...withoutPage, ['page', page - 1]]);
  return out;
}
