/**
 * Description and excerpt HTML rendered at write time: stored beside the raw text by every event
 * write, cleared when a post's text changes elsewhere (then rendered on read), and what reads show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderContent } from '../../content/posts.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';

const NS = '/eventsuite/events/v1';

describe.each(DIALECTS)('stored event HTML on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => new Date('2025-04-01T12:00:00Z') });
  });
  afterAll(() => t.close());

  const stored = async (id: number) =>
    t.db.selectFrom('event_details').select(['content_html', 'excerpt_html']).where('post_id', '=', id).executeTakeFirstOrThrow();
  const read = async (id: number) => (await t.request('GET', `${NS}/events/${id}`, { as: t.admin })).body;
  const listed = async (id: number) =>
    ((await t.request('GET', `${NS}/events`, { as: t.admin, query: { include: id } })).body.events as { id: number; description: string; excerpt: string }[]).find((e) => e.id === id)!;

  it('stores the rendered text on create and on each change of either text', async () => {
    const created = await t.request('POST', `${NS}/events`, { as: t.admin, json: { title: 'Talk', description: 'One\n\nTwo', excerpt: 'Short', start_date: '2025-05-01 10:00', end_date: '2025-05-01 11:00' } });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(await stored(id)).toEqual({ content_html: '<p>One</p>\n<p>Two</p>', excerpt_html: '<p>Short</p>' });

    const updated = await t.request('POST', `${NS}/events/${id}`, { as: t.admin, json: { excerpt: 'Line\nbreak' } });
    expect(updated.status).toBe(200);
    expect(await stored(id)).toEqual({ content_html: '<p>One</p>\n<p>Two</p>', excerpt_html: '<p>Line<br />\nbreak</p>' });
    expect(updated.body.excerpt).toBe('<p>Line<br />\nbreak</p>');

    // Other fields leave the stored HTML alone.
    await t.request('POST', `${NS}/events/${id}`, { as: t.admin, json: { title: 'Talk again' } });
    expect((await stored(id)).content_html).toBe('<p>One</p>\n<p>Two</p>');
  });

  it('forgets the HTML when the post text changes outside the events service, and reads render the raw text then', async () => {
    const created = await t.request('POST', `${NS}/events`, { as: t.admin, json: { title: 'Fair', description: 'Old text', start_date: '2025-05-02 10:00', end_date: '2025-05-02 11:00' } });
    const id = created.body.id as number;
    await t.db.updateTable('posts').set({ content: 'New\n\ntext' }).where('id', '=', id).execute();
    expect(await stored(id)).toEqual({ content_html: null, excerpt_html: null });
    expect((await read(id)).description).toBe(renderContent('New\n\ntext'));
    expect((await listed(id)).description).toBe('<p>New</p>\n<p>text</p>');
    expect((await listed(id)).excerpt).toBe('');

    // A change of another column keeps it.
    await t.request('POST', `${NS}/events/${id}`, { as: t.admin, json: { description: 'Fresh' } });
    await t.db.updateTable('posts').set({ title: 'Fair 2' }).where('id', '=', id).execute();
    expect(await stored(id)).toEqual({ content_html: '<p>Fresh</p>', excerpt_html: '' });
    expect((await listed(id)).description).toBe('<p>Fresh</p>');
  });
});
