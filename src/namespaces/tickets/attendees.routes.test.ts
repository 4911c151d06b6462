import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { setCheckinApiKey } from './access.js';
import { addTicket, makePost, NS } from './fixtures.case.js';

describe.each(DIALECTS)('attendees routes on %s', (engine) => {
  let t: TestApp;
  let editor: TestUser;
  let shown: number;
  let hidden: number;
  let rsvp: any;
  let paid: any;

  const create = (json: Record<string, unknown>, as: TestUser | null = t.admin) => t.request('POST', `${NS}/attendees`, { json, as });

  beforeAll(async () => {
    t = await startTestApp(engine);
    editor = await t.createUser('editor');
    shown = await makePost(t, { title: 'Open day', content: 'Who is coming? [tribe_attendees_list]' });
    hidden = await makePost(t, { title: 'Private party' });
    rsvp = await addTicket(t, shown, { provider: 'rsvp', name: 'Free entry', ticket: { mode: 'own', capacity: 50 } });
    paid = await addTicket(t, hidden, { name: 'VIP', price: '25' });
  });
  afterAll(() => t.close());

  describe('POST /eventsuite/tickets/v1/attendees', () => {
    it('answers 400 before 401: bad args first, then rest_forbidden for callers without manage access', async () => {
      const bad = await create({ ticket_id: shown, full_name: 'A', email: 'a@example.test' }, null);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('rest_invalid_param');
      expect(bad.body.data.params).toEqual({ ticket_id: 'Invalid parameter.' });
      const missing = await create({ ticket_id: rsvp.id }, null);
      expect(missing.status).toBe(400);
      expect(missing.body.data.params).toEqual(['full_name', 'email']);
      expect((await create({ ticket_id: rsvp.id, full_name: 'A', email: 'not-an-email' }, null)).status).toBe(400);
      const anon = await create({ ticket_id: rsvp.id, full_name: 'A', email: 'a@example.test' }, null);
      expect(anon.status).toBe(401);
      expect(anon.body.code).toBe('rest_forbidden');
      expect((await create({ ticket_id: rsvp.id, full_name: 'A', email: 'a@example.test' }, editor)).status).toBe(403);
    });

    it('answers 400 invalid-attendee-status listing the provider statuses', async () => {
      const res = await create({ ticket_id: rsvp.id, full_name: 'A', email: 'a@example.test', attendee_status: 'maybe' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'invalid-attendee-status', message: 'Supported statuses for this attendee are: yes | no', data: { status: 400 } });
    });

    it('creates an RSVP attendee (opted out by default): 201 with the manage view', async () => {
      const res = await create({ ticket_id: rsvp.id, full_name: 'Ana Costa', email: 'ana@example.test', attendee_status: 'going' });
      expect(res.status).toBe(201);
      const b = res.body;
      expect(Object.keys(b)).toEqual([
        'id', 'post_id', 'ticket_id', 'global_id', 'global_id_lineage', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc',
        'rest_url', 'ticket', 'title', 'optout', 'provider', 'order', 'sku', 'email', 'checked_in', 'checkin_details', 'is_subscribed',
        'is_purchaser', 'rsvp_going',
      ]);
      expect(b).toMatchObject({
        post_id: shown,
        ticket_id: rsvp.id,
        global_id: `example.test?type=attendee&id=${b.id}`,
        status: 'publish',
        title: 'Ana Costa',
        optout: true,
        provider: 'rsvp',
        order: b.id,
        email: 'ana@example.test',
        checked_in: false,
        checkin_details: false,
        is_subscribed: false,
        is_purchaser: true,
        rsvp_going: true,
        rest_url: `http://example.test/wp-json/eventsuite/tickets/v1/attendees/${b.id}`,
      });
      expect(b.ticket).toEqual({
        id: rsvp.id,
        title: 'Free entry',
        description: '',
        raw_price: '0',
        formatted_price: '0.00',
        currency_config: { symbol: '&#x24;', placement: 'prefix', decimal_point: '.', thousands_sep: ',', number_of_decimals: 2 },
        // RSVP: the date only (the original's RSVP ticket object keeps the time apart).
        start_sale: rsvp.available_from.slice(0, 10),
        end_sale: '',
      });
      expect(rsvp.available_from).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    });

    it('takes a seat: 409 ticket-capacity-not-available when the ticket is full', async () => {
      const small = await addTicket(t, hidden, { name: 'One seat', price: '1', ticket: { mode: 'own', capacity: 1 } });
      expect((await create({ ticket_id: small.id, full_name: 'B', email: 'b@example.test' })).status).toBe(201);
      const full = await create({ ticket_id: small.id, full_name: 'C', email: 'c@example.test' });
      expect(full.status).toBe(409);
      expect(full.body.code).toBe('ticket-capacity-not-available');
      expect(full.body.message).toBe('The ticket "One seat" does not have that many available for purchase.');
      expect((await create({ ticket_id: small.id, full_name: 'D', email: 'd@example.test', attendee_status: 'refunded' })).status).toBe(201);
    });
  });

  describe('GET /eventsuite/tickets/v1/attendees and /attendees/{id}', () => {
    let publicOne: number;
    let optedOut: number;
    let notGoing: number;
    let vip: number;

    beforeAll(async () => {
      publicOne = (await create({ ticket_id: rsvp.id, full_name: 'Bea Public', email: 'bea@example.test', optout: false })).body.id;
      optedOut = (await create({ ticket_id: rsvp.id, full_name: 'Carl Hidden', email: 'carl@example.test' })).body.id;
      notGoing = (await create({ ticket_id: rsvp.id, full_name: 'Dora No', email: 'dora@example.test', attendee_status: 'no', optout: 0 })).body.id;
      vip = (await create({ ticket_id: paid.id, full_name: 'Eve Vip', email: 'eve@example.test', optout: 'false' })).body.id;
    });

    it('shows anonymous callers only public attendees of posts showing their list, without e-mails', async () => {
      const res = await t.request('GET', `${NS}/attendees`, { query: { include_post: `${shown},${hidden}` } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'attendees']);
      expect(res.body.attendees.map((a: any) => a.id)).toEqual([publicOne]);
      expect(res.body.attendees[0]).not.toHaveProperty('email');
      expect(res.headers['x-et-total']).toBe('1');
    });

    it('shows everything with manage access (administrator, or the check-in api_key)', async () => {
      const admin = await t.request('GET', `${NS}/attendees`, { query: { include_post: `${shown},${hidden}`, per_page: 50 }, as: t.admin });
      const ids = admin.body.attendees.map((a: any) => a.id);
      expect(ids).toEqual(expect.arrayContaining([publicOne, optedOut, notGoing, vip]));
      expect(admin.body.attendees.find((a: any) => a.id === optedOut)).toMatchObject({ title: 'Carl Hidden', optout: true, email: 'carl@example.test' });
      expect((await t.request('GET', `${NS}/attendees`, { query: { api_key: 'wrong1' } })).body.attendees.map((a: any) => a.id)).not.toContain(vip);
      await setCheckinApiKey(t.ctx, 'k3y-123');
      const keyed = await t.request('GET', `${NS}/attendees`, { query: { include: vip, api_key: 'k3y-123' } });
      expect(keyed.body.attendees[0]).toMatchObject({ id: vip, email: 'eve@example.test', provider: 'tribe-commerce', order: '' });
      expect((await t.request('GET', `${NS}/attendees`, { query: { include: vip }, as: editor })).body.total).toBe(0);
    });

    it('filters by ticket, post, RSVP status, name, e-mail, price, check-in, order status and ID', async () => {
      const ids = async (query: Record<string, string | number | boolean>) =>
        (await t.request('GET', `${NS}/attendees`, { query: { per_page: 100, ...query }, as: t.admin })).body.attendees.map((a: any) => a.id);
      expect(await ids({ ticket_id: paid.id })).toEqual([vip]);
      expect(await ids({ include_ticket: paid.id })).toEqual([vip]);
      expect(await ids({ post_id: hidden, exclude_ticket: paid.id })).not.toContain(vip);
      expect(await ids({ include_post: shown, rsvp_going_status: 'no' })).toEqual([notGoing]);
      expect(await ids({ include_post: `${shown},${hidden}`, rsvp_going_status: 'not-going' })).toEqual(expect.arrayContaining([notGoing, vip]));
      expect(await ids({ name: 'bea' })).toEqual([publicOne]);
      expect(await ids({ email: 'EVE@' })).toEqual([vip]);
      expect(await ids({ search: 'carl' })).toEqual([optedOut]);
      expect(await ids({ include_post: hidden, price_min: 20, price_max: 30 })).toEqual([vip]);
      expect(await ids({ include_post: shown, order_status: 'no' })).toEqual([notGoing]);
      expect(await ids({ include_post: shown, checkedin: true })).toEqual([]);
      expect(await ids({ include: `${vip},${publicOne}`, orderby: 'include' })).toEqual([vip, publicOne]);
      expect(await ids({ include: `${vip},${publicOne}`, orderby: 'title', order: 'DESC' })).toEqual([vip, publicOne]);
      expect(await ids({ include: `${vip},${publicOne}`, exclude: vip })).toEqual([publicOne]);
      expect(await ids({ include: vip, provider: 'rsvp' })).toEqual([]);
      expect(await ids({ include: vip, attendee_information_available: true })).toEqual([]);
      expect(await ids({ include: vip, after: '2000-01-01', before: '2999-01-01' })).toEqual([vip]);
    });

    it('answers 400 for unknown posts and tickets in filters, and invalid-page-number past the end', async () => {
      expect((await t.request('GET', `${NS}/attendees`, { query: { post_id: 999999 } })).status).toBe(400);
      expect((await t.request('GET', `${NS}/attendees`, { query: { ticket_id: shown } })).status).toBe(400);
      expect((await t.request('GET', `${NS}/attendees`, { query: { include_ticket: `${rsvp.id},${shown}` } })).status).toBe(400);
      expect((await t.request('GET', `${NS}/attendees`, { query: { orderby: 'name' } })).status).toBe(400);
      const past = await t.request('GET', `${NS}/attendees`, { query: { page: 5 }, as: t.admin });
      expect(past.status).toBe(400);
      expect(past.body.code).toBe('invalid-page-number');
    });

    it('counts with the offset applied, as the original: total 0 once the offset reaches the last match', async () => {
      const at = async (offset: number) => {
        const res = await t.request('GET', `${NS}/attendees`, { query: { include: `${publicOne},${vip}`, offset }, as: t.admin });
        return [res.body.total, res.body.total_pages, res.headers['x-et-total'], res.body.attendees.length];
      };
      expect(await at(1)).toEqual([2, 1, '2', 1]);
      expect(await at(2)).toEqual([0, 0, '0', 0]);
    });

    it('answers 400 rest_invalid_param for page and per_page outside the spec bounds (not clamped)', async () => {
      for (const query of <Record<string, number>[]>[{ per_page: 0 }, { per_page: 101 }, { page: 0 }]) {
        const res = await t.request('GET', `${NS}/attendees`, { query, as: t.admin });
        expect(res.status, JSON.stringify(query)).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
      }
      expect((await t.request('GET', `${NS}/attendees`, { query: { per_page: 100 }, as: t.admin })).status).toBe(200);
    });

    it('GET /attendees/{id}: 404 for managers when not an attendee, 401 attendee-not-accessible for the public', async () => {
      expect((await t.request('GET', `${NS}/attendees/${publicOne}`)).body).toMatchObject({ id: publicOne, title: 'Bea Public', optout: false });
      const hiddenOne = await t.request('GET', `${NS}/attendees/${optedOut}`);
      expect(hiddenOne.status).toBe(401);
      expect(hiddenOne.body).toEqual({ code: 'attendee-not-accessible', message: 'The requested attendee is not accessible', data: { status: 401 } });
      expect((await t.request('GET', `${NS}/attendees/${vip}`)).status).toBe(401);
      expect((await t.request('GET', `${NS}/attendees/${vip}`, { as: t.admin })).body.email).toBe('eve@example.test');
      const none = await t.request('GET', `${NS}/attendees/${shown}`, { as: t.admin });
      expect(none.status).toBe(404);
      expect(none.body.code).toBe('attendee-not-found');
      expect((await t.request('GET', `${NS}/attendees/${shown}`)).status).toBe(401);
      expect((await t.request('GET', `${NS}/attendees/0`)).status).toBe(400);
    });
  });

  describe('POST|PUT|PATCH /eventsuite/tickets/v1/attendees/{id}', () => {
    it('checks in with who and when (201), refuses a second check-in, and checks out', async () => {
      const id = (await create({ ticket_id: rsvp.id, full_name: 'Finn', email: 'finn@example.test', attendee_status: 'yes' })).body.id;
      expect((await t.request('PATCH', `${NS}/attendees/${id}`, { json: { check_in: true } })).status).toBe(401);
      const res = await t.request('PATCH', `${NS}/attendees/${id}`, { json: { check_in: true }, as: t.admin });
      expect(res.status).toBe(201);
      expect(res.body.checked_in).toBe(true);
      expect(res.body.checkin_details).toMatchObject({ source: 'site', author: t.admin.id });
      expect(res.body.checkin_details.date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(res.body.checkin_details.date_details.year).toMatch(/^\d{4}$/);
      const again = await t.request('POST', `${NS}/attendees/${id}`, { form: { check_in: '1' }, as: t.admin });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ code: 'tec-et-attendee-already-checked-in', message: 'Attendee is already checked in.', data: { status: 400 } });
      const out = await t.request('PUT', `${NS}/attendees/${id}`, { json: { check_in: false }, as: t.admin });
      expect(out.status).toBe(201);
      expect(out.body).toMatchObject({ checked_in: false, checkin_details: false });
      expect((await t.request('PATCH', `${NS}/attendees/${id}`, { json: { check_in: 'maybe' }, as: t.admin })).status).toBe(400);
    });

    it('refuses check-in of an attendee whose order is not complete', async () => {
      const id = (await create({ ticket_id: paid.id, full_name: 'Gus', email: 'gus@example.test', attendee_status: 'pending' })).body.id;
      const res = await t.request('PATCH', `${NS}/attendees/${id}`, { json: { check_in: true }, as: t.admin });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('tec-et-attendee-invalid-check-in');
      expect(res.body.message).toBe('Attendee Order status is not authorized for check-in.');
    });

    it('updates holder and status of attendees without an order, and answers 404 invalid-attendee-id', async () => {
      const id = (await create({ ticket_id: rsvp.id, full_name: 'Hal', email: 'hal@example.test', attendee_status: 'no' })).body.id;
      const res = await t.request('PATCH', `${NS}/attendees/${id}`, { json: { full_name: 'Hal Jordan', attendee_status: 'yes' }, as: t.admin });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ title: 'Hal Jordan', rsvp_going: true });
      const bad = await t.request('PATCH', `${NS}/attendees/999999`, { json: { check_in: true }, as: t.admin });
      expect(bad.status).toBe(404);
      expect(bad.body.code).toBe('invalid-attendee-id');
    });
  });

  describe('GET /eventsuite/tickets/v1/attendees/{id}/qr', () => {
    it('serves the QR code PNG to managers and to holders of the security code', async () => {
      const id = (await create({ ticket_id: rsvp.id, full_name: 'Ida', email: 'ida@example.test' })).body.id;
      const code = (await t.db.selectFrom('ticket_attendees').select('security_code').where('attendee_id', '=', id).executeTakeFirstOrThrow()).security_code;
      const anon = await t.request('GET', `${NS}/attendees/${id}/qr`);
      expect(anon.status).toBe(401);
      const res = await t.app.inject({ method: 'GET', url: `/wp-json${NS}/attendees/${id}/qr?security_code=${code}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect((await t.request('GET', `${NS}/attendees/${id}/qr`, { as: t.admin })).status).toBe(200);
    });
  });
});
