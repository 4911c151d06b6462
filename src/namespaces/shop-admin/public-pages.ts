/**
 * @module namespaces/shop-admin/public-pages
 * What the shop adds to the public pages: the store notice (`woocommerce_demo_store` = `yes`: the text
 * of `woocommerce_demo_store_notice`, markup filtered as a post's, at the top of every page), and on
 * the front page the headline, tagline and about text the AI patterns route wrote
 * (`ai_generated_patterns`), while no page is chosen as the front page.
 */
import { ksesPost } from '../../content/kses.js';
import { esc } from '../../admin/html.js';
import type { PageFragment } from '../../site-hooks.js';

export const DEMO_STORE_OPTION = 'woocommerce_demo_store';
export const DEMO_STORE_NOTICE_OPTION = 'woocommerce_demo_store_notice';
const DEFAULT_NOTICE = 'This is a demo store for testing purposes &mdash; no orders shall be fulfilled.';

export const storeNotice: PageFragment = async (ctx) => {
  if ((await ctx.options.get<unknown>(DEMO_STORE_OPTION, 'no')) !== 'yes') return '';
  const stored = await ctx.options.get<unknown>(DEMO_STORE_NOTICE_OPTION, '');
  const text = typeof stored === 'string' && stored.trim() !== '' ? stored : DEFAULT_NOTICE;
  return `<p class="woocommerce-store-notice demo_store" role="status">${ksesPost(text)}</p>`;
};

export const AI_PATTERNS_OPTION = 'ai_generated_patterns';

export const generatedFrontPage: PageFragment = async (ctx) => {
  const p = await ctx.options.get<unknown>(AI_PATTERNS_OPTION, null);
  if (!p || typeof p !== 'object') return '';
  const { headline, tagline, about } = p as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const parts = [text(headline) && `<h2>${esc(text(headline))}</h2>`, text(tagline) && `<p class="tagline">${esc(text(tagline))}</p>`, text(about) && `<p>${esc(text(about))}</p>`].filter(Boolean);
  return parts.length ? `<section class="site-intro">${parts.join('')}</section>` : '';
};
