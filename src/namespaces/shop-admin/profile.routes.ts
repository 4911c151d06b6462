/**
 * @module namespaces/shop-admin/profile.routes
 * `onboarding/profile` (GET, POST/PUT/PATCH), its e-mail prefill, the core profiler's progress,
 * `onboarding/free-extensions` and `onboarding/product-types`.
 */
import type { AppContext } from '../../app-context.js';
import { isEmail } from '../../auth/users.js';
import { sanitizeTitleWithDashes } from '../../content/slugs.js';
import { validateValue } from '../../rest/schema.js';
import { EDITABLE, READABLE, type ArgSchema, type RestRequest, type RouteDef } from '../../rest/route.js';
import { canEditShop, canViewShop } from './access.js';
import { freeExtensions } from './extensions.service.js';
import { ShopAdminErrors, SHOP_ADMIN_MESSAGES } from './errors.js';
import { CORE_PROFILER_STEPS, completeStep, readProfile, readProgress, updateProfile } from './profile.service.js';
import { PRODUCT_TYPES } from './product-types.js';

const bool: ArgSchema = { type: 'boolean' };
const text: ArgSchema = { type: 'string' };
const strings: ArgSchema = { type: 'array', items: { type: 'string' } };
const oneOf = (values: readonly string[]): ArgSchema => ({ type: 'string', enum: values });

/** The profile fields with the interface's types and enums. */
const PROFILE_ARGS: Record<string, ArgSchema> = {
  completed: { ...bool, description: 'Whether or not the profile was completed.' },
  skipped: { ...bool, description: 'Whether or not the profile was skipped.' },
  industry: { ...strings, description: 'Industry.' },
  product_types: { type: 'array', description: 'Types of products sold.', items: oneOf(['physical', 'downloads', 'subscriptions', 'memberships', 'bookings', 'product-bundles', 'product-add-ons']) },
  product_count: { ...oneOf(['0', '1-10', '11-100', '101-1000', '1000+']), description: 'Number of products to be added.' },
  selling_venues: { ...oneOf(['no', 'other', 'brick-mortar', 'brick-mortar-other', 'other-shop']), description: 'Other places the store is selling products.' },
  number_employees: { ...oneOf(['1', '<10', '10-50', '50-250', '+250', 'not specified']), description: 'Number of employees of the store.' },
  revenue: { ...oneOf(['none', 'up-to-2500', '2500-10000', '10000-50000', '50000-250000', 'more-than-250000', 'rather-not-say']), description: 'Current annual revenue of the store.' },
  other_platform: {
    ...oneOf(['shopify', 'bigcommerce', 'wix', 'amazon', 'ebay', 'etsy', 'squarespace', 'magento', 'other']),
    description: 'Name of other platform used to sell.',
  },
  other_platform_name: { ...text, description: 'Name of other platform used to sell (not listed).' },
  business_extensions: { ...strings, description: 'Extra business extensions to install.' },
  // The original sanitises the slug (`sanitize_title_with_dashes`): `Storefront` is stored as `storefront`.
  theme: {
    ...text,
    description: 'Selected store theme.',
    validate: (value, _req, name) => validateValue(value, { type: 'string' }, name),
    sanitize: (value) => sanitizeTitleWithDashes(String(value)),
  },
  setup_client: { ...bool, description: 'Whether or not this store was setup for a client.' },
  marketplace_connected: { ...bool, description: 'Whether the store is connected to the marketplace.' },
  is_agree_marketing: { ...bool, description: 'Whether or not this store agreed to receiving marketing contents.' },
  is_store_country_set: { ...bool, description: 'Whether or not this store country is set via onboarding profiler.' },
  is_plugins_page_skipped: { ...bool, description: 'Whether or not plugins step in core profiler was skipped.' },
  store_email: {
    ...text,
    description: 'Store email address.',
    validate: (value) => (value === '' || isEmail(String(value)) ? true : SHOP_ADMIN_MESSAGES.invalidEmail),
  },
  core_profiler_completed_steps: { type: 'array', description: 'Completed steps of the core profiler.', items: { type: 'object' } },
  business_choice: { ...text, description: 'Business choice.' },
  selling_online_answer: { ...text, description: 'Selling online answer.' },
  selling_platforms: { type: ['array', 'null'], description: 'Selling platforms.', items: { type: 'string' } },
  context: { ...text, description: 'Scope under which the request is made; determines fields present in response.', default: 'view' },
};

/** Reads the JSON body only, as the original (`get_json_params`). */
function jsonBody(req: RestRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(PROFILE_ARGS)) if (req.json && name in req.json) out[name] = req.params[name];
  return out;
}

async function getProfile(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  return readProfile(ctx);
}

async function saveProfile(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const changes = jsonBody(req);
  // `store_email` must be a real address when marketing e-mails were agreed to, even if empty.
  const agreed = changes.is_agree_marketing === true;
  if (agreed && typeof changes.store_email === 'string' && !isEmail(changes.store_email)) throw ShopAdminErrors.invalidEmail();
  await updateProfile(ctx, changes);
  return { status: 'success', message: SHOP_ADMIN_MESSAGES.profileUpdated };
}

async function emailPrefill(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  const email = await ctx.options.get<string>('admin_email', '');
  if (email) return { email };
  const admin = await ctx.db.selectFrom('users').select('email').where('roles', 'like', '%"administrator"%').orderBy('id').limit(1).executeTakeFirst();
  return { email: admin?.email ?? '' };
}

export const profileRouteDefs: RouteDef<AppContext>[] = [
  { path: '/onboarding/free-extensions', endpoints: [{ methods: READABLE, permission: canViewShop, handler: (_req, ctx) => freeExtensions(ctx) }] },
  { path: '/onboarding/product-types', endpoints: [{ methods: READABLE, permission: canViewShop, handler: () => PRODUCT_TYPES }] },
  { path: '/onboarding/profile/experimental_get_email_prefill', endpoints: [{ methods: READABLE, permission: canViewShop, handler: emailPrefill }] },
  { path: '/onboarding/profile/progress', endpoints: [{ methods: READABLE, permission: canViewShop, handler: (_req, ctx) => readProgress(ctx) }] },
  {
    path: '/onboarding/profile',
    endpoints: [
      { methods: READABLE, permission: canViewShop, handler: getProfile },
      { methods: EDITABLE, args: PROFILE_ARGS, permission: canEditShop, handler: saveProfile },
    ],
  },
  {
    path: '/onboarding/profile/progress/core-profiler/complete',
    endpoints: [
      {
        methods: EDITABLE,
        args: { step: { description: 'Core profiler step to mark completed.', type: 'string', enum: CORE_PROFILER_STEPS, required: true } },
        permission: canEditShop,
        handler: async (req, ctx) => ({ results: await completeStep(ctx, String(req.params.step)), status: 'success' }),
      },
    ],
  },
];

