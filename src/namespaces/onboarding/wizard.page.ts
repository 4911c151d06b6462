/**
 * @module namespaces/onboarding/wizard.page
 * `wp-admin/tec-onboarding/`: the onboarding wizard for a signed-in administrator, one step per page
 * (welcome and opt-in, calendar settings, organizer, venue, tickets). Each step is a plain form; the
 * page sends it to `POST /calendar/v2/onboarding/wizard` (dispatched as the signed-in user, with the
 * `_tec_wizard` nonce the form carried) and shows the route's step notes. No script needed.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageHost } from '../../area.js';
import { esc, layout, redirect, requestParams, sendPage } from '../../admin/html.js';
import { createNonce } from '../../auth/index.js';
import { readSession } from '../../auth/session.js';
import { RestError } from '../../rest/errors.js';
import { parsePhpQuery } from '../../rest/php-query.js';
import { createRestRequest } from '../../rest/request.js';
import { valueOf } from '../../rest/serve.js';
import { CURRENCIES } from './currencies.js';
import { ONBOARDING_NS, WIZARD_NONCE_ACTION } from './wizard.routes.js';
import { VIEW_SLUGS, WIZARD_OPTION } from './wizard.service.js';

const STEPS = ['Welcome', 'Calendar settings', 'Organizer', 'Venue', 'Tickets', 'Finish'] as const;
/** The page's step → the route's `currentTab` (settings are tab 1, organizer/venue/tickets run at tab 5). */
const TAB_OF_STEP = [0, 1, 3, 4, 5, 5];

function field(label: string, name: string, value: unknown, type = 'text'): string {
  return `<p><label>${esc(label)}<br><input type="${type}" name="${esc(name)}" value="${esc(value ?? '')}"></label></p>`;
}

function stepForm(step: number, last: Record<string, any>, settings: { timezone: string; dateFormat: string; startOfWeek: number; views: string[] }): string {
  const org = last.organizer ?? {};
  const venue = last.venue ?? {};
  switch (step) {
    case 0:
      return `<p>Set up your calendar in a few steps.</p><p><label><input type="checkbox" name="optin" value="1"${last.optin ? ' checked' : ''}> Share anonymous usage data</label></p>`;
    case 1:
      return `<fieldset><legend>Views</legend>${VIEW_SLUGS.map((v) => `<label><input type="checkbox" name="tribeEnableViews[]" value="${v}"${settings.views.includes(v) ? ' checked' : ''}> ${v}</label>`).join(' ')}</fieldset>
<p><label>Currency<br><select name="currency">${Object.entries(CURRENCIES).map(([key, c]) => `<option value="${key}"${(last.currency ?? 'usd') === key ? ' selected' : ''}>${esc(`${c.name} (${c.symbol})`)}</option>`).join('')}</select></label></p>
${field('Date format', 'date_format', settings.dateFormat)}${field('Time zone', 'timezone_string', settings.timezone)}
<p><label>Week starts on<br><select name="start_of_week">${['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((d, i) => `<option value="${i}"${settings.startOfWeek === i ? ' selected' : ''}>${d}</option>`).join('')}</select></label></p>`;
    case 2:
      return `${field('Organizer name', 'organizer[name]', org.name)}${field('Phone', 'organizer[phone]', org.phone)}${field('Website', 'organizer[website]', org.website, 'url')}${field('Email', 'organizer[email]', org.email, 'email')}`;
    case 3:
      return `${field('Venue name', 'venue[name]', venue.name)}${field('Address', 'venue[address]', venue.address)}${field('City', 'venue[city]', venue.city)}${field('State or province', 'venue[state]', venue.state)}${field('Postal code', 'venue[zip]', venue.zip)}${field('Country', 'venue[country]', venue.country)}${field('Phone', 'venue[phone]', venue.phone)}${field('Website', 'venue[website]', venue.website, 'url')}`;
    case 4:
      return `<p><label><input type="checkbox" name="eventTickets" value="1"> Sell tickets and collect RSVPs (switches on ticketing)</label></p>`;
    default:
      return '<p>Your calendar is set up.</p>';
  }
}

/** The form's fields as the route's JSON body. */
function bodyOf(form: Record<string, unknown>, step: number, state: Record<string, any>): Record<string, unknown> {
  const completed = [...new Set([...(state.completed_tabs ?? []), ...(step > 0 ? [TAB_OF_STEP[step - 1]] : [])])];
  const body: Record<string, unknown> = { begun: true, currentTab: TAB_OF_STEP[step], completedTabs: completed, skippedTabs: [] };
  if (step === 0) body.optin = form.optin === '1';
  if (step === 1) {
    const views = form.tribeEnableViews;
    Object.assign(body, { tribeEnableViews: Array.isArray(views) ? views : views ? [views] : [], currency: form.currency, date_format: form.date_format, timezone_string: form.timezone_string, start_of_week: form.start_of_week });
  }
  if (step === 2) body.organizer = form.organizer;
  if (step === 3) body.venue = form.venue;
  if (step === 4) Object.assign(body, { finished: true, eventTickets: form.eventTickets === '1', organizer: state.last_send?.organizer, venue: state.last_send?.venue });
  return body;
}

async function wizardPage(host: PageHost, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { ctx } = host;
  const session = await readSession(ctx, request.headers.cookie);
  if (!session) return redirect(reply, `${ctx.urls.admin}wp-login.php?redirect_to=${encodeURIComponent(`${ctx.urls.admin}tec-onboarding/`)}&reauth=1`);
  const subject = { user: session.user, auth: { method: 'cookie' as const, sessionToken: session.token } };
  const site = String(await ctx.options.get('blogname'));
  if (!session.user.can('manage_options')) return sendPage(reply, 403, layout('Onboarding', site, '<p>Sorry, you are not allowed to access this page.</p>'));
  const { query } = requestParams(request);
  // PHP-style form fields (`venue[name]`, `tribeEnableViews[]`).
  const all = { ...query, ...(request.method === 'POST' && typeof request.body === 'string' ? parsePhpQuery(request.body) : {}) } as Record<string, any>;
  let step = Math.min(5, Math.max(0, Number(query.step) || 0));
  let notes = '';
  if (request.method === 'POST') {
    const state = (await ctx.options.get<Record<string, any>>(WIZARD_OPTION, {})) ?? {};
    const res = await host.dispatcher.dispatch(createRestRequest({
      method: 'POST', route: `/${ONBOARDING_NS}/wizard`, json: { action_nonce: all.action_nonce, ...bodyOf(all, step, state) },
      headers: { 'content-type': 'application/json' }, user: session.user, auth: subject.auth, ip: request.ip,
    }));
    const data = valueOf(res.data) as { message?: string[]; code?: string };
    if (res.data instanceof RestError) notes = `<div class="notice notice-error"><p>${esc(res.data.message)}</p></div>`;
    else {
      notes = `<div class="notice notice-${res.status === 200 ? 'success' : 'error'}"><ul>${(data.message ?? []).map((m) => `<li>${esc(m)}</li>`).join('')}</ul></div>`;
      if (res.status === 200) step = Math.min(5, step + 1);
    }
  }
  const state = (await ctx.options.get<Record<string, any>>(WIZARD_OPTION, {})) ?? {};
  const views = await ctx.options.get<unknown>('tribeEnableViews');
  const settings = {
    timezone: String(await ctx.options.get('timezone_string')), dateFormat: String(await ctx.options.get('date_format')),
    startOfWeek: Number(await ctx.options.get('start_of_week')), views: Array.isArray(views) ? views.map(String) : VIEW_SLUGS,
  };
  const nav = `<ol class="wizard-steps">${STEPS.map((s, i) => `<li${i === step ? ' aria-current="step"' : ''}>${i === step ? `<strong>${esc(s)}</strong>` : esc(s)}</li>`).join('')}</ol>`;
  const form = step < 5
    ? `<form method="post" action="${esc(`${ctx.urls.admin}tec-onboarding/?step=${step}`)}"><input type="hidden" name="action_nonce" value="${esc(await createNonce(ctx, subject, WIZARD_NONCE_ACTION))}">
${stepForm(step, state.last_send ?? {}, settings)}<p><button type="submit">${step === 4 ? 'Finish' : 'Continue'}</button> ${step < 4 ? `<a href="${esc(`${ctx.urls.admin}tec-onboarding/?step=${step + 1}`)}">Skip this step</a>` : ''}</p></form>`
    : `${stepForm(5, {}, settings)}<p><a href="${esc(ctx.urls.home)}/events/">View your calendar</a></p>`;
  return sendPage(reply, 200, layout(`Calendar setup: ${STEPS[step]}`, site, `${nav}${notes}${form}`));
}

export function registerWizardPage(app: FastifyInstance, host: PageHost): void {
  const handler = (request: FastifyRequest, reply: FastifyReply) => wizardPage(host, request, reply);
  app.get('/wp-admin/tec-onboarding/', handler);
  app.post('/wp-admin/tec-onboarding/', handler);
}
