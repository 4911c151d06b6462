/**
 * @module namespaces/onboarding/wizard.service
 * The onboarding wizard (the original's `Onboarding\API` and its steps): the stored wizard state, then
 * the step handlers whose tab the client has reached — opt-in (tab 0), settings (tab 1: currency, date
 * format, time zone, week start, enabled views), organizer, venue and tickets (tab 5). A step runs only
 * when the request names a `currentTab` (the "Skip guided setup" request names none and only stores the
 * state). Each step adds a note to `message`; a failing step makes the answer an error status (the
 * body still says `success: true`) and the later steps do not run.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AppContext } from '../../app-context.js';
import { esc, notice } from '../../admin/html.js';
import type { DashboardNotice } from '../../admin/screens.js';
import { isValidTimeZone } from '../../content/posts.js';
import { phpTruthy } from '../../rest/php-builtins.js';
import { absint } from '../../rest/php-query.js';
import { countryByKey } from './countries.js';
import { currencyByKey } from './currencies.js';

export const WIZARD_OPTION = 'tec_onboarding_wizard_data';
export const VIEW_SLUGS = ['list', 'month', 'day'];
/** The wizard's tabs, by the number the client posts as `currentTab`. */
export const TABS = { welcome: 0, display: 1, settings: 2, organizer: 3, venue: 4, tickets: 5 } as const;

export interface WizardAnswer {
  status: number;
  body: { success: true; message: string[]; organizer_id?: number; venue_id?: number };
}

/** Creates a venue or organizer through the events REST route (its validation and capability checks). */
export type LinkedCreator = (kind: 'venues' | 'organizers', fields: Record<string, unknown>) => Promise<{ id: number } | { error: string; status: number }>;

/**
 * A failed step's HTTP status. CASE: the original answers every failed step with 500 (add_fail_message);
 * a step that fails on the request's own values (a time zone that is none, a week start out of range,
 * an organizer or venue with nothing to create) answers 400 here, with the same body.
 */
type Failure = 400 | 500 | undefined;

const record = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const ints = (v: unknown): number[] => (Array.isArray(v) ? v : []).map((x) => Number(x)).filter((n) => Number.isInteger(n));
const unique = (a: number[]) => [...new Set(a)];
const truthy = phpTruthy;
const empty = (v: unknown): boolean => !phpTruthy(v);

/** Stores the wizard state (the original's `set_tab_records`). */
async function storeState(ctx: AppContext, params: Record<string, unknown>, messages: string[]): Promise<void> {
  let begun = truthy(params.begun);
  const finished = truthy(params.finished);
  const sentComplete = ints(params.completedTabs);
  let skipped = ints(params.skippedTabs).filter((t) => !sentComplete.includes(t));
  const current = Number.isInteger(Number(params.currentTab)) ? Number(params.currentTab) : 0;
  let complete = [...sentComplete];
  if (begun) complete.push(0);
  if (!skipped.includes(current)) complete.push(current);
  if (finished) begun = true;
  complete = unique(complete);
  skipped = unique(skipped);
  const previous = record(await ctx.options.get(WIZARD_OPTION, {}));
  const lastSend = { ...params };
  for (const k of ['timezones', 'countries', 'currencies', 'action_nonce', '_wpnonce']) delete lastSend[k];
  const next = {
    ...previous, begun, finished, current_tab: current, completed_tabs: complete, skipped_tabs: skipped,
    last_send: { ...record(previous.last_send), ...lastSend },
  };
  // As WordPress's update_option, storing what is already stored counts as not updated; the original
  // still answers success (the state is not required for the user).
  if (isDeepStrictEqual(JSON.parse(JSON.stringify(next)), previous)) {
    messages.push('Failed to update wizard settings.');
    return;
  }
  await ctx.options.set(WIZARD_OPTION, next);
  messages.push('Onboarding wizard step completed successfully.');
}

async function optIn(ctx: AppContext, params: Record<string, unknown>, messages: string[]): Promise<void> {
  const optin = truthy(params.optin);
  if ((await ctx.options.get('opt-in-status', null)) === optin) {
    messages.push('Opt-in status is already set to the requested value.');
    return;
  }
  await ctx.options.set('opt-in-status', optin);
  messages.push('Successfully saved opt-in status.');
}

async function settings(ctx: AppContext, params: Record<string, unknown>, messages: string[]): Promise<Failure> {
  let views = Array.isArray(params.tribeEnableViews) ? params.tribeEnableViews.filter((v) => v !== 'all').map(String) : false;
  if (views) views = views.filter((v) => VIEW_SLUGS.includes(v));
  const currency = currencyByKey(params.currency);
  const tz = typeof params.timezone_string === 'string' ? params.timezone_string : false;
  const sow = params.start_of_week;
  const values: Record<string, unknown> = {
    defaultCurrencyCode: currency?.code ?? '', defaultCurrencySymbol: currency?.symbol ?? '', date_format: params.date_format ?? false,
    timezone_string: tz, start_of_week: sow ?? false, tribeEnableViews: views && views.length > 0 ? views : false,
  };
  for (const [key, value] of Object.entries(values)) {
    // CASE: the original uses PHP empty(), so a week start of "0" (Sunday) is "not attempted"; Sunday
    // is still stored here, because skipping it would make Sunday impossible to choose.
    if (empty(value) && !(key === 'start_of_week' && (value === 0 || value === '0'))) {
      messages.push(`Did not attempt saving option ${key}.`);
      continue;
    }
    const core = ['start_of_week', 'timezone_string', 'date_format'].includes(key);
    // WordPress keeps a time zone name only; an offset (`UTC+5`) is no `timezone_string`.
    const invalid = (key === 'timezone_string' && (typeof value !== 'string' || !isValidTimeZone(value) || /^(?:utc|gmt)?\s*[+-]\d/i.test(value)))
      || (key === 'start_of_week' && !/^[0-6]$/.test(String(value)))
      || (key === 'date_format' && (typeof value !== 'string' || value.length > 100));
    if (invalid) {
      messages.push(`Failed to save ${core ? 'option' : 'setting'} ${key}.`);
      return 400;
    }
    const stored = key === 'start_of_week' ? Number(value) : value;
    if (JSON.stringify(await ctx.options.get(key, null)) === JSON.stringify(stored)) {
      messages.push(`The ${key} ${core ? 'option' : 'setting'} is already set to the requested value.`);
      continue;
    }
    await ctx.options.set(key, stored);
    messages.push(`Successfully saved ${core ? 'option' : 'setting'} ${key}.`);
  }
  // New tickets are priced in the chosen currency.
  if (currency) await ctx.options.set('ticket-commerce-currency-code', currency.code);
  messages.push('Successfully saved settings.');
  return undefined;
}

/**
 * What the original's `Tribe__Events__API::createOrganizer` / `createVenue` need to create anything:
 * a name or one of the linked post's data fields (a venue's country and website are not among them).
 */
const DATA_FIELDS = { organizer: ['name', 'phone', 'email', 'website'], venue: ['name', 'address', 'city', 'state', 'zip', 'phone'] } as const;

async function linked(kind: 'organizer' | 'venue', params: Record<string, unknown>, create: LinkedCreator, messages: string[], body: WizardAnswer['body']): Promise<Failure> {
  const Label = kind === 'organizer' ? 'Organizer' : 'Venue';
  if (empty(params[kind])) {
    messages.push(`No ${kind} to save. Step skipped`);
    return undefined;
  }
  const data = record(params[kind]);
  if (!empty(data[kind === 'organizer' ? 'organizerId' : 'venueId'])) {
    messages.push(`Existing ${kind}. Step skipped.`);
    return undefined;
  }
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  const hasData = DATA_FIELDS[kind].some((k) => truthy(data[k]));
  // Data without a name makes an "Unnamed" one, as the original's create does.
  const name = str(data.name) || `Unnamed ${Label}`;
  const out = !hasData
    ? { error: 'nothing to create', status: 400 }
    : await create(kind === 'organizer' ? 'organizers' : 'venues', kind === 'organizer'
      ? { organizer: name, phone: str(data.phone), website: str(data.website), email: str(data.email), status: 'publish' }
      : {
          venue: name, address: str(data.address), city: str(data.city), state: str(data.state), province: str(data.state), stateprovince: str(data.state),
          // The wizard posts the country's key; the venue keeps the country's name (none for an unknown key).
          zip: str(data.zip), country: countryByKey(data.country) ?? '', phone: str(data.phone), website: str(data.website), status: 'publish',
        });
  if ('error' in out) {
    messages.push(`Failed to create ${kind}.`);
    return out.status < 500 ? 400 : 500;
  }
  body[kind === 'organizer' ? 'organizer_id' : 'venue_id'] = out.id;
  messages.push(`${Label} created.`);
  return undefined;
}

/** Runs the wizard for one request's params. `enableTickets` switches the tickets area on. */
export async function runWizard(ctx: AppContext, params: Record<string, unknown>, deps: { create: LinkedCreator; enableTickets(): Promise<boolean>; ticketsOn(): boolean }): Promise<WizardAnswer> {
  const messages: string[] = [];
  const body: WizardAnswer['body'] = { success: true, message: messages };
  let failure: Failure;
  await storeState(ctx, params, messages);
  // The steps' tab check: `currentTab` must be sent (PHP isset) and is read with absint.
  const tab = params.currentTab === undefined || params.currentTab === null ? -1 : absint(params.currentTab);
  if (tab >= TABS.welcome) await optIn(ctx, params, messages);
  if (!failure && tab >= TABS.display) failure = await settings(ctx, params, messages);
  if (!failure && tab >= TABS.tickets) failure = await linked('organizer', params, deps.create, messages, body);
  if (!failure && tab >= TABS.tickets) failure = await linked('venue', params, deps.create, messages, body);
  if (!failure && tab >= TABS.tickets) {
    if (!truthy(params.eventTickets)) messages.push('Event Tickets install not requested.');
    else if (deps.ticketsOn()) messages.push('Event Tickets plugin already installed and activated.');
    else if (await deps.enableTickets()) messages.push('Event Tickets plugin installed and activated.');
    else {
      messages.push('Failed to activate plugin.');
      failure = 500;
    }
  }
  return { status: failure ?? 200, body };
}

/** Until the wizard is finished, the dashboard sends administrators to it (the original redirects them there). */
export const unfinishedSetupNotice: DashboardNotice = async (ctx, user) => {
  if (!user.can('manage_options')) return '';
  const state = await ctx.options.get<{ finished?: unknown } | null>(WIZARD_OPTION, {});
  if (state && typeof state === 'object' && truthy(state.finished)) return '';
  return notice('info', `The calendar is not set up yet: <a href="${esc(`${ctx.urls.admin}tec-onboarding/`)}">set up the calendar</a> (time zone, currency, your first organizer and venue).`);
};
