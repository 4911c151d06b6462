/**
 * @module storage/tables/core
 * The shared content model: posts (every kind shares one ID sequence), terms, options, users and
 * application passwords. Dates are text `YYYY-MM-DD HH:MM:SS`; `*_gmt` columns are UTC. Booleans are 0/1.
 */
import type { Generated } from 'kysely';

export interface PostsTable {
  id: Generated<number>;
  /** Kind: `tribe_events`, `tribe_venue`, `tribe_organizer`, `ticket`, `attendee`, `order`, `page`, ... */
  type: string;
  status: string;
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  author: number;
  parent: number;
  password: string;
  menu_order: number;
  /** Site-local publication date. */
  date: string;
  date_gmt: string;
  modified: string;
  modified_gmt: string;
  /** Featured image URL ('' when none). */
  image_url: string;
}

export interface TermsTable {
  id: Generated<number>;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number;
  /** Number of published posts carrying the term, kept current by writers. */
  count: number;
}

export interface TermRelationshipsTable {
  post_id: number;
  term_id: number;
}

export interface OptionsTable {
  name: string;
  /** JSON text. */
  value: string;
}

export interface UsersTable {
  id: Generated<number>;
  login: string;
  email: string;
  /** scrypt hash of the sign-in password ('' = cannot sign in with a password). */
  password_hash: string;
  display_name: string;
  nicename: string;
  url: string;
  /** JSON array of role names. */
  roles: string;
  registered_gmt: string;
  /** Bumped to invalidate every cookie session of the user. */
  session_version: number;
  /** 1 = may use application passwords (default), 0 = `application_passwords_disabled_for_user`. */
  app_passwords_enabled: Generated<number>;
}

export interface ApplicationPasswordsTable {
  uuid: string;
  user_id: number;
  app_id: string;
  name: string;
  /** Keyed hash of the 24-character password. */
  password_hash: string;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  created_gmt: string;
  last_used_gmt: string | null;
  last_ip: string | null;
}

/** Failed sign-ins of one key (digest of address and login, or of the address) in the current window. */
export interface SignInFailuresTable {
  key: string;
  failures: number;
  /** Epoch milliseconds of the window's first failure (a string from PostgreSQL's bigint). */
  window_start: number | string;
}

/** The file of an image attachment (`content/media.ts`). */
export interface MediaFilesTable {
  post_id: number;
  /** Under the uploads folder: `YYYY/MM/name.ext`. */
  path: string;
  mime: string;
  width: number;
  height: number;
  filesize: number;
  /** The URL it was side-loaded from. */
  source_url: string;
  /** SHA-256 (hex) of `source_url`, unique; '' for none. */
  source_key: string;
  /** The smaller copies (`StoredSize[]` of content/media.ts) as JSON; '' for none. */
  sizes: string;
  /** The original's file name when `path` is a copy of it (scaled down, or turned upright); '' otherwise. */
  original_file: string;
}

export interface CoreTables {
  posts: PostsTable;
  media_files: MediaFilesTable;
  terms: TermsTable;
  term_relationships: TermRelationshipsTable;
  options: OptionsTable;
  users: UsersTable;
  application_passwords: ApplicationPasswordsTable;
  sign_in_failures: SignInFailuresTable;
}
