/**
 * @module storage/tables/shop-admin
 * Extension packages installed from the registry and the shop admin's install/activate jobs.
 */
import type { Generated } from 'kysely';

export interface ExtensionsTable {
  slug: string;
  name: string;
  version: string;
  description: string;
  /** Where it was installed from (the registry URL). */
  source: string;
  active: Generated<number>;
  installed_gmt: string;
}

export interface ExtensionJobsTable {
  job_id: string;
  /** `install`, `activate`, `install-and-activate`. */
  kind: string;
  /** JSON list of slugs. */
  plugins: string;
  /** `pending`, `in-progress`, `complete`, `failed`. */
  status: string;
  /** JSON object slug → result. */
  results: string;
  /** JSON object slug → error messages. */
  errors: string;
  created_gmt: string;
  updated_gmt: string;
}

/** One-time sign-in links e-mailed for the mobile app (the token is stored hashed). */
export interface MagicLinksTable {
  token_hash: string;
  user_id: number;
  expires_gmt: string;
  used: Generated<number>;
}

/** Themes uploaded as zip packages (bundled themes live in code). */
export interface ThemesTable {
  slug: string;
  name: string;
  version: string;
  css: string;
  installed_gmt: string;
}

export interface ShopAdminTables {
  extensions: ExtensionsTable;
  extension_jobs: ExtensionJobsTable;
  magic_links: MagicLinksTable;
  themes: ThemesTable;
}
