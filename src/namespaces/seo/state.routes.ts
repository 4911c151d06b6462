/**
 * @module namespaces/seo/state.routes
 * The small state routes: new content types, introductions, the video host permission, alerts,
 * integrations, custom field search, workouts and importers.
 */
import type { AppContext } from '../../app-context.js';
import { getPost } from '../../content/posts.js';
import { CoreErrors } from '../../rest/errors.js';
import { requireCapability } from '../../rest/permissions.js';
import { phpIntval } from '../../rest/php-query.js';
import { toBoolean } from '../../rest/php-values.js';
import { CREATABLE, READABLE, respond, type RestRequest, type RouteDef } from '../../rest/route.js';
import { CATEGORY_TAXONOMY } from '../events/index.js';
import { canEditPostOfAnyArea } from './access.js';
import { canManageSeo } from './configuration.routes.js';
import { SEO_MESSAGES } from './errors.js';
import { getSeoOption, getUserValue, setSeoOption, setUserValue } from './store.js';

const canEditPosts = requireCapability('edit_posts');

/** Taxonomies WordPress registers on every site, plus the calendar's category. */
const KNOWN_TAXONOMIES: ReadonlySet<string> = new Set([
  'category', 'post_tag', 'nav_menu', 'link_category', 'post_format', 'wp_theme', 'wp_template_part_area', 'wp_pattern_category', CATEGORY_TAXONOMY,
]);

/** As the original's `post_type_exists` / `taxonomy_exists` argument checks: an unknown name is a 400. */
const postTypeExists = (v: unknown, _r: RestRequest, ctx: AppContext) => ctx.areas.postTypes.get(String(v)) !== undefined;
const taxonomyExists = (v: unknown) => KNOWN_TAXONOMIES.has(String(v));

/** Introductions the plugin registers. */
export const INTRODUCTIONS: readonly string[] = Object.freeze([
  'ai-fix-assessments-upsell',
  'ai-generate-titles-and-descriptions-upsell',
  'google-docs-addon-upsell',
  'ai-brand-insights-pre-launch',
]);

/** Alert keys the plugin allows dismissing. */
export const ALLOWED_ALERTS: readonly string[] = Object.freeze([
  'webinar-promo-notification',
  'trustpilot-review-notification',
  'black-friday-2024-promotion',
  'black-friday-2023-promotion',
  'black-friday-2023-sidebar-checklist',
]);

/** Integrations that can be switched on and off (`<name>_integration_active`). */
export const INTEGRATIONS: readonly string[] = Object.freeze(['semrush', 'wincher', 'wordproof', 'zapier', 'algolia', 'ryte']);

const USER_KEYS = {
  introductions: '_yoast_wpseo_introductions',
  embedPermission: '_yoast_wpseo_wistia_embed_permission',
  alertsDismissed: '_yoast_alerts_dismissed',
} as const;

async function dismissNew(ctx: AppContext, option: 'new_post_types' | 'new_taxonomies', name: string, notNew: string, dismissed: string) {
  const list = await getSeoOption<string[]>(ctx, option);
  if (!list.includes(name)) return { message: notNew, success: true, status: 200 };
  await setSeoOption(ctx, option, list.filter((n) => n !== name));
  return { message: dismissed, success: true, status: 200 };
}

export async function dismissPostType(req: RestRequest, ctx: AppContext) {
  // CASE: the original reads `post_type_name` and so never dismisses anything; we honour the declared name.
  const name = String(req.params.postTypeName ?? '');
  return dismissNew(ctx, 'new_post_types', name, SEO_MESSAGES.notNewPostType, SEO_MESSAGES.postTypeDismissed);
}

export async function dismissTaxonomy(req: RestRequest, ctx: AppContext) {
  const name = String(req.params.taxonomyName ?? '');
  return dismissNew(ctx, 'new_taxonomies', name, SEO_MESSAGES.notNewTaxonomy, SEO_MESSAGES.taxonomyDismissed);
}

export async function setIntroductionSeen(req: RestRequest, ctx: AppContext) {
  const id = String(req.params.introduction_id);
  if (!INTRODUCTIONS.includes(id)) return respond([], { status: 400 });
  const userId = req.user!.id;
  const seen = await getUserValue<Record<string, boolean>>(ctx.db, userId, USER_KEYS.introductions, {});
  seen[id] = req.params.is_seen !== false;
  await setUserValue(ctx.db, userId, USER_KEYS.introductions, seen);
  return { json: { success: true } };
}

export async function getEmbedPermission(req: RestRequest, ctx: AppContext) {
  return { json: { value: await getUserValue(ctx.db, req.user!.id, USER_KEYS.embedPermission, false) } };
}

export async function setEmbedPermission(req: RestRequest, ctx: AppContext) {
  // CASE: the original reads `value` from the JSON body itself, so a POST without it stores false.
  const value = req.json?.value === true || req.json?.value === 'true';
  const current = await getUserValue(ctx.db, req.user!.id, USER_KEYS.embedPermission, false);
  // update_user_meta answers false when nothing changes: the original reports that as a failure.
  if (current === value) return respond({ json: { success: false } }, { status: 400 });
  await setUserValue(ctx.db, req.user!.id, USER_KEYS.embedPermission, value);
  return { json: { success: true } };
}

export async function dismissAlert(req: RestRequest, ctx: AppContext) {
  const key = String(req.params.key);
  const dismissed = await getUserValue<string[]>(ctx.db, req.user!.id, USER_KEYS.alertsDismissed, []);
  // An alert already dismissed stays dismissed: the original answers success without writing again.
  if (dismissed.includes(key)) return { success: true, status: 200 };
  await setUserValue(ctx.db, req.user!.id, USER_KEYS.alertsDismissed, [...dismissed, key]);
  return { success: true, status: 200 };
}

export async function setIntegrationActive(req: RestRequest, ctx: AppContext) {
  const integration = String(req.params.integration);
  if (!INTEGRATIONS.includes(integration)) {
    return { json: { success: false, status: 500, error: SEO_MESSAGES.optionSaveFailed } };
  }
  await setSeoOption(ctx, `${integration}_integration_active`, req.params.active === true);
  return { json: { success: true, status: 200 } };
}

/** `meta/search` may only be used on a post the caller may edit. */
async function canSearchMeta(req: RestRequest, ctx: AppContext) {
  const postId = phpIntval(req.params.post_id);
  if (!req.has('post_id') || postId <= 0) return false;
  const post = await getPost(ctx.db, postId);
  return post !== undefined && canEditPostOfAnyArea(ctx, req.user, post);
}

export async function searchMeta(req: RestRequest, ctx: AppContext) {
  const query = String(req.params.query ?? '');
  const rows = await ctx.db
    .selectFrom('seo_post_meta')
    .select(['meta_key', 'meta_value'])
    .where('post_id', '=', phpIntval(req.params.post_id))
    .orderBy('meta_key')
    .execute();
  const meta = rows
    .filter((r) => r.meta_key.startsWith(query) && (query !== '' || !r.meta_key.startsWith('_')))
    .filter((r) => !/^[aOsibd]:\d*[:;]/.test(r.meta_value)) // serialized values are skipped
    .slice(0, 25)
    .map((r) => ({ key: r.meta_key, value: r.meta_value }));
  return { meta };
}

/** GET answers the stored workouts; POST is answered by add-ons only, so the free plugin's answer is null. */
export async function workouts(req: RestRequest, ctx: AppContext) {
  if (req.method !== 'GET') return { json: null };
  return { json: await getSeoOption(ctx, 'workouts_data') };
}

/** Importers of other plugins' data: none of those plugins exist on this site. */
export async function runImport(_req: RestRequest) {
  return CoreErrors.noRoute();
}

export const stateRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/new-content-type-visibility/dismiss-post-type',
    endpoints: [{
      methods: CREATABLE,
      args: { postTypeName: { validate: (v, _r, name) => (typeof v === 'string' && v !== '') || `${name} is not a string.`, check: postTypeExists } },
      permission: canEditPosts,
      handler: dismissPostType,
    }],
  },
  {
    path: '/new-content-type-visibility/dismiss-taxonomy',
    endpoints: [{
      methods: CREATABLE,
      args: { taxonomyName: { validate: (v, _r, name) => (typeof v === 'string' && v !== '') || `${name} is not a string.`, check: taxonomyExists } },
      permission: canEditPosts,
      handler: dismissTaxonomy,
    }],
  },
  {
    path: '/introductions/{introduction_id:[\\w-]+}/seen',
    endpoints: [{
      methods: CREATABLE,
      args: {
        introduction_id: { type: 'string', required: true },
        // The original declares the type `bool`, which WordPress does not check; only rest_sanitize_boolean applies.
        is_seen: { type: 'boolean', required: false, default: true, sanitize: (v) => toBoolean(v) },
      },
      permission: canEditPosts,
      handler: setIntroductionSeen,
    }],
  },
  {
    path: '/videohost_embed_permission',
    endpoints: [
      { methods: READABLE, permission: canEditPosts, handler: getEmbedPermission },
      // `value` is declared with the unchecked type `bool` and read from the JSON body by the handler.
      { methods: CREATABLE, args: { value: { type: 'boolean', default: true, sanitize: (v) => toBoolean(v) } }, permission: canEditPosts, handler: setEmbedPermission },
    ],
  },
  {
    path: '/alerts/dismiss',
    endpoints: [{
      methods: CREATABLE,
      args: { key: { required: true, validate: (v) => (typeof v === 'string' && ALLOWED_ALERTS.includes(v)) || 'Invalid alert key.' } },
      permission: canEditPosts,
      handler: dismissAlert,
    }],
  },
  {
    path: '/integrations/set_active',
    endpoints: [{
      methods: CREATABLE,
      args: { active: { type: 'boolean', required: true }, integration: { type: 'string', required: true } },
      permission: canManageSeo,
      handler: setIntegrationActive,
    }],
  },
  { path: '/meta/search', endpoints: [{ methods: READABLE, permission: canSearchMeta, handler: searchMeta }] },
  {
    path: '/workouts',
    endpoints: [{ methods: ['GET', 'POST'], permission: requireCapability('edit_others_posts'), handler: workouts }],
  },
  {
    path: '/import/{plugin:[\\w-]+}/{type:[\\w-]+}',
    endpoints: [{
      methods: CREATABLE,
      args: { plugin: { type: 'string', description: 'The plugin to import from.' }, type: { type: 'string', description: 'The type of entity to import.' } },
      permission: requireCapability('activate_plugins'),
      handler: runImport,
    }],
  },
];
