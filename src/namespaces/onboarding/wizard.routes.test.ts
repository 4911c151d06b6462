import { switchArea } from '../../area-state.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNonce } from '../../auth/index.js';
import { signInForTest } from '../../auth/test-sessions.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { addTicket } from '../tickets/fixtures.case.js';
import { WIZARD_OPTION } from './wizard.service.js';

const ROUTE = '/calendar/v2/onboarding/wizard';

describe.each(DIALECTS)('onboarding wizard on %s', (engine) => {
  let t: TestApp;
  let nonce = '';
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
    const res = await t.request('POST', ROUTE, {
      as: t.admin,
      json: {
        action_nonce: nonce, currentTab: 5, begun: true, completedTabs: [1, 2], skippedTabs: [3, 2], optin: false, currency: 'EUR',
        timezone_string: 'Europe/Berlin', start_of_week: '0', tribeEnableViews: ['all', 'month', 'list'], timezones: ['x'],
        venue: { name: 'Kulturhaus', address: 'Hauptstr. 1', city: 'Köln', state: '', zip: '50667', country: 'DE', phone: '', website: '' },
        organizer: { name: 'Kulturverein', email: 'info@kultur.example', organizerId: '' },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toEqual([
      'Onboarding wizard step completed successfully.',
      'Successfully saved opt-in status.',
      'Successfully saved setting defaultCurrencyCode.',
      'Successfully saved setting defaultCurrencySymbol.',
      'Did not attempt saving option date_format.',
      'Successfully saved option timezone_string.',
      'Successfully saved option start_of_week.',
      'Successfully saved setting tribeEnableViews.',
      'Organizer created.',
      'Venue created.',
      'Event Tickets install not requested.',
    ]);
    const venue = await t.request('GET', `/eventsuite/events/v1/venues/${res.body.venue_id}`);
    expect(venue.body).toMatchObject({ venue: 'Kulturhaus', city: 'Köln', zip: '50667' });
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
    const again = await t.request('POST', ROUTE, { as: t.admin, json: { action_nonce: nonce, currentTab: 1, timezone_string: 'Europe/Berlin' } });
    expect(again.body.message).toContain('The timezone_string option is already set to the requested value.');
  });

  it('a step that fails makes the answer a 500; tickets are switched on by the last step', async () => {
    const bad = await t.request('POST', ROUTE, { as: t.admin, json: { action_nonce: nonce, currentTab: 1, timezone_string: 'Mars/Olympus' } });
    expect(bad.status).toBe(500);
    expect(bad.body.success).toBe(true);
    expect(bad.body.message.at(-1)).toBe('Failed to save option timezone_string.');

    await switchArea(t.ctx, 'tickets', false);
    const tickets = await t.request('POST', ROUTE, { as: t.admin, json: { action_nonce: nonce, currentTab: 5, finished: true, eventTickets: true, venue: { venueId: 3 } } });
    expect(tickets.status).toBe(200);
    expect(tickets.body.message).toContain('Existing venue. Step skipped.');
    expect(tickets.body.message.at(-1)).toBe('Event Tickets plugin installed and activated.');
    expect(t.ctx.areas.isEnabled('tickets')).toBe(true);
  });

  it('the admin page walks through the steps and posts them to the route', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/wp-admin/tec-onboarding/' });
    expect(login.statusCode).toBe(302);
    expect(login.headers.location).toContain('wp-login.php');

    const session = await signInForTest(t.ctx, t.admin.id);
    const page = (method: 'GET' | 'POST', url: string, payload?: string) =>
      t.app.inject({ method, url, headers: { cookie: session.cookie, ...(payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, ...(payload ? { payload } : {}) });
    await t.ctx.options.set(WIZARD_OPTION, {});
    expect((await page('GET', '/wp-admin/')).body).toContain('The calendar is not set up yet: <a href="http://example.test/wp-admin/tec-onboarding/">set up the calendar</a>');
    const first = await page('GET', '/wp-admin/tec-onboarding/');
    expect(first.statusCode).toBe(200);
    const actionNonce = /name="action_nonce" value="([^"]+)"/.exec(first.body)![1]!;
    const settings = await page('POST', '/wp-admin/tec-onboarding/?step=1', new URLSearchParams({ action_nonce: actionNonce, currency: 'GBP', date_format: 'j F Y', timezone_string: 'Europe/London', start_of_week: '1', 'tribeEnableViews[]': 'list' }).toString());
    expect(settings.statusCode).toBe(200);
    expect(settings.body).toContain('Successfully saved option date_format.');
    expect(settings.body).toContain('Calendar setup: Organizer');
    expect(await t.ctx.options.get('timezone_string')).toBe('Europe/London');
    const org = await page('POST', '/wp-admin/tec-onboarding/?step=2', `action_nonce=${actionNonce}&organizer%5Bname%5D=Page+Org`);
    expect(org.body).toContain('Calendar setup: Venue');
    const venue = await page('POST', '/wp-admin/tec-onboarding/?step=3', `action_nonce=${actionNonce}&venue%5Bname%5D=Page+Hall&venue%5Bcity%5D=York`);
    expect(venue.body).toContain('Calendar setup: Tickets');
    const done = await page('POST', '/wp-admin/tec-onboarding/?step=4', `action_nonce=${actionNonce}`);
    expect(done.body).toContain('Organizer created.');
    expect(done.body).toContain('Venue created.');
    expect(done.body).toContain('Calendar setup: Finish');
    expect((await t.ctx.options.get<Record<string, unknown>>(WIZARD_OPTION)).finished).toBe(true);
    expect((await page('GET', '/wp-admin/')).body).not.toContain('The calendar is not set up yet');
    const forged = await page('POST', '/wp-admin/tec-onboarding/?step=1', 'action_nonce=bad&timezone_string=Asia%2FTokyo');
    expect(forged.body).toContain('Invalid parameter(s): action_nonce');
    expect(await t.ctx.options.get('timezone_string')).toBe('Europe/London');
  });
});
