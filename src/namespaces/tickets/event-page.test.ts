import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { addTicket, buyPaidOffline } from './fixtures.case.js';

describe.each(DIALECTS)('tickets on the event page on %s', (engine) => {
  let t: TestApp;
  let event: { id: number; url: string };

  beforeAll(async () => {
    t = await startTestApp(engine);
    event = (await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: { title: 'Harbour Gig', start_date: '2031-06-01 19:00', end_date: '2031-06-01 22:00' } })).body;
  });
  afterAll(() => t.close());

  const page = async () => (await t.app.inject({ method: 'GET', url: new URL(event.url).pathname })).body;

  it('lists the tickets with price and what is left; a description only where the ticket shows it', async () => {
    expect(await page()).not.toContain('<h2>Tickets</h2>');
    const stalls = await addTicket(t, event.id, { name: 'Stalls', price: '25', description: 'Seated near the stage', ticket: { capacity: 2 } });
    await addTicket(t, event.id, { name: 'Standing', price: '10', description: 'Hidden note', show_description: 'no' });
    const html = await page();
    expect(html).toContain('<h2>Tickets</h2>');
    expect(html).toMatch(/<strong>Stalls<\/strong> · <span class="tribe-tickets__item-price">\$25\.00<\/span> · <span class="tribe-tickets__item-availability">2 available<\/span>/);
    expect(html).toContain('Seated near the stage');
    expect(html).toContain('<strong>Standing</strong>');
    expect(html).not.toContain('Hidden note');

    const order = await buyPaidOffline(t, { provider: 'tribe-commerce', tickets: [{ ticket_id: stalls.id, quantity: 2 }], purchaser_name: 'Ann', purchaser_email: 'ann@example.test' });
    expect(order.status).toBe(201);
    expect(await page()).toMatch(/<strong>Stalls<\/strong> · <span class="tribe-tickets__item-price">\$25\.00<\/span> · <span class="tribe-tickets__item-availability">Sold out<\/span>/);
  });

  it('shows nothing for an event whose tickets the visitor may not see', async () => {
    const hidden = (await t.request('POST', '/eventsuite/events/v1/events', { as: t.admin, json: { title: 'Members Night', password: 'pw', start_date: '2031-06-02 19:00', end_date: '2031-06-02 22:00' } })).body;
    await addTicket(t, hidden.id, { name: 'Member seat', description: 'Secret perk' });
    const html = (await t.app.inject({ method: 'GET', url: new URL(hidden.url).pathname })).body;
    expect(html).not.toContain('Secret perk');
  });
});
