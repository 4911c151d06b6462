import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { signInForTest } from '../../auth/test-sessions.js';
import { addNonce, addTicket, makePost, NS } from './fixtures.case.js';
import { DEFAULT_PROVIDER_OPTION } from './providers.js';

describe.each(DIALECTS)('tickets routes on %s', (engine) => {
  let t: TestApp;
  let subscriber: TestUser;
  let author: TestUser;
  let event: number;

  beforeAll(async () => {
    t = await startTestApp(engine);
    subscriber = await t.createUser('subscriber');
    author = await t.createUser('author');
    event = await makePost(t, { title: 'Spring Fair' });
  });
  afterAll(() => t.close());

  describe('POST /eventsuite/tickets/v1/tickets', () => {
    it('answers 403 forbidden "Invalid nonce" to a cookie session without a nonce (no arg validation upstream)', async () => {
      const s = await signInForTest(t.ctx, t.admin.id);
      const res = await t.request('POST', `${NS}/tickets`, { json: { post_id: event, provider: 'rsvp', name: 'Free' }, headers: { cookie: s.cookie, 'x-wp-nonce': s.nonce } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'forbidden', message: 'Invalid nonce', data: { status: 403 } });
    });

    it('creates for a cookie session with the add_ticket_nonce of the post', async () => {
      const s = await signInForTest(t.ctx, t.admin.id);
      const cookie = { cookie: s.cookie, 'x-wp-nonce': s.nonce };
      const list = await t.request('GET', `${NS}/tickets`, { query: { include_post: event }, headers: cookie });
      const res = await t.request('POST', `${NS}/tickets`, { json: { post_id: event, provider: 'rsvp', add_ticket_nonce: list.body.add_ticket_nonce }, headers: cookie });
      expect(res.status).toBe(202);
    });

    it('needs no nonce from an application-password client, and takes the default provider when none is sent', async () => {
      const res = await t.request('POST', `${NS}/tickets`, { json: { post_id: event, name: 'Walk-in' }, as: t.admin });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ title: 'Walk-in', provider: 'rsvp', cost: '$0.00' });
      await t.ctx.options.set(DEFAULT_PROVIDER_OPTION, 'tribe-commerce');
      try {
        const paid = await t.request('POST', `${NS}/tickets`, { json: { post_id: event, name: 'Paid walk-in', price: '7' }, as: t.admin });
        expect(paid.status).toBe(202);
        expect(paid.body).toMatchObject({ provider: 'tribe-commerce', cost: '$7.00' });
      } finally {
        await t.ctx.options.set(DEFAULT_PROVIDER_OPTION, 'rsvp');
      }
    });

    it('answers 403 for a user who cannot edit the post, even with a nonce of theirs', async () => {
      const nonce = await addNonce(t, event, subscriber);
      expect(nonce).toBe('');
      const res = await t.request('POST', `${NS}/tickets`, { json: { post_id: event, provider: 'rsvp', add_ticket_nonce: 'abc' }, as: subscriber });
      expect(res.status).toBe(403);
      expect((await t.request('POST', `${NS}/tickets`, { json: { post_id: event, provider: 'rsvp' } })).status).toBe(403);
    });

    it('refuses a cookie session a nonce issued for another post', async () => {
      const other = await makePost(t);
      const s = await signInForTest(t.ctx, t.admin.id);
      const cookie = { cookie: s.cookie, 'x-wp-nonce': s.nonce };
      const list = await t.request('GET', `${NS}/tickets`, { query: { include_post: other }, headers: cookie });
      const res = await t.request('POST', `${NS}/tickets`, { json: { post_id: event, provider: 'rsvp', add_ticket_nonce: list.body.add_ticket_nonce }, headers: cookie });
      expect(res.status).toBe(403);
    });

    it('answers 400 bad_request for an unknown provider', async () => {
      const res = await t.request('POST', `${NS}/tickets`, { json: { post_id: event, provider: 'woo', add_ticket_nonce: await addNonce(t, event) }, as: t.admin });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('bad_request');
      expect(res.body.message).toBe('Commerce Module invalid');
    });

    it.each([[''], [' '], [0], ['000'], ['0.00']])('creates a free paid-provider ticket (202) for a price of %j, as the original', async (price) => {
      const res = await t.request('POST', `${NS}/tickets`, {
        json: { post_id: event, provider: 'tribe-commerce', price, add_ticket_nonce: await addNonce(t, event) },
        as: t.admin,
      });
      expect(res.status).toBe(202);
      expect(res.body.cost_details.values).toHaveLength(1);
      expect(Number(res.body.cost_details.values[0])).toBe(0);
    });

    it('answers 400 tec-tickets-rest-invalid_price for a paid ticket sent without a price', async () => {
      const res = await t.request('POST', `${NS}/tickets`, { json: { post_id: event, provider: 'tribe-commerce', add_ticket_nonce: await addNonce(t, event) }, as: t.admin });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('tec-tickets-rest-invalid_price');
    });

    it.each([['abc'], ['-3'], [-5], ['0,0']])('answers 400 tec-tickets-rest-invalid_price for a paid price of %j', async (price) => {
      const res = await t.request('POST', `${NS}/tickets`, {
        json: { post_id: event, provider: 'tribe-commerce', price, add_ticket_nonce: await addNonce(t, event) },
        as: t.admin,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('tec-tickets-rest-invalid_price');
    });

    it('creates a paid ticket: 202 with the ticket object, the editor layer and its nonces', async () => {
      const body = await addTicket(t, event, {
        name: 'Early bird',
        description: '<b>Entry</b> to all stalls',
        price: '12',
        sku: 'EB-1',
        start_date: '2025-03-02',
        start_time: '10:20:00',
        end_date: '2099-12-31',
        ticket: { mode: 'own', capacity: '200' },
      });
      expect(Object.keys(body).slice(0, 12)).toEqual([
        'id', 'post_id', 'type', 'provider', 'global_id', 'global_id_lineage', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc',
      ]);
      expect(body).toMatchObject({
        post_id: event,
        type: 'default',
        provider: 'tribe-commerce',
        global_id: `example.test?type=tribe-commerce&id=${body.id}`,
        author: String(t.admin.id),
        status: 'publish',
        title: 'Early bird',
        description: 'Entry to all stalls',
        image: false,
        available_from: '2025-03-02 10:20:00',
        available_from_details: { year: '2025', month: '03', day: '02', hour: '10', minutes: '20', seconds: '00' },
        available_until: '2099-12-31 23:59:59',
        capacity: 200,
        capacity_details: { available_percentage: 100, available: 200, max: 200, sold: 0, pending: 0, global_stock_mode: 'own' },
        is_available: true,
        cost: '$12.00',
        cost_details: { currency_symbol: '$', currency_position: 'prefix', values: ['12'], suffix: null },
        sale_price_data: [],
        on_sale: null,
        iac: 'none',
        price_suffix: null,
        supports_attendee_information: false,
        attendees: [],
        checkin: { checked_in: 0, unchecked_in: 0, checked_in_percentage: 100, unchecked_in_percentage: 0 },
        rest_url: `http://example.test/wp-json/eventsuite/tickets/v1/tickets/${body.id}`,
        capacity_type: 'own',
        sku: 'EB-1',
        available_from_start_time: '10:20:00',
        available_from_end_time: '23:59:59',
        totals: { stock: 200, sold: 0, pending: 0 },
      });
      expect(body.edit_ticket_nonce).toMatch(/^[0-9a-f]{10}$/);
      expect(body.remove_ticket_nonce).toMatch(/^[0-9a-f]{10}$/);
      expect(body.global_id_lineage).toEqual([body.global_id]);
    });

    it('creates an RSVP ticket costing $0.00, unlimited, on sale from now', async () => {
      const body = await addTicket(t, event, { provider: 'Tribe__Tickets__RSVP', name: 'RSVP', price: '99' });
      expect(body.provider).toBe('rsvp');
      expect(body.cost).toBe('$0.00');
      expect(body.capacity).toBe(-1);
      expect(body.capacity_details).toMatchObject({ available_percentage: 100, available: -1 });
      expect(body.available_from).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(body.available_until).toBe('');
      expect(body.available_until_details).toEqual({ year: '', month: '', day: '', hour: '', minutes: '', seconds: '' });
      expect(body.rsvp).toEqual({ rsvp_going: 0, rsvp_not_going: 0 });
    });

    it('lets an author add tickets to their own posts', async () => {
      const own = await makePost(t, { author: author.id });
      const body = await addTicket(t, own, { name: 'Author ticket' }, author);
      expect(body.author).toBe(String(author.id));
    });

    it('refuses a sale that ends before it starts and an invalid capacity', async () => {
      const nonce = await addNonce(t, event);
      const late = await t.request('POST', `${NS}/tickets`, {
        json: { post_id: event, provider: 'rsvp', add_ticket_nonce: nonce, start_date: '2030-01-02', end_date: '2030-01-01' },
        as: t.admin,
      });
      expect(late.status).toBe(400);
      expect(late.body.code).toBe('bad_request');
      const cap = await t.request('POST', `${NS}/tickets`, { json: { post_id: event, provider: 'rsvp', add_ticket_nonce: nonce, ticket: { capacity: 'lots' } }, as: t.admin });
      expect(cap.status).toBe(400);
    });
  });

  describe('GET /eventsuite/tickets/v1/tickets/{id}', () => {
    it('shows the public object to anonymous callers: no manage totals, no editor layer', async () => {
      const created = await addTicket(t, event, { ticket: { mode: 'own', capacity: 10 } });
      const res = await t.request('GET', `${NS}/tickets/${created.id}`);
      expect(res.status).toBe(200);
      expect(res.body.capacity_details).toEqual({ available_percentage: 100, available: 10 });
      expect(res.body).not.toHaveProperty('checkin');
      expect(res.body).not.toHaveProperty('edit_ticket_nonce');
      expect(res.body).not.toHaveProperty('sku');
      expect(Object.keys(res.body).at(-1)).toBe('rest_url');
    });

    it('answers 400 for id 0, 404 ticket-not-found (message = code) for an unknown ticket', async () => {
      expect((await t.request('GET', `${NS}/tickets/0`)).status).toBe(400);
      const res = await t.request('GET', `${NS}/tickets/999999`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'ticket-not-found', message: 'ticket-not-found', data: { status: 404 } });
      const post = await t.request('GET', `${NS}/tickets/${event}`);
      expect(post.status).toBe(404);
    });

    it('answers 401 ticket-not-accessible when the post is a draft, unless the caller may read it', async () => {
      const draft = await makePost(t, { status: 'draft' });
      const ticket = await addTicket(t, draft);
      const anon = await t.request('GET', `${NS}/tickets/${ticket.id}`);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual({ code: 'ticket-not-accessible', message: 'ticket-not-accessible', data: { status: 401 } });
      expect((await t.request('GET', `${NS}/tickets/${ticket.id}`, { as: subscriber })).status).toBe(401);
      expect((await t.request('GET', `${NS}/tickets/${ticket.id}`, { as: t.admin })).status).toBe(200);
    });

    it('redacts every value for anonymous callers when the post is password-protected', async () => {
      const locked = await makePost(t, { password: 'secret' });
      const ticket = await addTicket(t, locked, { price: '5' });
      const res = await t.request('GET', `${NS}/tickets/${ticket.id}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(0);
      expect(res.body.title).toBe('No Access');
      expect(res.body.is_available).toBeNull();
      expect(res.body.capacity_details).toEqual({ available_percentage: 0, available: 0 });
      // As the original's snapshot: numeric strings become 0, null becomes "No Access".
      expect(res.body).toMatchObject({ author: 0, image: null, price_suffix: 'No Access', available_from_details: { year: 0, month: 0 } });
      expect(res.body.cost_details).toMatchObject({ values: [0], suffix: 'No Access', currency_symbol: 'No Access' });
      expect((await t.request('GET', `${NS}/tickets/${ticket.id}`, { as: t.admin })).body.title).toBe('General admission');
    });
  });

  describe('POST|PUT|PATCH /eventsuite/tickets/v1/tickets/{id}', () => {
    it('answers 400 rest_missing_callback_param without post_id and the nonce', async () => {
      const ticket = await addTicket(t, event);
      const res = await t.request('PATCH', `${NS}/tickets/${ticket.id}`, { json: { name: 'x' }, as: t.admin });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_missing_callback_param');
      expect(res.body.data.params).toEqual(['post_id', 'edit_ticket_nonce']);
    });

    it('changes only the fields sent, with the ticket-bound nonce; 202 with the ticket', async () => {
      const ticket = await addTicket(t, event, { description: 'Keep me', sku: 'S-1', price: '8' });
      const res = await t.request('PUT', `${NS}/tickets/${ticket.id}`, {
        form: { post_id: event, edit_ticket_nonce: ticket.edit_ticket_nonce, name: 'Renamed', price: '9.50' },
        as: t.admin,
      });
      expect(res.status).toBe(202);
      expect(res.body.title).toBe('Renamed');
      expect(res.body.description).toBe('Keep me');
      expect(res.body.sku).toBe('S-1');
      expect(res.body.cost).toBe('$9.50');
    });

    it('refuses a nonce of another ticket, another user, or another post (403 / 400)', async () => {
      const a = await addTicket(t, event);
      const b = await addTicket(t, event);
      const cross = await t.request('POST', `${NS}/tickets/${a.id}`, { json: { post_id: event, edit_ticket_nonce: b.edit_ticket_nonce, name: 'x' }, as: t.admin });
      expect(cross.status).toBe(403);
      expect(cross.body.code).toBe('forbidden');
      const other = await t.request('POST', `${NS}/tickets/${a.id}`, { json: { post_id: event, edit_ticket_nonce: a.edit_ticket_nonce, name: 'x' }, as: author });
      expect(other.status).toBe(403);
      const elsewhere = await makePost(t);
      const moved = await t.request('POST', `${NS}/tickets/${a.id}`, { json: { post_id: elsewhere, edit_ticket_nonce: a.edit_ticket_nonce }, as: t.admin });
      expect(moved.status).toBe(400);
      expect(moved.body.code).toBe('bad_request');
    });

    it('moves seats between own and shared capacity when the mode changes', async () => {
      const post = await makePost(t);
      const shared = await addTicket(t, post, { ticket: { mode: 'global', event_capacity: 30 } });
      expect(shared.capacity).toBe(30);
      expect(shared.capacity_details.global_stock_mode).toBe('global');
      const capped = await addTicket(t, post, { ticket: { mode: 'capped', capacity: 10 } });
      expect(capped.capacity).toBe(10);
      const tooBig = await t.request('PATCH', `${NS}/tickets/${capped.id}`, {
        json: { post_id: post, edit_ticket_nonce: capped.edit_ticket_nonce, ticket: { mode: 'capped', capacity: 31 } },
        as: t.admin,
      });
      expect(tooBig.status).toBe(400);
      const own = await t.request('PATCH', `${NS}/tickets/${capped.id}`, {
        json: { post_id: post, edit_ticket_nonce: capped.edit_ticket_nonce, ticket: { mode: 'own', capacity: 4 } },
        as: t.admin,
      });
      expect(own.status).toBe(202);
      expect(own.body.capacity_type).toBe('own');
      expect(own.body.capacity).toBe(4);
      const sharedOnly = await t.request('PATCH', `${NS}/tickets/${shared.id}`, {
        json: { post_id: post, edit_ticket_nonce: shared.edit_ticket_nonce, ticket: { event_capacity: 40 } },
        as: t.admin,
      });
      expect(sharedOnly.body).toMatchObject({ capacity_type: 'global', capacity: 40 });
    });
  });

  describe('DELETE /eventsuite/tickets/v1/tickets/{id}', () => {
    it('answers 400 without args, 403 with a bad nonce, 202 true, then 404', async () => {
      const ticket = await addTicket(t, event);
      const missing = await t.request('DELETE', `${NS}/tickets/${ticket.id}`, { as: t.admin });
      expect(missing.status).toBe(400);
      expect(missing.body.data.params).toEqual(['post_id', 'remove_ticket_nonce']);
      const bad = await t.request('DELETE', `${NS}/tickets/${ticket.id}`, { form: { post_id: event, remove_ticket_nonce: ticket.edit_ticket_nonce }, as: t.admin });
      expect(bad.status).toBe(403);
      const ok = await t.request('DELETE', `${NS}/tickets/${ticket.id}`, { form: { post_id: event, remove_ticket_nonce: ticket.remove_ticket_nonce }, as: t.admin });
      expect(ok.status).toBe(202);
      expect(ok.text).toBe('true');
      expect((await t.request('GET', `${NS}/tickets/${ticket.id}`)).status).toBe(404);
    });

    it('answers the read errors first (404 for an unknown ticket)', async () => {
      const res = await t.request('DELETE', `${NS}/tickets/999998`, { form: { post_id: event, remove_ticket_nonce: 'x' }, as: t.admin });
      expect(res.status).toBe(404);
    });
  });

  describe('GET /eventsuite/tickets/v1/tickets', () => {
    let listPost: number;
    let ids: number[];

    beforeAll(async () => {
      listPost = await makePost(t, { title: 'Listing' });
      const a = await addTicket(t, listPost, { name: 'Alpha', price: '5', ticket: { mode: 'own', capacity: 0 } });
      const b = await addTicket(t, listPost, { name: 'Bravo', provider: 'rsvp', description: 'needle in here' });
      const c = await addTicket(t, listPost, { name: 'Charlie', price: '20', start_date: '2090-01-01', ticket: { mode: 'own', capacity: 5 } });
      ids = [a.id, b.id, c.id];
    });

    it('answers the envelope, ET headers and rest_url with the sent params', async () => {
      const res = await t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, per_page: 2 } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'tickets']);
      expect(res.body.total).toBe(3);
      expect(res.body.total_pages).toBe(2);
      expect(res.body.tickets.map((x: any) => x.title)).toEqual(['Alpha', 'Bravo']);
      expect(res.headers['x-et-total']).toBe('3');
      expect(res.headers['x-et-total-pages']).toBe('2');
      expect(res.body.rest_url).toBe(`http://example.test/wp-json/eventsuite/tickets/v1/tickets/?include_post=${listPost}&per_page=2`);
      expect(res.body).not.toHaveProperty('add_ticket_nonce');
    });

    it('answers 400 rest_invalid_param for page and per_page outside the spec bounds (not clamped)', async () => {
      for (const query of <Record<string, string | number>[]>[{ per_page: 0 }, { per_page: 101 }, { page: 0 }, { per_page: 'x' }]) {
        const res = await t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, ...query } });
        expect(res.status, JSON.stringify(query)).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
        expect(Object.keys(res.body.data.params)).toEqual(Object.keys(query));
      }
      const big = await t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, per_page: 100 } });
      expect(big.status).toBe(200);
      expect(big.body.tickets).toHaveLength(3);
    });

    it('answers 400 invalid-page-number past the last page and rest_invalid_param for a lower-case order', async () => {
      const past = await t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, page: 3, per_page: 2 } });
      expect(past.status).toBe(400);
      expect(past.body).toEqual({
        code: 'invalid-page-number',
        message: 'The page number requested is larger than the number of pages available.',
        data: { status: 400 },
      });
      expect((await t.request('GET', `${NS}/tickets`, { query: { order: 'asc' } })).body.code).toBe('rest_invalid_param');
      expect((await t.request('GET', `${NS}/tickets`, { query: { orderby: 'date' } })).status).toBe(400);
      const empty = await t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, search: 'nothing-like-this' } });
      expect(empty.body).toMatchObject({ total: 0, total_pages: 0, tickets: [] });
    });

    it('orders titles case aside, as the original database collation does (the default order)', async () => {
      const post = await makePost(t, { title: 'Mixed case' });
      for (const name of ['banana', 'Apple', 'cherry', 'Date']) await addTicket(t, post, { name });
      const titles = async (query: Record<string, string>) =>
        ((await t.request('GET', `${NS}/tickets`, { query: { include_post: post, ...query } })).body.tickets as { title: string }[]).map((x) => x.title);
      expect(await titles({})).toEqual(['Apple', 'banana', 'cherry', 'Date']);
      expect(await titles({ order: 'DESC' })).toEqual(['Date', 'cherry', 'banana', 'Apple']);
    });

    it('answers 400 for include_post naming no post and for a bad date', async () => {
      expect((await t.request('GET', `${NS}/tickets`, { query: { include_post: '999999' } })).status).toBe(400);
      const empty = await t.request('GET', `${NS}/tickets`, { query: { include_post: '' } });
      expect(empty.status).toBe(400);
      expect(empty.body.code).toBe('rest_invalid_param');
      expect((await t.request('GET', `${NS}/tickets`, { query: { include: 'a,b' } })).status).toBe(400);
      expect((await t.request('GET', `${NS}/tickets`, { query: { after: 'not a date' } })).status).toBe(400);
    });

    it('filters by search, provider, availability, currency, include/exclude and the sale window', async () => {
      const q = (extra: Record<string, string | number | boolean>) =>
        t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, ...extra } }).then((r) => r.body.tickets.map((x: any) => x.title));
      expect(await q({ search: 'needle' })).toEqual(['Bravo']);
      expect(await q({ provider: 'rsvp' })).toEqual(['Bravo']);
      expect(await q({ provider: 'tpp,woo' })).toEqual(['Alpha', 'Charlie']);
      expect(await q({ provider: 'edd' })).toEqual([]);
      expect(await q({ is_available: false })).toEqual(['Alpha']);
      expect(await q({ is_available: true })).toEqual(['Bravo', 'Charlie']);
      // Free RSVP tickets are priced in no currency.
      expect(await q({ currency: 'usd' })).toEqual(['Alpha', 'Charlie']);
      expect(await q({ currency: 'EUR' })).toEqual([]);
      expect(await q({ include: `${ids[2]},${ids[0]}`, orderby: 'include' })).toEqual(['Charlie', 'Alpha']);
      expect(await q({ exclude: ids[0]! })).toEqual(['Bravo', 'Charlie']);
      // The sale starts on or after available_from / ends on or before available_until (no end here).
      expect(await q({ available_from: '2080-01-01' })).toEqual(['Charlie']);
      expect(await q({ available_until: '2080-01-01' })).toEqual(['Alpha', 'Bravo', 'Charlie']);
      expect(await q({ after: '2000-01-01' })).toHaveLength(3);
      expect(await q({ before: '2000-01-01' })).toEqual([]);
      expect(await q({ attendee_information_available: true })).toEqual([]);
      expect(await q({ orderby: 'title', order: 'DESC' })).toEqual(['Charlie', 'Bravo', 'Alpha']);
      expect(await q({ orderby: 'id', offset: 1 })).toEqual(['Bravo', 'Charlie']);
      const other = await t.request('GET', `${NS}/tickets`, { query: { exclude_post: listPost, include: ids.join(',') } });
      expect(other.body.total).toBe(0);
    });

    it('filters by the sale window as the original: start on/after available_from, end on/before available_until, unset bounds pass', async () => {
      const post = await makePost(t, { title: 'Sale windows' });
      const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
      const windows: Record<string, [string, string]> = { open: ['', ''], noEnd: [day(-30), ''], lastWeek: [day(-7), day(7)], soon: [day(1), day(3)], noStart: ['', day(14)] };
      for (const [name, [start, end]] of Object.entries(windows)) {
        const { id } = await addTicket(t, post, { name, provider: 'rsvp' });
        await t.db.updateTable('ticket_details').set({ start_gmt: start, end_gmt: end }).where('ticket_id', '=', id).execute();
      }
      const q = (extra: Record<string, string>) =>
        t.request('GET', `${NS}/tickets`, { query: { include_post: post, ...extra } }).then((r) => r.body.tickets.map((x: any) => x.title).sort());
      expect(await q({ available_from: '-8 days' })).toEqual(['lastWeek', 'noStart', 'open', 'soon']);
      expect(await q({ available_until: String(Math.floor(Date.now() / 1000) + 2 * 86_400) })).toEqual(['noEnd', 'open']);
      expect(await q({ available_from: '-5 days', available_until: '+5 days' })).toEqual(['open', 'soon']);
    });

    it('counts with the offset applied, as the original: total 0 once the offset reaches the last match', async () => {
      const at = async (offset: number) => {
        const res = await t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, offset } });
        return [res.body.total, res.body.total_pages, res.headers['x-et-total'], res.headers['x-et-total-pages'], res.body.tickets.length];
      };
      expect(await at(1)).toEqual([3, 1, '3', '1', 2]);
      expect(await at(2)).toEqual([3, 1, '3', '1', 1]);
      expect(await at(3)).toEqual([0, 0, '0', '0', 0]);
      expect(await at(5)).toEqual([0, 0, '0', '0', 0]);
      expect((await t.request('GET', `${NS}/tickets`, { query: { offset: 'foo' } })).status).toBe(400);
    });

    it('shows drafts only to those with access, and the manage-only bounds only to them', async () => {
      const draft = await makePost(t, { status: 'draft' });
      await addTicket(t, draft, { name: 'Hidden', ticket: { mode: 'own', capacity: 3 } });
      expect((await t.request('GET', `${NS}/tickets`, { query: { include_post: draft } })).body.total).toBe(0);
      expect((await t.request('GET', `${NS}/tickets`, { query: { include_post: draft, post_status: 'draft' } })).body.total).toBe(0);
      expect((await t.request('GET', `${NS}/tickets`, { query: { include_post: draft }, as: t.admin })).body.total).toBe(1);
      const bounded = await t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, capacity_min: 1, capacity_max: 5 }, as: t.admin });
      expect(bounded.body.tickets.map((x: any) => x.title)).toEqual(['Charlie']);
      const anon = await t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, capacity_min: 1, capacity_max: 5 } });
      expect(anon.body.total).toBe(3);
      const zeroAttendees = await t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, attendees_min: 0, attendees_max: 0, checkedin_min: 0, checkedin_max: 0 }, as: t.admin });
      expect(zeroAttendees.body.total).toBe(3);
      const oneAttendee = await t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, attendees_min: 1, attendees_max: 9 }, as: t.admin });
      expect(oneAttendee.body.total).toBe(0);
    });

    it('applies each manage-only bound alone', async () => {
      const titles = (query: Record<string, number>) =>
        t.request('GET', `${NS}/tickets`, { query: { include_post: listPost, ...query }, as: t.admin }).then((r) => r.body.tickets.map((x: any) => x.title));
      expect(await titles({ capacity_min: 1 })).toEqual(['Charlie']);
      expect(await titles({ capacity_max: 0 })).toEqual(['Alpha']);
      expect(await titles({ attendees_min: 1 })).toEqual([]);
      expect(await titles({ attendees_max: 0 })).toEqual(['Alpha', 'Bravo', 'Charlie']);
      expect(await titles({ checkedin_min: 1 })).toEqual([]);
      expect(await titles({ checkedin_max: 0 })).toEqual(['Alpha', 'Bravo', 'Charlie']);
    });

    it('answers null on_sale in a public single ticket (no provider here sets it)', async () => {
      const res = await t.request('GET', `${NS}/tickets/${ids[0]}`);
      expect(res.status).toBe(200);
      expect(res.body.on_sale).toBeNull();
    });

    it('answers 4xx, never 500, for IDs and bounds beyond what the database holds', async () => {
      const huge = '99999999999';
      expect((await t.request('GET', `${NS}/tickets/${huge}`)).status).toBe(404);
      expect((await t.request('GET', `${NS}/tickets/2147483648`)).body.code).toBe('ticket-not-found');
      expect((await t.request('GET', `${NS}/tickets`, { query: { include_post: huge } })).status).toBe(400);
      expect((await t.request('GET', `${NS}/tickets`, { query: { offset: '1e30', page: 1 } })).status).toBe(200);
      expect((await t.request('GET', `${NS}/tickets`, { query: { capacity_min: 0, capacity_max: huge }, as: t.admin })).status).toBe(200);
      expect((await t.request('GET', `${NS}/attendees`, { query: { post_id: huge } })).status).toBe(400);
      expect((await t.request('GET', `${NS}/qr/${huge}`)).status).toBe(400);
      expect((await t.request('GET', `${NS}/orders/${huge}`, { as: t.admin })).status).toBe(400);
      expect((await t.request('POST', `${NS}/cart`, { json: { provider: 'rsvp', tickets: [{ ticket_id: huge, quantity: 1 }] } })).status).toBe(400);
    });

    it('hands editors listing one post the add_ticket_nonce for it', async () => {
      const res = await t.request('GET', `${NS}/tickets`, { query: { include_post: listPost }, as: t.admin });
      expect(res.body.add_ticket_nonce).toMatch(/^[0-9a-f]{10}$/);
    });
  });
});
