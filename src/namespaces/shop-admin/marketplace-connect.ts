/**
 * @module namespaces/shop-admin/marketplace-connect
 * Connecting the store to the marketplace (`REMOTE_MARKETPLACE_URL`), as the original's helper does:
 * `POST {endpoint}/oauth/request_token` gives a request token and the page the owner approves it on;
 * `POST {endpoint}/oauth/access_token` exchanges the approved token for an access token, stored in
 * `woocommerce_helper_data.auth` (what the marketplace area and `wccom_connected` read).
 */
import type { AppContext } from '../../app-context.js';
import { ShopAdminErrors } from './errors.js';
import { MARKETPLACE_AUTH_OPTION } from './profile.service.js';

const TIMEOUT_MS = 10_000;

/** The admin screen the marketplace sends the browser back to (`admin.php?page=…`). */
export const EXTENSIONS_SCREEN = 'eventsuite-extensions';

async function post(ctx: AppContext, path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const endpoint = ctx.config.remotes.marketplace;
  if (!endpoint) throw ShopAdminErrors.marketplaceNotConfigured();
  let res: Response;
  try {
    res = await fetch(`${endpoint}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (e) {
    throw ShopAdminErrors.marketplaceConnect(`The marketplace could not be reached: ${e instanceof Error ? e.message : String(e)}`);
  }
  let data: unknown;
  try {
    data = await res.json();
  } catch {
    data = undefined;
  }
  if (!res.ok || !data || typeof data !== 'object') throw ShopAdminErrors.marketplaceConnect(`The marketplace refused the connection (${res.status}).`);
  return data as Record<string, unknown>;
}

export async function requestMarketplaceConnect(ctx: AppContext): Promise<unknown> {
  const redirect = `${ctx.urls.admin}admin.php?page=${EXTENSIONS_SCREEN}&marketplace-connect=finish`;
  const data = await post(ctx, '/oauth/request_token', { home_url: ctx.urls.home, redirect_uri: redirect });
  const token = data.request_token;
  if (typeof token !== 'string' || token === '') throw ShopAdminErrors.marketplaceConnect('The marketplace answered without a request token.');
  const url = new URL(`${ctx.config.remotes.marketplace}/oauth/authorize`);
  url.searchParams.set('request_token', token);
  url.searchParams.set('redirect_uri', redirect);
  await ctx.options.set('woocommerce_helper_request_token', token);
  return { connectAction: url.toString() };
}

export async function finishMarketplaceConnect(ctx: AppContext, requestToken: unknown): Promise<unknown> {
  const token = typeof requestToken === 'string' && requestToken !== '' ? requestToken : await ctx.options.get<string>('woocommerce_helper_request_token', '');
  if (!token) throw ShopAdminErrors.noRequestToken();
  const data = await post(ctx, '/oauth/access_token', { request_token: token, home_url: ctx.urls.home });
  if (typeof data.access_token !== 'string' || data.access_token === '') throw ShopAdminErrors.marketplaceConnect('The marketplace answered without an access token.');
  const helper = await ctx.options.get<Record<string, unknown>>(MARKETPLACE_AUTH_OPTION, {});
  await ctx.options.set(MARKETPLACE_AUTH_OPTION, {
    ...helper,
    auth: { access_token: data.access_token, access_token_secret: data.access_token_secret ?? '', site_id: data.site_id ?? 0, updated: Math.floor(ctx.now().getTime() / 1000) },
  });
  await ctx.options.delete('woocommerce_helper_request_token');
  return { success: true };
}
