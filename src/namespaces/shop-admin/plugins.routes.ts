/**
 * @module namespaces/shop-admin/plugins.routes
 * `plugins/*` and `onboarding/plugins/*`: extensions installed and switched on for real (see
 * `extensions.service.ts`), their jobs, and the hand-overs to the site connector, the marketplace
 * and the payment providers.
 */
import type { AppContext } from '../../app-context.js';
import { parseList } from '../../rest/php-query.js';
import { CREATABLE, EDITABLE, READABLE, respond, type RestRequest, type RouteDef } from '../../rest/route.js';
import { canConnectSite, canInstallPlugins, canViewShop } from './access.js';
import { ShopAdminErrors } from './errors.js';
import { activeSlugs, getJob, installedSlugs, recentJobs, runExtensionWork, startExtensionJob, type JobKind, type JobRecord } from './extensions.service.js';
import { finishMarketplaceConnect, requestMarketplaceConnect } from './marketplace-connect.js';

const MESSAGES = {
  installed: (n: number) => `${n} plugin(s) installed.`,
  activated: (n: number) => `${n} plugin(s) activated.`,
  queued: 'The plugins are being installed in the background.',
  queuedActivate: 'The plugins are being activated in the background.',
};

function slugsOf(req: RestRequest): string[] {
  const raw = req.params.plugins;
  const list = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? parseList(raw) : [];
  return [...new Set(list.map((s) => s.trim()).filter(Boolean))];
}

function isAsync(req: RestRequest): boolean {
  const v = req.params.async;
  return v === true || v === 'true' || v === '1' || v === 1;
}

/** Error envelope as `WP_Error` serialises inside the original's answers. */
function errorsEnvelope(errors: Record<string, string[]>) {
  return { errors, error_data: {} };
}

function jobStatus(job: JobRecord) {
  return { job_id: job.job_id, plugins: job.plugins, status: job.status, errors: job.errors };
}

function doWork(kind: Extract<JobKind, 'install' | 'activate'>) {
  return async (req: RestRequest, ctx: AppContext) => {
    const slugs = slugsOf(req);
    if (slugs.length === 0) throw ShopAdminErrors.invalidPlugins();
    if (isAsync(req)) {
      const job = await startExtensionJob(ctx, kind, slugs);
      return { data: { job_id: job.job_id, plugins: slugs }, message: kind === 'install' ? MESSAGES.queued : MESSAGES.queuedActivate };
    }
    const { results, errors } = await runExtensionWork(ctx, kind, slugs);
    const done = slugs.filter((s) => results[s] === true);
    const data =
      kind === 'install'
        ? { installed: done, results, install_time: Object.fromEntries(done.map((s) => [s, 0])) }
        : { activated: done, active: await activeSlugs(ctx) };
    return { data, errors: errorsEnvelope(errors), success: Object.keys(errors).length === 0, message: kind === 'install' ? MESSAGES.installed(done.length) : MESSAGES.activated(done.length) };
  };
}

async function installAndActivateAsync(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const slugs = slugsOf(req);
  if (slugs.length === 0) throw ShopAdminErrors.invalidPlugins();
  const job = await startExtensionJob(ctx, 'install-and-activate', slugs);
  return { job_id: job.job_id, status: job.status, plugins: Object.fromEntries(slugs.map((s) => [s, { status: 'pending', errors: [] }])) };
}

async function installAndActivate(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const slugs = slugsOf(req);
  if (slugs.length === 0) throw ShopAdminErrors.invalidPlugins();
  const install = await runExtensionWork(ctx, 'install', slugs);
  const toActivate = slugs.filter((s) => install.results[s] === true);
  const activate = await runExtensionWork(ctx, 'activate', toActivate);
  // The original's helper results as they are (no data/success envelope): install {installed, results,
  // errors, time} and activate {activated, active, errors}, errors in the WP_Error shape.
  return {
    install: { installed: toActivate, results: install.results, errors: errorsEnvelope(install.errors), time: Object.fromEntries(toActivate.map((s) => [s, 0])) },
    activate: { activated: toActivate.filter((s) => activate.results[s] === true), active: await activeSlugs(ctx), errors: errorsEnvelope(activate.errors) },
  };
}

async function scheduledInstall(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const job = await getJob(ctx, String(req.params.job_id));
  if (!job || job.kind !== 'install-and-activate') return respond(null, { status: 404 });
  const plugins = Object.fromEntries(job.plugins.map((s) => [s, { status: job.status === 'complete' || job.status === 'failed' ? (job.results[s] === true ? 'complete' : 'failed') : job.status, errors: job.errors[s] ?? [] }]));
  return { job_id: job.job_id, status: job.status, plugins };
}

async function connectConnector(_req: RestRequest, ctx: AppContext): Promise<unknown> {
  const area = ctx.areas.get('connector');
  if (!area || !ctx.areas.isEnabled('connector')) throw ShopAdminErrors.connectorInactive();
  return { slug: 'connector', name: area.title, connectAction: ctx.urls.rest('/connector/v4/connection/register') };
}

/** The onboarding URL of payment provider `which` (`REMOTE_PAYMENTS_<WHICH>_URL`). */
function connectPayments(which: 'a' | 'b') {
  return async (_req: RestRequest, ctx: AppContext) => {
    const endpoint = ctx.config.remotes[`payments_${which}`];
    if (!endpoint) throw ShopAdminErrors.paymentsNotConfigured(which.toUpperCase());
    const url = new URL(`${endpoint}/onboarding`);
    url.searchParams.set('return_url', ctx.urls.admin);
    url.searchParams.set('site', ctx.urls.home);
    return { connectUrl: url.toString() };
  };
}

async function connectorAuthorizationUrl(req: RestRequest, ctx: AppContext): Promise<unknown> {
  if (!ctx.areas.isEnabled('connector')) throw ShopAdminErrors.connectorInactive();
  const url = new URL(ctx.urls.rest('/connector/v4/connection/authorize_url'));
  url.searchParams.set('redirect_uri', String(req.params.redirect_url));
  url.searchParams.set('from', String(req.params.from));
  return { url: url.toString() };
}

export const pluginRouteDefs: RouteDef<AppContext>[] = [
  { path: '/plugins/install', endpoints: [{ methods: EDITABLE, permission: canInstallPlugins, handler: doWork('install') }] },
  { path: '/plugins/activate', endpoints: [{ methods: EDITABLE, permission: canInstallPlugins, handler: doWork('activate') }] },
  { path: '/plugins/install/status', endpoints: [{ methods: READABLE, permission: canInstallPlugins, handler: async (_r, ctx) => (await recentJobs(ctx, ['install'])).map(jobStatus) }] },
  { path: '/plugins/activate/status', endpoints: [{ methods: READABLE, permission: canInstallPlugins, handler: async (_r, ctx) => (await recentJobs(ctx, ['activate'])).map(jobStatus) }] },
  { path: '/plugins/active', endpoints: [{ methods: READABLE, permission: canViewShop, handler: async (_r, ctx) => ({ plugins: await activeSlugs(ctx) }) }] },
  { path: '/plugins/installed', endpoints: [{ methods: READABLE, permission: canViewShop, handler: async (_r, ctx) => ({ plugins: await installedSlugs(ctx) }) }] },
  { path: '/plugins/connect-connector', endpoints: [{ methods: READABLE, permission: canConnectSite, handler: connectConnector }] },
  {
    path: '/plugins/install/status/{job_id}',
    endpoints: [{ methods: READABLE, args: { job_id: { description: 'Job ID.', type: 'string', required: true } }, permission: canInstallPlugins, handler: async (req, ctx) => { const job = await getJob(ctx, String(req.params.job_id)); return job && job.kind === 'install' ? jobStatus(job) : false; } }],
  },
  {
    path: '/plugins/activate/status/{job_id}',
    endpoints: [{ methods: READABLE, args: { job_id: { description: 'Job ID.', type: 'string', required: true } }, permission: canInstallPlugins, handler: async (req, ctx) => { const job = await getJob(ctx, String(req.params.job_id)); return job && job.kind === 'activate' ? jobStatus(job) : false; } }],
  },
  { path: '/plugins/request-marketplace-connect', endpoints: [{ methods: CREATABLE, permission: canInstallPlugins, handler: (_r, ctx) => requestMarketplaceConnect(ctx) }] },
  { path: '/plugins/finish-marketplace-connect', endpoints: [{ methods: CREATABLE, permission: canInstallPlugins, handler: (req, ctx) => finishMarketplaceConnect(ctx, req.params.request_token) }] },
  { path: '/plugins/connect-payments-a', endpoints: [{ methods: EDITABLE, permission: canInstallPlugins, handler: connectPayments('a') }] },
  { path: '/plugins/connect-payments-b', endpoints: [{ methods: EDITABLE, permission: canInstallPlugins, handler: connectPayments('b') }] },
  {
    path: '/onboarding/plugins/install-and-activate-async',
    endpoints: [{ methods: CREATABLE, args: { plugins: { description: 'A list of plugins to install.', type: 'array', items: { type: 'string' }, required: true } }, permission: canInstallPlugins, handler: installAndActivateAsync }],
  },
  { path: '/onboarding/plugins/install-and-activate', endpoints: [{ methods: CREATABLE, permission: canInstallPlugins, handler: installAndActivate }] },
  {
    path: '/onboarding/plugins/scheduled-installs/{job_id:\\w+}',
    endpoints: [{ methods: READABLE, args: { job_id: { description: 'Job ID.', type: 'string', required: true } }, permission: canInstallPlugins, handler: scheduledInstall }],
  },
  {
    path: '/onboarding/plugins/connector-authorization-url',
    endpoints: [
      {
        methods: READABLE,
        args: {
          redirect_url: { description: 'Redirect URL.', type: 'string', required: true },
          from: { description: 'From value for the connector authorization page.', type: 'string', default: 'shop-onboarding' },
        },
        permission: canConnectSite,
        handler: connectorAuthorizationUrl,
      },
    ],
  },
];
