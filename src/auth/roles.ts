/**
 * @module auth/roles
 * Roles and their primitive capabilities, as WordPress core, The Events Calendar and the shop plugin
 * define them. A user's capabilities are the union over its roles, plus the role names themselves
 * (WordPress puts role names into `allcaps`). Meta capabilities (`edit_user` of one user, ...) are
 * mapped by callers, see {@link canEditUser}.
 */
import type { RestUser } from '../rest/route.js';

/** A role: its display name and primitive capabilities. */
export interface RoleDef {
  readonly name: string;
  readonly capabilities: readonly string[];
}

/** Post-type capability sets of the calendar plugin, keyed by singular base (`edit_tribe_events`, ...). */
const CALENDAR_TYPES = ['tribe_event', 'tribe_venue', 'tribe_organizer'] as const;

/** Post-type capability sets of the shop plugin (`edit_products`, `edit_shop_orders`, ...). */
const SHOP_TYPES = ['product', 'shop_order', 'shop_coupon'] as const;

type PostCapLevel = 'all' | 'author' | 'contributor' | 'read';

/** Post capabilities of `base` as WordPress maps them to the built-in roles' levels. */
function postCaps(base: string, level: PostCapLevel): string[] {
  const p = `${base}s`;
  if (level === 'read') return ['read'];
  if (level === 'contributor') return [`edit_${p}`, `delete_${p}`, 'read'];
  if (level === 'author') return [`edit_${p}`, `edit_published_${p}`, `publish_${p}`, `delete_${p}`, `delete_published_${p}`, 'read'];
  return [
    `edit_${p}`,
    `edit_others_${p}`,
    `publish_${p}`,
    `read_private_${p}`,
    `delete_${p}`,
    `delete_others_${p}`,
    `delete_published_${p}`,
    `edit_published_${p}`,
    `delete_private_${p}`,
    `edit_private_${p}`,
    'read',
  ];
}

/** The shop plugin's capabilities per post type (singular and plural forms, plus term caps). */
function shopCaps(base: string): string[] {
  return [
    `edit_${base}`,
    `read_${base}`,
    `delete_${base}`,
    ...postCaps(base, 'all'),
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

const calendar = (level: PostCapLevel) => CALENDAR_TYPES.flatMap((t) => postCaps(t, level));

function role(name: string, ...lists: string[][]): RoleDef {
  return Object.freeze({ name, capabilities: Object.freeze([...new Set(lists.flat())]) });
}

/** Every role the site knows, by slug. */
export const ROLES: Readonly<Record<string, RoleDef>> = Object.freeze({
  administrator: role('Administrator', ADMINISTRATOR, calendar('all'), SHOP_ADMIN, ['tribe_manage_attendees']),
  editor: role('Editor', EDITOR, calendar('all')),
  author: role('Author', AUTHOR, calendar('author')),
  contributor: role('Contributor', CONTRIBUTOR, calendar('contributor')),
  subscriber: role('Subscriber', SUBSCRIBER, calendar('read')),
  shop_manager: role('Shop manager', SHOP_MANAGER_CORE, SHOP_ADMIN),
  customer: role('Customer', ['read']),
});

/** True when `slug` names a known role. */
export function isRole(slug: string): boolean {
  return Object.hasOwn(ROLES, slug);
}

/** The primitive capabilities of a set of roles, plus the role names (unknown roles grant nothing). */
export function capabilitiesOf(roles: readonly string[]): ReadonlySet<string> {
  const caps = new Set<string>();
  for (const r of roles) {
    const def = isRole(r) ? ROLES[r] : undefined;
    if (!def) continue;
    caps.add(r);
    for (const c of def.capabilities) caps.add(c);
  }
  return caps;
}

/**
 * The `edit_user` meta capability (and the application-password meta capabilities mapped to it):
 * a signed-in user may edit themselves; editing others needs `edit_users`.
 */
export function canEditUser(actor: RestUser | null, targetUserId: number): boolean {
  if (!actor) return false;
  return actor.id === targetUserId || actor.can('edit_users');
}
