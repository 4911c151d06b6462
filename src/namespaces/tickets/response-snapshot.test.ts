/**
 * The exact bytes (status, headers, body) of the ticketing answers that performance work touches
 * (issue #12): ticket lists public and manager, single tickets, attendee lists and single attendees,
 * a QR check-in and a checkout. The clock is fixed; values that are random by design (security codes,
 * order keys, nonces) are replaced by stable placeholders, everything else is compared byte for byte
 * with the files in `__snapshots__/responses/`, the same files on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestResponse } from '../../test-support/harness.js';
import { setCheckinApiKey } from './access.js';
import { addTicket, buyPaidOffline, makePost, NS } from './fixtures.case.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const ATTENDEE_LIST = '<!-- wp:tribe/attendees /-->';
/** Headers whose values are not the route's to decide (transport) or vary by run. */
const SKIPPED_HEADERS = new Set(['date', 'connection', 'keep-alive']);

describe.each(DIALECTS)('ticketing answers byte for byte on %s', (engine) => {
  let t: TestApp;
  /** Random values seen so far and their placeholders. */
  const secrets = new Map<string, string>();
  const ids = {} as Record<'fair' | 'gala' | 'adult' | 'child' | 'dinner' | 'guest' | 'order' | 'ada' | 'hidden' | 'gil', number>;

  const secret = (value: unknown, name: string) => {
    if (typeof value === 'string' && value !== '' && !secrets.has(value)) secrets.set(value, `<${name}>`);
  };

  /** Remembers the random values of an answer (nonces, order keys, security codes) to mask them. */
  const learn = (body: any) => {
    if (!body || typeof body !== 'object') return;
    for (const k of ['add_ticket_nonce', 'edit_ticket_nonce', 'remove_ticket_nonce']) secret(body[k], k);
    if (typeof body.key === 'string' && Array.isArray(body.attendees)) secret(body.key, `order-key-${body.id}`);
    for (const a of Array.isArray(body.attendees) ? body.attendees : []) secret(a.security_code, `security-code-${a.id}`);
  };

  /** Status, headers (sorted) and body of an answer, random values masked. */
  const wire = (res: TestResponse): string => {
    learn(res.body);
    const headers = Object.entries(res.headers)
      .filter(([k]) => !SKIPPED_HEADERS.has(k))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}: ${v}`);
    let text = `${res.status}\n${headers.join('\n')}\n\n${res.text}\n`;
    // Longest first, so a value containing another is replaced whole.
    for (const [value, mask] of [...secrets].sort((a, b) => b[0].length - a[0].length)) text = text.split(value).join(mask);
    return text;
  };

  const snapshot = async (name: string, res: TestResponse) => {
    await expect(wire(res)).toMatchFileSnapshot(`./__snapshots__/responses/${name}.txt`);
  };

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => new Date(NOW) });
    await setCheckinApiKey(t.ctx, 'door-key');
    // A fair whose page shows its attendee list (public attendees are embedded), and a gala that does not.
    ids.fair = await makePost(t, { title: 'Spring Fair', content: `Come along. ${ATTENDEE_LIST}` });
    ids.gala = await makePost(t, { title: 'Winter Gala' });
    ids.adult = (await addTicket(t, ids.fair, { name: 'Adult', price: '12.50', description: 'Entry for one adult.', ticket: { mode: 'own', capacity: 50 } })).id;
    ids.child = (await addTicket(t, ids.fair, { name: 'Child', price: '5', ticket: { mode: 'global', event_capacity: 80 } })).id;
    ids.dinner = (await addTicket(t, ids.gala, { name: 'Dinner', price: '90', sku: 'GALA-D', ticket: { mode: 'capped', capacity: 20, event_capacity: 30 } })).id;
    ids.guest = (await addTicket(t, ids.gala, { provider: 'rsvp', name: 'Guest list', price: '' })).id;

    const bought = await buyPaidOffline(t, {
      tickets: [{ ticket_id: ids.adult, quantity: 2 }, { ticket_id: ids.child, quantity: 1 }],
      meta: [{ ticket_id: ids.adult, items: [{ full_name: 'Ada Holder', email: 'ada@example.test' }] }],
      purchaser_name: 'Pat Buyer',
      purchaser_email: 'pat@example.test',
    });
    learn(bought.body);
    ids.order = bought.body.id;
    ids.ada = bought.body.attendees[0].id;
    const hidden = await buyPaidOffline(t, { tickets: [{ ticket_id: ids.adult, quantity: 1, optout: true }], purchaser_name: 'Olive Private', purchaser_email: 'olive@example.test' });
    learn(hidden.body);
    ids.hidden = hidden.body.attendees[0].id;
    const gala = await buyPaidOffline(t, { tickets: [{ ticket_id: ids.dinner, quantity: 2 }], purchaser_name: 'Gil Guest', purchaser_email: 'gil@example.test' });
    learn(gala.body);
    ids.gil = gala.body.attendees[0].id;
    const rsvp = await t.request('POST', `${NS}/orders`, { json: { provider: 'rsvp', tickets: [{ ticket_id: ids.guest, quantity: 1 }], purchaser_name: 'Rory Going', purchaser_email: 'rory@example.test' } });
    learn(rsvp.body);
    const notGoing = await t.request('POST', `${NS}/orders`, { json: { provider: 'rsvp', rsvp_going: false, tickets: [{ ticket_id: ids.guest, quantity: 1 }], purchaser_name: 'Nell Away', purchaser_email: 'nell@example.test' } });
    learn(notGoing.body);
    // One attendee checked in at the door by a manager before the snapshots.
    await t.request('PATCH', `${NS}/attendees/${ids.gil}`, { json: { check_in: true }, as: t.admin });
  });
  afterAll(() => t.close());

  it('GET /tickets, public', async () => {
    await snapshot('tickets-public', await t.request('GET', `${NS}/tickets`));
  });

  it('GET /tickets, manager (every status, statistics, all attendees)', async () => {
    await snapshot('tickets-manager', await t.request('GET', `${NS}/tickets`, { as: t.admin }));
  });

  it('GET /tickets?include_post, manager (add_ticket_nonce), paged and ordered', async () => {
    await snapshot('tickets-manager-include-post', await t.request('GET', `${NS}/tickets`, { query: { include_post: ids.fair, per_page: 1, page: 2, order: 'DESC' }, as: t.admin }));
  });

  it('GET /tickets/{id}, public and editor', async () => {
    await snapshot('ticket-public', await t.request('GET', `${NS}/tickets/${ids.adult}`));
    await snapshot('ticket-editor', await t.request('GET', `${NS}/tickets/${ids.dinner}`, { as: t.admin }));
  });

  it('GET /attendees?post_id, manager and public', async () => {
    await snapshot('attendees-manager', await t.request('GET', `${NS}/attendees`, { query: { post_id: ids.fair }, as: t.admin }));
    await snapshot('attendees-manager-gala', await t.request('GET', `${NS}/attendees`, { query: { post_id: ids.gala, per_page: 2 }, as: t.admin }));
    await snapshot('attendees-public', await t.request('GET', `${NS}/attendees`, { query: { post_id: ids.fair } }));
  });

  it('GET /attendees/{id}, manager and public', async () => {
    await snapshot('attendee-manager', await t.request('GET', `${NS}/attendees/${ids.ada}`, { as: t.admin }));
    await snapshot('attendee-public', await t.request('GET', `${NS}/attendees/${ids.ada}`));
  });

  it('GET /qr: a check-in, then the same scan again', async () => {
    const code = [...secrets].find(([, mask]) => mask === `<security-code-${ids.ada}>`)![0];
    const scan = () => t.request('GET', `${NS}/qr`, { query: { api_key: 'door-key', ticket_id: ids.ada, security_code: code, event_id: ids.fair } });
    await snapshot('qr-checked-in', await scan());
    await snapshot('qr-already-checked-in', await scan());
  });

  it('POST /orders: a checkout of one seat', async () => {
    const res = await t.request('POST', `${NS}/orders`, { json: { gateway: 'offline', tickets: [{ ticket_id: ids.adult, quantity: 1 }], purchaser_name: 'Cy Late', purchaser_email: 'cy@example.test' } });
    await snapshot('order-checkout', res);
  });
});
