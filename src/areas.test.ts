import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineArea } from './area.js';
import { Areas } from './areas.js';
import { AREA_STATE_OPTION, switchArea, syncAreaState } from './area-state.js';
import { OPTION_TTL_MS } from './content/options.js';
import { allAreas } from './namespaces/index.js';
import { DIALECTS, startTestApp, type TestApp } from './test-support/harness.js';

const TICKETS = '/eventsuite/tickets/v1';
const EVENTS = '/eventsuite/events/v1';

describe('Areas', () => {
  it('refuses unknown ids, duplicate areas and switching off a required area', () => {
    expect(() => new Areas(allAreas(), ['nope'])).toThrow(/unknown area "nope"/);
    expect(() => new Areas(allAreas(), ['core'])).toThrow(/cannot be switched off/);
    const dup = defineArea({ id: 'events', title: 'x', description: 'x', namespaces: [] });
    expect(() => new Areas([...allAreas(), dup])).toThrow(/declared twice/);
    const squatter = defineArea({ id: 'squatter', title: 'x', description: 'x', namespaces: allAreas()[0]!.namespaces });
    expect(() => new Areas([...allAreas(), squatter])).toThrow(/declared by areas core and squatter/);
  });

  it('switches off the areas that require a switched-off area', () => {
    const areas = new Areas(allAreas(), ['events']);
    expect(areas.isEnabled('tickets')).toBe(false);
    expect(areas.namespaces().map((n) => n.namespace)).not.toContain('eventsuite/tickets/v1');
    expect(areas.contributions('eventFields')).toHaveLength(0);
    areas.setEnabled('events', true);
    expect(areas.isEnabled('tickets')).toBe(true);
    expect(areas.contributions('eventFields').map((p) => p.name)).toEqual(['tickets']);
  });

  it('collects the settings areas declare, refusing one declared twice', () => {
    const a = defineArea({ id: 'a', title: 'a', description: 'a', namespaces: [], settings: { a_level: { default: 3, description: 'level' } } });
    expect(new Areas([...allAreas(), a]).settingDefaults()).toMatchObject({ a_level: 3 });
    const b = defineArea({ id: 'b', title: 'b', description: 'b', namespaces: [], settings: { a_level: { default: 4, description: 'again' } } });
    expect(() => new Areas([a, b]).settingDefaults()).toThrow(/declared twice/);
  });

  it('keeps post types of switched-off areas (stored content keeps its meaning)', () => {
    const areas = new Areas(allAreas(), ['tickets']);
    expect(areas.postTypes.get('tribe_rsvp_tickets')).toBeDefined();
    expect(areas.postTypes.byPermalinkBase('event')?.type).toBe('tribe_events');
  });
});

describe.each(DIALECTS)('an area switched off on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { disabledAreas: ['tickets', 'oembed'] });
  });
  afterAll(() => t.close());

  it('leaves discovery, dispatch and the OpenAPI document', async () => {
    const root = await t.request('GET', '/');
    expect(root.body.namespaces).not.toContain('eventsuite/tickets/v1');
    expect(root.body.namespaces).toContain('eventsuite/events/v1');
    expect(Object.keys(root.body.routes).some((k) => k.startsWith(TICKETS))).toBe(false);
    const list = await t.request('GET', `${TICKETS}/tickets`, { as: t.admin });
    expect(list.status).toBe(404);
    expect(list.body.code).toBe('rest_no_route');
    expect((await t.request('GET', TICKETS)).body.code).toBe('rest_no_route');
    const openapi = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(openapi.body).not.toContain('/eventsuite/tickets/v1/');
  });

  it('takes its contributions and pages away, and brings them back when switched on (stored, for every process) without a restart', async () => {
    const created = await t.request('POST', `${EVENTS}/events`, {
      as: t.admin,
      json: { title: 'Area gala', start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 12:00:00', status: 'publish' },
    });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('ticketed');
    expect((await t.app.inject({ method: 'GET', url: '/event/area-gala/embed/' })).statusCode).toBe(404);

    await switchArea(t.ctx, 'tickets', true);
    await switchArea(t.ctx, 'oembed', true);
    try {
      const root = await t.request('GET', '/');
      expect(root.body.namespaces).toContain('eventsuite/tickets/v1');
      expect((await t.request('GET', `${TICKETS}/tickets`, { as: t.admin })).status).toBe(200);
      const event = await t.request('GET', `${EVENTS}/events/${created.body.id}`);
      expect(event.body.ticketed).toBe(false);
      expect((await t.app.inject({ method: 'GET', url: '/event/area-gala/embed/' })).statusCode).toBe(200);
    } finally {
      await switchArea(t.ctx, 'tickets', false);
      await switchArea(t.ctx, 'oembed', false);
    }
  });

  it('re-applies the stored state over a switch made only here, and takes another process\'s state once the options cache expires', async () => {
    await syncAreaState(t.ctx);
    expect(t.ctx.areas.isEnabled('tickets')).toBe(false);
    t.ctx.areas.setEnabled('tickets', true);
    await syncAreaState(t.ctx);
    expect(t.ctx.areas.isEnabled('tickets')).toBe(false);

    // Another process stores a choice: seen here once the cached value is older than the TTL.
    const text = JSON.stringify({ tickets: true, oembed: false });
    await t.ctx.db.updateTable('options').set({ value: text }).where('name', '=', AREA_STATE_OPTION).execute();
    await syncAreaState(t.ctx);
    expect(t.ctx.areas.isEnabled('tickets')).toBe(false);
    const later = Date.now() + OPTION_TTL_MS + 1;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      await syncAreaState(t.ctx);
      expect(t.ctx.areas.isEnabled('tickets')).toBe(true);
    } finally {
      clock.mockRestore();
      await switchArea(t.ctx, 'tickets', false);
    }
  });
});
