/**
 * @module namespaces/seo/seo.public
 * What the SEO area offers other areas: post SEO fields and the analysis trigger.
 */
import type { AppContext } from '../../app-context.js';
import { requestAnalysis } from './analysis/analyse.job.js';
import { buildHead, type Head } from './head/head.service.js';
import { META_KEYS, setPostMeta } from './store.js';

export interface PostSeoFields {
  focusKeyphrase?: string;
  metaDescription?: string;
  title?: string;
  noindex?: boolean;
}

export const seoService = {
  /** Sets a post's SEO fields and queues its analysis. */
  async setPostFields(ctx: AppContext, postId: number, fields: PostSeoFields): Promise<void> {
    const values: Record<string, string> = {};
    if (fields.focusKeyphrase !== undefined) values[META_KEYS.focusKeyphrase] = fields.focusKeyphrase;
    if (fields.metaDescription !== undefined) values[META_KEYS.metaDescription] = fields.metaDescription;
    if (fields.title !== undefined) values[META_KEYS.title] = fields.title;
    if (fields.noindex !== undefined) values[META_KEYS.noindex] = fields.noindex ? '1' : '0';
    await setPostMeta(ctx.db, postId, values);
    // The keyphrase changes the score even when the content did not: drop the stored result.
    await ctx.db.deleteFrom('seo_scores').where('post_id', '=', postId).execute();
    await requestAnalysis(ctx, [postId]);
  },
  /** The head (title, meta tags, JSON-LD) a public page of this site emits; the 404 head for unknown URLs. */
  async headFor(ctx: AppContext, url: string): Promise<Head> {
    return buildHead(ctx, url);
  },
  /** Content of these posts changed: queue their analysis. */
  async contentChanged(ctx: AppContext, postIds: readonly number[]): Promise<void> {
    await requestAnalysis(ctx, postIds);
  },
} as const;
