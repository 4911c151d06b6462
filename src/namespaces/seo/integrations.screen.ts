/**
 * @module namespaces/seo/integrations.screen
 * `admin.php?page=wpseo_integrations`: the ranking-tool integrations, on or off and connected or
 * not. It is also where the second tool sends the browser back after authorization
 * (`?code=…&websiteId=…`): the screen offers to finish, and the POST exchanges the code.
 */
import { esc, notice } from '../../admin/html.js';
import type { AdminScreen } from '../../admin/screens.js';
import type { AppContext } from '../../app-context.js';
import { connectRanktoolB, ranktoolBClient } from './ranktools/ranktool-b.routes.js';
import { getSeoOption } from './store.js';

const connected = (tokens: unknown) => Boolean(tokens && typeof tokens === 'object' && typeof (tokens as { access_token?: unknown }).access_token === 'string');

async function statusRows(ctx: AppContext): Promise<string> {
  const rows: [string, string, string][] = [
    ['Keyphrase research (ranking tool A)', 'semrush_integration_active', 'semrush_tokens'],
    ['Rank tracking (ranking tool B)', 'wincher_integration_active', 'wincher_tokens'],
  ];
  const cells = await Promise.all(
    rows.map(async ([name, active, tokens]) => {
      const on = (await getSeoOption<boolean>(ctx, active)) === true;
      return `<tr><td>${esc(name)}</td><td>${on ? 'on' : 'off'}</td><td>${on && connected(await getSeoOption(ctx, tokens)) ? 'connected' : 'not connected'}</td></tr>`;
    }),
  );
  const country = String((await getSeoOption<unknown>(ctx, 'semrush_country_code')) ?? '');
  return `<table><thead><tr><th scope="col">Integration</th><th scope="col">State</th><th scope="col">Account</th></tr></thead><tbody>${cells.join('')}</tbody></table>
<p>Keyphrase research database (country): <code>${esc(country || 'us')}</code></p>`;
}

export const integrationsScreen: AdminScreen = {
  page: 'wpseo_integrations',
  title: 'Integrations',
  capability: 'wpseo_manage_options',
  async handle(ctx, request) {
    const code = request.form?.code ?? (typeof request.query.code === 'string' ? request.query.code : '');
    const websiteId = request.form?.websiteId ?? (typeof request.query.websiteId === 'string' ? request.query.websiteId : '');
    let flash = '';
    if (request.form) {
      const client = await ranktoolBClient(ctx);
      if (!client) flash = notice('error', 'Rank tracking is off or has no endpoint configured.');
      else if (!code || !/^\d+$/.test(websiteId)) flash = notice('error', 'The authorization code or the website is missing.');
      else {
        const outcome = await connectRanktoolB(ctx, client, code, websiteId);
        if ('error' in outcome) flash = notice('error', esc(outcome.error));
        else return { redirect: request.url({ connected: 'ranktool-b' }) };
      }
    } else if (request.query.connected === 'ranktool-b') {
      flash = notice('success', 'Rank tracking is connected.');
    }
    const finish = !request.form && code
      ? `<h2>Finish connecting rank tracking</h2>
<form method="post" action="${esc(request.url())}">${request.nonceField}
<input type="hidden" name="code" value="${esc(code)}"><input type="hidden" name="websiteId" value="${esc(websiteId)}">
<p><button type="submit">Connect</button></p></form>`
      : '';
    return { body: `${flash}${finish}${await statusRows(ctx)}` };
  },
};
