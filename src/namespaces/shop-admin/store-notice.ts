/**
 * @module namespaces/shop-admin/store-notice
 * The store notice (`woocommerce_demo_store` = `yes`): the text of `woocommerce_demo_store_notice`
 * (markup filtered as a post's) at the top of every public page.
 */
import { ksesPost } from '../../content/kses.js';
import type { PageNotice } from '../../site-hooks.js';

export const DEMO_STORE_OPTION = 'woocommerce_demo_store';
export const DEMO_STORE_NOTICE_OPTION = 'woocommerce_demo_store_notice';
const DEFAULT_NOTICE = 'This is a demo store for testing purposes &mdash; no orders shall be fulfilled.';

export const storeNotice: PageNotice = async (ctx) => {
  if ((await ctx.options.get<unknown>(DEMO_STORE_OPTION, 'no')) !== 'yes') return '';
  const stored = await ctx.options.get<unknown>(DEMO_STORE_NOTICE_OPTION, '');
  const text = typeof stored === 'string' && stored.trim() !== '' ? stored : DEFAULT_NOTICE;
  return `<p class="woocommerce-store-notice demo_store" role="status">${ksesPost(text)}</p>`;
};
