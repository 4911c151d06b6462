/**
 * @module namespaces/shop-admin/extensions.screen
 * `admin.php?page=eventsuite-extensions`: the store's marketplace connection, begun and finished in
 * the browser. "Connect" asks the marketplace for a request token and sends the owner to approve it;
 * the marketplace sends the browser back here with `marketplace-connect=finish`, where "Finish"
 * exchanges the approved token for the access token.
 */
import { esc, notice } from '../../admin/html.js';
import type { AdminScreen } from '../../admin/screens.js';
import { RestError } from '../../rest/errors.js';
import { EXTENSIONS_SCREEN, finishMarketplaceConnect, requestMarketplaceConnect } from './marketplace-connect.js';
import { MARKETPLACE_AUTH_OPTION } from './profile.service.js';

export const extensionsScreen: AdminScreen = {
  page: EXTENSIONS_SCREEN,
  title: 'Extensions',
  capability: 'install_plugins',
  async handle(ctx, request) {
    let flash = '';
    if (request.form) {
      try {
        if (request.form.do === 'connect') {
          const { connectAction } = (await requestMarketplaceConnect(ctx)) as { connectAction: string };
          return { redirect: connectAction };
        }
        if (request.form.do === 'finish') {
          await finishMarketplaceConnect(ctx, undefined);
          return { redirect: request.url({ connected: '1' }) };
        }
      } catch (e) {
        if (!(e instanceof RestError)) throw e;
        flash = notice('error', esc(e.message));
      }
    } else if (request.query.connected === '1') {
      flash = notice('success', 'The store is connected to the marketplace.');
    }
    const helper = await ctx.options.get<{ auth?: { access_token?: unknown; site_id?: unknown } }>(MARKETPLACE_AUTH_OPTION, {});
    const connected = typeof helper.auth?.access_token === 'string' && helper.auth.access_token !== '';
    const form = (action: string, label: string) => `<form method="post" action="${esc(request.url())}">${request.nonceField}<input type="hidden" name="do" value="${action}"><p><button type="submit">${label}</button></p></form>`;
    const returning = !request.form && request.query['marketplace-connect'] === 'finish';
    const endpoint = ctx.config.remotes.marketplace;
    const state = connected
      ? `<p>Connected to the marketplace${helper.auth?.site_id ? ` (site ${esc(helper.auth.site_id)})` : ''}.</p>`
      : `<p>Not connected to the marketplace${endpoint ? '' : ': no marketplace is configured (REMOTE_MARKETPLACE_URL)'}.</p>`;
    const action = returning ? `<h2>Finish connecting</h2><p>You approved the connection at the marketplace.</p>${form('finish', 'Finish connecting')}` : !connected && endpoint ? form('connect', 'Connect') : '';
    return { body: `${flash}${state}${action}` };
  },
};
