/**
 * @module storage/tables/integrations
 * Tables of the integration namespaces (contact forms, spam filter, shop, SEO, connector).
 */

// Integration areas declare their tables here.

/** oEmbed proxy: cached remote answers (migration 2026-11-22T0300). */
export interface OembedCacheTable {
  /** SHA-256 hex of the request parameters. */
  cache_key: string;
  /** The answer as JSON text. */
  value: string;
  created_gmt: string;
  expires_gmt: string;
}

export interface IntegrationTables {
  oembed_cache: OembedCacheTable;
}
