/**
 * @module namespaces/onboarding/wizard.page
 * `wp-admin/tec-onboarding/`: the onboarding wizard for a signed-in administrator, the original's six
 * tabs one per page: Welcome (usage-data opt-in), Display (calendar views), Settings (currency, time
 * zone, date format, week start), Organizer, Venue, Tickets. Each tab is a plain form that the page
 * sends as the original's React wizard sends it to `POST /calendar/v2/onboarding/wizard` (dispatched as
 * the signed-in user, with the `_tec_wizard` nonce the form carried): the settings the wizard started
 * from with the tab's answers on top, `currentTab`, and the tabs completed and skipped. "Continue"
 * completes a tab, "Skip step" skips it, "Skip guided setup" finishes without any step. The first
 * organizer and venue are created at the Tickets tab, as there; an existing one is shown, not doubled.
 * No script needed: the browser's own form checks stand in for the original's disabled buttons.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageHost } from '../../area.js';
import { esc, layout, redirect, requestParams, sendPage } from '../../admin/html.js';
import { createNonce } from '../../auth/index.js';
import { readSession } from '../../auth/session.js';
import { RestError } from '../../rest/errors.js';
import { phpTruthy } from '../../rest/php-builtins.js';
import { absint, parsePhpQuery } from '../../rest/php-query.js';
import { createRestRequest } from '../../rest/request.js';
import type { AuthInfo, RestUser } from '../../rest/route.js';
import { valueOf } from '../../rest/serve.js';
import { COUNTRIES, countryKeyOf } from './countries.js';
import { CURRENCIES, currencyKeyOf } from './currencies.js';
import { ONBOARDING_NS, WIZARD_NONCE_ACTION } from './wizard.routes.js';
import { TABS, VIEW_SLUGS, WIZARD_OPTION } from './wizard.service.js';

const TAB_TITLES = ['Welcome', 'Display', 'Settings', 'Organizer', 'Venue', 'Tickets'] as const;
const LAST_TAB = TABS.tickets;
const DATE_FORMATS: ReadonlyArray<readonly [format: string, example: string]> = [
  ['F j, Y', 'October 29, 2024'], ['j F, Y', '29 October, 2024'], ['m/d/Y', '10/29/2024'], ['d/m/Y', '29/10/2024'], ['Y-m-d', '2024-10-29'],
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** The original's phone check of the organizer and venue tabs (digits in up to five groups). */
const PHONE_PATTERN = String.raw`\+?\d{1,3}[\s\.\-]?\(?\d{1,4}\)?[\s\.\-]?\d{1,4}[\s\.\-]?\d{1,4}[\s\.\-]?\d{1,4}`;
/** The regions the original's time zone list keeps (no bare `UTC`, no `Etc/…` offsets). */
const ZONE_REGIONS = ['Africa', 'America', 'Antarctica', 'Arctic', 'Asia', 'Atlantic', 'Australia', 'Europe', 'Indian', 'Pacific'];

type Fields = Record<string, unknown>;

interface Caller {
  user: RestUser;
  auth: AuthInfo;
  ip: string;
}

/** What the wizard starts from (the original's `Landing_Page::get_initial_data`). */
interface Boot {
  state: Fields;
  settings: Fields;
  /** The first organizer and venue already there (with `organizerId` / `venueId`), else `{}`. */
  organizer: Fields;
  venue: Fields;
  ticketsOn: boolean;
}

let zoneGroups: Array<[string, Array<[string, string]>]> | undefined;
/** Time zones by region, labelled by city (`America/Argentina/Salta` → `Argentina - Salta`). */
function timeZoneGroups(): Array<[string, Array<[string, string]>]> {
  if (zoneGroups) return zoneGroups;
  const groups = new Map<string, Array<[string, string]>>(ZONE_REGIONS.map((r) => [r, []]));
  for (const zone of Intl.supportedValuesOf('timeZone')) {
    const [region, ...rest] = zone.split('/');
    if (rest.length === 0) continue;
    groups.get(region!)?.push([zone, rest.map((p) => p.replaceAll('_', ' ')).join(' - ')]);
  }
  zoneGroups = [...groups].filter(([, zones]) => zones.length > 0);
  return zoneGroups;
}

const ints = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter(Number.isInteger) : []);
const unique = (a: number[]) => [...new Set(a)];
const record = (v: unknown): Fields => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});
const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
/** Titles come back from the REST route HTML-escaped (a reference to no character stays as written). */
const unescapeHtml = (s: string) => s.replace(/&#(\d+);|&#x([0-9a-f]+);|&(amp|lt|gt|quot);/gi, (whole, dec, hex, named) => {
  if (named) return ({ amp: '&', lt: '<', gt: '>', quot: '"' } as Record<string, string>)[named.toLowerCase()]!;
  const code = dec ? Number(dec) : parseInt(hex, 16);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
});

async function restGet(host: PageHost, caller: Caller, route: string): Promise<Fields> {
  const res = await host.dispatcher.dispatch(createRestRequest({ method: 'GET', route, query: { per_page: 1 }, ...caller }));
  return res.data instanceof RestError ? {} : record(valueOf(res.data));
}

async function bootData(host: PageHost, caller: Caller): Promise<Boot> {
  const { ctx } = host;
  const state = record(await ctx.options.get(WIZARD_OPTION, {}));
  const [organizer] = (await restGet(host, caller, '/eventsuite/events/v1/organizers')).organizers as Fields[] | undefined ?? [];
  const [venue] = (await restGet(host, caller, '/eventsuite/events/v1/venues')).venues as Fields[] | undefined ?? [];
  return {
    state,
    settings: {
      tribeEnableViews: await ctx.options.get('tribeEnableViews', ['list']),
      currency: currencyKeyOf(await ctx.options.get('defaultCurrencyCode', 'USD')),
      date_format: await ctx.options.get('date_format', 'F j, Y'),
      optin: (await ctx.options.get('opt-in-status', null)) === true,
      timezone_string: await ctx.options.get('timezone_string', ''),
      start_of_week: await ctx.options.get('start_of_week', 1),
    },
    organizer: organizer ? { organizerId: organizer.id, name: unescapeHtml(text(organizer.organizer)), email: text(organizer.email), phone: text(organizer.phone), website: text(organizer.website) } : {},
    venue: venue ? {
      venueId: venue.id, name: unescapeHtml(text(venue.venue)), address: text(venue.address), city: text(venue.city), country: countryKeyOf(venue.country) ?? '',
      phone: text(venue.phone), state: text(venue.state || venue.stateprovince), website: text(venue.website), zip: text(venue.zip),
    } : {},
    ticketsOn: ctx.areas.isEnabled('tickets'),
  };
}

/**
 * The organizer or venue the wizard carries to the Tickets tab: the existing one (never edited here),
 * else what the Organizer / Venue tab sent (kept in the stored last request).
 */
function carried(boot: Boot, kind: 'organizer' | 'venue'): Fields {
  return phpTruthy(boot[kind]) ? boot[kind] : record(record(boot.state.last_send)[kind]);
}

/** A tab's answers as the original's tab posts them. */
function answers(tab: number, form: Fields, boot: Boot): Fields {
  switch (tab) {
    case TABS.welcome:
      // Someone who opted in already is not asked again.
      return { begun: true, optin: boot.settings.optin === true || form.optin === '1' };
    case TABS.display:
      return { tribeEnableViews: Array.isArray(form.tribeEnableViews) ? form.tribeEnableViews.map(String) : [] };
    case TABS.settings:
      return { currency: text(form.currency), timezone_string: text(form.timezone_string), date_format: text(form.date_format), start_of_week: text(form.start_of_week) };
    case TABS.organizer: {
      if (phpTruthy(boot.organizer)) return { organizer: boot.organizer };
      const o = record(form.organizer);
      return { organizer: { organizerId: false, name: text(o.name), phone: text(o.phone), website: text(o.website), email: text(o.email) } };
    }
    case TABS.venue: {
      if (phpTruthy(boot.venue)) return { venue: boot.venue };
      const v = record(form.venue);
      return { venue: { venueId: false, ...Object.fromEntries(['name', 'address', 'city', 'state', 'zip', 'country', 'phone', 'website'].map((k) => [k, text(v[k])])) } };
    }
    default:
      // With ticketing on, the original shows no checkbox and still sends its default (yes).
      return { eventTickets: boot.ticketsOn || form.eventTickets === '1' };
  }
}

/** The route's body for a tab's button, as the original wizard builds it. */
function wizardBody(tab: number, action: string, form: Fields, boot: Boot): Fields {
  if (action === 'exit') return { finished: true, begun: false };
  const completed = ints(boot.state.completed_tabs);
  const skipped = ints(boot.state.skipped_tabs);
  const base: Fields = {
    ...boot.settings, begun: boot.state.begun === true, finished: tab === LAST_TAB || boot.state.finished === true,
    organizer: carried(boot, 'organizer'), venue: carried(boot, 'venue'),
  };
  if (action === 'skip') {
    // CASE: the original's Skip resends the previous tab as `currentTab`, so skipping Tickets never
    // creates the organizer and venue entered before; here the skipped tab is sent (Tickets: no ticketing).
    return {
      ...base, currentTab: tab, completedTabs: completed, skippedTabs: completed.includes(tab) ? skipped : unique([...skipped, tab]),
      ...(tab === LAST_TAB ? { eventTickets: false } : {}),
    };
  }
  return { ...base, ...answers(tab, form, boot), currentTab: tab, completedTabs: unique([...completed, tab]), skippedTabs: skipped.filter((t) => t !== tab) };
}

/** Where the wizard reopens: the stored tab, or the one after it once that was completed or skipped. */
function resumeTab(state: Fields): number {
  const current = Math.min(LAST_TAB, absint(state.current_tab));
  const done = ints(state.completed_tabs).includes(current) || ints(state.skipped_tabs).includes(current);
  return done ? Math.min(LAST_TAB, current + 1) : current;
}

function input(label: string, name: string, value: unknown, opts: { type?: string; required?: boolean; disabled?: boolean; pattern?: string; id?: string } = {}): string {
  const id = opts.id ?? name.replace(/\W+/g, '-').replace(/-$/, '');
  const attrs = `${opts.required ? ' required' : ''}${opts.disabled ? ' disabled' : ''}${opts.pattern ? ` pattern="${esc(opts.pattern)}"` : ''}`;
  return `<p><label for="${esc(id)}">${esc(label)}</label><input type="${opts.type ?? 'text'}" id="${esc(id)}" name="${esc(name)}" value="${esc(value ?? '')}"${attrs}></p>`;
}

function select(label: string, name: string, optionsHtml: string, opts: { required?: boolean; disabled?: boolean } = {}): string {
  return `<p><label for="${esc(name)}">${esc(label)}</label><select id="${esc(name)}" name="${esc(name)}"${opts.required ? ' required' : ''}${opts.disabled ? ' disabled' : ''}>${optionsHtml}</select></p>`;
}

const option = (value: string, label: string, selected: boolean) => `<option value="${esc(value)}"${selected ? ' selected' : ''}>${esc(label)}</option>`;

function settingsForm(s: Fields): string {
  const zone = text(s.timezone_string);
  const groups = timeZoneGroups();
  const listed = groups.some(([, zones]) => zones.some(([z]) => z === zone));
  // A stored region zone the list names differently (`Asia/Kolkata`, listed as `Asia/Calcutta`) stays selectable.
  const extra = !listed && zone.includes('/') && !zone.startsWith('Etc/');
  const zones = option('', 'Select a non-UTC time zone.', !listed && !extra) + (extra ? option(zone, zone, true) : '')
    + groups.map(([region, list]) => `<optgroup label="${esc(region)}">${list.map(([z, label]) => option(z, label, z === zone)).join('')}</optgroup>`).join('');
  const format = text(s.date_format) || 'F j, Y';
  const formats = [...DATE_FORMATS, ...(DATE_FORMATS.some(([f]) => f === format) ? [] : [[format, format] as const])];
  return select('Currency symbol', 'currency', Object.entries(CURRENCIES).map(([key, c]) => option(key, `${c.symbol} (${c.name})`, key === s.currency)).join(''), { required: true })
    + select('Time zone', 'timezone_string', zones, { required: true })
    + `<p class="description">${zone === '' || /^UTC/.test(zone) ? 'Please select your time zone: UTC offsets are not supported.' : 'Please ensure your time zone is correct.'}</p>`
    + select('Date format', 'date_format', formats.map(([f, example]) => option(f, example, f === format)).join(''), { required: true })
    + select('Your week starts on', 'start_of_week', WEEKDAYS.map((d, i) => option(String(i), d, absint(s.start_of_week) === i)).join(''), { required: true });
}

/** A tab's form; `posted` is the form sent back after an answer the page or the route refused. */
function tabForm(tab: number, boot: Boot, posted: Fields | undefined): string {
  switch (tab) {
    case TABS.welcome:
      return `<p>Let’s tailor your calendar: a few questions, each one skippable.</p>${boot.settings.optin === true ? ''
        : `<p><input type="checkbox" id="optin" name="optin" value="1"${posted?.optin === '1' ? ' checked' : ''}><label for="optin">Yes, I’d like to share basic information about how I use the calendar.</label></p>`}`;
    case TABS.display: {
      const views = posted ? posted.tribeEnableViews : boot.settings.tribeEnableViews;
      const chosen = Array.isArray(views) ? views.map(String) : [];
      return `<fieldset><legend>How do you want people to view your calendar? Choose one or more.</legend>${VIEW_SLUGS.map((v) =>
        `<p><input type="checkbox" id="view-${v}" name="tribeEnableViews[]" value="${v}"${chosen.includes(v) ? ' checked' : ''}><label for="view-${v}">${esc(v[0]!.toUpperCase() + v.slice(1))}</label></p>`).join('')}</fieldset>`;
    }
    case TABS.settings:
      return settingsForm(boot.settings);
    case TABS.organizer: {
      const existing = phpTruthy(boot.organizer);
      const o = existing ? boot.organizer : record(record(boot.state.last_send).organizer);
      return `<p>${existing ? 'Looks like you have already created your first organizer. Well done!' : 'Add an event organizer for your events: you can show it to your attendees.'}</p>`
        + input('Organizer name', 'organizer[name]', o.name, { required: true, disabled: existing })
        + input('Phone', 'organizer[phone]', o.phone, { type: 'tel', pattern: PHONE_PATTERN, disabled: existing })
        + input('Website', 'organizer[website]', o.website, { type: 'url', pattern: 'https?://.+', disabled: existing })
        + input('Email', 'organizer[email]', o.email, { type: 'email', disabled: existing });
    }
    case TABS.venue: {
      const existing = phpTruthy(boot.venue);
      const v = existing ? boot.venue : record(record(boot.state.last_send).venue);
      const country = text(v.country) || 'US';
      return `<p>${existing ? 'Looks like you have already created your first venue. Well done!' : 'Show your attendees where your events take place.'}</p>`
        + input('Venue name', 'venue[name]', v.name, { required: true, disabled: existing })
        + input('Address', 'venue[address]', v.address, { disabled: existing })
        + input('City', 'venue[city]', v.city, { disabled: existing })
        + input('State or province', 'venue[state]', v.state, { disabled: existing })
        + input('Zip / postal code', 'venue[zip]', v.zip, { disabled: existing })
        + select('Country', 'venue[country]', COUNTRIES.map(([region, list]) => `<optgroup label="${esc(region)}">${Object.entries(list).map(([k, name]) => option(k, name, k === country)).join('')}</optgroup>`).join(''), { disabled: existing })
        + input('Phone', 'venue[phone]', v.phone, { type: 'tel', pattern: PHONE_PATTERN, disabled: existing })
        + input('Website', 'venue[website]', v.website, { type: 'url', pattern: 'https?://.+', disabled: existing });
    }
    default:
      return `<p>Will you be selling tickets or letting attendees RSVP to your events?</p>${boot.ticketsOn ? '<p>Ticketing is already switched on.</p>'
        : '<p><input type="checkbox" id="eventTickets" name="eventTickets" value="1" checked><label for="eventTickets">Yes, switch on tickets and RSVPs for my events.</label></p>'}`;
  }
}

function buttons(tab: number): string {
  const next = `<button type="submit" name="wizard_action" value="continue">${tab === TABS.welcome ? 'Set up my calendar' : 'Continue'}</button>`;
  const other = tab === TABS.welcome
    ? '<button type="submit" name="wizard_action" value="exit" class="secondary" formnovalidate>Skip guided setup</button>'
    : '<button type="submit" name="wizard_action" value="skip" class="secondary" formnovalidate>Skip step</button>';
  return `<p>${next} ${other}</p>`;
}

function nav(tab: number | undefined, state: Fields, admin: string): string {
  const completed = ints(state.completed_tabs);
  const skipped = ints(state.skipped_tabs);
  return `<ol class="wizard-steps">${TAB_TITLES.map((title, i) => {
    const mark = completed.includes(i) ? ' (done)' : skipped.includes(i) ? ' (skipped)' : '';
    return i === tab ? `<li aria-current="step"><strong>${esc(title)}</strong>${mark}</li>` : `<li><a href="${esc(`${admin}tec-onboarding/?step=${i}`)}">${esc(title)}</a>${mark}</li>`;
  }).join('')}</ol>`;
}

async function wizardPage(host: PageHost, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { ctx } = host;
  const session = await readSession(ctx, request.headers.cookie);
  if (!session) return redirect(reply, `${ctx.urls.admin}wp-login.php?redirect_to=${encodeURIComponent(`${ctx.urls.admin}tec-onboarding/`)}&reauth=1`);
  const caller: Caller = { user: session.user, auth: { method: 'cookie', sessionToken: session.token }, ip: request.ip };
  const site = String(await ctx.options.get('blogname'));
  if (!session.user.can('manage_options')) return sendPage(reply, 403, layout('Onboarding', site, '<p>Sorry, you are not allowed to access this page.</p>'));
  const { query } = requestParams(request);
  // PHP-style form fields (`venue[name]`, `tribeEnableViews[]`).
  const form: Fields = request.method === 'POST' && typeof request.body === 'string' ? parsePhpQuery(request.body) : {};
  let boot = await bootData(host, caller);
  let tab: number | undefined = query.step === undefined ? (boot.state.finished === true ? undefined : resumeTab(boot.state)) : Math.min(LAST_TAB, absint(query.step));
  let notes = '';
  if (request.method === 'POST' && tab !== undefined) {
    const action = ['continue', 'skip', 'exit'].includes(text(form.wizard_action)) ? text(form.wizard_action) : 'continue';
    const views = answers(TABS.display, form, boot).tribeEnableViews as string[];
    if (tab === TABS.display && action === 'continue' && views.length === 0) {
      notes = '<div class="notice notice-error" role="alert"><p>Please select at least one view to continue.</p></div>';
    } else {
      const res = await host.dispatcher.dispatch(createRestRequest({
        method: 'POST', route: `/${ONBOARDING_NS}/wizard`, json: { action_nonce: form.action_nonce, ...wizardBody(tab, action, form, boot) },
        headers: { 'content-type': 'application/json' }, ...caller,
      }));
      const data = valueOf(res.data) as { message?: string[] };
      if (res.data instanceof RestError) notes = `<div class="notice notice-error" role="alert"><p>${esc(res.data.message)}</p></div>`;
      else {
        notes = `<div class="notice notice-${res.status === 200 ? 'success' : 'error'}" role="${res.status === 200 ? 'status' : 'alert'}"><ul>${(data.message ?? []).map((m) => `<li>${esc(m)}</li>`).join('')}</ul></div>`;
        if (res.status === 200) tab = action === 'exit' || tab === LAST_TAB ? undefined : tab + 1;
      }
      boot = await bootData(host, caller);
    }
  }
  if (tab === undefined) {
    const done = `<p>Your calendar is set up.</p><p><a href="${esc(ctx.urls.home)}/events/">View your calendar</a> · <a href="${esc(`${ctx.urls.admin}tec-onboarding/?step=0`)}">Go through the setup again</a></p>`;
    return sendPage(reply, 200, layout('Calendar setup: Finished', site, `${nav(undefined, boot.state, ctx.urls.admin)}${notes}${done}`));
  }
  const body = `<form method="post" action="${esc(`${ctx.urls.admin}tec-onboarding/?step=${tab}`)}"><input type="hidden" name="action_nonce" value="${esc(await createNonce(ctx, caller, WIZARD_NONCE_ACTION))}">
${tabForm(tab, boot, request.method === 'POST' && notes.includes('notice-error') ? form : undefined)}${buttons(tab)}</form>`;
  return sendPage(reply, 200, layout(`Calendar setup: ${TAB_TITLES[tab]}`, site, `${nav(tab, boot.state, ctx.urls.admin)}${notes}${body}`));
}

export function registerWizardPage(app: FastifyInstance, host: PageHost): void {
  const handler = (request: FastifyRequest, reply: FastifyReply) => wizardPage(host, request, reply);
  app.get('/wp-admin/tec-onboarding/', handler);
  app.post('/wp-admin/tec-onboarding/', handler);
}
