import { switchArea } from '../../area-state.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNonce } from '../../auth/index.js';
import { signInForTest } from '../../auth/test-sessions.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { addTicket } from '../tickets/fixtures.case.js';
import { WIZARD_OPTION } from './wizard.service.js';

const ROUTE = '/calendar/v2/onboarding/wizard';

describe.each(DIALECTS)('onboarding wizard on %s', (engine) => {
  let t: TestApp;
  let nonce = '';
  const wizard = (json: Record<string, unknown>) => t.request('POST', ROUTE, { as: t.admin, json: { action_nonce: nonce, ...json } });
  beforeAll(async () => {
    t = await startTestApp(engine);
    const user = (await import('../../auth/index.js')).getUser;
    const admin = (await user(t.ctx, t.admin.id))!;
    nonce = await createNonce(t.ctx, { user: admin, auth: { method: 'app-password' } }, '_tec_wizard');
  });
  afterAll(() => t.close());

  it('a bad nonce is a 400 rest_invalid_param wrapping tec_invalid_nonce, before the permission check', async () => {
    for (const as of [t.admin, null]) {
      const res = await t.request('POST', ROUTE, { json: { action_nonce: 'nope' }, as });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'rest_invalid_param', message: 'Invalid parameter(s): action_nonce',
        data: { status: 400, params: { action_nonce: 'Invalid nonce.' }, details: { action_nonce: { code: 'tec_invalid_nonce', message: 'Invalid nonce.', data: { status: 403 } } } },
      });
    }
    const missing = await t.request('POST', ROUTE, { json: {}, as: t.admin });
    expect(missing.body.code).toBe('rest_missing_callback_param');
    const typed = await t.request('POST', ROUTE, { json: { action_nonce: 5 }, as: t.admin });
    expect(typed.body.data.params.action_nonce).toBe('action_nonce is not of type string.');
  });

  it('needs manage_options', async () => {
    const editor = await t.createUser('editor');
    const user = (await (await import('../../auth/index.js')).getUser(t.ctx, editor.id))!;
    const editorNonce = await createNonce(t.ctx, { user, auth: { method: 'app-password' } }, '_tec_wizard');
    const res = await t.request('POST', ROUTE, { json: { action_nonce: editorNonce, currentTab: 1, timezone_string: 'Asia/Tokyo' }, as: editor });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('rest_forbidden');
    expect(await t.ctx.options.get('timezone_string')).toBe('UTC');
  });

  it('stores the state, runs the steps up to the current tab, and the settings change the calendar', async () => {
    const res = await wizard({
      currentTab: 5, begun: true, completedTabs: [1, 2], skippedTabs: [3, 2], optin: false, currency: 'euro',
      timezone_string: 'Europe/Berlin', start_of_week: '0', tribeEnableViews: ['all', 'month', 'list'], timezones: ['x'],
      venue: { name: 'Kulturhaus', address: 'Hauptstr. 1', city: 'Köln', state: '', zip: '50667', country: 'DE', phone: '', website: '' },
      organizer: { name: 'Kulturverein', email: 'info@kultur.example', organizerId: '' },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    // Settings.php ends its step with "Successfully saved settings."
    expect(res.body.message).toEqual([
      'Onboarding wizard step completed successfully.',
      'Successfully saved opt-in status.',
      'Successfully saved setting defaultCurrencyCode.',
      'Successfully saved setting defaultCurrencySymbol.',
      'Did not attempt saving option date_format.',
      'Successfully saved option timezone_string.',
      'Successfully saved option start_of_week.',
      'Successfully saved setting tribeEnableViews.',
      'Successfully saved settings.',
      'Organizer created.',
      'Venue created.',
      'Event Tickets install not requested.',
    ]);
    // The wizard posts the country's key; Venue.php stores the name (Country::find_country_by_key).
    const venue = await t.request('GET', `/eventsuite/events/v1/venues/${res.body.venue_id}`);
    expect(venue.body).toMatchObject({ venue: 'Kulturhaus', city: 'Köln', zip: '50667', country: 'Germany' });
    const organizer = await t.request('GET', `/eventsuite/events/v1/organizers/${res.body.organizer_id}`);
    expect(organizer.body.organizer).toBe('Kulturverein');

    const state = await t.ctx.options.get<Record<string, any>>(WIZARD_OPTION);
    expect(state).toMatchObject({ begun: true, finished: false, current_tab: 5, completed_tabs: [1, 2, 0, 5], skipped_tabs: [3] });
    expect(state.last_send.timezones).toBeUndefined();
    expect(state.last_send.action_nonce).toBeUndefined();

    // Time zone of new events.
    const ev = await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: { title: 'After setup', start_date: '2026-05-14 20:00:00', end_date: '2026-05-14 22:00:00' } });
    expect(ev.body.timezone).toBe('Europe/Berlin');
    // Week start of the month grid and the enabled views.
    const month = await t.app.inject({ method: 'GET', url: '/events/month/2026-05/' });
    const data = JSON.parse(/data-js="tribe-events-view-data" type="application\/json">([^<]*)</.exec(month.body)![1]!);
    expect(data.grid_start_date).toBe('2026-04-26');
    expect(Object.keys(data.public_views)).toEqual(['month', 'list']);
    // Currency of new tickets, and of event costs entered without a symbol.
    const ticket = await addTicket(t, ev.body.id, { name: 'Entry', price: '12', provider: 'tribe-commerce' });
    expect(ticket.cost).toBe('€12.00');
    const priced = await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: { title: 'Priced', cost: '5 - 20', start_date: '2026-05-15 20:00:00', end_date: '2026-05-15 22:00:00' } });
    expect(priced.body.cost).toBe('€5 – €20');
    expect(priced.body.cost_details).toEqual({ currency_symbol: '€', currency_code: 'EUR', currency_position: 'prefix', values: ['5', '20'] });
    const dollars = await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: { title: 'Dollars', cost: '$7', start_date: '2026-05-15 20:00:00', end_date: '2026-05-15 22:00:00' } });
    expect(dollars.body.cost_details).toMatchObject({ currency_symbol: '$', currency_code: 'USD' });

    // The same answers again: nothing to change.
    const again = await wizard({ currentTab: 1, timezone_string: 'Europe/Berlin' });
    expect(again.body.message).toContain('The timezone_string option is already set to the requested value.');
  });

  it('takes the currency as a key of the original list, not as a code', async () => {
    // Data::get_currency_list keys: `cny2` is the yuan written 元, `usdcent` the US cent; `EUR` and `eur` are no keys.
    const yuan = await wizard({ currentTab: 1, currency: 'cny2' });
    expect(yuan.body.message).toContain('Successfully saved setting defaultCurrencySymbol.');
    expect(await t.ctx.options.get('defaultCurrencyCode')).toBe('CNY');
    expect(await t.ctx.options.get('defaultCurrencySymbol')).toBe('元');
    for (const notAKey of ['EUR', 'eur']) {
      const res = await wizard({ currentTab: 1, currency: notAKey });
      expect(res.status).toBe(200);
      expect(res.body.message).toContain('Did not attempt saving option defaultCurrencyCode.');
      expect(res.body.message).toContain('Did not attempt saving option defaultCurrencySymbol.');
    }
    expect(await t.ctx.options.get('defaultCurrencyCode')).toBe('CNY');
    const cent = await wizard({ currentTab: 1, currency: 'usdcent' });
    expect(cent.body.message.slice(2, 4)).toEqual(['Successfully saved setting defaultCurrencyCode.', 'Successfully saved setting defaultCurrencySymbol.']);
    expect(await t.ctx.options.get('defaultCurrencySymbol')).toBe('¢');
  });

  describe('which steps run', () => {
    beforeEach(async () => {
      await t.ctx.options.set(WIZARD_OPTION, {});
      await t.ctx.options.set('opt-in-status', true);
    });

    it('"Skip guided setup" names no tab: the state is stored and no step runs', async () => {
      // The original's exit button posts {finished: true, begun: false}; Abstract_Step::tab_check needs isset(currentTab).
      const res = await wizard({ finished: true, begun: false });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: ['Onboarding wizard step completed successfully.'] });
      expect(await t.ctx.options.get('opt-in-status')).toBe(true);
      expect(await t.ctx.options.get<Record<string, unknown>>(WIZARD_OPTION)).toMatchObject({ begun: true, finished: true, current_tab: 0, completed_tabs: [0], skipped_tabs: [] });
      const nulled = await wizard({ currentTab: null, optin: false });
      expect(nulled.body.message).toEqual(['Onboarding wizard step completed successfully.']);
      expect(await t.ctx.options.get('opt-in-status')).toBe(true);
    });

    it('reads currentTab with absint: a string, a negative number, leading digits', async () => {
      for (const currentTab of ['1', -1, '1st']) {
        const res = await wizard({ currentTab, optin: true, tribeEnableViews: ['month'] });
        expect(res.body.message).toContain('Opt-in status is already set to the requested value.');
        expect(res.body.message.at(-1)).toBe('Successfully saved settings.');
      }
      const welcome = await wizard({ currentTab: 'welcome', optin: true });
      expect(welcome.body.message.at(-1)).toBe('Opt-in status is already set to the requested value.');
    });

    it('answers "Failed to update wizard settings." (still a success) when the state is already stored', async () => {
      const body = { begun: true, currentTab: 0, optin: true, completedTabs: [0] };
      expect((await wizard(body)).body.message[0]).toBe('Onboarding wizard step completed successfully.');
      const same = await wizard(body);
      expect(same.status).toBe(200);
      expect(same.body).toEqual({ success: true, message: ['Failed to update wizard settings.', 'Opt-in status is already set to the requested value.'] });
    });
  });

  it('creates an organizer or venue from any data as the original does, and fails on an empty one', async () => {
    const unnamed = await wizard({ currentTab: 5, organizer: { phone: '+1 555 0100' }, venue: { city: 'Leeds', country: 'XX' } });
    expect(unnamed.status).toBe(200);
    expect(unnamed.body.message.slice(-3)).toEqual(['Organizer created.', 'Venue created.', 'Event Tickets install not requested.']);
    expect((await t.request('GET', `/eventsuite/events/v1/organizers/${unnamed.body.organizer_id}`)).body).toMatchObject({ organizer: 'Unnamed Organizer', phone: '+1 555 0100' });
    const venue = (await t.request('GET', `/eventsuite/events/v1/venues/${unnamed.body.venue_id}`)).body;
    expect(venue).toMatchObject({ venue: 'Unnamed Venue', city: 'Leeds' });
    expect(venue.country).toBeUndefined();

    // Fields but no data (as an untouched form sends them): Organizer::create makes nothing, the step
    // fails (the original's 500; 400 here, as the request's own values fail it).
    const blank = await wizard({ currentTab: 5, organizer: { organizerId: false, name: '', phone: '', website: '', email: '' }, venue: { name: 'Never made' }, eventTickets: true });
    expect(blank.status).toBe(400);
    expect(blank.body.success).toBe(true);
    expect(blank.body.message.at(-1)).toBe('Failed to create organizer.');
    expect(blank.body.venue_id).toBeUndefined();
    const venueOnlyCountry = await wizard({ currentTab: 5, venue: { country: 'US', website: 'https://x.example' } });
    expect(venueOnlyCountry.status).toBe(400);
    expect(venueOnlyCountry.body.message.slice(-2)).toEqual(['No organizer to save. Step skipped', 'Failed to create venue.']);
    // The organizer is made through the events route, which refuses an address that is none.
    const badEmail = await wizard({ currentTab: 5, organizer: { name: 'Mailless', email: 'not an address' } });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.message.at(-1)).toBe('Failed to create organizer.');
  });

  it('a step that fails on the values sent is a 400 (the original: 500) and stops the steps; tickets are switched on by the last step', async () => {
    const bad = await wizard({ currentTab: 1, timezone_string: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(true);
    expect(bad.body.message.at(-1)).toBe('Failed to save option timezone_string.');
    // WordPress keeps no offset as timezone_string (sanitize_option).
    const offset = await wizard({ currentTab: 5, timezone_string: 'UTC+5', eventTickets: true });
    expect(offset.status).toBe(400);
    expect(offset.body.message.at(-1)).toBe('Failed to save option timezone_string.');
    const week = await wizard({ currentTab: 1, start_of_week: '9', tribeEnableViews: ['day'] });
    expect(week.status).toBe(400);
    expect(week.body.message.at(-1)).toBe('Failed to save option start_of_week.');
    expect(await t.ctx.options.get('tribeEnableViews')).not.toEqual(['day']);
    expect(await t.ctx.options.get('timezone_string')).toBe('Europe/Berlin');

    await switchArea(t.ctx, 'tickets', false);
    const tickets = await wizard({ currentTab: 5, finished: true, eventTickets: true, venue: { venueId: 3 } });
    expect(tickets.status).toBe(200);
    expect(tickets.body.message).toContain('Existing venue. Step skipped.');
    expect(tickets.body.message.at(-1)).toBe('Event Tickets plugin installed and activated.');
    expect(t.ctx.areas.isEnabled('tickets')).toBe(true);
  });

  it('serves the original React wizard, tab by tab, with its boot data in every request', async () => {
    await t.ctx.options.set(WIZARD_OPTION, {});
    await t.ctx.options.set('opt-in-status', null);
    await switchArea(t.ctx, 'tickets', false);
    // Landing_Page::get_initial_data as the client keeps it (completedTabs/skippedTabs held apart).
    const store: Record<string, unknown> = {
      begun: false, currentTab: 0, finished: false, tribeEnableViews: ['list'], availableViews: ['day', 'list', 'month'], currency: 'usd',
      date_format: 'F j, Y', optin: false, timezone_string: 'UTC', start_of_week: '1', 'event-tickets-installed': false, 'event-tickets-active': false,
      action_nonce: nonce, _wpnonce: 'rest-nonce', organizer: [], venue: [], timezones: { Europe: { 'Europe/Berlin': 'Berlin' } },
      countries: { Europe: { DE: 'Germany' } }, currencies: { euro: { code: 'EUR', symbol: '€' } },
    };
    const completed: number[] = [];
    const next = async (tabSettings: Record<string, unknown>) => {
      completed.push(tabSettings.currentTab as number);
      if (tabSettings.currentTab === 5) tabSettings.finished = true;
      Object.assign(store, tabSettings);
      const res = await t.request('POST', ROUTE, { as: t.admin, json: { ...store, completedTabs: [...completed], skippedTabs: [], visitedFields: ['time-zone'] } });
      expect(res.status).toBe(200);
      return res.body;
    };
    expect((await next({ optin: true, currentTab: 0, begun: true })).message).toEqual(['Onboarding wizard step completed successfully.', 'Successfully saved opt-in status.']);
    expect((await next({ tribeEnableViews: ['month', 'day'], currentTab: 1 })).message).toContain('Successfully saved setting tribeEnableViews.');
    const settings = await next({ currency: 'euro', timezone_string: 'Europe/Berlin', date_format: 'd/m/Y', start_of_week: '1', currentTab: 2 });
    expect(settings.message).toEqual(expect.arrayContaining(['Successfully saved setting defaultCurrencyCode.', 'Successfully saved option date_format.', 'Successfully saved settings.']));
    const organizerTab = await next({ organizer: { organizerId: false, name: 'Wizard Org', phone: '', website: 'https://org.example', email: '' }, currentTab: 3 });
    expect(organizerTab.message).not.toContain('Organizer created.');
    await next({ venue: { venueId: false, name: 'Wizard Hall', address: 'Domplatz 1', city: 'Berlin', state: '', zip: '10178', country: 'DE', phone: '', website: '' }, currentTab: 4 });
    const last = await next({ eventTickets: true, currentTab: 5 });
    expect(last.message.slice(-3)).toEqual(['Organizer created.', 'Venue created.', 'Event Tickets plugin installed and activated.']);

    const state = await t.ctx.options.get<Record<string, any>>(WIZARD_OPTION);
    expect(state).toMatchObject({ begun: true, finished: true, current_tab: 5, completed_tabs: [0, 1, 2, 3, 4, 5], skipped_tabs: [] });
    for (const dropped of ['timezones', 'countries', 'currencies', 'action_nonce', '_wpnonce']) expect(state.last_send).not.toHaveProperty(dropped);
    expect(state.last_send).toMatchObject({ visitedFields: ['time-zone'], availableViews: ['day', 'list', 'month'] });
    expect(t.ctx.areas.isEnabled('tickets')).toBe(true);
    // What was stored changes the calendar: the views offered, the date format, the venue's country.
    const month = await t.app.inject({ method: 'GET', url: '/events/month/2026-05/' });
    const data = JSON.parse(/data-js="tribe-events-view-data" type="application\/json">([^<]*)</.exec(month.body)![1]!);
    expect(Object.keys(data.public_views)).toEqual(['month', 'day']);
    const ev = await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: { title: 'Wizard night', start_date: '2026-05-14 20:00:00', end_date: '2026-05-14 22:00:00', venue: [last.venue_id] } });
    const eventPage = await t.app.inject({ method: 'GET', url: `/event/${ev.body.slug}/` });
    expect(eventPage.body).toContain('14/05/2026');
    const venuePage = await t.app.inject({ method: 'GET', url: '/venue/wizard-hall/' });
    expect(venuePage.body).toContain('Domplatz 1, Berlin, 10178, Germany');
  });

  it('the admin page walks through the tabs and posts them to the route', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/wp-admin/tec-onboarding/' });
    expect(login.statusCode).toBe(302);
    expect(login.headers.location).toContain('wp-login.php');

    const session = await signInForTest(t.ctx, t.admin.id);
    const page = (method: 'GET' | 'POST', url: string, payload?: string) =>
      t.app.inject({ method, url, headers: { cookie: session.cookie, ...(payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, ...(payload ? { payload } : {}) });
    await t.ctx.options.set(WIZARD_OPTION, {});
    await t.ctx.options.set('opt-in-status', null);
    expect((await page('GET', '/wp-admin/')).body).toContain('The calendar is not set up yet: <a href="http://example.test/wp-admin/tec-onboarding/">set up the calendar</a>');
    const first = await page('GET', '/wp-admin/tec-onboarding/');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('Calendar setup: Welcome');
    const actionNonce = /name="action_nonce" value="([^"]+)"/.exec(first.body)![1]!;
    const post = (tab: number, fields: Record<string, string> | string) =>
      page('POST', `/wp-admin/tec-onboarding/?step=${tab}`, `action_nonce=${actionNonce}&${typeof fields === 'string' ? fields : new URLSearchParams(fields).toString()}`);

    const welcome = await post(0, { wizard_action: 'continue', optin: '1' });
    expect(welcome.body).toContain('Calendar setup: Display');
    expect(await t.ctx.options.get('opt-in-status')).toBe(true);
    const noView = await post(1, { wizard_action: 'continue' });
    expect(noView.body).toContain('Please select at least one view to continue.');
    expect(noView.body).toContain('Calendar setup: Display');
    const display = await post(1, 'wizard_action=continue&tribeEnableViews%5B%5D=list&tribeEnableViews%5B%5D=day');
    expect(display.body).toContain('Calendar setup: Settings');
    expect(await t.ctx.options.get('tribeEnableViews')).toEqual(['list', 'day']);
    // The settings tab offers the original's currency keys and a time zone list without offsets.
    expect(display.body).toContain('<option value="gbp">£ (British Pound)</option>');
    expect(display.body).toContain('<option value="Europe/London">London</option>');
    const settings = await post(2, { wizard_action: 'continue', currency: 'gbp', date_format: 'j F, Y', timezone_string: 'Europe/London', start_of_week: '1' });
    expect(settings.body).toContain('Successfully saved option date_format.');
    expect(settings.body).toContain('Calendar setup: Organizer');
    expect(await t.ctx.options.get('timezone_string')).toBe('Europe/London');
    expect(await t.ctx.options.get('defaultCurrencySymbol')).toBe('£');
    // An organizer already exists (created above): it is shown and sent by ID, never doubled.
    expect(settings.body).toContain('Looks like you have already created your first organizer.');
    const organizers = (await t.request('GET', '/eventsuite/events/v1/organizers?per_page=50')).body.total;
    const org = await post(3, { wizard_action: 'skip' });
    expect(org.body).toContain('Calendar setup: Venue');
    const venue = await post(4, { wizard_action: 'continue' });
    expect(venue.body).toContain('Calendar setup: Tickets');
    expect(venue.body).not.toContain('name="eventTickets"');
    const done = await post(5, { wizard_action: 'continue' });
    expect(done.body).toContain('Existing organizer. Step skipped.');
    expect(done.body).toContain('Existing venue. Step skipped.');
    expect(done.body).toContain('Event Tickets plugin already installed and activated.');
    expect(done.body).toContain('Calendar setup: Finished');
    expect((await t.request('GET', '/eventsuite/events/v1/organizers?per_page=50')).body.total).toBe(organizers);
    const state = await t.ctx.options.get<Record<string, any>>(WIZARD_OPTION);
    expect(state).toMatchObject({ finished: true, completed_tabs: [0, 1, 2, 4, 5], skipped_tabs: [3] });
    expect((await page('GET', '/wp-admin/')).body).not.toContain('The calendar is not set up yet');
    expect((await page('GET', '/wp-admin/tec-onboarding/')).body).toContain('Your calendar is set up.');
    const forged = await page('POST', '/wp-admin/tec-onboarding/?step=2', 'action_nonce=bad&wizard_action=continue&timezone_string=Asia%2FTokyo');
    expect(forged.body).toContain('Invalid parameter(s): action_nonce');
    expect(await t.ctx.options.get('timezone_string')).toBe('Europe/London');

    // "Skip guided setup" finishes without a step; the page reopens where the wizard stopped.
    await t.ctx.options.set(WIZARD_OPTION, { begun: true, finished: false, current_tab: 2, completed_tabs: [0, 1, 2], skipped_tabs: [] });
    expect((await page('GET', '/wp-admin/tec-onboarding/')).body).toContain('Calendar setup: Organizer');
    const exit = await post(0, { wizard_action: 'exit', optin: '1' });
    expect(exit.body).toContain('Calendar setup: Finished');
    expect(await t.ctx.options.get<Record<string, unknown>>(WIZARD_OPTION)).toMatchObject({ begun: true, finished: true });
  });

  it('the admin page answers hostile steps, forms and stored state without a server error', async () => {
    const session = await signInForTest(t.ctx, t.admin.id);
    const first = await t.app.inject({ method: 'GET', url: '/wp-admin/tec-onboarding/?step=0', headers: { cookie: session.cookie } });
    const actionNonce = /name="action_nonce" value="([^"]+)"/.exec(first.body)![1]!;
    await t.request('POST', '/eventsuite/events/v1/organizers', { as: t.admin, json: { organizer: 'Odd &#99999999; &#x110000; name' } });
    const forms = ['', 'wizard_action[]=skip', 'tribeEnableViews=month&wizard_action=continue', 'organizer=x&venue=y', 'organizer[name][]=a&venue[country][x]=1',
      'optin[]=1&eventTickets[a]=b', 'currency[]=euro&timezone_string[]=x&start_of_week[]=1&date_format[x]=1', 'wizard_action=exit', 'a[b][c][d]=1&wizard_action=continue'];
    const states: unknown[] = [{}, 'broken', { current_tab: 'x', completed_tabs: 'x', skipped_tabs: [null, 'a'], last_send: 'x' }, { finished: true }, { current_tab: 99, last_send: { organizer: 'x', venue: [1] } }];
    for (const state of states) {
      await t.ctx.options.set(WIZARD_OPTION, state);
      for (const step of ['', 'abc', '-1', '99', '2.5', '1e9', '5&step=0']) {
        const get = await t.app.inject({ method: 'GET', url: `/wp-admin/tec-onboarding/?step=${step}`, headers: { cookie: session.cookie } });
        expect(get.statusCode, `GET ${step}`).toBe(200);
        for (const form of forms) {
          const res = await t.app.inject({ method: 'POST', url: `/wp-admin/tec-onboarding/?step=${step}`, headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `action_nonce=${actionNonce}&${form}` });
          expect(res.statusCode, `POST ${step} ${form} ${JSON.stringify(state)}`).toBe(200);
        }
      }
    }
    const json = await t.app.inject({ method: 'POST', url: '/wp-admin/tec-onboarding/?step=1', headers: { cookie: session.cookie, 'content-type': 'application/json' }, payload: '{"action_nonce":1}' });
    expect(json.statusCode).toBeLessThan(500);
  });
});
