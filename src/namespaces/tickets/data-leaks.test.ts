/**
 * Data leaks (issue 8): attendee filters that answer "does this address exist" without manage access,
 * attendee names of password-protected events, and the check-in key's strength and guess limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { generateCheckinApiKey, setCheckinApiKey } from './access.js';
import { addTicket, makePost, NS } from './fixtures.case.js';

describe.each(DIALECTS)('tickets data leaks on %s', (engine) => {
  let t: TestApp;
  let event: number;
  let rsvp: any;

  beforeAll(async () => {
    t = await startTestApp(engine);
    event = await makePost(t, { title: 'Open night', content: '<!-- wp:tribe/attendees-list /-->' });
    rsvp = await addTicket(t, event, { provider: 'rsvp', name: 'Door', price: '' });
    await t.request('POST', `${NS}/orders`, { json: { provider: 'rsvp', tickets: [{ ticket_id: rsvp.id, quantity: 1 }], purchaser_name: 'Hidden Person', purchaser_email: 'hidden.person@example.test' } });
  });
  afterAll(() => t.close());

  it('ignores the email and search filters on /attendees without manage access', async () => {
    const all = await t.request('GET', `${NS}/attendees`);
    const queries: Record<string, string>[] = [{ email: 'hidden.person@' }, { email: 'nobody-like-this@' }, { search: 'hidden.person@' }, { search: 'zzz-nothing' }];
    for (const query of queries) {
      const res = await t.request('GET', `${NS}/attendees`, { query });
      expect(res.status).toBeLessThan(500);
      if (res.status === 200) expect(res.body.total, JSON.stringify(query)).toBe(all.body.total);
    }
    const manager = await t.request('GET', `${NS}/attendees`, { query: { email: 'nobody-like-this@' }, as: t.admin });
    expect(manager.body.total).toBe(0);
  });

  it("hides a password-protected event's attendee names in GET /tickets/{id} from signed-in users who cannot edit it", async () => {
    const secret = await makePost(t, { title: 'Members only', password: 'pw', content: '<!-- wp:tribe/attendees-list /-->' });
    const ticket = await addTicket(t, secret, { provider: 'rsvp', name: 'Members', price: '' });
    await t.request('POST', `${NS}/orders`, { json: { provider: 'rsvp', tickets: [{ ticket_id: ticket.id, quantity: 1 }], purchaser_name: 'Secret Member', purchaser_email: 'member@example.test' } });
    const subscriber = await t.createUser('subscriber');
    const res = await t.request('GET', `${NS}/tickets/${ticket.id}`, { as: subscriber });
    expect(res.text).not.toContain('Secret Member');
    const admin = await t.request('GET', `${NS}/tickets/${ticket.id}`, { as: t.admin });
    expect(admin.text).toContain('Secret Member');
  });

  it('generates check-in keys of at least 128 bits and still accepts a key set by hand', async () => {
    expect((await generateCheckinApiKey(t.ctx)).length * 4).toBeGreaterThanOrEqual(128);
    await setCheckinApiKey(t.ctx, 'door1234');
    const ok = await t.request('GET', `${NS}/attendees`, { query: { api_key: 'door1234' }, headers: { 'x-forwarded-for': '198.51.100.1' } });
    expect(ok.body.attendees.some((a: any) => a.email === 'hidden.person@example.test')).toBe(true);
  });

  it('refuses an address after 10 wrong check-in keys, even with the right one', async () => {
    await setCheckinApiKey(t.ctx, 'right-key-0123456789abcdef');
    const ip = { 'x-forwarded-for': '198.51.100.9' };
    for (let i = 0; i < 10; i++) await t.request('GET', `${NS}/qr`, { query: { api_key: `guess${i}`, ticket_id: 1, security_code: 'x' }, headers: ip });
    const refused = await t.request('GET', `${NS}/attendees`, { query: { api_key: 'right-key-0123456789abcdef' }, headers: ip });
    expect(refused.body.attendees.some((a: any) => a.email === 'hidden.person@example.test')).toBe(false);
    const elsewhere = await t.request('GET', `${NS}/attendees`, { query: { api_key: 'right-key-0123456789abcdef' }, headers: { 'x-forwarded-for': '198.51.100.10' } });
    expect(elsewhere.body.attendees.some((a: any) => a.email === 'hidden.person@example.test')).toBe(true);
  });
});
