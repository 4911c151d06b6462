/**
 * @module content/options
 * Site settings in the `options` table (name → JSON value), with a short-lived in-process cache.
 * Writes clear this process's cache at once; other processes see them within {@link OPTION_TTL_MS}.
 * The cache holds at most {@link MAX_CACHED_OPTIONS} names (some are per user, and a manager may ask
 * for any `woocommerce_task_list_*` name): the oldest go first.
 */
import type { Db } from '../storage/db.js';

export const OPTION_TTL_MS = 2_000;
export const MAX_CACHED_OPTIONS = 1_000;

/** Defaults of the site settings the discovery document shows. */
export const SITE_DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze({
  blogname: 'EventSuite',
  blogdescription: '',
  gmt_offset: '0',
  timezone_string: 'UTC',
  page_for_posts: 0,
  page_on_front: 0,
  show_on_front: 'posts',
  date_format: 'F j, Y',
  time_format: 'g:i a',
  start_of_week: 1,
});

export class Options {
  readonly #cache = new Map<string, { value: unknown; at: number }>();

  readonly #defaults: Readonly<Record<string, unknown>>;

  /** @param defaults values of settings nobody stored yet (the site's, plus what areas declare). */
  constructor(
    readonly db: Db,
    defaults: Readonly<Record<string, unknown>> = SITE_DEFAULTS,
  ) {
    this.#defaults = defaults;
  }

  /** The stored value, else `fallback`, else the site default. */
  async get<T = unknown>(name: string, fallback?: T): Promise<T> {
    const hit = this.#cache.get(name);
    const now = Date.now();
    let value: unknown;
    if (hit && now - hit.at < OPTION_TTL_MS) {
      value = hit.value;
    } else {
      const row = await this.db.selectFrom('options').select('value').where('name', '=', name).executeTakeFirst();
      value = row ? (JSON.parse(row.value) as unknown) : undefined;
      this.#cache.delete(name);
      if (this.#cache.size >= MAX_CACHED_OPTIONS) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(name, { value, at: now });
    }
    if (value !== undefined) return value as T;
    return (fallback !== undefined ? fallback : this.#defaults[name]) as T;
  }

  /**
   * The cached value of `name` while it is fresh (`{ value }`, the value undefined when nothing is
   * stored), else undefined: a synchronous answer for hot paths that must not wait for a promise.
   */
  peek(name: string): { value: unknown } | undefined {
    const hit = this.#cache.get(name);
    return hit && Date.now() - hit.at < OPTION_TTL_MS ? hit : undefined;
  }

  /** Several values at once (one query for the misses). */
  async getMany(names: readonly string[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const n of names) out[n] = await this.get(n);
    return out;
  }

  async set(name: string, value: unknown, db: Db = this.db): Promise<void> {
    const text = JSON.stringify(value);
    await db
      .insertInto('options')
      .values({ name, value: text })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value: text }))
      .execute();
    this.#cache.delete(name);
  }

  async delete(name: string, db: Db = this.db): Promise<void> {
    await db.deleteFrom('options').where('name', '=', name).execute();
    this.#cache.delete(name);
  }

  /** Names whose values are cached (tests). */
  get cachedCount(): number {
    return this.#cache.size;
  }

  /** Drop cached values (tests, after external writes). */
  clearCache(): void {
    this.#cache.clear();
  }
}
