import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { addTicket, makePost, NS, startGateway, startMailBox, type FakeGateway, type MailBox } from './fixtures.case.js';
import { cancelStalePendingOrders } from './orders.service.js';
import { MAX_PER_LINE_OPTION, MAX_PER_ORDER_OPTION, OFFLINE_PAYMENTS_OPTION } from './settings.js';

const COOKIE = /^event-tickets-tpp-invoice=([a-f0-9]{32}); Path=\/; Max-Age=172800; HttpOnly; SameSite=Lax$/;

describe.each(DIALECTS)('cart and orders on %s', (engine) => {
  let t: TestApp;
  let mail: MailBox;
  let gateway: FakeGateway;
  let customer: TestUser;
  let event: number;
  let paid: any;
  let free: any;

  beforeAll(async () => {
    mail = await startMailBox();
    gateway = await startGateway();
    t = await startTestApp(engine, { smtpUrl: `smtp://127.0.0.1:${mail.port}`, remotes: { payments: gateway.url } });
    customer = await t.createUser('customer');
    event = await makePost(t, { title: 'Concert' });
    paid = await addTicket(t, event, { name: 'Seat', price: '12.50', ticket: { mode: 'own', capacity: 100 } });
    free = await addTicket(t, event, { provider: 'rsvp', name: 'Guest list' });
    await t.ctx.options.set(OFFLINE_PAYMENTS_OPTION, true);
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
    await gateway.close();
  });

  const cookieOf = (res: { headers: Record<string, string> }) => COOKIE.exec(res.headers['set-cookie'] ?? '')?.[1];
  const asCookie = (key: string) => ({ cookie: `event-tickets-tpp-invoice=${key}` });

  describe('GET /eventsuite/tickets/v1/cart', () => {
    it('answers the empty cart without a cart cookie', async () => {
      const res = await t.request('GET', `${NS}/cart`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ tickets: [], meta: [], cart_url: '', checkout_url: '' });
    });

    it('answers 400 for a post_id naming no post and 403 post-has-no-tickets (empty message)', async () => {
      expect((await t.request('GET', `${NS}/cart`, { query: { post_id: 999999 } })).status).toBe(400);
      const bare = await makePost(t);
      const res = await t.request('GET', `${NS}/cart`, { query: { post_id: bare } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'post-has-no-tickets', message: '', data: { status: 403 } });
    });
  });

  describe('POST|PUT|PATCH /eventsuite/tickets/v1/cart', () => {
    it('answers 400 rest_missing_callback_param without provider', async () => {
      const res = await t.request('POST', `${NS}/cart`, { json: { tickets: [] } });
      expect(res.status).toBe(400);
      expect(res.body.data.params).toEqual(['provider']);
    });

    it('replaces the lines, sets the cart cookie, and GET finds the cart again', async () => {
      const res = await t.request('POST', `${NS}/cart`, {
        json: {
          provider: 'tribe-commerce',
          tickets: [{ ticket_id: paid.id, quantity: 2, optout: 1 }, { quantity: 4 }, { ticket_id: free.id, quantity: 1 }],
          meta: [{ ticket_id: paid.id, provider: 'tribe-commerce', items: [{ full_name: 'Jo' }, { full_name: 'Lu' }] }],
        },
      });
      expect(res.status).toBe(200);
      const key = cookieOf(res);
      expect(key).toBeDefined();
      expect(res.body).toEqual({
        tickets: [{ ticket_id: paid.id, quantity: 2, post_id: event, optout: 1, iac: 'none', provider: 'tribe-commerce' }],
        meta: [{ ticket_id: paid.id, provider: 'tribe-commerce', items: [{ full_name: 'Jo' }, { full_name: 'Lu' }] }],
        cart_url: '',
        checkout_url: 'http://example.test/wp-json/eventsuite/tickets/v1/orders',
      });
      const again = await t.request('GET', `${NS}/cart`, { headers: asCookie(key!) });
      expect(again.body.tickets).toHaveLength(1);
      const rsvp = await t.request('PUT', `${NS}/cart`, { json: { provider: 'rsvp', tickets: [{ ticket_id: free.id, quantity: 3 }] }, headers: asCookie(key!) });
      expect(rsvp.headers['set-cookie']).toBeUndefined();
      expect(rsvp.body.tickets).toEqual([{ ticket_id: free.id, quantity: 3, post_id: event, optout: 0, iac: 'none', provider: 'rsvp' }]);
      const all = await t.request('GET', `${NS}/cart`, { headers: asCookie(key!) });
      expect(all.body.tickets.map((l: any) => l.ticket_id)).toEqual([paid.id, free.id]);
      expect((await t.request('GET', `${NS}/cart`, { query: { provider: 'rsvp' }, headers: asCookie(key!) })).body.tickets).toHaveLength(1);
      expect((await t.request('GET', `${NS}/cart`, { query: { post_id: event }, headers: asCookie(key!) })).body.tickets).toHaveLength(2);
      const removed = await t.request('PATCH', `${NS}/cart`, { json: { provider: 'tpp', tickets: [{ ticket_id: paid.id, quantity: 0 }] }, headers: asCookie(key!) });
      expect(removed.body.tickets).toEqual([]);
    });

    it('keeps a signed-in user cart without a cookie', async () => {
      await t.request('POST', `${NS}/cart`, { json: { provider: 'rsvp', tickets: [{ ticket_id: free.id, quantity: 1 }] }, as: customer });
      const res = await t.request('GET', `${NS}/cart`, { as: customer });
      expect(res.body.tickets).toHaveLength(1);
    });

    it('answers the legacy cart errors: ticket-does-not-exist (400), ticket-capacity-not-available (409)', async () => {
      const unknown = await t.request('POST', `${NS}/cart`, { json: { provider: 'tribe-commerce', tickets: [{ ticket_id: 999999, quantity: 1 }] } });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ code: 'ticket-does-not-exist', message: 'The ticket #999999 does not exist.', data: { status: 400 } });
      await t.ctx.options.set(MAX_PER_LINE_OPTION, 500);
      await t.ctx.options.set(MAX_PER_ORDER_OPTION, 500);
      const tooMany = await t.request('POST', `${NS}/cart`, { json: { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 101 }] } });
      await t.ctx.options.delete(MAX_PER_LINE_OPTION);
      await t.ctx.options.delete(MAX_PER_ORDER_OPTION);
      expect(tooMany.status).toBe(409);
      expect(tooMany.body.code).toBe('ticket-capacity-not-available');
      expect(tooMany.body.message).toBe('The ticket "Seat" does not have that many available for purchase.');
    });

    it('ignores writes for providers not offered here, and checks post_id', async () => {
      const res = await t.request('POST', `${NS}/cart`, { json: { provider: 'woo', tickets: [{ ticket_id: paid.id, quantity: 1 }] } });
      expect(res.status).toBe(200);
      expect(res.body.tickets).toEqual([]);
      expect((await t.request('POST', `${NS}/cart`, { json: { provider: 'rsvp', post_id: 999999 } })).status).toBe(400);
      const bare = await makePost(t);
      expect((await t.request('POST', `${NS}/cart`, { json: { provider: 'rsvp', post_id: bare } })).status).toBe(403);
    });
  });

  describe('POST|PUT|PATCH /eventsuite/tickets/v1/cart: what a write changes', () => {
    let second: any;
    let other: number;
    let elsewhere: any;
    beforeAll(async () => {
      second = await addTicket(t, event, { name: 'Balcony', price: '8', iac: 'required', ticket: { mode: 'own', capacity: 50 } });
      other = await makePost(t, { title: 'Recital' });
      elsewhere = await addTicket(t, other, { name: 'Stalls', price: '5', ticket: { mode: 'own', capacity: 50 } });
    });
    const write = (key: string | undefined, json: Record<string, unknown>) =>
      t.request('POST', `${NS}/cart`, { json, ...(key ? { headers: asCookie(key) } : {}) });
    const lines = (res: { body: any }) => res.body.tickets.map((l: any) => [l.ticket_id, l.quantity]);

    // CartUpdateCest: a line sent replaces that ticket's line (PayPal's non-additive add_ticket_to_cart);
    // lines not sent stay; quantity 0 removes one and an emptied cart has no URLs.
    it('sets the lines it names and keeps the others; quantity 0 or none removes a line', async () => {
      const first = await write(undefined, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 2 }, { ticket_id: second.id, quantity: 1 }] });
      const key = cookieOf(first)!;
      expect(lines(first)).toEqual([[paid.id, 2], [second.id, 1]]);
      expect(lines(await write(key, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 1 }] }))).toEqual([[paid.id, 1], [second.id, 1]]);
      expect(lines(await write(key, { provider: 'tribe-commerce', tickets: [{ ticket_id: second.id }] }))).toEqual([[paid.id, 1]]);
      expect(lines(await write(key, { provider: 'tribe-commerce', tickets: [{ ticket_id: 0, quantity: 3 }, { ticket_id: 'none', quantity: 3 }] }))).toEqual([[paid.id, 1]]);
      const emptied = await write(key, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 0 }, { ticket_id: second.id, quantity: 0 }], meta: [] });
      expect(emptied.status).toBe(200);
      expect(emptied.body).toEqual({ tickets: [], meta: [], cart_url: '', checkout_url: '' });
    });

    // CartUpdateCest::should_allow_updating_cart_for_post, sent form-encoded as the original's test does.
    it('takes a form-encoded cart (nested tickets, string quantities and optout)', async () => {
      const form = [
        'provider=tribe-commerce',
        `tickets[0][ticket_id]=${paid.id}`, 'tickets[0][quantity]=15', 'tickets[0][optout]=1',
        `tickets[1][ticket_id]=${second.id}`, 'tickets[1][quantity]=5', 'tickets[1][optout]=0',
        `post_id=${event}`,
      ].join('&');
      const res = await t.request('POST', `${NS}/cart`, { form });
      expect(res.status).toBe(200);
      expect(res.body.tickets).toEqual([
        { ticket_id: paid.id, quantity: 15, post_id: event, optout: 1, iac: 'none', provider: 'tribe-commerce' },
        { ticket_id: second.id, quantity: 5, post_id: event, optout: 0, iac: 'required', provider: 'tribe-commerce' },
      ]);
      expect(res.body.meta).toEqual([]);
    });

    it('answers the lines of every post, whatever post_id names (it does not narrow the cart)', async () => {
      const key = cookieOf(await write(undefined, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 1 }, { ticket_id: elsewhere.id, quantity: 2 }] }))!;
      const res = await t.request('GET', `${NS}/cart`, { query: { provider: 'tribe-commerce', post_id: event }, headers: asCookie(key) });
      expect(res.body.tickets.map((l: any) => [l.ticket_id, l.post_id])).toEqual([[paid.id, event], [elsewhere.id, other]]);
      const posted = await write(key, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 3 }], post_id: other });
      expect(lines(posted)).toEqual([[paid.id, 3], [elsewhere.id, 2]]);
    });

    it('filters by provider key, alias, class name or attendee type; an empty filter means every provider', async () => {
      const key = cookieOf(await write(undefined, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 1 }] }))!;
      await write(key, { provider: 'rsvp', tickets: [{ ticket_id: free.id, quantity: 1 }] });
      const get = async (provider: string) => lines(await t.request('GET', `${NS}/cart`, { query: { provider }, headers: asCookie(key) }));
      expect(await get('tribe_tpp_attendees')).toEqual([[paid.id, 1]]);
      expect(await get('tpp')).toEqual([[paid.id, 1]]);
      expect(await get('Tribe__Tickets__Commerce__PayPal__Main')).toEqual([[paid.id, 1]]);
      expect(await get('tribe_rsvp_attendees,woo')).toEqual([[free.id, 1]]);
      expect(await get('')).toEqual([[paid.id, 1], [free.id, 1]]);
      expect(await get('woo')).toEqual([]);
    });

    // Event Tickets Plus fills a cart line's `iac` from the ticket's setting; the client's value is not kept.
    it("answers the ticket's attendee collection setting as iac, not the client's (any length, both engines)", async () => {
      const res = await write(undefined, { provider: 'tribe-commerce', tickets: [{ ticket_id: second.id, quantity: 1, iac: 'x'.repeat(40) }, { ticket_id: paid.id, quantity: 1, iac: 'required' }] });
      expect(res.status).toBe(200);
      expect(res.body.tickets.map((l: any) => [l.ticket_id, l.iac])).toEqual([[paid.id, 'none'], [second.id, 'required']]);
    });

    // Event Tickets Plus (update_ticket_meta, not additive through REST): the answers sent become the
    // cart's answers; several entries of one ticket add up; a write without `meta` keeps them.
    it('replaces the registration answers of the whole cart when meta is sent', async () => {
      const res = await write(undefined, {
        provider: 'tribe-commerce',
        tickets: [{ ticket_id: paid.id, quantity: 2 }, { ticket_id: second.id, quantity: 1 }],
        meta: [{ ticket_id: paid.id, items: [{ n: 'A' }] }, { ticket_id: paid.id, items: [{ n: 'B' }] }, { ticket_id: second.id, items: [{ n: 'C' }] }],
      });
      const key = cookieOf(res)!;
      expect(res.body.meta).toEqual([
        { ticket_id: paid.id, provider: 'tribe-commerce', items: [{ n: 'A' }, { n: 'B' }] },
        { ticket_id: second.id, provider: 'tribe-commerce', items: [{ n: 'C' }] },
      ]);
      const kept = await write(key, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 1 }] });
      expect(kept.body.meta.map((m: any) => m.ticket_id)).toEqual([paid.id, second.id]);
      const replaced = await write(key, { provider: 'tribe-commerce', meta: [{ ticket_id: second.id, items: [{ n: 'D' }] }] });
      expect(lines(replaced)).toEqual([[paid.id, 1], [second.id, 1]]);
      expect(replaced.body.meta).toEqual([{ ticket_id: second.id, provider: 'tribe-commerce', items: [{ n: 'D' }] }]);
      expect((await write(key, { provider: 'tribe-commerce', meta: [] })).body.meta).toEqual([]);
    });

    // Cart::update hands each entry to the provider it names (`provider`, else the request's).
    it("writes an entry to its own provider's cart; entries of providers not offered here do nothing", async () => {
      const res = await write(undefined, { provider: 'woo', tickets: [{ ticket_id: free.id, quantity: 2, provider: 'rsvp' }, { ticket_id: paid.id, quantity: 1, provider: 'edd' }] });
      expect(res.status).toBe(200);
      expect(res.body.tickets).toEqual([]); // the answer is the cart of the provider named
      const key = cookieOf(res)!;
      expect(lines(await t.request('GET', `${NS}/cart`, { headers: asCookie(key) }))).toEqual([[free.id, 2]]);
      const nothing = await write(undefined, { provider: 'edd', tickets: [{ ticket_id: paid.id, quantity: 1 }] });
      expect(nothing.headers['set-cookie']).toBeUndefined();
    });

    // PayPal's cart refuses a ticket outside its sale dates with the capacity code (a 500 upstream).
    it('answers 409 ticket-capacity-not-available for a ticket not on sale, leaving the cart as it was', async () => {
      const later = await addTicket(t, event, { name: 'Next season', price: '9', start_date: '2090-01-01' });
      const key = cookieOf(await write(undefined, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 1 }] }))!;
      const res = await write(key, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 4 }, { ticket_id: later.id, quantity: 1 }] });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: 'ticket-capacity-not-available', message: 'The ticket "Next season" is not on sale at this time.', data: { status: 409, ticket_id: later.id } });
      expect(lines(await t.request('GET', `${NS}/cart`, { headers: asCookie(key) }))).toEqual([[paid.id, 1]]);
    });

    it('refuses (400 tickets-quantity-too-large) a write that would leave more in the cart than an order may hold', async () => {
      await t.ctx.options.set(MAX_PER_ORDER_OPTION, 5);
      try {
        const key = cookieOf(await write(undefined, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 3 }] }))!;
        const res = await write(key, { provider: 'tribe-commerce', tickets: [{ ticket_id: second.id, quantity: 3 }] });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('tickets-quantity-too-large');
        expect(lines(await t.request('GET', `${NS}/cart`, { headers: asCookie(key) }))).toEqual([[paid.id, 3]]);
        expect(lines(await write(key, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 1 }, { ticket_id: second.id, quantity: 4 }] }))).toEqual([[paid.id, 1], [second.id, 4]]);
      } finally {
        await t.ctx.options.delete(MAX_PER_ORDER_OPTION);
      }
    });

    it("never lets one visitor read or change another's cart", async () => {
      const mine = cookieOf(await write(undefined, { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 1 }] }))!;
      const signedIn = await t.createUser('subscriber');
      await t.request('POST', `${NS}/cart`, { json: { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 2 }] }, as: signedIn });
      for (const cookie of ['', `user-${signedIn.id}`, mine.toUpperCase(), `${mine}0`, '%zz']) {
        const res = await t.request('GET', `${NS}/cart`, { headers: { cookie: `event-tickets-tpp-invoice=${cookie}` } });
        expect(res.body.tickets).toEqual([]);
      }
      const theirs = await write(undefined, { provider: 'tribe-commerce', tickets: [{ ticket_id: second.id, quantity: 1 }] });
      expect(cookieOf(theirs)).not.toBe(mine);
      expect(lines(await t.request('GET', `${NS}/cart`, { headers: asCookie(mine) }))).toEqual([[paid.id, 1]]);
      expect(lines(await t.request('GET', `${NS}/cart`, { as: signedIn }))).toEqual([[paid.id, 2]]);
    });
  });

  describe('POST /eventsuite/tickets/v1/orders (checkout)', () => {
    it('checks the cart out offline: pending order; a manager marks it paid: attendees, seats, an e-mail with QR codes, cart emptied', async () => {
      const cart = await t.request('POST', `${NS}/cart`, {
        json: { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 2 }], meta: [{ ticket_id: paid.id, items: [{ full_name: 'Jo Holder', email: 'jo@example.test' }] }] },
      });
      const key = cookieOf(cart)!;
      const before = mail.messages.length;
      const res = await t.request('POST', `${NS}/orders`, {
        json: { purchaser_name: 'Pat Buyer', purchaser_email: 'pat@example.test', gateway: 'offline' },
        headers: asCookie(key),
      });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('pending');
      expect(mail.messages.length).toBe(before);
      const paidAtDoor = await t.request('POST', `${NS}/orders/${res.body.id}`, { json: { status: 'completed' }, as: t.admin });
      const o = paidAtDoor.body;
      expect(o).toMatchObject({
        status: 'completed',
        provider: 'tribe-commerce',
        gateway: 'offline',
        currency: 'USD',
        quantity: 2,
        subtotal: 25,
        total: 25,
        formatted_total: '$25.00',
        customer: { name: 'Pat Buyer', email: 'pat@example.test', user_id: 0 },
        items: [{ ticket_id: paid.id, post_id: event, title: 'Seat', quantity: 2, unit_price: 12.5, total: 25 }],
      });
      expect(o.key).toMatch(/^[0-9a-f]{32}$/);
      expect(o.date_utc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(o.completed_utc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(o.attendees.map((a: any) => [a.title, a.email, a.order, a.provider])).toEqual([
        ['Jo Holder', 'jo@example.test', o.id, 'tribe-commerce'],
        ['Pat Buyer', 'pat@example.test', o.id, 'tribe-commerce'],
      ]);
      expect(o.attendees[0].payment).toMatchObject({ provider: 'tpp', price: '12.50', currency: '$' });
      expect(o.attendees[0].security_code).toMatch(/^[0-9a-f]{10}$/);
      expect(o.attendees[0].checkin_url).toBe(
        `http://example.test/?event_qr_code=1&ticket_id=${o.attendees[0].id}&event_id=${event}&security_code=${o.attendees[0].security_code}&path=wp-json%2Feventsuite%2Ftickets%2Fv1%2Fqr`,
      );
      const ticket = await t.request('GET', `${NS}/tickets/${paid.id}`, { as: t.admin });
      expect(ticket.body.capacity_details).toMatchObject({ available: 98, sold: 2, pending: 0 });
      expect((await t.request('GET', `${NS}/cart`, { headers: asCookie(key) })).body.tickets).toEqual([]);
      expect(mail.messages.length).toBe(before); // queued, sent by the jobs runner
      await t.ctx.jobs.runDue();
      expect(mail.messages.length).toBe(before + 1);
      const message = mail.messages.at(-1)!;
      expect(message.to).toEqual(['pat@example.test']);
      expect(message.raw).toContain('Subject: Your tickets from');
      expect(message.raw).toContain('Content-Type: image/png');
      expect(message.raw).toContain(`cid:qr-${o.attendees[0].id}@tickets`);
      expect(message.raw).toContain(o.attendees[1].security_code);
    });

    it('checks out an RSVP for a signed-in user: completed, attendees going, no charge', async () => {
      const res = await t.request('POST', `${NS}/orders`, { json: { provider: 'rsvp', tickets: [{ ticket_id: free.id, quantity: 2 }] }, as: customer });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'completed', gateway: 'free', total: 0, customer: { user_id: customer.id } });
      expect(res.body.attendees.map((a: any) => [a.rsvp_going, a.order])).toEqual([[true, res.body.attendees[0].id], [true, res.body.attendees[1].id]]);
      const mine = await t.request('GET', `${NS}/orders/${res.body.id}`, { as: customer });
      expect(mine.status).toBe(200);
    });

    it('answers 400 for an empty cart, a missing purchaser, or an unknown provider', async () => {
      expect((await t.request('POST', `${NS}/orders`, { json: { purchaser_name: 'A', purchaser_email: 'a@example.test' } })).body.code).toBe('tickets-cart-empty');
      expect((await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: paid.id, quantity: 1 }] } })).body.code).toBe('tickets-missing-purchaser');
      expect((await t.request('POST', `${NS}/orders`, { json: { provider: 'edd', purchaser_name: 'A', purchaser_email: 'a@example.test' } })).body.code).toBe('bad_request');
      expect((await t.request('POST', `${NS}/orders`, { json: { gateway: 'paypal' } })).status).toBe(400);
    });

    it('pays through the remote gateway: succeeded completes, with the order key as idempotency key', async () => {
      gateway.next = { status: 201, body: { status: 'succeeded' } };
      const res = await t.request('POST', `${NS}/orders`, {
        json: { tickets: [{ ticket_id: paid.id, quantity: 1 }], purchaser_name: 'Rem Ote', purchaser_email: 'rem@example.test', gateway: 'remote' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'completed', gateway: 'remote', payment_reference: expect.stringMatching(/^pay_/) });
      const call = gateway.calls.find((c) => c.method === 'POST' && c.path === '/payments' && (c.body as any).order_id === res.body.id)!;
      expect(call.body).toMatchObject({ amount: '12.50', currency: 'USD', reference: res.body.key, customer: { name: 'Rem Ote', email: 'rem@example.test' } });
      expect(call.headers['idempotency-key']).toBe(res.body.key);
    });

    it('keeps a pending remote payment pending, then completes it when the buyer comes back', async () => {
      gateway.next = { status: 201, body: { status: 'pending', redirect_url: 'https://pay.example/checkout/1' } };
      const res = await t.request('POST', `${NS}/orders`, {
        json: { tickets: [{ ticket_id: paid.id, quantity: 3 }], purchaser_name: 'Pen Ding', purchaser_email: 'pen@example.test' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'pending', payment_url: 'https://pay.example/checkout/1' });
      expect(res.body.attendees.every((a: any) => a.checked_in === false)).toBe(true);
      const held = await t.request('GET', `${NS}/tickets/${paid.id}`, { as: t.admin });
      expect(held.body.capacity_details.pending).toBe(3);
      expect((await t.request('GET', `${NS}/orders/${res.body.id}`)).status).toBe(401);
      expect((await t.request('GET', `${NS}/orders/${res.body.id}`, { query: { key: 'wrong' } })).status).toBe(401);
      const still = await t.request('GET', `${NS}/orders/${res.body.id}`, { query: { key: res.body.key } });
      expect(still.body.status).toBe('pending');
      gateway.payments.set(res.body.payment_reference, 'succeeded');
      const done = await t.request('GET', `${NS}/orders/${res.body.id}`, { query: { key: res.body.key } });
      expect(done.body.status).toBe('completed');
      const settled = await t.request('GET', `${NS}/tickets/${paid.id}`, { as: t.admin });
      expect(settled.body.capacity_details.pending).toBe(0);
    });

    it('cancels a declined payment (402) and a gateway failure (502), giving the seats back', async () => {
      const seats = async () => (await t.request('GET', `${NS}/tickets/${paid.id}`)).body.capacity_details.available;
      const start = await seats();
      gateway.next = { status: 201, body: { status: 'declined' } };
      const declined = await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: paid.id, quantity: 2 }], purchaser_name: 'D', purchaser_email: 'd@example.test' } });
      expect(declined.status).toBe(402);
      expect(declined.body.code).toBe('payment-failed');
      gateway.next = { status: 500, body: { error: 'boom' } };
      const broken = await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: paid.id, quantity: 2 }], purchaser_name: 'E', purchaser_email: 'e@example.test' } });
      expect(broken.status).toBe(502);
      expect(broken.body.code).toBe('payment-gateway-error');
      expect(await seats()).toBe(start);
      const orders = await t.db.selectFrom('ticket_orders').select(['status', 'cancelled_gmt']).where('customer_email', 'in', ['d@example.test', 'e@example.test']).execute();
      expect(orders.map((o) => o.status)).toEqual(['cancelled', 'cancelled']);
      expect(orders.every((o) => o.cancelled_gmt !== '')).toBe(true);
      gateway.next = { status: 201, body: { status: 'succeeded' } };
    });

    it('makes one order of one cart checked out twice at once (a double click); the other finds the cart empty or changed', async () => {
      const key = cookieOf(await t.request('POST', `${NS}/cart`, { json: { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 1 }] } }))!;
      const checkout = () => t.request('POST', `${NS}/orders`, { json: { purchaser_name: 'Twice', purchaser_email: 'twice@example.test', gateway: 'offline' }, headers: asCookie(key) });
      const both = await Promise.all([checkout(), checkout()]);
      expect(both.filter((r) => r.status === 201)).toHaveLength(1);
      const other = both.find((r) => r.status !== 201)!;
      // Read after the first took the lines: empty (400); read before: changed under it (409).
      expect([[400, 'tickets-cart-empty'], [409, 'tickets-cart-changed']]).toContainEqual([other.status, other.body.code]);
      const orders = await t.db.selectFrom('ticket_orders').select('order_id').where('customer_email', '=', 'twice@example.test').execute();
      expect(orders).toHaveLength(1);
      expect((await t.request('GET', `${NS}/cart`, { headers: asCookie(key) })).body.tickets).toEqual([]);
      // Paid at the door, so later tests find no pending order of this one.
      expect((await t.request('POST', `${NS}/orders/${both.find((r) => r.status === 201)!.body.id}`, { json: { status: 'completed' }, as: t.admin })).status).toBe(200);
    });

    it('lets a line of a ticket gone since be removed, and checks the rest of the cart out without it', async () => {
      const gone = await addTicket(t, event, { name: 'Gone soon', price: '5', ticket: { mode: 'own', capacity: 10 } });
      const key = cookieOf(await t.request('POST', `${NS}/cart`, { json: { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 1 }, { ticket_id: gone.id, quantity: 1 }] } }))!;
      await t.db.updateTable('posts').set({ status: 'trash' }).where('id', '=', gone.id).execute();
      const order = await t.request('POST', `${NS}/orders`, { json: { purchaser_name: 'G', purchaser_email: 'g@example.test', gateway: 'offline' }, headers: asCookie(key) });
      expect(order.status).toBe(201);
      expect(order.body.items.map((i: { ticket_id: number }) => i.ticket_id)).toEqual([paid.id]);
      expect((await t.request('POST', `${NS}/orders/${order.body.id}`, { json: { status: 'completed' }, as: t.admin })).status).toBe(200);
      const left = await t.db.selectFrom('ticket_cart_items').select('ticket_id').where('cart_key', '=', key).execute();
      expect(left.map((r) => Number(r.ticket_id))).toEqual([gone.id]);
      const removed = await t.request('POST', `${NS}/cart`, { json: { provider: 'tribe-commerce', tickets: [{ ticket_id: gone.id, quantity: 0 }] }, headers: asCookie(key) });
      expect(removed.status).toBe(200);
      expect(await t.db.selectFrom('ticket_cart_items').select('ticket_id').where('cart_key', '=', key).execute()).toEqual([]);
    });

    it('puts the cart back when the payment of its checkout fails', async () => {
      const key = cookieOf(await t.request('POST', `${NS}/cart`, { json: { provider: 'tribe-commerce', tickets: [{ ticket_id: paid.id, quantity: 2 }] } }))!;
      gateway.next = { status: 201, body: { status: 'declined' } };
      const declined = await t.request('POST', `${NS}/orders`, { json: { purchaser_name: 'F', purchaser_email: 'f@example.test' }, headers: asCookie(key) });
      expect(declined.status).toBe(402);
      expect((await t.request('GET', `${NS}/cart`, { headers: asCookie(key) })).body.tickets).toMatchObject([{ ticket_id: paid.id, quantity: 2 }]);
      gateway.next = { status: 201, body: { status: 'succeeded' } };
      const paidNow = await t.request('POST', `${NS}/orders`, { json: { purchaser_name: 'F', purchaser_email: 'f@example.test' }, headers: asCookie(key) });
      expect(paidNow.status).toBe(201);
      expect((await t.request('GET', `${NS}/cart`, { headers: asCookie(key) })).body.tickets).toEqual([]);
    });

    it('refunds through the gateway (managers), and lets buyers cancel only pending orders', async () => {
      const res = await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: paid.id, quantity: 1 }], purchaser_name: 'R', purchaser_email: 'r@example.test' } });
      const o = res.body;
      expect((await t.request('POST', `${NS}/orders/${o.id}`, { json: { status: 'refunded', key: o.key } })).status).toBe(401);
      expect((await t.request('POST', `${NS}/orders/${o.id}`, { json: { status: 'cancelled' }, as: t.admin })).body.code).toBe('order-invalid-transition');
      const refunded = await t.request('POST', `${NS}/orders/${o.id}`, { json: { status: 'refunded' }, as: t.admin });
      expect(refunded.status).toBe(200);
      expect(refunded.body.status).toBe('refunded');
      expect(refunded.body.refunded_utc).not.toBe('');
      expect(refunded.body.attendees[0].checked_in).toBe(false);
      expect(gateway.payments.get(o.payment_reference)).toBe('refunded');
      expect((await t.request('POST', `${NS}/orders/${o.id}`, { json: { status: 'completed' }, as: t.admin })).status).toBe(409);
      const attendee = await t.request('GET', `${NS}/attendees/${o.attendees[0].id}`, { as: t.admin });
      expect(attendee.body.checked_in).toBe(false);
      expect((await t.request('PATCH', `${NS}/attendees/${o.attendees[0].id}`, { json: { check_in: true }, as: t.admin })).body.code).toBe('tec-et-attendee-invalid-check-in');

      gateway.next = { status: 201, body: { status: 'pending' } };
      const pending = (await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: paid.id, quantity: 1 }], purchaser_name: 'S', purchaser_email: 's@example.test' } })).body;
      gateway.next = { status: 201, body: { status: 'succeeded' } };
      const cancelled = await t.request('PATCH', `${NS}/orders/${pending.id}`, { json: { status: 'cancelled', key: pending.key } });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toBe('cancelled');
      expect(gateway.payments.get(pending.payment_reference)).toBe('canceled');
      expect((await t.request('GET', `${NS}/orders/999999`, { as: t.admin })).status).toBe(404);
    });

    it('cancels stale pending orders (after asking the gateway) and gives their seats back', async () => {
      gateway.next = { status: 201, body: { status: 'pending' } };
      const stale = (await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: paid.id, quantity: 4 }], purchaser_name: 'Z', purchaser_email: 'z@example.test' } })).body;
      const paidLater = (await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: paid.id, quantity: 1 }], purchaser_name: 'Y', purchaser_email: 'y@example.test' } })).body;
      gateway.next = { status: 201, body: { status: 'succeeded' } };
      gateway.payments.set(paidLater.payment_reference, 'succeeded');
      const before = (await t.request('GET', `${NS}/tickets/${paid.id}`, { as: t.admin })).body.capacity_details;
      expect(await cancelStalePendingOrders(t.ctx, 0)).toBe(1);
      const after = (await t.request('GET', `${NS}/tickets/${paid.id}`, { as: t.admin })).body.capacity_details;
      expect(after.available).toBe(before.available + 4);
      expect(after.pending).toBe(before.pending - 5);
      expect((await t.request('GET', `${NS}/orders/${stale.id}`, { as: t.admin })).body.status).toBe('cancelled');
      expect((await t.request('GET', `${NS}/orders/${paidLater.id}`, { as: t.admin })).body.status).toBe('completed');
    });

    it('completes offline orders by managers and cancels them (pay at the door, no-show)', async () => {
      const o = (await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: paid.id, quantity: 1 }], purchaser_name: 'Door', purchaser_email: 'door@example.test', gateway: 'offline' } })).body;
      expect(o.status).toBe('pending');
      expect((await t.request('POST', `${NS}/orders/${o.id}`, { json: { status: 'completed' }, as: t.admin })).body.status).toBe('completed');
      const res = await t.request('POST', `${NS}/orders/${o.id}`, { json: { status: 'cancelled' }, as: t.admin });
      expect(res.body.status).toBe('cancelled');
      expect(res.body.attendees[0]).toMatchObject({ checked_in: false });
    });
  });
});

// The original's invoice cookie is `secure` when the home URL is https (PayPal Gateway::set_invoice_number).
describe.each(DIALECTS)('cart cookie on an https site, %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { baseUrl: 'https://example.test' });
  });
  afterAll(async () => t.close());

  it('marks the cart cookie Secure', async () => {
    const event = await makePost(t, { title: 'Gala' });
    const rsvp = await addTicket(t, event, { provider: 'rsvp', name: 'Guests' });
    const res = await t.request('POST', `${NS}/cart`, { json: { provider: 'rsvp', tickets: [{ ticket_id: rsvp.id, quantity: 1 }] } });
    expect(res.headers['set-cookie']).toMatch(/^event-tickets-tpp-invoice=[a-f0-9]{32}; Path=\/; Max-Age=172800; HttpOnly; SameSite=Lax; Secure$/);
  });
});
