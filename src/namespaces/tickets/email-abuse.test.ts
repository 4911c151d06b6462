/**
 * Ticket e-mail abuse (issue 8): anonymous checkouts cannot make the site mail one address over and
 * over (limit per recipient, and per client address), and a purchaser or attendee name cannot put a
 * clickable link into the site's e-mail.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { startMailBox, type MailBox } from '../../test-support/mailbox.js';
import { addTicket, makePost, NS } from './fixtures.case.js';
import { ORDERS_PER_ADDRESS_PER_HOUR, ORDERS_PER_RECIPIENT_PER_HOUR, recipientOrdersQuery } from './email-limits.js';
import { buildTicketEmail } from './ticket-email.js';
import { attendeeIdsOfOrder, loadAttendees } from './attendees.repo.js';

/** The buyer's URL, domain or address in a form mail clients link (the site's own check-in link is fine). */
const LINKISH = /https?:\/\/evil|www\.evil|evil\.(?:example|com)\b/i;

describe.each(DIALECTS)('ticket e-mail abuse on %s', (engine) => {
  let t: TestApp;
  let clock = Date.parse('2026-06-01T10:00:00Z');
  let free: any;
  let buyer: TestUser;
  let smtp: MailBox;

  // The limits apply only where ticket e-mail is sent at all: with mail configured.
  beforeAll(async () => {
    smtp = await startMailBox();
    t = await startTestApp(engine, { smtpUrl: `smtp://127.0.0.1:${smtp.port}` }, { now: () => new Date(clock) });
    const event = await makePost(t, { title: 'Open day' });
    free = await addTicket(t, event, { provider: 'rsvp', name: 'Guests', price: '', ticket: { mode: 'own', capacity: 50_000 } });
    buyer = await t.createUser('subscriber');
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const rsvp = (email: string, ip: string, extra: Record<string, unknown> = {}, as?: TestUser) =>
    t.request('POST', `${NS}/orders`, {
      json: { provider: 'rsvp', purchaser_name: 'Eve', purchaser_email: email, tickets: [{ ticket_id: free.id, quantity: 1 }], ...extra },
      headers: { 'x-forwarded-for': ip },
      as,
    });

  it(`refuses the checkout that would mail one recipient more than ${ORDERS_PER_RECIPIENT_PER_HOUR} times an hour (429, Retry-After)`, async () => {
    for (let i = 0; i < ORDERS_PER_RECIPIENT_PER_HOUR; i++) expect((await rsvp('Victim@example.test', `198.51.100.${i + 1}`)).status).toBe(201);
    const refused = await rsvp('victim@EXAMPLE.test', '198.51.100.99');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('tickets-too-many-emails');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another recipient is unaffected; an hour later the recipient may be mailed again.
    expect((await rsvp('other@example.test', '198.51.100.99')).status).toBe(201);
    clock += 61 * 60_000;
    expect((await rsvp('victim@example.test', '198.51.100.99')).status).toBe(201);
  });

  it(`refuses more than ${ORDERS_PER_ADDRESS_PER_HOUR} anonymous checkouts an hour from one client address`, async () => {
    for (let i = 0; i < ORDERS_PER_ADDRESS_PER_HOUR; i++) expect((await rsvp(`r${i}@example.test`, '203.0.113.7')).status).toBe(201);
    const refused = await rsvp('one-more@example.test', '203.0.113.7');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('tickets-too-many-emails');
    expect((await rsvp('one-more@example.test', '203.0.113.8')).status).toBe(201);
  });

  it('does not limit signed-in buyers mailing their own address, nor managers', async () => {
    for (let i = 0; i < ORDERS_PER_RECIPIENT_PER_HOUR + 1; i++) {
      expect((await rsvp(buyer.email, '192.0.2.10', {}, buyer)).status).toBe(201);
      expect((await rsvp('box-office-guest@example.test', '192.0.2.11', {}, t.admin)).status).toBe(201);
    }
  });

  it('keeps links out of names in the ticket e-mail (text and HTML)', async () => {
    const res = await rsvp('links@example.test', '192.0.2.20', {
      purchaser_name: 'Claim your prize at http://evil.example/win or www.evil.com, mail boss@evil.com',
    });
    expect(res.status).toBe(201);
    const ids = await attendeeIdsOfOrder(t.db, res.body.id);
    const loaded = await loadAttendees(t.db, ids);
    const message = (await buildTicketEmail(t.ctx, ids.map((id) => loaded.get(id)!)))!;
    expect(message.text).not.toMatch(LINKISH);
    expect(message.html).not.toMatch(LINKISH);
    expect(message.text).toContain('evil[.]example');
    expect(message.html).not.toContain('<a ');
  });

  it('counts a recipient\'s orders on the recipient index, not by walking the hour\'s orders', async () => {
    const q = recipientOrdersQuery(t.db, 'Eve@Example.test', '2026-06-01 09:00:00').compile();
    const explain = engine === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN (COSTS OFF)';
    // PostgreSQL would scan a table this small whatever its indexes: asked not to, it shows which index fits.
    const plan = await t.db.connection().execute(async (conn) => {
      if (engine === 'postgres') await sql`SET enable_seqscan = off`.execute(conn);
      try {
        return await conn.executeQuery<Record<string, string>>(CompiledQuery.raw(`${explain} ${q.sql}`, [...q.parameters]));
      } finally {
        if (engine === 'postgres') await sql`RESET enable_seqscan`.execute(conn);
      }
    });
    expect(plan.rows.map((r) => Object.values(r).join(' ')).join(' | ')).toMatch(/ticket_orders_recipient_created/);
  });
});
