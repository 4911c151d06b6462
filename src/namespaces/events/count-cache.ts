/**
 * @module namespaces/events/count-cache
 * Totals of event lists, kept a moment. Counting a wide date window reads the whole window in the
 * index (about 0.1 s at a million events) while the page itself stays cheap, so the same filter
 * within {@link COUNT_TTL_MS} reuses its total. Any write dispatched by this process starts afresh
 * (the write generation is part of the key); other processes' writes show once the entry expires.
 */
import { writeGeneration } from '../../rest/write-generation.js';

export const COUNT_TTL_MS = 2_000;
const MAX_ENTRIES = 1_000;

/** One cache per application (per database). */
const caches = new WeakMap<object, Map<string, { total: number; at: number }>>();

/** The cached total for `key` in `app`'s cache, or what `count` answers (then cached). */
export async function cachedCount(app: object, key: string, count: () => Promise<number>): Promise<number> {
  let cache = caches.get(app);
  if (!cache) caches.set(app, (cache = new Map()));
  const full = `${writeGeneration()}|${key}`;
  const now = Date.now();
  const hit = cache.get(full);
  if (hit && now - hit.at < COUNT_TTL_MS) return hit.total;
  const total = await count();
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(full, { total, at: now });
  return total;
}
