import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';

const NS = '/eventsuite/events/v1';
const NOW = new Date('2025-04-01T12:00:00Z');

type Json = Record<string, any>;

describe.each(DIALECTS)('venue and organizer routes on %s', (engine) => {
  let t: TestApp;
  let subscriber: TestUser;
  let contributor: TestUser;

  const post = (path: string, json: Json, as: TestUser | null = t.admin) => t.request('POST', `${NS}${path}`, { as, json });

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => NOW });
    [subscriber, contributor] = await Promise.all([t.createUser('subscriber'), t.createUser('contributor')]);
  });
  afterAll(() => t.close());

  describe('venues', () => {
    it('creates a venue with the original shape (empty values dropped, map flags default true)', async () => {
      const res = await post('/venues', { venue: 'Town Green', address: '1 Main St', city: 'Springfield', country: 'United States', state: 'MA', zip: '01101', stateprovince: 'MA' });
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`${t.ctx.urls.apiRoot}eventsuite/events/v1/venues/${res.body.id}`);
      expect(res.body).toEqual({
        id: res.body.id, author: String(t.admin.id), status: 'publish', date: '2025-04-01 12:00:00', date_utc: '2025-04-01 12:00:00',
        modified: '2025-04-01 12:00:00', modified_utc: '2025-04-01 12:00:00', url: 'http://example.test/venue/town-green/', venue: 'Town Green',
        slug: 'town-green', address: '1 Main St', city: 'Springfield', country: 'United States', state: 'MA', zip: '01101', stateprovince: 'MA',
        show_map: true, show_map_link: true, global_id: `example.test?id=${res.body.id}`, global_id_lineage: [`example.test?id=${res.body.id}`],
      });
      expect(res.body.rest_url).toBeUndefined();
    });

    it('returns the existing venue for a duplicate title (still 201)', async () => {
      const a = await post('/venues', { venue: 'Dup Hall', description: 'One' });
      const b = await post('/venues', { venue: 'Dup Hall' });
      const c = await post('/venues', { venue: 'Dup Hall', description: 'Two' });
      expect(b.status).toBe(201);
      expect(b.body.id).toBe(a.body.id);
      expect(c.body.id).not.toBe(a.body.id);
      expect(c.body.slug).toBe('dup-hall-2');
    });

    it('validates and checks permissions', async () => {
      expect((await post('/venues', {})).body.code).toBe('rest_missing_callback_param');
      expect((await post('/venues', { venue: 'W', website: 'not a url' })).body.code).toBe('rest_invalid_param');
      expect((await post('/venues', { venue: 'W' }, null)).status).toBe(401);
      expect((await post('/venues', { venue: 'W' }, subscriber)).status).toBe(403);
      const draft = await post('/venues', { venue: 'Contrib Venue', status: 'publish' }, contributor);
      expect(draft.body.status).toBe('pending');
      const hidden = await t.request('GET', `${NS}/venues/${draft.body.id}`);
      expect(hidden.status).toBe(403);
      expect(hidden.body.code).toBe('venue-not-accessible');
    });

    it('reads by ID (with JSON-LD) and slug; unknown IDs and slugs are 400', async () => {
      const v = await post('/venues', { venue: 'Reading Room', city: 'Leeds' });
      const res = await t.request('GET', `${NS}/venues/${v.body.id}`);
      expect(res.status).toBe(200);
      expect(res.body.json_ld).toMatchObject({ '@type': 'Place', name: 'Reading Room' });
      expect((await t.request('GET', `${NS}/venues/by-slug/reading-room`)).body.id).toBe(v.body.id);
      expect((await t.request('GET', `${NS}/venues/999999`)).body.code).toBe('rest_invalid_param');
      expect((await t.request('GET', `${NS}/venues/by-slug/nope`)).body.code).toBe('rest_invalid_param');
      expect((await t.request('DELETE', `${NS}/venues/999999`)).status).toBe(400);
    });

    it('updates only the fields sent and trashes', async () => {
      const v = await post('/venues', { venue: 'Mill', address: '2 Mill St', city: 'Leeds', phone: '123' });
      const upd = await t.request('PATCH', `${NS}/venues/${v.body.id}`, { as: t.admin, json: { city: 'York', show_map: 'false' } });
      expect(upd.status).toBe(200);
      expect(upd.body).toMatchObject({ venue: 'Mill', address: '2 Mill St', city: 'York', phone: '123', show_map: false, show_map_link: true });
      const bySlug = await t.request('PUT', `${NS}/venues/by-slug/mill`, { as: t.admin, form: { zip: 'YO1' } });
      expect(bySlug.body).toMatchObject({ city: 'York', zip: 'YO1' });
      expect((await t.request('DELETE', `${NS}/venues/${v.body.id}`, { as: subscriber })).status).toBe(403);
      const del = await t.request('DELETE', `${NS}/venues/${v.body.id}`, { as: t.admin });
      expect(del.body.status).toBe('trash');
      // In the trash it answers to its trashed slug (its own is free for a new venue).
      expect(del.body.slug).toBe('mill__trashed');
      const again = await t.request('DELETE', `${NS}/venues/by-slug/mill__trashed`, { as: t.admin });
      expect(again.status).toBe(410);
      expect(again.body.code).toBe('venue-is-in-trash');
    });

    it('lists with search, event, has_events, only_with_upcoming and pagination', async () => {
      const lonely = await post('/venues', { venue: 'Lonely Barn', city: 'Nowhere' });
      const busy = await post('/venues', { venue: 'Busy Hall', city: 'Somewhere' });
      const past = await post('/venues', { venue: 'Old Hall', city: 'Somewhere' });
      const ev = await post('/events', { title: 'Gig', start_date: '2025-05-01 20:00', end_date: '2025-05-01 23:00', venue: busy.body.id });
      await post('/events', { title: 'Old Gig', start_date: '2025-01-01 20:00', end_date: '2025-01-01 23:00', venue: past.body.id });
      const names = (r: { body: any }) => (r.body.venues as Json[]).map((v) => v.venue);
      const res = await t.request('GET', `${NS}/venues`, { query: { search: 'nowhere' } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['venues', 'rest_url', 'total', 'total_pages']);
      expect(names(res)).toEqual(['Lonely Barn']);
      expect(names(await t.request('GET', `${NS}/venues`, { query: { event: ev.body.id } }))).toEqual(['Busy Hall']);
      expect((await t.request('GET', `${NS}/venues`, { query: { event: lonely.body.id } })).status).toBe(400);
      const withEvents = names(await t.request('GET', `${NS}/venues`, { query: { has_events: 'true', per_page: 50 } }));
      expect(withEvents.sort()).toEqual(['Busy Hall', 'Old Hall']);
      expect(names(await t.request('GET', `${NS}/venues`, { query: { has_events: 'false', search: 'hall' } }))).toEqual(['Dup Hall', 'Dup Hall']);
      expect(names(await t.request('GET', `${NS}/venues`, { query: { only_with_upcoming: 'true' } }))).toEqual(['Busy Hall']);
      const p1 = await t.request('GET', `${NS}/venues`, { query: { per_page: 2 } });
      expect(p1.body.next_rest_url).toContain('page=2');
      expect(p1.headers['x-wp-totalpages']).toBe(String(p1.body.total_pages));
      const last = await t.request('GET', `${NS}/venues`, { query: { per_page: 2, page: p1.body.total_pages + 1 } });
      expect(last.status).toBe(404);
      expect(last.body.code).toBe('venue-archive-page-not-found');
      expect((await t.request('GET', `${NS}/venues`, { query: { status: 'draft' } })).status).toBe(400);
      expect(names(await t.request('GET', `${NS}/venues`, { query: { status: 'pending' }, as: t.admin }))).toEqual(['Contrib Venue']);
    });
  });

  describe('trash, rights and search', () => {
    it('finds a duplicate venue whatever the case of its title', async () => {
      const a = await post('/venues', { venue: 'Case Hall' });
      const b = await post('/venues', { venue: 'CASE hall' });
      expect(b.status).toBe(201);
      expect(b.body.id).toBe(a.body.id);
      // Beyond ASCII too (SQLite's own lower() leaves É as it is).
      const c = await post('/venues', { venue: 'Élysée Hall' });
      const d = await post('/venues', { venue: 'élysée HALL' });
      expect(d.body.id).toBe(c.body.id);
    });

    it('unlinks a trashed venue or organizer from its events, and never shows a trashed one in event JSON', async () => {
      const v = await post('/venues', { venue: 'Doomed Venue' });
      const o = await post('/organizers', { organizer: 'Doomed Org', email: 'doomed@example.org' });
      const ev = await post('/events', { title: 'Linked', start_date: '2025-06-01 10:00', end_date: '2025-06-01 12:00', venue: v.body.id, organizer: [o.body.id] });
      expect(ev.body.venue.id).toBe(v.body.id);
      await t.request('DELETE', `${NS}/venues/${v.body.id}`, { as: t.admin });
      await t.request('DELETE', `${NS}/organizers/${o.body.id}`, { as: t.admin });
      const after = await t.request('GET', `${NS}/events/${ev.body.id}`);
      expect(after.body.venue).toEqual([]);
      expect(after.body.organizer).toEqual([]);
      expect(after.text).not.toContain('doomed@example.org');
      expect(await t.db.selectFrom('event_organizers').select('event_id').where('organizer_id', '=', o.body.id).execute()).toEqual([]);

      // A link left behind (data from before this rule) is not shown either.
      const o2 = await post('/organizers', { organizer: 'Stale Org', email: 'stale@example.org' });
      const ev2 = await post('/events', { title: 'Stale', start_date: '2025-06-02 10:00', end_date: '2025-06-02 12:00', organizer: [o2.body.id] });
      await t.db.updateTable('posts').set({ status: 'trash' }).where('id', '=', o2.body.id).execute();
      const stale = await t.request('GET', `${NS}/events/${ev2.body.id}`);
      expect(stale.body.organizer).toEqual([]);
      expect(stale.text).not.toContain('stale@example.org');
    });

    it('lets editors see venues and organizers of their private, draft and pending upcoming events with only_with_upcoming', async () => {
      const editor = await t.createUser('editor');
      const names: string[] = [];
      for (const status of ['private', 'draft', 'pending']) {
        const v = await post('/venues', { venue: `Upcoming ${status} venue` });
        await post('/events', { title: `Upcoming ${status}`, status, start_date: '2025-07-01 10:00', end_date: '2025-07-01 12:00', venue: v.body.id });
        names.push(`Upcoming ${status} venue`);
      }
      const list = (as: TestUser | null) =>
        t.request('GET', `${NS}/venues`, { query: { only_with_upcoming: 'true', search: 'Upcoming', per_page: 50 }, as }).then((r) => (r.body.venues ?? []).map((v: Json) => v.venue).sort());
      expect(await list(null)).toEqual([]);
      expect(await list(editor)).toEqual(names.sort());
    });

    it('answers the rest_url it gives an editor (status=any: every status but the trash); others may not ask for any', async () => {
      const draft = await post('/venues', { venue: 'Any Status Draft Hall', status: 'draft' });
      for (const plural of ['venues', 'organizers', 'events']) {
        const first = await t.request('GET', `${NS}/${plural}`, { as: t.admin, query: { per_page: 50 } });
        expect(first.status).toBe(200);
        expect(first.body.rest_url).toContain('status=any');
        const url = new URL(first.body.rest_url);
        const again = await t.request('GET', url.pathname.replace(t.ctx.config.apiPath, ''), { as: t.admin, query: Object.fromEntries(url.searchParams) });
        expect(again.status, plural).toBe(200);
        expect(again.body[plural]).toEqual(first.body[plural]);
      }
      const drafts = await t.request('GET', `${NS}/venues`, { as: t.admin, query: { status: 'any', search: 'Any Status Draft' } });
      expect(drafts.body.venues.map((v: Json) => v.id)).toEqual([draft.body.id]);
      expect((await t.request('GET', `${NS}/venues`, { as: subscriber, query: { status: 'any' } })).status).toBe(400);
      expect((await t.request('GET', `${NS}/venues`, { query: { status: 'any' } })).status).toBe(400);
    });

    it('searches ignore the case of letters beyond ASCII on both engines (Ölhafen, Çağ)', async () => {
      const venue = await post('/venues', { venue: 'Ölhafen Halle', city: 'Köln' });
      const organizer = await post('/organizers', { organizer: 'Çağ Müzik' });
      for (const search of ['ölhafen', 'ÖLHAFEN', 'KÖLN']) expect((await t.request('GET', `${NS}/venues`, { query: { search } })).body.venues.map((v: Json) => v.id), search).toEqual([venue.body.id]);
      for (const search of ['çağ', 'ÇAĞ MÜZIK']) expect((await t.request('GET', `${NS}/organizers`, { query: { search } })).body.organizers.map((o: Json) => o.id), search).toEqual([organizer.body.id]);
    });

    it('matches venue search words in any order across the fields, state/province included', async () => {
      const v = await post('/venues', { venue: 'Harbour Lights', city: 'Halifax', stateprovince: 'Nova Scotia', country: 'Canada' });
      const found = async (search: string) => (await t.request('GET', `${NS}/venues`, { query: { search } })).body.venues?.map((x: Json) => x.id) ?? [];
      expect(await found('Nova Scotia')).toEqual([v.body.id]);
      expect(await found('halifax harbour')).toEqual([v.body.id]);
      expect(await found('scotia lights')).toEqual([v.body.id]);
      expect(await found('halifax zanzibar')).toEqual([]);
    });

    it('stores the state (United States or no country) or else the province as stateprovince when none is given', async () => {
      const us = await post('/venues', { venue: 'Capitol Lawn', state: 'DC', province: '', country: 'United States' });
      expect(us.body.stateprovince).toBe('DC');
      const ca = await post('/venues', { venue: 'Hill Lawn', state: '', province: 'ON', country: 'Canada' });
      expect(ca.body.stateprovince).toBe('ON');
      const abroad = await post('/venues', { venue: 'Abroad Barn', state: 'Somewhere', country: 'France' });
      expect(abroad.body.stateprovince).toBeUndefined();
      const given = await post('/venues', { venue: 'Given Barn', state: 'MA', stateprovince: 'Mass.' });
      expect(given.body.stateprovince).toBe('Mass.');
      const nested = await post('/events', { title: 'Lawn Party', start_date: '2025-05-01 10:00', end_date: '2025-05-01 11:00', venue: { venue: 'Union Lawn', province: 'Gauteng', country: 'South Africa' } });
      expect(nested.body.venue.stateprovince).toBe('Gauteng');
      const moved = await t.request('PATCH', `${NS}/venues/${us.body.id}`, { as: t.admin, json: { state: 'MD' } });
      expect(moved.body.stateprovince).toBe('MD');
      const kept = await t.request('PATCH', `${NS}/venues/${given.body.id}`, { as: t.admin, json: { state: 'NY' } });
      expect(kept.body.stateprovince).toBe('Mass.');
    });
  });

  describe('organizers', () => {
    it('creates, reads, updates, lists and trashes organizers', async () => {
      const res = await post('/organizers', { organizer: 'Parks Dept', email: 'parks@example.org', phone: '555', website: 'https://parks.example.org' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: res.body.id, author: String(t.admin.id), status: 'publish', date: '2025-04-01 12:00:00', date_utc: '2025-04-01 12:00:00',
        modified: '2025-04-01 12:00:00', modified_utc: '2025-04-01 12:00:00', url: 'http://example.test/organizer/parks-dept/', organizer: 'Parks Dept',
        slug: 'parks-dept', phone: '555', website: 'https://parks.example.org', email: 'parks@example.org',
        global_id: `example.test?id=${res.body.id}`, global_id_lineage: [`example.test?id=${res.body.id}`],
      });
      expect((await post('/organizers', { organizer: 'Parks Dept' })).body.id).toBe(res.body.id);
      expect((await post('/organizers', { organizer: 'Bad', email: 'nope' })).status).toBe(400);
      expect((await post('/organizers', { email: 'a@b.c' })).body.code).toBe('rest_missing_callback_param');
      const single = await t.request('GET', `${NS}/organizers/${res.body.id}`);
      expect(single.body.json_ld).toMatchObject({ '@type': 'Person', name: 'Parks Dept', email: 'parks@example.org' });
      const upd = await t.request('PATCH', `${NS}/organizers/${res.body.id}`, { as: t.admin, json: { phone: '777' } });
      expect(upd.body).toMatchObject({ phone: '777', email: 'parks@example.org' });
      const found = await t.request('GET', `${NS}/organizers`, { query: { search: 'parks@example' } });
      expect(found.body.organizers.map((o: Json) => o.id)).toEqual([res.body.id]);
      expect(Object.keys(found.body)).toEqual(['organizers', 'rest_url', 'total', 'total_pages']);
      const ev = await post('/events', { title: 'Picnic', start_date: '2025-05-01 12:00', end_date: '2025-05-01 14:00', organizer: res.body.id });
      expect(ev.body.organizer.map((o: Json) => o.id)).toEqual([res.body.id]);
      expect((await t.request('GET', `${NS}/organizers`, { query: { event: ev.body.id } })).body.organizers[0].id).toBe(res.body.id);
      expect((await t.request('GET', `${NS}/organizers/by-slug/parks-dept`)).body.id).toBe(res.body.id);
      const del = await t.request('DELETE', `${NS}/organizers/by-slug/parks-dept`, { as: t.admin });
      expect(del.body.status).toBe('trash');
      expect((await t.request('DELETE', `${NS}/organizers/${res.body.id}`, { as: t.admin })).body.code).toBe('organizer-is-in-trash');
      expect((await t.request('GET', `${NS}/organizers`, { query: { page: 99 } })).body.code).toBe('organizer-archive-page-not-found');
    });
  });
});
