/**
 * @module test-support/fuzz-site
 * A small site for the route fuzzer and the authorisation matrix: events (published, draft, private),
 * a venue, an organizer, a category, a tag, a contact form, an RSVP ticket with an attendee and an
 * order, a subscriber; and the pool of their IDs by the route segment that names them.
 */
import type { TestApp, TestUser } from './harness.js';
import { addTicket, NS as TICKETS } from '../namespaces/tickets/fixtures.case.js';
import type { IdPool } from './route-fuzz.js';

const EVENTS = '/eventsuite/events/v1';

export interface FuzzSite {
  pool: IdPool;
  subscriber: TestUser;
  /** IDs of objects only managers may see. */
  privateEvents: number[];
  attendee: { id: number; email: string; name: string };
  orderId: number;
}

async function created(t: TestApp, path: string, json: Record<string, unknown>): Promise<any> {
  const res = await t.request('POST', path, { as: t.admin, json });
  if (res.status !== 200 && res.status !== 201) throw new Error(`seeding ${path} failed: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

export async function seedFuzzSite(t: TestApp): Promise<FuzzSite> {
  const event = (status: string, title: string) =>
    created(t, `${EVENTS}/events`, { title, status, start_date: '2030-06-01 10:00:00', end_date: '2030-06-01 12:00:00', description: `${title} details` });
  const published = await event('publish', 'Fuzz published');
  const draft = await event('draft', 'Fuzz draft secret');
  const privateOne = await event('private', 'Fuzz private secret');
  const venue = await created(t, `${EVENTS}/venues`, { venue: 'Fuzz Hall', address: '1 Test Street' });
  const organizer = await created(t, `${EVENTS}/organizers`, { organizer: 'Fuzz Org', email: 'org@example.test' });
  const category = await created(t, `${EVENTS}/categories`, { name: 'Fuzz category' });
  const tag = await created(t, `${EVENTS}/tags`, { name: 'Fuzz tag' });
  const form = await created(t, '/contact-form/v1/contact-forms', { title: 'Fuzz form', context: 'save', form: '[text* your-name] [email* your-email] [submit]' });

  const post = (await event('publish', 'Fuzz ticketed')).id as number;
  const ticket = await addTicket(t, post, { provider: 'rsvp', name: 'Door', price: '' });
  const attendeeName = 'Fuzz Attendee Private';
  const attendeeEmail = 'fuzz.attendee.private@example.test';
  const order = await t.request('POST', `${TICKETS}/orders`, {
    json: { provider: 'rsvp', tickets: [{ ticket_id: ticket.id, quantity: 1 }], purchaser_name: attendeeName, purchaser_email: attendeeEmail },
  });
  if (order.status !== 201) throw new Error(`seeding an order failed: ${order.status} ${order.text.slice(0, 300)}`);
  const attendees = await t.request('GET', `${TICKETS}/attendees`, { as: t.admin, query: { post_id: post } });
  const attendee = attendees.body?.attendees?.[0];
  if (!attendee) throw new Error(`seeding: no attendee (${attendees.status} ${attendees.text.slice(0, 200)})`);

  const subscriber = await t.createUser('subscriber');
  const passwords = await t.request('GET', '/core/v2/users/me/application-passwords', { as: t.admin });
  const uuids = (passwords.body as { uuid: string }[]).map((p) => p.uuid);

  const events = [published.id, draft.id, privateOne.id, post];
  const pool: IdPool = {
    any: [published.id, venue.id, organizer.id, category.id, ticket.id, attendee.id, order.body.id, form.id, t.admin.id],
    'events:id': events,
    'events:slug': [published.slug, draft.slug, privateOne.slug],
    'venues:id': [venue.id],
    'venues:slug': [venue.slug],
    'organizers:id': [organizer.id],
    'organizers:slug': [organizer.slug],
    'categories:id': [category.id],
    'tags:id': [tag.id],
    'contact-forms:id': [form.id],
    'tickets:id': [ticket.id],
    'attendees:id': [attendee.id],
    'qr:id': [attendee.id],
    'orders:id': [order.body.id],
    'users:id': [t.admin.id, subscriber.id],
    user_id: ['me', t.admin.id, subscriber.id],
    uuid: uuids,
    import_id: ['abc123', '1'],
    job_id: ['job_1', 'x'],
    leaderboard: ['products', 'customers', 'coupons', 'categories'],
    interval: ['60-days', '6-months', 'all'],
  };
  return { pool, subscriber, privateEvents: [draft.id, privateOne.id], attendee: { id: attendee.id, email: attendeeEmail, name: attendeeName }, orderId: order.body.id };
}
