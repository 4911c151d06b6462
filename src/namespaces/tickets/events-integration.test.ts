import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { setCheckinApiKey } from './access.js';
import { addTicket, NS } from './fixtures.case.js';
import { HAPPENING_NOW_OPTION } from './qr.service.js';
import { OFFLINE_PAYMENTS_OPTION } from './settings.js';

const EVENTS = '/eventsuite/events/v1/events';

describe.each(DIALECTS)('tickets in the events namespace on %s', (engine) => {
  let t: TestApp;
  let ticketed: number;
  let plain: number;
  let rsvpTicket: number;

  const newEvent = async (title: string) => {
    const res = await t.request('POST', EVENTS, {
      json: { title, start_date: '2031-05-01 18:00:00', end_date: '2031-05-01 22:00:00', status: 'publish' },
      as: t.admin,
    });
    if (res.status !== 201 && res.status !== 200) throw new Error(`event create failed: ${res.status} ${res.text}`);
    return res.body.id as number;
  };

  beforeAll(async () => {
    t = await startTestApp(engine);
    ticketed = await newEvent('With tickets');
    plain = await newEvent('Without tickets');
    const paid = await addTicket(t, ticketed, { price: '4' });
    rsvpTicket = (await addTicket(t, ticketed, { provider: 'rsvp', name: 'RSVP' })).id;
    await addTicket(t, ticketed, { price: '6', name: 'Second paid' });
    await t.ctx.options.set(OFFLINE_PAYMENTS_OPTION, true);
    const order = await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: paid.id, quantity: 2 }], purchaser_name: 'A', purchaser_email: 'a@example.test', gateway: 'offline' } });
    await t.request('POST', `${NS}/orders/${order.body.id}`, { json: { status: 'completed' }, as: t.admin });
  });
  afterAll(() => t.close());

  it('answers the ticketed filter from real tickets', async () => {
    const yes = await t.request('GET', EVENTS, { query: { ticketed: true, start_date: '2031-01-01', end_date: '2031-12-31' } });
    expect(yes.status).toBe(200);
    expect(yes.body.events.map((e: any) => e.id)).toEqual([ticketed]);
    const no = await t.request('GET', EVENTS, { query: { ticketed: false, start_date: '2031-01-01', end_date: '2031-12-31' } });
    expect(no.body.events.map((e: any) => e.id)).toEqual([plain]);
  });

  it('adds ticketed (provider slugs or false) to event objects, and attendance for manage access', async () => {
    const one = await t.request('GET', `${EVENTS}/${ticketed}`);
    expect(one.body.ticketed).toEqual(['tribe-commerce', 'rsvp']);
    expect(one.body).not.toHaveProperty('attendance');
    expect((await t.request('GET', `${EVENTS}/${plain}`)).body.ticketed).toBe(false);
    const admin = await t.request('GET', `${EVENTS}/${ticketed}`, { as: t.admin });
    expect(admin.body.attendance).toEqual({ total_attendees: 2, checked_in: 0, not_checked_in: 2 });
  });

  it('refuses QR check-in outside the event when "only while it happens" is on', async () => {
    await setCheckinApiKey(t.ctx, 'door');
    const order = (await t.request('POST', `${NS}/orders`, { json: { provider: 'rsvp', tickets: [{ ticket_id: rsvpTicket, quantity: 1 }], purchaser_name: 'N', purchaser_email: 'n@example.test' } })).body;
    const a = order.attendees[0];
    const scan = () => t.request('GET', `${NS}/qr`, { query: { api_key: 'door', ticket_id: a.id, security_code: a.security_code } });
    await t.ctx.options.set(HAPPENING_NOW_OPTION, true);
    const early = await scan();
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ msg: 'Event has not started or it has finished.', error: 'event_not_happening_now', attendee: { id: a.id } });
    await t.ctx.options.set(HAPPENING_NOW_OPTION, false);
    expect((await scan()).status).toBe(201);
  });
});
