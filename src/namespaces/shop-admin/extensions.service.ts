/**
 * @module namespaces/shop-admin/extensions.service
 * Extensions ("plugins" to the shop admin): the product's optional areas (spam filter, SEO, …), which
 * are bundled and switched on or off, and packages installed from the extension registry
 * (`REMOTE_EXTENSIONS_URL`). Install and activate run on the jobs runner; their status can be polled.
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { switchArea } from '../../area-state.js';
import { postDatePair } from '../../content/posts.js';
import { ExtensionRegistryError, fetchManifest, isExtensionSlug } from '../../remote/extension-registry.js';

export type JobKind = 'install' | 'activate' | 'install-and-activate';
export type JobStatus = 'pending' | 'in-progress' | 'complete' | 'failed';

export interface JobRecord {
  job_id: string;
  kind: JobKind;
  plugins: string[];
  status: JobStatus;
  results: Record<string, unknown>;
  errors: Record<string, string[]>;
}

/** Bundled areas that can be switched (required ones are not extensions). */
function optionalAreas(ctx: AppContext) {
  return ctx.areas.all.filter((a) => !a.required);
}

/** Slugs of everything installed: optional areas, then registry packages. */
export async function installedSlugs(ctx: AppContext): Promise<string[]> {
  const packages = await ctx.db.selectFrom('extensions').select('slug').orderBy('slug').execute();
  return [...optionalAreas(ctx).map((a) => a.id), ...packages.map((p) => p.slug)];
}

/** Slugs of what is active. */
export async function activeSlugs(ctx: AppContext): Promise<string[]> {
  const packages = await ctx.db.selectFrom('extensions').select('slug').where('active', '=', 1).orderBy('slug').execute();
  return [...optionalAreas(ctx).filter((a) => ctx.areas.isEnabled(a.id)).map((a) => a.id), ...packages.map((p) => p.slug)];
}

/** Installs one extension; a bundled area is installed already. */
async function installOne(ctx: AppContext, slug: string): Promise<true> {
  if (ctx.areas.get(slug)) return true;
  const existing = await ctx.db.selectFrom('extensions').select('slug').where('slug', '=', slug).executeTakeFirst();
  if (existing) return true;
  const endpoint = ctx.config.remotes.extensions;
  if (!endpoint) throw new ExtensionRegistryError(`"${slug}" is not bundled, and no extension registry is configured (REMOTE_EXTENSIONS_URL).`);
  const manifest = await fetchManifest(endpoint, slug);
  const { gmt } = postDatePair(ctx.now(), 'UTC');
  await ctx.db
    .insertInto('extensions')
    .values({ slug, name: manifest.name, version: manifest.version, description: manifest.description, source: endpoint, installed_gmt: gmt })
    .onConflict((oc) => oc.column('slug').doNothing())
    .execute();
  return true;
}

/** Activates one installed extension (an area is switched on for every process). */
async function activateOne(ctx: AppContext, slug: string): Promise<true> {
  const area = ctx.areas.get(slug);
  if (area) {
    if (area.required) return true;
    for (const dep of area.requires ?? []) if (!ctx.areas.isEnabled(dep)) await switchArea(ctx, dep, true);
    await switchArea(ctx, slug, true);
    return true;
  }
  const res = await ctx.db.updateTable('extensions').set({ active: 1 }).where('slug', '=', slug).executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw new ExtensionRegistryError(`"${slug}" is not installed.`);
  return true;
}

/** Runs `kind` for each slug, collecting per-slug results and errors (one failing slug does not stop the rest). */
export async function runExtensionWork(ctx: AppContext, kind: JobKind, slugs: readonly string[]): Promise<{ results: Record<string, unknown>; errors: Record<string, string[]> }> {
  const results: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  for (const slug of slugs) {
    try {
      if (!isExtensionSlug(slug)) throw new ExtensionRegistryError(`"${slug}" is not an extension slug.`);
      if (kind !== 'activate') await installOne(ctx, slug);
      if (kind !== 'install') await activateOne(ctx, slug);
      results[slug] = true;
    } catch (e) {
      results[slug] = false;
      errors[slug] = [e instanceof Error ? e.message : String(e)];
    }
  }
  return { results, errors };
}

function rowToJob(row: { job_id: string; kind: string; plugins: string; status: string; results: string; errors: string }): JobRecord {
  return {
    job_id: row.job_id,
    kind: row.kind as JobKind,
    plugins: JSON.parse(row.plugins) as string[],
    status: row.status as JobStatus,
    results: JSON.parse(row.results) as Record<string, unknown>,
    errors: JSON.parse(row.errors) as Record<string, string[]>,
  };
}

export async function getJob(ctx: AppContext, jobId: string): Promise<JobRecord | undefined> {
  const row = await ctx.db.selectFrom('extension_jobs').selectAll().where('job_id', '=', jobId).executeTakeFirst();
  return row ? rowToJob(row) : undefined;
}

/** Recent jobs of a kind, newest first. */
export async function recentJobs(ctx: AppContext, kinds: readonly JobKind[]): Promise<JobRecord[]> {
  const rows = await ctx.db.selectFrom('extension_jobs').selectAll().where('kind', 'in', kinds).orderBy('created_gmt', 'desc').limit(20).execute();
  return rows.map(rowToJob);
}

/** The job handler (declared in the area's `jobs`): runs a queued job once; a finished job is left alone. */
export async function runExtensionJob(ctx: AppContext, payload: unknown): Promise<void> {
  const jobId = String((payload as { job_id?: unknown } | null)?.job_id ?? '');
  const job = await getJob(ctx, jobId);
  if (!job || job.status === 'complete' || job.status === 'failed') return;
  const touch = (status: JobStatus, extra: Record<string, string> = {}) =>
    ctx.db.updateTable('extension_jobs').set({ status, updated_gmt: postDatePair(ctx.now(), 'UTC').gmt, ...extra }).where('job_id', '=', jobId).execute();
  await touch('in-progress');
  const { results, errors } = await runExtensionWork(ctx, job.kind, job.plugins);
  await touch(Object.keys(errors).length === job.plugins.length && job.plugins.length > 0 ? 'failed' : 'complete', { results: JSON.stringify(results), errors: JSON.stringify(errors) });
}

/** The kind of the jobs runner's job that carries out an extension job. */
export const EXTENSION_JOB_KIND = 'shop-admin.extension-job';

/** Records a job and queues it on the jobs runner; its status is polled by id. */
export async function startExtensionJob(ctx: AppContext, kind: JobKind, slugs: readonly string[]): Promise<JobRecord> {
  const jobId = crypto.randomBytes(16).toString('hex');
  const { gmt } = postDatePair(ctx.now(), 'UTC');
  await ctx.db
    .insertInto('extension_jobs')
    .values({ job_id: jobId, kind, plugins: JSON.stringify(slugs), status: 'pending', results: '{}', errors: '{}', created_gmt: gmt, updated_gmt: gmt })
    .execute();
  await ctx.jobs.enqueue(EXTENSION_JOB_KIND, { job_id: jobId }, { dedupeKey: `extension-job:${jobId}`, maxAttempts: 3 });
  return (await getJob(ctx, jobId))!;
}

/** Bundles of extensions the onboarding suggests (`onboarding/free-extensions`). */
export async function freeExtensions(ctx: AppContext): Promise<unknown> {
  const installed = new Set(await installedSlugs(ctx));
  const active = new Set(await activeSlugs(ctx));
  const plugin = (id: string) => {
    const area = ctx.areas.get(id);
    return {
      key: id,
      name: area?.title ?? id,
      description: area?.description ?? '',
      image_url: '',
      is_visible: true,
      is_installed: installed.has(id),
      is_activated: active.has(id),
      manage_url: ctx.urls.admin,
    };
  };
  const present = (ids: string[]) => ids.filter((id) => ctx.areas.get(id)).map(plugin);
  return [
    { key: 'obw/basics', title: 'Get the basics', plugins: present(['spamfilter', 'contact-forms', 'mailing-list']) },
    { key: 'obw/grow', title: 'Grow your store', plugins: present(['seo', 'marketplace', 'connector', 'shop-analytics']) },
  ];
}
