import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { addTicket, makePost, NS, startGateway, startMailBox, type FakeGateway, type MailBox } from './fixtures.case.js';
import { queueOrderTickets } from './ticket-email.js';

describe.each(DIALECTS)('tickets jobs on %s', (engine) => {
  let t: TestApp;
  let mail: MailBox;
  let gateway: FakeGateway;
  let customer: TestUser;
  let clock: Date;
  let paid: any;
  let free: any;
  const advance = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));

  beforeAll(async () => {
    mail = await startMailBox();
    gateway = await startGateway();
    clock = new Date();
    t = await startTestApp(engine, { smtpUrl: `smtp://127.0.0.1:${mail.port}`, remotes: { payments: gateway.url } }, { now: () => clock });
    customer = await t.createUser('customer');
    const event = await makePost(t, { title: 'Concert' });
    paid = await addTicket(t, event, { name: 'Seat', price: '12.50', ticket: { mode: 'own', capacity: 100 } });
    free = await addTicket(t, event, { provider: 'rsvp', name: 'Guest list' });
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
    await gateway.close();
  });

  it('queues the tickets e-mail with the order, retries a failed SMTP send, and never sends it twice', async () => {
    mail.failures = 2;
    const order = await t.request('POST', `${NS}/orders`, { json: { provider: 'rsvp', tickets: [{ ticket_id: free.id, quantity: 1 }] }, as: customer });
    expect(order.status).toBe(201);
    expect(mail.messages).toHaveLength(0);
    const [job] = await t.ctx.jobs.list({ kind: 'tickets.order-email' });
    expect(job).toMatchObject({ status: 'queued', payload: { orderId: order.body.id }, dedupeKey: `tickets.order-email:${order.body.id}` });

    await t.ctx.jobs.runDue();
    expect(await t.ctx.jobs.get(job!.id)).toMatchObject({ status: 'queued', attempts: 1, lastError: expect.stringContaining('451') });
    advance(10);
    await t.ctx.jobs.runDue();
    expect(await t.ctx.jobs.get(job!.id)).toMatchObject({ status: 'queued', attempts: 2 });
    expect(mail.messages).toHaveLength(0);
    advance(20);
    await t.ctx.jobs.runDue();
    expect(await t.ctx.jobs.get(job!.id)).toMatchObject({ status: 'done', attempts: 3 });
    expect(mail.messages).toHaveLength(1);
    expect(mail.messages[0]!.raw).toContain(`To: ${customer.email}`);

    // Queued again (a repeated completion): the same job, nothing new.
    await queueOrderTickets(t.ctx, order.body.id);
    expect(await t.ctx.jobs.list({ kind: 'tickets.order-email' })).toHaveLength(1);
    // Run again (as after a crash between the send and the job's completion): the sent mark stops it.
    await t.ctx.jobs.retry(job!.id);
    await t.ctx.jobs.runDue();
    expect(await t.ctx.jobs.get(job!.id)).toMatchObject({ status: 'done' });
    expect(mail.messages).toHaveLength(1);
  });

  it('does not queue the e-mail of an order still waiting for payment', async () => {
    gateway.next = { status: 201, body: { status: 'pending' } };
    const before = (await t.ctx.jobs.list({ kind: 'tickets.order-email' })).length;
    const pending = await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: paid.id, quantity: 1 }], purchaser_name: 'P', purchaser_email: 'p@example.test' } });
    expect(pending.body.status).toBe('pending');
    expect(await t.ctx.jobs.list({ kind: 'tickets.order-email' })).toHaveLength(before);
    // Completed later by a manager: queued then.
    expect((await t.request('POST', `${NS}/orders/${pending.body.id}`, { json: { status: 'completed' }, as: t.admin })).body.status).toBe('completed');
    expect(await t.ctx.jobs.list({ kind: 'tickets.order-email' })).toHaveLength(before + 1);
  });

  it('cancels orders left pending past the reservation setting (15 minutes) on its schedule and gives their seats back', async () => {
    await t.ctx.jobs.runDue(); // stores the schedules
    expect((await t.ctx.jobs.schedules()).find((s) => s.name === 'tickets.cancel-stale-orders')).toMatchObject({ kind: 'tickets.cancel-stale-orders', every: '300s' });
    gateway.next = { status: 201, body: { status: 'pending' } };
    const stale = (await t.request('POST', `${NS}/orders`, { json: { tickets: [{ ticket_id: paid.id, quantity: 3 }], purchaser_name: 'Z', purchaser_email: 'z@example.test' } })).body;
    expect(stale.status).toBe('pending');
    const held = (await t.request('GET', `${NS}/tickets/${paid.id}`, { as: t.admin })).body.capacity_details;
    advance(14 * 60);
    await t.ctx.jobs.runDue();
    expect((await t.request('GET', `${NS}/orders/${stale.id}`, { as: t.admin })).body.status).toBe('pending');
    advance(7 * 60);
    await t.ctx.jobs.runDue();
    expect((await t.request('GET', `${NS}/orders/${stale.id}`, { as: t.admin })).body.status).toBe('cancelled');
    const after = (await t.request('GET', `${NS}/tickets/${paid.id}`, { as: t.admin })).body.capacity_details;
    expect(after.available).toBe(held.available + 3);
    expect(after.pending).toBe(held.pending - 3);
  });
});
