/**
 * @module auth/roles
 * Roles and their primitive capabilities, as WordPress core, The Events Calendar and the shop plugin
 * define them. A user's capabilities are the union over its roles, plus the role names themselves
 * (WordPress puts role names into `allcaps`). Meta capabilities (`edit_user` of one user, ...) are
 * mapped by callers, see {@link canEditUser}.
 */
import { postCapabilities, type PostCapLevel, type PostTypes } from '../content/post-types.js';
import type { RestUser } from '../rest/route.js';

/** A role: its display name and primitive capabilities. */
export interface RoleDef {
  readonly name: string;
  readonly capabilities: readonly string[];
}

/** Post-type capability sets of the shop plugin (`edit_products`, `edit_shop_orders`, ...). */
const SHOP_TYPES = ['product', 'shop_order', 'shop_coupon'] as const;

/** The shop plugin's capabilities per post type (singular and plural forms, plus term caps). */
function shopCaps(base: string): string[] {
  return [
    `edit_${base}`,
    `read_${base}`,
    `delete_${base}`,
    ...postCapabilities(base, 'all'),
    `manage_${base}_terms`,
    `edit_${base}_terms`,
    `delete_${base}_terms`,
    `assign_${base}_terms`,
  ];
}

const SUBSCRIBER = ['read'];

const CONTRIBUTOR = [...SUBSCRIBER, 'edit_posts', 'delete_posts'];

const AUTHOR = [...CONTRIBUTOR, 'upload_files', 'edit_published_posts', 'publish_posts', 'delete_published_posts'];

const EDITOR = [
  ...AUTHOR,
  'moderate_comments',
  'manage_categories',
  'manage_links',
  'unfiltered_html',
  'edit_others_posts',
  'edit_pages',
  'edit_others_pages',
  'edit_published_pages',
  'publish_pages',
  'delete_pages',
  'delete_others_pages',
  'delete_published_pages',
  'delete_others_posts',
  'delete_private_posts',
  'edit_private_posts',
  'read_private_posts',
  'delete_private_pages',
  'edit_private_pages',
  'read_private_pages',
];

const ADMINISTRATOR = [
  ...EDITOR,
  'switch_themes',
  'edit_themes',
  'activate_plugins',
  'edit_plugins',
  'edit_users',
  'edit_files',
  'manage_options',
  'import',
  'delete_users',
  'create_users',
  'unfiltered_upload',
  'edit_dashboard',
  'update_plugins',
  'delete_plugins',
  'install_plugins',
  'update_themes',
  'install_themes',
  'update_core',
  'list_users',
  'remove_users',
  'promote_users',
  'edit_theme_options',
  'delete_themes',
  'export',
];

const SHOP_MANAGER_CORE = [
  'read',
  'read_private_pages',
  'read_private_posts',
  'edit_posts',
  'edit_pages',
  'edit_published_posts',
  'edit_published_pages',
  'edit_private_pages',
  'edit_private_posts',
  'edit_others_posts',
  'edit_others_pages',
  'publish_posts',
  'publish_pages',
  'delete_posts',
  'delete_pages',
  'delete_private_pages',
  'delete_private_posts',
  'delete_published_pages',
  'delete_published_posts',
  'delete_others_posts',
  'delete_others_pages',
  'manage_categories',
  'manage_links',
  'moderate_comments',
  'upload_files',
  'export',
  'import',
  'list_users',
  'edit_theme_options',
];

const SHOP_ADMIN = ['manage_woocommerce', 'view_woocommerce_reports', ...SHOP_TYPES.flatMap(shopCaps)];

function role(name: string, ...lists: string[][]): RoleDef {
  return Object.freeze({ name, capabilities: Object.freeze([...new Set(lists.flat())]) });
}

/** Every role the site knows, by slug. */
export const ROLES: Readonly<Record<string, RoleDef>> = Object.freeze({
  administrator: role('Administrator', ADMINISTRATOR, SHOP_ADMIN),
  editor: role('Editor', EDITOR),
  author: role('Author', AUTHOR),
  contributor: role('Contributor', CONTRIBUTOR),
  subscriber: role('Subscriber', SUBSCRIBER),
  shop_manager: role('Shop manager', SHOP_MANAGER_CORE, SHOP_ADMIN),
  customer: role('Customer', ['read']),
});

/** True when `slug` names a known role. */
export function isRole(slug: string): boolean {
  return Object.hasOwn(ROLES, slug);
}

/** The level at which each built-in role holds the capabilities of post types that declare their own. */
const POST_TYPE_LEVELS: Readonly<Record<string, PostCapLevel>> = Object.freeze({
  administrator: 'all',
  editor: 'all',
  author: 'author',
  contributor: 'contributor',
  subscriber: 'read',
});

/** What the areas add to the roles: post types with their own capabilities, and extra capabilities per role. */
export interface RoleSources {
  readonly postTypes: PostTypes;
  roleCapabilities(role: string): readonly string[];
  /** Changes when the sources change (an area switched). */
  readonly generation: number;
}

/** Distinct role lists whose capabilities a {@link RoleTable} keeps. */
export const MAX_CACHED_ROLE_LISTS = 256;

/** The roles of one app: WordPress's roles plus what its areas add. */
export class RoleTable {
  readonly #sources: RoleSources | undefined;
  #cache = new Map<string, ReadonlySet<string>>();
  #generation = -1;

  constructor(sources?: RoleSources) {
    this.#sources = sources;
  }

  /** The primitive capabilities of a set of roles, plus the role names (unknown roles grant nothing). */
  capabilitiesOf(roles: readonly string[]): ReadonlySet<string> {
    const generation = this.#sources?.generation ?? 0;
    if (generation !== this.#generation) {
      this.#cache = new Map();
      this.#generation = generation;
    }
    const key = roles.join(',');
    let caps = this.#cache.get(key);
    if (!caps) {
      caps = this.#build(roles);
      // Stored role lists are whatever was saved: a bounded cache, whatever they hold.
      if (this.#cache.size >= MAX_CACHED_ROLE_LISTS) this.#cache.clear();
      this.#cache.set(key, caps);
    }
    return caps;
  }

  /** Role lists whose capabilities are cached (tests). */
  get cachedCount(): number {
    return this.#cache.size;
  }

  #build(roles: readonly string[]): ReadonlySet<string> {
    const caps = new Set<string>();
    for (const r of roles) {
      const def = isRole(r) ? ROLES[r] : undefined;
      if (!def) continue;
      caps.add(r);
      for (const c of def.capabilities) caps.add(c);
      if (!this.#sources) continue;
      const level = POST_TYPE_LEVELS[r];
      if (level) for (const base of this.#sources.postTypes.capabilityTypes()) for (const c of postCapabilities(base, level)) caps.add(c);
      for (const c of this.#sources.roleCapabilities(r)) caps.add(c);
    }
    return Object.freeze(caps);
  }
}

/**
 * The `edit_user` meta capability (and the application-password meta capabilities mapped to it):
 * a signed-in user may edit themselves; editing others needs `edit_users`.
 */
export function canEditUser(actor: RestUser | null, targetUserId: number): boolean {
  if (!actor) return false;
  return actor.id === targetUserId || actor.can('edit_users');
}
