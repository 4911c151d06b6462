/**
 * @module namespaces/shop-admin/profile.service
 * The onboarding profile and the core profiler's progress (options `woocommerce_onboarding_profile`
 * and `woocommerce_onboarding_profile_progress`).
 */
import type { AppContext } from '../../app-context.js';

export const PROFILE_OPTION = 'woocommerce_onboarding_profile';
export const PROGRESS_OPTION = 'woocommerce_onboarding_profile_progress';

/** Every property of the profile, in the original's order (`wccom_connected` is computed). */
export const PROFILE_FIELDS = [
  'completed', 'skipped', 'industry', 'product_types', 'product_count', 'selling_venues', 'number_employees', 'revenue',
  'other_platform', 'other_platform_name', 'business_extensions', 'theme', 'setup_client', 'wccom_connected',
  'is_agree_marketing', 'store_email', 'is_store_country_set', 'is_plugins_page_skipped', 'business_choice',
  'selling_online_answer', 'selling_platforms', 'core_profiler_completed_steps', 'marketplace_connected',
] as const;

export const CORE_PROFILER_STEPS = ['intro-opt-in', 'skip-guided-setup', 'user-profile', 'business-info', 'plugins', 'intro-builder'] as const;

/** The marketplace connection's stored access token (the marketplace area writes it). */
export const MARKETPLACE_AUTH_OPTION = 'woocommerce_helper_data';

export async function storedProfile(ctx: AppContext): Promise<Record<string, unknown>> {
  const value = await ctx.options.get<unknown>(PROFILE_OPTION, {});
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `GET /onboarding/profile`: every property (null when unset) plus `wccom_connected`. */
export async function readProfile(ctx: AppContext): Promise<Record<string, unknown>> {
  const stored = await storedProfile(ctx);
  const helper = await ctx.options.get<Record<string, unknown> | null>(MARKETPLACE_AUTH_OPTION, null);
  const auth = helper && typeof helper === 'object' ? (helper.auth as Record<string, unknown> | undefined) : undefined;
  const out: Record<string, unknown> = {};
  for (const field of PROFILE_FIELDS) {
    out[field] = field === 'wccom_connected' ? Boolean(auth && typeof auth.access_token === 'string' && auth.access_token !== '') : (stored[field] ?? null);
  }
  return out;
}

/** Shallow merge of the properties present (explicit nulls ignored, as `isset`). */
export async function updateProfile(ctx: AppContext, changes: Record<string, unknown>): Promise<void> {
  const stored = await storedProfile(ctx);
  const next = { ...stored };
  for (const field of PROFILE_FIELDS) {
    if (field === 'wccom_connected') continue;
    const value = changes[field];
    if (value !== undefined && value !== null) next[field] = value;
  }
  await ctx.options.set(PROFILE_OPTION, next);
}

export async function readProgress(ctx: AppContext): Promise<unknown> {
  return ctx.options.get<unknown>(PROGRESS_OPTION, []);
}

/** Marks a core-profiler step completed now (re-completing overwrites the time). */
export async function completeStep(ctx: AppContext, step: string): Promise<Record<string, unknown>> {
  const current = await readProgress(ctx);
  const progress = current !== null && typeof current === 'object' && !Array.isArray(current) ? { ...(current as Record<string, unknown>) } : {};
  const steps = { ...((progress.core_profiler_completed_steps as Record<string, unknown> | undefined) ?? {}) };
  steps[step] = { completed_at: ctx.now().toISOString().replace(/\.\d{3}Z$/, 'Z') };
  progress.core_profiler_completed_steps = steps;
  await ctx.options.set(PROGRESS_OPTION, progress);
  return progress;
}
