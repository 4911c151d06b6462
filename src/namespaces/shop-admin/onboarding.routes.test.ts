import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { addTicket, makePost } from '../tickets/fixtures.case.js';

const NS = '/shop-admin';

describe.each(DIALECTS)('shop-admin onboarding on %s', (engine) => {
  let t: TestApp;
  let manager: TestUser;
  let editor: TestUser;

  beforeAll(async () => {
    t = await startTestApp(engine);
    manager = await t.createUser('shop_manager');
    editor = await t.createUser('editor');
  });
  afterAll(() => t.close());

  describe('GET|POST /shop-admin/onboarding/profile', () => {
    it('answers every property, null when unset, with wccom_connected computed', async () => {
      const res = await t.request('GET', `${NS}/onboarding/profile`, { as: manager });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ completed: null, industry: null, wccom_connected: false, store_email: null });
      expect(Object.keys(res.body)).toHaveLength(23);
    });

    it('refuses signed-out and non-shop users with woocommerce_rest_cannot_view', async () => {
      expect((await t.request('GET', `${NS}/onboarding/profile`)).body).toMatchObject({ code: 'woocommerce_rest_cannot_view', data: { status: 401 } });
      expect((await t.request('GET', `${NS}/onboarding/profile`, { as: editor })).body).toMatchObject({ code: 'woocommerce_rest_cannot_view', data: { status: 403 } });
      expect((await t.request('POST', `${NS}/onboarding/profile`, { as: editor, json: { completed: true } })).status).toBe(403);
    });

    it('merges the JSON body shallowly, ignoring explicit nulls', async () => {
      const first = await t.request('POST', `${NS}/onboarding/profile`, { as: manager, json: { industry: ['music'], product_count: '1-10', store_email: 'owner@example.test' } });
      expect(first.body).toEqual({ status: 'success', message: expect.any(String) });
      await t.request('PATCH', `${NS}/onboarding/profile`, { as: manager, json: { product_count: null, completed: true } });
      const res = await t.request('GET', `${NS}/onboarding/profile`, { as: manager });
      expect(res.body).toMatchObject({ industry: ['music'], product_count: '1-10', completed: true, store_email: 'owner@example.test' });
    });

    it('stores the theme as a sanitised slug, as the original does', async () => {
      expect((await t.request('POST', `${NS}/onboarding/profile`, { as: manager, json: { theme: 'Story Front' } })).status).toBe(200);
      expect((await t.request('GET', `${NS}/onboarding/profile`, { as: manager })).body.theme).toBe('story-front');
      expect((await t.request('POST', `${NS}/onboarding/profile`, { as: manager, json: { theme: ['x'] } })).status).toBe(400);
    });

    it('validates enums, arrays of enum and booleans; a bad value changes nothing', async () => {
      for (const json of [{ product_count: '5' }, { product_types: ['physical', 'spaceships'] }, { completed: 'maybe' }, { revenue: 'lots' }]) {
        const res = await t.request('POST', `${NS}/onboarding/profile`, { as: manager, json });
        expect(res.status, JSON.stringify(json)).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
      }
      expect((await t.request('GET', `${NS}/onboarding/profile`, { as: manager })).body.product_count).toBe('1-10');
    });

    it('requires a valid store_email when marketing was agreed to', async () => {
      const bad = await t.request('POST', `${NS}/onboarding/profile`, { as: manager, json: { is_agree_marketing: true, store_email: '' } });
      expect(bad.status).toBe(400);
      expect(bad.body.data.params).toHaveProperty('store_email');
      expect((await t.request('POST', `${NS}/onboarding/profile`, { as: manager, json: { store_email: 'not-an-address' } })).status).toBe(400);
    });
  });

  describe('core profiler progress', () => {
    it('starts empty, records each step with its UTC time, and refuses unknown steps', async () => {
      expect((await t.request('GET', `${NS}/onboarding/profile/progress`, { as: manager })).body).toEqual([]);
      const res = await t.request('POST', `${NS}/onboarding/profile/progress/core-profiler/complete`, { as: manager, json: { step: 'intro-opt-in' } });
      expect(res.body).toEqual({ status: 'success', results: { core_profiler_completed_steps: { 'intro-opt-in': { completed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) } } } });
      expect((await t.request('POST', `${NS}/onboarding/profile/progress/core-profiler/complete`, { as: manager, json: { step: 'launch' } })).status).toBe(400);
      expect((await t.request('POST', `${NS}/onboarding/profile/progress/core-profiler/complete`, { as: manager, json: {} })).body.code).toBe('rest_missing_callback_param');
    });
  });

  describe('GET /shop-admin/onboarding/tasks', () => {
    const task = (lists: any[], id: string) => lists.flatMap((l) => l.tasks).find((x: any) => x.id === id);

    it('turns tasks complete from the live site: an event, then a ticket created through the API', async () => {
      let lists = (await t.request('GET', `${NS}/onboarding/tasks`, { as: manager })).body;
      expect(lists.map((l: any) => l.id)).toEqual(['setup', 'extended', 'secret_tasklist']);
      expect(lists[0]).toMatchObject({ title: 'Get ready to start selling', isVisible: true, displayProgressHeader: true, eventPrefix: 'tasklist_' });
      expect(task(lists, 'events').isComplete).toBe(false);
      expect(task(lists, 'products').isComplete).toBe(false);

      const event = await makePost(t, { title: 'Opening night' });
      lists = (await t.request('GET', `${NS}/onboarding/tasks`, { as: manager })).body;
      expect(task(lists, 'events').isComplete).toBe(true);
      expect(task(lists, 'products').isComplete).toBe(false);

      await addTicket(t, event, { name: 'Seat', price: '10', ticket: { mode: 'own', capacity: 5 } });
      lists = (await t.request('GET', `${NS}/onboarding/tasks`, { as: manager })).body;
      expect(task(lists, 'products').isComplete).toBe(true);
      expect(task(lists, 'payments').isComplete).toBe(false);
    });

    it('completes store details and tax from the options route', async () => {
      await t.request('POST', `${NS}/options`, { as: manager, json: { woocommerce_default_country: 'DE', woocommerce_calc_taxes: 'yes' } });
      const lists = (await t.request('GET', `${NS}/onboarding/tasks`, { as: manager, query: { ids: ['setup'] } })).body;
      expect(lists).toHaveLength(1);
      expect(task(lists, 'store_details').isComplete).toBe(true);
      expect(task(lists, 'tax').isComplete).toBe(true);
    });

    it('refuses ids outside the enum and users without manage_woocommerce', async () => {
      expect((await t.request('GET', `${NS}/onboarding/tasks`, { as: manager, query: { ids: ['nope'] } })).status).toBe(400);
      expect((await t.request('GET', `${NS}/onboarding/tasks`, { as: editor })).body.code).toBe('woocommerce_rest_cannot_create');
    });

    it('adds client-side extended tasks that carry list_id and id', async () => {
      const res = await t.request('POST', `${NS}/onboarding/tasks`, { as: manager, json: { ids: ['extended'], extended_tasks: [{ list_id: 'extended', id: 'legacy-thing', title: 'Legacy' }, { id: 'no-list' }] } });
      expect(res.status).toBe(200);
      expect(task(res.body, 'legacy-thing')).toMatchObject({ parentId: 'extended', title: 'Legacy' });
      expect(task(res.body, 'no-list')).toBeUndefined();
    });
  });

  describe('task actions', () => {
    it('dismisses dismissable tasks and answers 404 woocommerce_rest_invalid_task for the others', async () => {
      const res = await t.request('POST', `${NS}/onboarding/tasks/tax/dismiss`, { as: manager });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: 'tax', isDismissed: true });
      expect((await t.request('POST', `${NS}/onboarding/tasks/tax/undo_dismiss`, { as: manager })).body.isDismissed).toBe(false);
      const refused = await t.request('POST', `${NS}/onboarding/tasks/events/dismiss`, { as: manager });
      expect(refused.status).toBe(404);
      expect(refused.body.code).toBe('woocommerce_rest_invalid_task');
    });

    it('records actions (and visits), and completes generic tasks by their action', async () => {
      const res = await t.request('POST', `${NS}/onboarding/tasks/marketing/action`, { as: manager });
      expect(res.body).toMatchObject({ id: 'marketing', isActioned: true, isComplete: true, isVisited: true });
    });

    it('completes the mobile app task when the app guide is dismissed through the allow-listed option', async () => {
      const task = (lists: any[], id: string) => lists.flatMap((l) => l.tasks).find((x: any) => x.id === id);
      const before = await t.request('GET', `${NS}/onboarding/tasks`, { as: manager, query: { ids: ['extended'] } });
      expect(task(before.body, 'get-mobile-app').isComplete).toBe(false);
      const written = await t.request('POST', `${NS}/options`, { as: t.admin, json: { woocommerce_admin_dismissed_mobile_app_modal: 'yes' } });
      expect(written.status).toBe(200);
      const read = await t.request('GET', `${NS}/options`, { as: t.admin, query: { options: 'woocommerce_admin_dismissed_mobile_app_modal' } });
      expect(read.body).toEqual({ woocommerce_admin_dismissed_mobile_app_modal: 'yes' });
      const after = await t.request('GET', `${NS}/onboarding/tasks`, { as: manager, query: { ids: ['extended'] } });
      expect(task(after.body, 'get-mobile-app').isComplete).toBe(true);
    });

    it('snoozes only legacy tasks, by duration', async () => {
      expect((await t.request('POST', `${NS}/onboarding/tasks/payments/snooze`, { as: manager })).status).toBe(404);
      const res = await t.request('POST', `${NS}/onboarding/tasks/old-task/snooze`, { as: manager, json: { duration: 'hour' } });
      expect(res.body).toMatchObject({ id: 'old-task', isSnoozed: true });
      expect(res.body.snoozedUntil).toBeGreaterThan(Date.now() + 3_000_000);
      expect((await t.request('POST', `${NS}/onboarding/tasks/old-task/snooze`, { as: manager, json: { duration: 'year' } })).status).toBe(400);
      expect((await t.request('POST', `${NS}/onboarding/tasks/old-task/undo_snooze`, { as: manager })).body.isSnoozed).toBe(false);
    });

    it('hides and unhides lists; unknown lists are 404 with the original codes', async () => {
      const hidden = await t.request('POST', `${NS}/onboarding/tasks/setup/hide`, { as: manager });
      expect(hidden.body).toMatchObject({ id: 'setup', isHidden: true, isVisible: false });
      const lists = (await t.request('GET', `${NS}/onboarding/tasks`, { as: manager })).body;
      expect(lists.find((l: any) => l.id === 'secret_tasklist').isHidden).toBe(true);
      expect((await t.request('POST', `${NS}/onboarding/tasks/setup/unhide`, { as: manager })).body.isHidden).toBe(false);
      expect((await t.request('POST', `${NS}/onboarding/tasks/nolist/hide`, { as: manager })).body.code).toBe('woocommerce_rest_invalid_task_list');
      expect((await t.request('POST', `${NS}/onboarding/tasks/nolist/unhide`, { as: manager })).body.code).toBe('woocommerce_tasks_invalid_task_list');
    });
  });

  describe('content-creating tasks', () => {
    it('imports the sample events with their tickets once', async () => {
      expect((await t.request('POST', `${NS}/onboarding/tasks/import_sample_products`, { as: manager })).body.code).toBe('woocommerce_rest_cannot_create');
      const res = await t.request('POST', `${NS}/onboarding/tasks/import_sample_products`, { as: t.admin });
      expect(res.status).toBe(200);
      expect(res.body.imported).toHaveLength(3);
      expect(res.body.failed).toEqual([]);
      const event = await t.request('GET', `/eventsuite/events/v1/events/${res.body.imported[0]}`);
      expect(event.body.title).toMatch(/^Sample: /);
      expect(event.body.ticketed).toEqual(['tribe-commerce']);
      const again = await t.request('POST', `${NS}/onboarding/tasks/import_sample_products`, { as: t.admin });
      expect(again.body).toMatchObject({ imported: [], skipped: res.body.imported });
    });

    it('creates a front page the site shows', async () => {
      const res = await t.request('POST', `${NS}/onboarding/tasks/create_homepage`, { as: t.admin });
      expect(res.body).toMatchObject({ status: 'success', post_id: expect.any(Number) });
      const home = await t.app.inject({ method: 'GET', url: '/' });
      expect(home.body).toContain('<h1>Home</h1>');
      expect(home.body).toContain('Browse our upcoming events');
      expect((await t.request('POST', `${NS}/onboarding/tasks/create_homepage`, { as: manager })).status).toBe(403);
    });

    it('creates a draft ticket from a named template, 400 for an unknown one', async () => {
      const res = await t.request('POST', `${NS}/onboarding/tasks/create_product_from_template`, { as: t.admin, json: { template_name: 'physical' } });
      expect(res.body).toEqual({ id: expect.any(Number) });
      const ticket = await t.request('GET', `/eventsuite/tickets/v1/tickets/${res.body.id}`, { as: t.admin });
      expect(ticket.body.title).toBe('General admission');
      const bad = await t.request('POST', `${NS}/onboarding/tasks/create_product_from_template`, { as: t.admin, json: { template_name: 'rocket' } });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('woocommerce_rest_product_creation_error');
    });
  });
});
