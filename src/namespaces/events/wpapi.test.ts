import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WPAPI from 'wpapi';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { freePort } from '../../test-support/net.js';

const NOW = new Date('2025-04-01T12:00:00Z');

type Json = Record<string, any>;

describe.each(DIALECTS)('the wpapi client against the events namespace on %s', (engine) => {
  let t: TestApp;
  let api: any;
  let anon: any;

  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    t = await startTestApp(engine, { baseUrl: base }, { now: () => NOW });
    await t.app.listen({ port, host: '127.0.0.1' });
    const site = await WPAPI.discover(`${base}/wp-json/`);
    api = site.auth({ username: t.admin.login, password: t.admin.appPassword }).namespace('eventsuite/events/v1');
    // `auth()` configures the whole client instance: anonymous calls get their own.
    const routes = (await (await fetch(`${base}/wp-json/`)).json()).routes;
    anon = new WPAPI({ endpoint: `${base}/wp-json/`, routes }).namespace('eventsuite/events/v1');
  });
  afterAll(() => t.close());

  it('discovers the namespace routes and their methods', () => {
    expect(typeof api.events).toBe('function');
    expect(typeof api.venues).toBe('function');
    expect(typeof api.organizers).toBe('function');
    expect(typeof api.categories).toBe('function');
    expect(typeof api.tags).toBe('function');
    expect(typeof api.events().id).toBe('function');
  });

  it('creates, reads, filters, updates and deletes events', async () => {
    const venue: Json = await api.venues().create({ venue: 'Client Hall', city: 'Leeds' });
    expect(venue.id).toBeGreaterThan(0);
    const created: Json = await api.events().create({
      title: 'Client Concert', start_date: '2025-04-20 19:00', end_date: '2025-04-20 21:00', venue: venue.id,
      categories: ['Client Music'], cost: '$12',
    });
    expect(created).toMatchObject({ title: 'Client Concert', cost: '$12', venue: { id: venue.id } });
    await api.events().create({ title: 'Other Thing', start_date: '2025-04-21 10:00', end_date: '2025-04-21 11:00' });

    const read: Json = await anon.events().id(created.id).get();
    expect(read.title).toBe('Client Concert');
    expect(read.json_ld['@type']).toBe('Event');

    const filtered: Json = await anon.events().param('venue', venue.id).get();
    expect(filtered.events.map((e: Json) => e.id)).toEqual([created.id]);
    const searched: Json = await anon.events().param('search', 'other').get();
    expect(searched.events.map((e: Json) => e.title)).toEqual(['Other Thing']);
    const paged: Json = await anon.events().param('per_page', 1).get();
    expect(paged._paging.total).toBe(2);
    expect(paged._paging.totalPages).toBe(2);
    const next: Json = await paged._paging.next.get();
    expect(next.events).toHaveLength(1);

    const updated: Json = await api.events().id(created.id).update({ title: 'Client Concert (moved)', end_date: '2025-04-20 22:00' });
    expect(updated).toMatchObject({ title: 'Client Concert (moved)', end_date: '2025-04-20 22:00:00', start_date: '2025-04-20 19:00:00', cost: '$12' });

    const deleted: Json = await api.events().id(created.id).delete();
    expect(deleted.status).toBe('trash');
    await expect(api.events().id(created.id).delete()).rejects.toMatchObject({ code: 'event-is-in-trash' });
  });

  it('surfaces the original errors to the client', async () => {
    await expect(anon.events().create({ title: 'Nope', start_date: '2025-04-20 19:00', end_date: '2025-04-20 21:00' })).rejects.toMatchObject({ code: 'rest_forbidden', data: { status: 401 } });
    await expect(api.events().create({ title: 'Backwards', start_date: '2025-04-20 19:00', end_date: '2025-04-20 18:00' })).rejects.toMatchObject({ code: 'rest_invalid_param' });
    await expect(anon.events().param('page', 99).get()).rejects.toMatchObject({ code: 'event-archive-page-not-found' });
  });

  it('manages categories through the client', async () => {
    const cat: Json = await api.categories().create({ name: 'From Client' });
    expect(cat.slug).toBe('from-client');
    const updated: Json = await api.categories().id(cat.id).update({ description: 'Described' });
    expect(updated.description).toBe('Described');
    const all: Json = await anon.categories().param('hide_empty', false).get();
    expect(all.categories.map((c: Json) => c.name)).toContain('From Client');
    const removed: Json = await api.categories().id(cat.id).delete();
    expect(removed.id).toBe(cat.id);
  });
});
