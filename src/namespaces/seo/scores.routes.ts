/**
 * @module namespaces/seo/scores.routes
 * `file_size`, `statistics`, `readability_scores` and `seo_scores`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../app-context.js';
import { UPLOADS_PATH, uploadedFile } from '../../http/uploads.js';
import { requireCapability } from '../../rest/permissions.js';
import { phpIntval } from '../../rest/php-query.js';
import { toBoolean } from '../../rest/php-values.js';
import { READABLE, respond, type ArgSchemas, type RestRequest, type RouteDef } from '../../rest/route.js';
import { canManageSeo } from './configuration.routes.js';
import { SEO_MESSAGES } from './errors.js';
import { ScoreRequestError, scoreGroups, statistics, type ScoreKind } from './scores.service.js';
import { cacheGet, cacheSet } from './store.js';

const DAY_S = 86_400;

/** Size of a media file of this site; other hosts and unknown files are 404 failures. */
export async function getFileSize(req: RestRequest, ctx: AppContext) {
  const failure = (response: string) => respond({ type: 'failure', response }, { status: 404 });
  const given = String(req.params.url);
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    // The original makes any string a URL of some host, and then one that is not this site.
    return failure(SEO_MESSAGES.externalFile(given));
  }
  if (url.host !== new URL(ctx.urls.home).host) return failure(SEO_MESSAGES.externalFile(given));
  if (!url.pathname.startsWith(UPLOADS_PATH)) return failure(SEO_MESSAGES.notFoundFile(given));
  const file = uploadedFile(path.resolve(ctx.config.uploadsDir), url.pathname.slice(UPLOADS_PATH.length));
  if (!file) return failure(SEO_MESSAGES.notFoundFile(given));
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return failure(SEO_MESSAGES.notFoundFile(given));
    return { type: 'success', size_in_bytes: stat.size };
  } catch {
    return failure(SEO_MESSAGES.notFoundFile(given));
  }
}

export async function getStatistics(req: RestRequest, ctx: AppContext) {
  const key = `statistics:${req.user!.id}`;
  const cached = await cacheGet(ctx, key);
  if (cached) return cached;
  const stats = await statistics(ctx, req.user!);
  await cacheSet(ctx, key, stats, DAY_S);
  return stats;
}

function scoresHandler(kind: ScoreKind) {
  return async (req: RestRequest, ctx: AppContext) => {
    try {
      return await scoreGroups(ctx, kind, {
        contentType: String(req.params.contentType),
        taxonomy: String(req.params.taxonomy ?? ''),
        term: req.params.term === null || req.params.term === undefined ? null : Number(req.params.term),
        troubleshooting: req.params.troubleshooting === true,
      });
    } catch (e) {
      if (e instanceof ScoreRequestError) return respond({ error: e.message }, { status: 400 });
      throw e;
    }
  };
}

/**
 * As the original: `term` is only passed through `intval` (so `term=abc` is term 0, which the checks
 * below then refuse) and `troubleshooting` only through `rest_sanitize_boolean` (its declared type
 * `bool` is not one WordPress checks).
 */
const scoreArgs: ArgSchemas = {
  contentType: { type: 'string', required: true },
  taxonomy: { type: 'string', required: false, default: '' },
  term: { type: 'integer', required: false, default: null, sanitize: (v) => phpIntval(v) },
  troubleshooting: { type: 'boolean', required: false, default: null, sanitize: (v) => toBoolean(v) },
};

export const scoresRouteDefs: RouteDef<AppContext>[] = [
  {
    path: '/file_size',
    endpoints: [{ methods: READABLE, args: { url: { type: 'string', required: true, description: 'The url to retrieve' } }, permission: requireCapability('manage_options'), handler: getFileSize }],
  },
  { path: '/statistics', endpoints: [{ methods: READABLE, permission: requireCapability('read'), handler: getStatistics }] },
  { path: '/readability_scores', endpoints: [{ methods: READABLE, args: scoreArgs, permission: canManageSeo, handler: scoresHandler('readability') }] },
  { path: '/seo_scores', endpoints: [{ methods: READABLE, args: scoreArgs, permission: canManageSeo, handler: scoresHandler('seo') }] },
];
