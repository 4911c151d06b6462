import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { generateCheckinApiKey, getCheckinApiKey, setCheckinApiKey } from './access.js';
import { addTicket, makePost, NS } from './fixtures.case.js';
import { checkinLink, HAPPENING_NOW_OPTION, qrCheckIn, qrPng } from './qr.service.js';
import { capabilities } from '../../storage/dialect.js';
import { StatementCounter } from '../../test-support/statement-counter.js';
import { OFFLINE_PAYMENTS_OPTION } from './settings.js';

describe.each(DIALECTS)('QR routes on %s', (engine) => {
  let t: TestApp;
  let event: number;
  let ticket: any;

  /** Buys `n` seats offline; returns the order with attendees and their security codes. */
  const buy = async (n = 1, gateway = 'offline') => {
    const order = (await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: ticket.id, quantity: n }], purchaser_name: 'Q', purchaser_email: 'q@example.test', gateway } })).body;
    // Offline orders are paid at the door: a manager marks them paid.
    if (gateway !== 'offline') return order;
    return (await t.request('POST', `${NS}/orders/${order.id}`, { json: { status: 'completed' }, as: t.admin })).body;
  };
  const scan = (query: Record<string, string | number>) => t.request('GET', `${NS}/qr`, { query });

  beforeAll(async () => {
    t = await startTestApp(engine);
    event = await makePost(t, { title: 'Gig' });
    ticket = await addTicket(t, event, { price: '3' });
    await setCheckinApiKey(t.ctx, 'door-key');
    await t.ctx.options.set(OFFLINE_PAYMENTS_OPTION, true);
  });
  afterAll(() => t.close());

  describe('GET /eventsuite/tickets/v1/qr/{id}', () => {
    it('answers {id, checked_in} as JSON: "" before, "1" after check-in; "" for a ticket ID', async () => {
      const order = await buy();
      const a = order.attendees[0];
      expect((await t.request('GET', `${NS}/qr/${a.id}`)).body).toEqual({ id: a.id, checked_in: '' });
      await t.request('PATCH', `${NS}/attendees/${a.id}`, { json: { check_in: true }, as: t.admin });
      expect((await t.request('GET', `${NS}/qr/${a.id}`)).body).toEqual({ id: a.id, checked_in: '1' });
      expect((await t.request('GET', `${NS}/qr/${ticket.id}`)).body).toEqual({ id: ticket.id, checked_in: '' });
      expect((await t.request('GET', `${NS}/qr/${order.id}`)).body).toEqual({ id: order.id, checked_in: '' });
    });

    it('answers 400 for IDs no provider knows and 403 ticket-not-accessible for unreadable ones', async () => {
      expect((await t.request('GET', `${NS}/qr/${event}`)).status).toBe(400);
      expect((await t.request('GET', `${NS}/qr/999999`)).status).toBe(400);
      await t.db.updateTable('posts').set({ status: 'draft' }).where('id', '=', ticket.id).execute();
      const res = await t.request('GET', `${NS}/qr/${ticket.id}`);
      await t.db.updateTable('posts').set({ status: 'publish' }).where('id', '=', ticket.id).execute();
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'ticket-not-accessible', message: 'The requested ticket is not accessible', data: { status: 403 } });
    });
  });

  describe('GET /eventsuite/tickets/v1/qr (check-in app)', () => {
    it('answers 400 rest_missing_callback_param without its three parameters', async () => {
      const res = await scan({});
      expect(res.status).toBe(400);
      expect(res.body.data.params).toEqual(['api_key', 'ticket_id', 'security_code']);
      expect((await scan({ api_key: 'door-key', ticket_id: 'abc', security_code: 'x' })).status).toBe(400);
    });

    it('echoes the parameters with 400 for a wrong key (no error key)', async () => {
      const res = await scan({ api_key: 'nope', ticket_id: '5', security_code: 'x', event_id: event });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ api_key: 'nope', ticket_id: '5', event_id: String(event), security_code: 'x' });
    });

    it('answers 403 security_code_not_valid for a wrong code and for an unknown attendee', async () => {
      const a = (await buy()).attendees[0];
      const wrong = await scan({ api_key: 'door-key', ticket_id: a.id, security_code: 'bad' });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toEqual({ msg: 'Security code is not valid!', error: 'security_code_not_valid' });
      const unknown = await scan({ api_key: 'door-key', ticket_id: 999999, security_code: a.security_code });
      expect(unknown.status).toBe(403);
      expect(unknown.body.error).toBe('security_code_not_valid');
    });

    it('checks in once (201 "Checked In!", source app), then 403 attendee_already_checked_in', async () => {
      const a = (await buy()).attendees[0];
      const res = await scan({ api_key: 'door-key', ticket_id: a.id, security_code: a.security_code, event_id: event });
      expect(res.status).toBe(201);
      expect(res.body.msg).toBe('Checked In!');
      expect(res.body.attendee).toMatchObject({ id: a.id, checked_in: true, checkin_details: { source: 'app', author: 0 } });
      const again = await scan({ api_key: 'door-key', ticket_id: a.id, security_code: a.security_code });
      expect(again.status).toBe(403);
      expect(again.body).toMatchObject({ msg: 'Already checked in!', error: 'attendee_already_checked_in', attendee: { id: a.id } });
    });

    it('treats a check-in from the site as checked in too', async () => {
      const a = (await buy()).attendees[0];
      await t.request('PATCH', `${NS}/attendees/${a.id}`, { json: { check_in: true }, as: t.admin });
      expect((await scan({ api_key: 'door-key', ticket_id: a.id, security_code: a.security_code })).body.error).toBe('attendee_already_checked_in');
    });

    it('answers 403 attendee_not_authorized while the order is not complete, attendee_not_found once trashed', async () => {
      const pending = (await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: ticket.id, quantity: 1 }], purchaser_name: 'P', purchaser_email: 'p@example.test' } })).body;
      expect(pending.status).toBe('pending');
      const unpaid = await scan({ api_key: 'door-key', ticket_id: pending.attendees[0].id, security_code: pending.attendees[0].security_code });
      expect(unpaid.body.error).toBe('attendee_not_authorized');
      const order = await buy();
      expect(order.status).toBe('completed');
      const a = order.attendees[0];
      await t.request('POST', `${NS}/orders/${order.id}`, { json: { status: 'cancelled' }, as: t.admin });
      const res = await scan({ api_key: 'door-key', ticket_id: a.id, security_code: a.security_code });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('attendee_not_authorized');
      expect(res.body.msg).toBe('This attendee&#039;s ticket is not authorized to be Checked in. Please check the order status.');
      expect(res.body.attendee.id).toBe(a.id);
      await t.db.updateTable('posts').set({ status: 'trash' }).where('id', '=', a.id).execute();
      const gone = await scan({ api_key: 'door-key', ticket_id: a.id, security_code: a.security_code });
      expect(gone.body).toEqual({ msg: 'An attendee is not found with this ID.', error: 'attendee_not_found' });
    });

    it('answers 403 attendee_not_found when the ticket is gone, and shows the ticket in the checked-in attendee', async () => {
      const other = await addTicket(t, event, { name: 'Balcony', price: '4' });
      const order = (await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: other.id, quantity: 2 }], purchaser_name: 'G', purchaser_email: 'g@example.test', gateway: 'offline' } })).body;
      await t.request('POST', `${NS}/orders/${order.id}`, { json: { status: 'completed' }, as: t.admin });
      const [first, second] = order.attendees;
      const ok = await scan({ api_key: 'door-key', ticket_id: first.id, security_code: first.security_code });
      expect(ok.status).toBe(201);
      expect(ok.body.attendee.ticket).toMatchObject({ id: other.id, title: 'Balcony', raw_price: '4' });
      await t.db.deleteFrom('posts').where('id', '=', other.id).execute();
      const gone = await scan({ api_key: 'door-key', ticket_id: second.id, security_code: second.security_code });
      expect(gone.status).toBe(403);
      expect(gone.body).toEqual({ msg: 'An attendee is not found with this ID.', error: 'attendee_not_found' });
    });

    it('checks a ticket in exactly once when 20 scanners race', async () => {
      const a = (await buy()).attendees[0];
      const results = await Promise.all(Array.from({ length: 20 }, () => scan({ api_key: 'door-key', ticket_id: a.id, security_code: a.security_code })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 403 && r.body.error === 'attendee_already_checked_in')).toHaveLength(19);
    });

    const checkedInRow = async (id: number) =>
      t.db.selectFrom('ticket_attendees').select(['checked_in', 'qr_status', 'checkin_source']).where('attendee_id', '=', id).executeTakeFirstOrThrow();

    it('checks in with one statement where the engine can write inside WITH, two elsewhere, and never on a refused scan', async () => {
      const a = (await buy()).attendees[0];
      const call = (security_code: unknown) => ({ api_key: 'door-key', ticket_id: a.id, event_id: undefined, security_code, ip: '203.0.113.9' });
      const counter = new StatementCounter();
      const counted = { ...t.ctx, db: t.db.withPlugin(counter) };
      // Refused in the statement itself: a wrong code, also one PostgreSQL could not bind (NUL, half a surrogate pair).
      for (const code of ['bad', `${a.security_code}\0`, `${a.security_code}\uD800`, a.security_code.slice(1)]) {
        const refused = await qrCheckIn(counted, call(code));
        expect(refused).toEqual({ status: 403, body: { msg: 'Security code is not valid!', error: 'security_code_not_valid' } });
      }
      expect(await checkedInRow(a.id)).toEqual({ checked_in: 0, qr_status: 0, checkin_source: '' });
      counter.executed = 0;
      expect((await qrCheckIn(counted, call(a.security_code))).status).toBe(201);
      expect(counter.executed).toBe(capabilities(t.db).writesInWith ? 1 : 2);
      expect(await checkedInRow(a.id)).toEqual({ checked_in: 1, qr_status: 1, checkin_source: 'app' });
      counter.executed = 0;
      expect((await qrCheckIn(counted, call(a.security_code))).body.error).toBe('attendee_already_checked_in');
      expect(counter.executed).toBe(1);
    });

    it('leaves unpaid, trashed and ticketless attendees not checked in', async () => {
      const pending = (await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: ticket.id, quantity: 1 }], purchaser_name: 'P', purchaser_email: 'p@example.test' } })).body.attendees[0];
      expect((await scan({ api_key: 'door-key', ticket_id: pending.id, security_code: pending.security_code })).body.error).toBe('attendee_not_authorized');
      expect((await checkedInRow(pending.id)).checked_in).toBe(0);
      const trashed = (await buy()).attendees[0];
      await t.db.updateTable('posts').set({ status: 'trash' }).where('id', '=', trashed.id).execute();
      expect((await scan({ api_key: 'door-key', ticket_id: trashed.id, security_code: trashed.security_code })).body.error).toBe('attendee_not_found');
      expect((await checkedInRow(trashed.id)).checked_in).toBe(0);
      const other = await addTicket(t, event, { name: 'Gone soon', price: '2' });
      const order = (await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: other.id, quantity: 1 }], purchaser_name: 'G', purchaser_email: 'g@example.test', gateway: 'offline' } })).body;
      await t.request('POST', `${NS}/orders/${order.id}`, { json: { status: 'completed' }, as: t.admin });
      await t.db.deleteFrom('posts').where('id', '=', other.id).execute();
      const ticketless = order.attendees[0];
      expect((await scan({ api_key: 'door-key', ticket_id: ticketless.id, security_code: ticketless.security_code })).body.error).toBe('attendee_not_found');
      expect((await checkedInRow(ticketless.id)).checked_in).toBe(0);
    });

    it('with "only while the event is happening" on, checks in during the event only', async () => {
      const day = 86_400_000;
      const local = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 19).replace('T', ' ');
      const eventAt = async (start: number, end: number) =>
        (await t.request('POST', '/eventsuite/events/v1/events', { json: { title: 'Timed', status: 'publish', start_date: local(start), end_date: local(end) }, as: t.admin })).body.id as number;
      const buyFor = async (eventId: number) => {
        const own = await addTicket(t, eventId, { price: '3' });
        const order = (await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: own.id, quantity: 1 }], purchaser_name: 'T', purchaser_email: 't@example.test', gateway: 'offline' } })).body;
        await t.request('POST', `${NS}/orders/${order.id}`, { json: { status: 'completed' }, as: t.admin });
        return order.attendees[0];
      };
      const later = await buyFor(await eventAt(30 * day, 31 * day));
      const now = await buyFor(await eventAt(-2 * day, 2 * day));
      await t.ctx.options.set(HAPPENING_NOW_OPTION, 'yes');
      try {
        const early = await scan({ api_key: 'door-key', ticket_id: later.id, security_code: later.security_code });
        expect(early.status).toBe(403);
        expect(early.body).toMatchObject({ error: 'event_not_happening_now', attendee: { id: later.id, checked_in: false } });
        expect((await checkedInRow(later.id)).checked_in).toBe(0);
        expect((await scan({ api_key: 'door-key', ticket_id: now.id, security_code: now.security_code })).status).toBe(201);
      } finally {
        await t.ctx.options.set(HAPPENING_NOW_OPTION, false);
      }
      expect((await scan({ api_key: 'door-key', ticket_id: later.id, security_code: later.security_code })).status).toBe(201);
    });

    it('gives manage access to requests carrying the key, and none once the key is emptied', async () => {
      const a = (await buy()).attendees[0];
      expect((await t.request('GET', `${NS}/attendees/${a.id}`, { query: { api_key: 'door-key' } })).body.email).toBe('q@example.test');
      await setCheckinApiKey(t.ctx, '');
      expect((await scan({ api_key: '', ticket_id: a.id, security_code: a.security_code })).status).toBe(400);
      expect((await t.request('GET', `${NS}/attendees/${a.id}`, { query: { api_key: '' } })).status).toBe(401);
      const generated = await generateCheckinApiKey(t.ctx);
      expect(generated).toMatch(/^[0-9a-f]{40}$/);
      expect(await getCheckinApiKey(t.ctx)).toBe(generated);
      await setCheckinApiKey(t.ctx, 'door-key');
    });
  });

  describe('QR codes', () => {
    it('encode what the check-in app needs to call GET /qr', async () => {
      const a = { id: 90, postId: 412, securityCode: 'c0ffee1234' };
      expect(checkinLink(t.ctx, a)).toBe('http://example.test/?event_qr_code=1&ticket_id=90&event_id=412&security_code=c0ffee1234&path=wp-json%2Feventsuite%2Ftickets%2Fv1%2Fqr');
      const order = await buy();
      const r = order.attendees[0];
      const png = await t.app.inject({ method: 'GET', url: `/wp-json${NS}/attendees/${r.id}/qr?security_code=${r.security_code}` });
      expect(png.rawPayload.equals(await qrPng(r.checkin_url))).toBe(true);
    });
  });
});
