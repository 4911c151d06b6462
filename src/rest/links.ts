/**
 * @module rest/links
 * HAL-style `_links`: compacts `https://api.w.org/<x>` relations to `wp:<x>` with the `curies` entry,
 * and resolves `_embed` by dispatching every embeddable link internally.
 */
import { parseList } from './php-query.js';

const WP_REL = 'https://api.w.org/';
const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

type Links = Record<string, Record<string, unknown>[]>;

function compactOne(item: unknown): unknown {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
  const links = (item as Record<string, unknown>)._links as Links | undefined;
  if (!links || typeof links !== 'object') return item;
  let changed = false;
  const out: Links = {};
  for (const [rel, list] of Object.entries(links)) {
    if (rel.startsWith(WP_REL)) {
      out[`wp:${rel.slice(WP_REL.length)}`] = list;
      changed = true;
    } else out[rel] = list;
  }
  if (changed && !out.curies) out.curies = CURIES;
  return { ...(item as Record<string, unknown>), _links: out };
}

/** Compacts the links of a body (each item of a list). */
export function compactLinks(data: unknown): unknown {
  return Array.isArray(data) ? data.map(compactOne) : compactOne(data);
}

/** Which relations `_embed` selects: undefined = all. */
export function embedSelection(value: unknown): Set<string> | undefined {
  if (value === undefined || value === null || value === '' || value === true || value === '1' || value === 'true' || value === 1) return undefined;
  const list = parseList(value);
  return list.length > 0 ? new Set(list) : undefined;
}

/** Fetches an embedded href: the body as the target route answers it (errors as `{code, message, data}`). */
export type EmbedFetcher = (href: string) => Promise<unknown>;

async function embedOne(item: unknown, select: Set<string> | undefined, fetch: EmbedFetcher, cache: Map<string, Promise<unknown>>): Promise<unknown> {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
  const links = (item as Record<string, unknown>)._links as Links | undefined;
  if (!links) return item;
  const embedded: Record<string, unknown[]> = {};
  for (const [rel, list] of Object.entries(links)) {
    if (rel === 'curies' || !Array.isArray(list)) continue;
    if (select && !select.has(rel)) continue;
    if (!list.some((l) => l.embeddable === true)) continue;
    embedded[rel] = await Promise.all(
      list.map((l) => {
        if (l.embeddable !== true || typeof l.href !== 'string') return [];
        let p = cache.get(l.href);
        if (!p) {
          p = fetch(l.href);
          cache.set(l.href, p);
        }
        return p;
      }),
    );
  }
  if (Object.keys(embedded).length === 0) return item;
  return { ...(item as Record<string, unknown>), _embedded: embedded };
}

/** Adds `_embedded` to a (compacted) body, item by item for lists. */
export async function embedLinks(data: unknown, select: Set<string> | undefined, fetch: EmbedFetcher): Promise<unknown> {
  const cache = new Map<string, Promise<unknown>>();
  if (Array.isArray(data)) return Promise.all(data.map((d) => embedOne(d, select, fetch, cache)));
  return embedOne(data, select, fetch, cache);
}
