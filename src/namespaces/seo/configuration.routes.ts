/**
 * @module namespaces/seo/configuration.routes
 * First-time configuration (`configuration/*`): site representation, social profiles, tracking and
 * the wizard's progress, stored in the site's SEO settings. Capability `wpseo_manage_options`.
 */
import type { AppContext } from '../../app-context.js';
import { canEditUser } from '../../auth/roles.js';
import { requireCapability } from '../../rest/permissions.js';
import { phpIntval } from '../../rest/php-query.js';
import { CREATABLE, READABLE, respond, type RestRequest, type RouteDef } from '../../rest/route.js';
import { SEO_MESSAGES } from './errors.js';
import { isSocialUrlValid, twitterHandle } from './social.js';
import { getSeoOption, setSeoOption } from './store.js';

export const canManageSeo = requireCapability('wpseo_manage_options');

const REPRESENTATION_FIELDS = [
  'company_or_person', 'company_name', 'website_name', 'company_logo', 'company_logo_id',
  'person_logo', 'person_logo_id', 'company_or_person_user_id',
] as const;

/** `{success, status}` with the HTTP status mirroring the body's. */
function outcome(body: Record<string, unknown>): ReturnType<typeof respond> {
  return respond(body, { status: body.status as number });
}

export async function setSiteRepresentation(req: RestRequest, ctx: AppContext) {
  const failures: string[] = [];
  for (const field of REPRESENTATION_FIELDS) {
    if (!req.has(field)) continue;
    await setSeoOption(ctx, field, req.params[field]);
  }
  // The logo's cached attachment data belongs to the old logo.
  await setSeoOption(ctx, 'company_logo_meta', false);
  await setSeoOption(ctx, 'person_logo_meta', false);
  // CASE: the original has no `description` option; a sent description is reported as not saved. The
  // original says 500; it is the client's field, so 400 here (issue 13: bad input never answers 5xx).
  if (req.has('description')) failures.push('description');
  if (failures.length === 0) return outcome({ success: true, status: 200 });
  return outcome({ success: false, status: 400, error: SEO_MESSAGES.saveFailed, failures });
}

export async function setSocialProfiles(req: RestRequest, ctx: AppContext) {
  const failures: string[] = [];
  const facebook = req.has('facebook_site') ? String(req.params.facebook_site).trim() : undefined;
  const twitter = req.has('twitter_site') ? String(req.params.twitter_site).trim() : undefined;
  const others = req.has('other_social_urls') ? (req.params.other_social_urls as unknown[]).map((u) => String(u ?? '').trim()) : undefined;
  // Every value is checked before anything is saved.
  if (facebook !== undefined && !isSocialUrlValid(facebook)) failures.push('facebook_site');
  if (twitter !== undefined && twitterHandle(twitter) === undefined) failures.push('twitter_site');
  others?.forEach((u, i) => { if (!isSocialUrlValid(u)) failures.push(`other_social_urls-${i}`); });
  if (failures.length === 0) {
    if (facebook !== undefined) await setSeoOption(ctx, 'facebook_site', facebook);
    if (twitter !== undefined) await setSeoOption(ctx, 'twitter_site', twitterHandle(twitter));
    if (others !== undefined) await setSeoOption(ctx, 'other_social_urls', others.filter((u) => u !== ''));
    return { json: { success: true, status: 200 } };
  }
  return { json: { success: false, status: 200, error: SEO_MESSAGES.saveFailed, failures } };
}

export async function checkCapability(req: RestRequest) {
  const ok = canEditUser(req.user, phpIntval(req.params.user_id));
  return ok ? { success: true, status: 200 } : { success: false, status: 403 };
}

export async function enableTracking(req: RestRequest, ctx: AppContext) {
  await setSeoOption(ctx, 'tracking', req.params.tracking === true);
  await setSeoOption(ctx, 'toggled_tracking', true);
  return outcome({ success: true, status: 200 });
}

export async function saveConfigurationState(req: RestRequest, ctx: AppContext) {
  const steps = (req.params.finishedSteps as unknown[]).map((s) => String(s));
  await setSeoOption(ctx, 'configuration_finished_steps', steps);
  if (steps.length === 3) await setSeoOption(ctx, 'first_time_install', false);
  return outcome({ success: true, status: 200 });
}

export async function getConfigurationState(_req: RestRequest, ctx: AppContext) {
  return { success: true, status: 200, data: await getSeoOption<string[]>(ctx, 'configuration_finished_steps') };
}

const str = (description: string) => ({ type: 'string', description });
const int = (description: string) => ({ type: 'integer', description });

export const configurationRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/configuration/site_representation',
    endpoints: [{
      methods: CREATABLE,
      args: {
        company_or_person: { type: 'string', enum: ['company', 'person'], required: true },
        company_name: str('The company name.'),
        company_logo: str('The company logo URL.'),
        company_logo_id: int('The company logo attachment id.'),
        person_logo: str('The person logo URL.'),
        person_logo_id: int('The person logo attachment id.'),
        company_or_person_user_id: int('The user representing the site.'),
        description: str('The site description.'),
      },
      permission: canManageSeo,
      handler: setSiteRepresentation,
    }],
  },
  {
    path: '/configuration/social_profiles',
    endpoints: [{
      methods: CREATABLE,
      args: {
        facebook_site: { type: 'string' },
        twitter_site: { type: 'string' },
        other_social_urls: { type: 'array' },
      },
      permission: canManageSeo,
      handler: setSocialProfiles,
    }],
  },
  {
    path: '/configuration/check_capability',
    endpoints: [{ methods: READABLE, args: { user_id: { required: true } }, permission: canManageSeo, handler: checkCapability }],
  },
  {
    path: '/configuration/enable_tracking',
    endpoints: [{ methods: CREATABLE, args: { tracking: { type: 'boolean', required: true } }, permission: canManageSeo, handler: enableTracking }],
  },
  {
    path: '/configuration/save_configuration_state',
    endpoints: [{ methods: CREATABLE, args: { finishedSteps: { type: 'array', required: true } }, permission: canManageSeo, handler: saveConfigurationState }],
  },
  {
    path: '/configuration/get_configuration_state',
    endpoints: [{ methods: READABLE, permission: canManageSeo, handler: getConfigurationState }],
  },
];
