/**
 * Money (issue 8): the buyer does not choose to pay offline, offline orders wait for a manager,
 * pending reservations expire, quantities are capped before any work, and ticket writes need the
 * right to edit the ticket's event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { addNonce, addTicket, makePost, NS, startGateway, type FakeGateway } from './fixtures.case.js';
import { expireStaleReservations } from './orders.service.js';
import { MAX_PER_LINE_OPTION, OFFLINE_PAYMENTS_OPTION, RESERVATION_MINUTES_OPTION } from './settings.js';

describe.each(DIALECTS)('ticket money abuse on %s', (engine) => {
  let t: TestApp;
  let gateway: FakeGateway;
  let clock = Date.parse('2026-06-01T10:00:00Z');
  let event: number;
  let paid: any;
  let free: any;

  beforeAll(async () => {
    gateway = await startGateway();
    t = await startTestApp(engine, { remotes: { payments: gateway.url } }, { now: () => new Date(clock) });
    event = await makePost(t, { title: 'Gala' });
    paid = await addTicket(t, event, { name: 'Seat', price: '20', ticket: { mode: 'own', capacity: 5 } });
    free = await addTicket(t, event, { provider: 'rsvp', name: 'Guests', price: '', ticket: { mode: 'own', capacity: 50_000 } });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  const buy = (json: Record<string, unknown>, as?: TestUser) =>
    t.request('POST', `${NS}/orders`, { json: { purchaser_name: 'Eve', purchaser_email: 'eve@example.test', ...json }, as });
  const seatsLeft = async () => (await t.request('GET', `${NS}/tickets/${paid.id}`)).body.capacity_details.available;

  describe('offline payment', () => {
    it('is refused when the site has not turned it on (the default), even though the buyer asks', async () => {
      const res = await buy({ tickets: [{ ticket_id: paid.id, quantity: 1 }], gateway: 'offline' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('payment-gateway-not-allowed');
      expect(await seatsLeft()).toBe(5);
    });

    it('when turned on, leaves the order pending (no check-in) until a manager marks it paid', async () => {
      await t.ctx.options.set(OFFLINE_PAYMENTS_OPTION, true);
      const res = await buy({ tickets: [{ ticket_id: paid.id, quantity: 1 }], gateway: 'offline' });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('pending');
      const attendee = res.body.attendees[0];
      const checkin = await t.request('PATCH', `${NS}/attendees/${attendee.id}`, { json: { check_in: true }, as: t.admin });
      expect(checkin.status).toBe(400);
      // The buyer cannot mark it paid with the order key.
      const self = await t.request('POST', `${NS}/orders/${res.body.id}`, { json: { status: 'completed', key: res.body.key } });
      expect(self.status).toBeGreaterThanOrEqual(401);
      const done = await t.request('POST', `${NS}/orders/${res.body.id}`, { json: { status: 'completed' }, as: t.admin });
      expect(done.status).toBe(200);
      expect(done.body.status).toBe('completed');
      const after = await t.request('PATCH', `${NS}/attendees/${attendee.id}`, { json: { check_in: true }, as: t.admin });
      expect(after.status).toBeGreaterThanOrEqual(200);
      expect(after.status).toBeLessThan(300);
      await t.ctx.options.delete(OFFLINE_PAYMENTS_OPTION);
    });
  });

  describe('reservations', () => {
    it('expire after the configured minutes (default 15) and give their seats back, checked at read time', async () => {
      gateway.next = { status: 201, body: { status: 'pending', redirect_url: 'https://pay.example/1' } };
      const before = await seatsLeft();
      const res = await buy({ tickets: [{ ticket_id: paid.id, quantity: 2 }], gateway: 'remote' });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('pending');
      expect(await seatsLeft()).toBe(before - 2);
      clock += 14 * 60_000;
      expect(await seatsLeft()).toBe(before - 2);
      clock += 2 * 60_000;
      expect(await seatsLeft()).toBe(before);
      const order = await t.request('GET', `${NS}/orders/${res.body.id}`, { as: t.admin });
      expect(order.body.status).toBe('cancelled');
    });

    it('follow the setting, and expireStaleReservations(ctx) is there for the jobs runner', async () => {
      await t.ctx.options.set(RESERVATION_MINUTES_OPTION, 60);
      const res = await buy({ tickets: [{ ticket_id: paid.id, quantity: 1 }], gateway: 'remote' });
      expect(res.body.status).toBe('pending');
      clock += 30 * 60_000;
      expect(await expireStaleReservations(t.ctx)).toBe(0);
      clock += 31 * 60_000;
      expect(await expireStaleReservations(t.ctx)).toBe(1);
      await t.ctx.options.delete(RESERVATION_MINUTES_OPTION);
      gateway.next = { status: 201, body: { status: 'succeeded' } };
    });
  });

  describe('quantity caps', () => {
    it('refuses 20,000 RSVPs in one line with 400 at once, writing nothing', async () => {
      const start = Date.now();
      const res = await buy({ provider: 'rsvp', tickets: [{ ticket_id: free.id, quantity: 20_000 }] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('tickets-quantity-too-large');
      expect(Date.now() - start).toBeLessThan(2000);
      const count = await t.db.selectFrom('ticket_attendees').select((eb) => eb.fn.countAll().as('n')).where('ticket_id', '=', free.id).executeTakeFirst();
      expect(Number(count?.n)).toBe(0);
    });

    it('caps the whole order too, and the cart', async () => {
      const other = await addTicket(t, event, { provider: 'rsvp', name: 'More guests', price: '' });
      const res = await buy({ provider: 'rsvp', tickets: [{ ticket_id: free.id, quantity: 60 }, { ticket_id: other.id, quantity: 60 }] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('tickets-quantity-too-large');
      const cart = await t.request('POST', `${NS}/cart`, { json: { provider: 'rsvp', tickets: [{ ticket_id: free.id, quantity: 101 }] } });
      expect(cart.status).toBe(400);
    });

    it('follows the per-line setting', async () => {
      await t.ctx.options.set(MAX_PER_LINE_OPTION, 2);
      expect((await buy({ provider: 'rsvp', tickets: [{ ticket_id: free.id, quantity: 3 }] })).status).toBe(400);
      expect((await buy({ provider: 'rsvp', tickets: [{ ticket_id: free.id, quantity: 2 }] })).status).toBe(201);
      await t.ctx.options.delete(MAX_PER_LINE_OPTION);
    });
  });

  describe('ticket writes', () => {
    it("do not let a contributor reprice or delete the tickets of someone else's event", async () => {
      const contributor = await t.createUser('contributor');
      const author = await t.createUser('author');
      const draft = await makePost(t, { title: 'Their draft', status: 'draft', author: author.id });
      const theirs = await addTicket(t, draft, { name: 'Theirs', price: '5' }, t.admin);
      expect(await addNonce(t, draft, contributor)).toBe('');
      const edit = await t.request('POST', `${NS}/tickets/${theirs.id}`, {
        json: { post_id: draft, price: '0', edit_ticket_nonce: theirs.edit_ticket_nonce ?? 'x' },
        as: contributor,
      });
      expect(edit.status).toBe(403);
      const del = await t.request('DELETE', `${NS}/tickets/${theirs.id}`, { json: { post_id: draft, remove_ticket_nonce: theirs.remove_ticket_nonce ?? 'x' }, as: contributor });
      expect(del.status).toBeGreaterThanOrEqual(401);
      const own = await makePost(t, { title: 'Mine', status: 'draft', author: contributor.id });
      expect(await addNonce(t, own, contributor)).not.toBe('');
    });
  });
});
