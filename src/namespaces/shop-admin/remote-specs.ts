/**
 * @module namespaces/shop-admin/remote-specs
 * Suggestion lists (payment gateways, shipping partners, marketing recommendations, knowledge base,
 * themes) come bundled with the product; when `REMOTE_SUGGESTIONS_URL` is set they come from
 * `GET {endpoint}/{name}.json` instead, cached for six hours (15 minutes after a failure), and a
 * failed fetch answers `[]` as the original does. As in the original, the cache is per store
 * country: changing `woocommerce_default_country` fetches the specs again.
 */
import type { AppContext } from '../../app-context.js';

const TTL_MS = 6 * 3_600_000;
const FAILURE_TTL_MS = 15 * 60_000;
const TIMEOUT_MS = 5_000;
const MAX_BYTES = 512 * 1024;

const cache = new Map<string, { value: unknown[]; until: number }>();

/** The spec list `name`: remote when configured (cached), else `bundled`. */
export async function specList(ctx: AppContext, name: string, bundled: readonly unknown[]): Promise<unknown[]> {
  const endpoint = ctx.config.remotes.suggestions;
  if (!endpoint) return [...bundled];
  const country = await ctx.options.get<unknown>('woocommerce_default_country', '');
  const key = `${endpoint}|${name}|${typeof country === 'string' ? country : ''}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.until > now) return hit.value;
  let value: unknown[] = [];
  let ttl = FAILURE_TTL_MS;
  try {
    const res = await fetch(`${endpoint}/${name}.json`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = res.ok ? await res.text() : '';
    const parsed: unknown = res.ok && text.length <= MAX_BYTES ? JSON.parse(text) : undefined;
    if (Array.isArray(parsed)) {
      value = parsed;
      ttl = TTL_MS;
    }
  } catch (err) {
    ctx.log.warn({ err: err instanceof Error ? err.message : String(err), spec: name }, 'suggestion spec unavailable');
  }
  cache.set(key, { value, until: now + ttl });
  return value;
}

/** Forgets cached specs (tests). */
export function clearSpecCache(): void {
  cache.clear();
}
