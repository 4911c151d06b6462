/**
 * A trashed post frees its slug, as WordPress's `wp_trash_post` does (`…__trashed`): a new event, venue
 * or organizer of the same name takes the slug, by-slug routes find the new one, and a post leaving the
 * trash gets its slug back, or the next free one when it was taken meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { up as trashOldSlugs } from '../../storage/migrations/2026-11-28T0600-trashed-slugs.js';

const NS = '/eventsuite/events/v1';

describe.each(DIALECTS)('slugs of trashed posts on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  const event = async (title: string) =>
    (await t.request('POST', `${NS}/events`, { as: t.admin, json: { title, start_date: '2030-05-01 10:00:00', end_date: '2030-05-01 12:00:00' } })).body;

  it('frees an event slug in the trash and gives it back, or the next free one, on the way out', async () => {
    const first = await event('Harbour Fair');
    expect(first.slug).toBe('harbour-fair');
    const trashed = await t.request('DELETE', `${NS}/events/${first.id}`, { as: t.admin });
    expect(trashed.status).toBe(200);
    expect(trashed.body.slug).toBe('harbour-fair__trashed');
    const second = await event('Harbour Fair');
    expect(second.slug).toBe('harbour-fair');
    expect((await t.request('GET', `${NS}/events/by-slug/harbour-fair`)).body.id).toBe(second.id);
    const restored = await t.request('POST', `${NS}/events/${first.id}`, { as: t.admin, json: { status: 'publish' } });
    expect(restored.status).toBe(200);
    expect(restored.body.slug).toBe('harbour-fair-2');
    // Trashing the second and restoring it gives its own slug back (free again).
    await t.request('DELETE', `${NS}/events/${second.id}`, { as: t.admin });
    expect((await t.request('POST', `${NS}/events/${second.id}`, { as: t.admin, json: { status: 'draft' } })).body.slug).toBe('harbour-fair');
  });

  it('frees the slug whichever way the post reaches the trash, and gives it back after a second trashing', async () => {
    const a = await event('Quay Market');
    const viaStatus = await t.request('POST', `${NS}/events/${a.id}`, { as: t.admin, json: { status: 'trash' } });
    expect(viaStatus.body.slug).toBe('quay-market__trashed');
    const b = await event('Quay Market');
    expect(b.slug).toBe('quay-market');
    // Its trashed slug is taken by the first one: the second is numbered, and still comes back.
    expect((await t.request('DELETE', `${NS}/events/${b.id}`, { as: t.admin })).body.slug).toBe('quay-market__trashed-2');
    expect((await t.request('POST', `${NS}/events/${b.id}`, { as: t.admin, json: { status: 'publish' } })).body.slug).toBe('quay-market');
  });

  it('keeps percent-encoded slugs whole', async () => {
    const concert = await event('Концерт');
    const trashed = await t.request('DELETE', `${NS}/events/${concert.id}`, { as: t.admin });
    expect(trashed.body.slug).toBe(`${concert.slug}__trashed`);
    expect((await t.request('POST', `${NS}/events/${concert.id}`, { as: t.admin, json: { status: 'publish' } })).body.slug).toBe(concert.slug);
  });

  it('the upgrade frees the slugs of posts trashed before, unless the trashed form is taken', async () => {
    const a = await event('Old Fair');
    const b = await event('Old Gala');
    const taken = await event('Old Gala Trashed');
    for (const id of [a.id, b.id]) await t.db.updateTable('posts').set({ status: 'trash' }).where('id', '=', id).execute();
    await t.db.updateTable('posts').set({ slug: 'old-gala__trashed' }).where('id', '=', taken.id).execute();
    await trashOldSlugs(t.db);
    const slugs = await t.db.selectFrom('posts').select(['id', 'slug']).where('id', 'in', [a.id, b.id]).orderBy('id').execute();
    expect(slugs.map((r) => r.slug)).toEqual(['old-fair__trashed', 'old-gala']);
    expect((await event('Old Fair')).slug).toBe('old-fair');
  });

  it('does the same for venues and organizers', async () => {
    for (const [kind, field] of [['venues', 'venue'], ['organizers', 'organizer']] as const) {
      const first = (await t.request('POST', `${NS}/${kind}`, { as: t.admin, json: { [field]: 'Blue Room' } })).body;
      expect(first.slug).toBe('blue-room');
      expect((await t.request('DELETE', `${NS}/${kind}/${first.id}`, { as: t.admin })).body.slug).toBe('blue-room__trashed');
      const second = (await t.request('POST', `${NS}/${kind}`, { as: t.admin, json: { [field]: 'Blue Room' } })).body;
      expect(second.slug).toBe('blue-room');
      expect((await t.request('GET', `${NS}/${kind}/by-slug/blue-room`, { as: t.admin })).body.id).toBe(second.id);
      const restored = await t.request('POST', `${NS}/${kind}/${first.id}`, { as: t.admin, json: { status: 'publish' } });
      expect(restored.body.slug, kind).toBe('blue-room-2');
    }
  });
});
