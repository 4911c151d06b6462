/**
 * @module storage/tables/seo
 * Tables of the SEO area (migration 2026-11-23T1600) and of the site connector (its replay guard).
 * Site-wide settings of both live in `options`.
 */
import type { Generated } from 'kysely';

/** Per-user state of the SEO area (the original's user meta): introductions seen, alerts dismissed, … */
export interface SeoUserMetaTable {
  user_id: number;
  name: string;
  /** JSON text. */
  value: string;
}

/** Custom fields of posts the SEO area owns (`_yoast_wpseo_focuskw`, `_yoast_wpseo_metadesc`, …). */
export interface SeoPostMetaTable {
  post_id: number;
  meta_key: string;
  meta_value: string;
}

/** Analysis results per post; `analysed_modified` is the post's `modified_gmt` they were computed from. */
export interface SeoScoresTable {
  post_id: number;
  /** 1–100, or null without a focus keyphrase (not analysed). */
  seo_score: number | null;
  /** 0–100; 0 with a reading time is bad, 0 without one is not analysed. */
  readability_score: number;
  /** Minutes (0 = none). */
  reading_time: number;
  analysed_modified: string;
  analysed_gmt: string;
}

/** The indexables table the indexing routes build. */
export interface SeoIndexablesTable {
  id: Generated<number>;
  /** `post`, `term`, `post-type-archive`, `home-page`, `system-page`, `date-archive`. */
  object_type: string;
  /** Post type, taxonomy, or `404` / `search-result` for system pages ('' when none). */
  object_sub_type: string;
  /** Post or term id (0 for archives and general pages). */
  object_id: number;
  permalink: string;
  breadcrumb_title: string;
  /** 0/1. */
  is_public: number;
  /** 0/1: links of this object recorded. */
  links_indexed: number;
  updated_gmt: string;
}

/** Links found in posts and term descriptions (link indexing). */
export interface SeoLinksTable {
  id: Generated<number>;
  /** `post` or `term`. */
  source_type: string;
  source_id: number;
  url: string;
  /** `internal` or `external`. */
  link_type: string;
  /** Post id the link points to (internal links to known posts), else null. */
  target_post_id: number | null;
}

/** Short-lived cached values (statistics per user, keyphrase lookups). */
export interface SeoCacheTable {
  cache_key: string;
  /** JSON text. */
  value: string;
  expires_gmt: string;
}

/** Nonces of hub-signed requests seen within the replay window. */
export interface ConnectorNoncesTable {
  nonce: string;
  /** Unix seconds the request was signed at. */
  timestamp: number;
}

export interface SeoTables {
  seo_user_meta: SeoUserMetaTable;
  seo_post_meta: SeoPostMetaTable;
  seo_scores: SeoScoresTable;
  seo_indexables: SeoIndexablesTable;
  seo_links: SeoLinksTable;
  seo_cache: SeoCacheTable;
  connector_nonces: ConnectorNoncesTable;
}
