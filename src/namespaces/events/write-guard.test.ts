/**
 * Injection through calendar writes (issue 8): authors and contributors publish filtered HTML
 * (kses, as WordPress for users without `unfiltered_html`), administrators and editors raw HTML;
 * `author` set to someone else needs `edit_others_*` (`rest_cannot_edit_others`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';

const NS = '/eventsuite/events/v1';
const HOSTILE = '<p onclick="steal()">Fair <script>alert(document.cookie)</script><a href="javascript:alert(1)">go</a><img src=x onerror=alert(2)></p>';
const EXECUTABLE = /<script|onclick|onerror|javascript:/i;

type Json = Record<string, any>;

describe.each(DIALECTS)('calendar writes by role on %s', (engine) => {
  let t: TestApp;
  let author: TestUser;
  let contributor: TestUser;
  let editor: TestUser;

  const event = (extra: Json = {}) => ({ title: 'Fair', start_date: '2030-05-01 10:00:00', end_date: '2030-05-01 12:00:00', ...extra });
  const post = (path: string, json: Json, as: TestUser) => t.request('POST', `${NS}${path}`, { as, json });

  beforeAll(async () => {
    t = await startTestApp(engine);
    [author, contributor, editor] = await Promise.all([t.createUser('author'), t.createUser('contributor'), t.createUser('editor')]);
  });
  afterAll(() => t.close());

  it('filters an author\'s event description, excerpt and title; the public reads no script', async () => {
    const res = await post('/events', event({ title: 'Fair <script>x()</script><b>!</b>', description: HOSTILE, excerpt: '<script>alert(3)</script>Short' }), author);
    expect(res.status).toBe(201);
    const read = await t.request('GET', `${NS}/events/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.description).not.toMatch(EXECUTABLE);
    expect(read.body.description).toContain('<a href="alert(1)">go</a><img src="x">');
    expect(read.body.excerpt).not.toMatch(EXECUTABLE);
    expect(read.body.title).toBe('Fair x()<b>!</b>');
  });

  it('filters on update too, and for contributors', async () => {
    const created = await post('/events', event({ description: 'plain' }), contributor);
    expect(created.status).toBe(201);
    const updated = await post(`/events/${created.body.id}`, { description: HOSTILE }, contributor);
    expect(updated.status).toBe(200);
    expect(updated.body.description).not.toMatch(EXECUTABLE);
  });

  it('keeps raw HTML for users with unfiltered_html (administrators, editors)', async () => {
    for (const who of [t.admin, editor]) {
      const res = await post('/events', event({ description: '<script>ok()</script><iframe src="https://video.example/1"></iframe>' }), who);
      expect(res.status).toBe(201);
      expect(res.body.description).toContain('<script>ok()</script>');
      expect(res.body.description).toContain('<iframe');
    }
  });

  it('filters venues and organizers, standalone and created inside an event', async () => {
    const venue = await post('/venues', { venue: 'Hall<script>x</script>', description: HOSTILE }, author);
    expect(venue.status).toBe(201);
    expect(venue.body.venue).toBe('Hallx');
    expect(venue.body.description).not.toMatch(EXECUTABLE);
    const organizer = await post('/organizers', { organizer: 'Org', description: HOSTILE }, author);
    expect(organizer.body.description).not.toMatch(EXECUTABLE);
    const nested = await post('/events', event({ venue: { venue: 'Nested Hall', description: HOSTILE }, organizer: [{ organizer: 'Nested Org', description: HOSTILE }] }), author);
    expect(nested.status).toBe(201);
    expect(nested.body.venue.description).not.toMatch(EXECUTABLE);
    expect(nested.body.organizer[0].description).not.toMatch(EXECUTABLE);
  });

  it('refuses another author without edit_others (rest_cannot_edit_others), allows oneself and editors', async () => {
    const asOther = await post('/events', event({ author: t.admin.id }), author);
    expect(asOther.status).toBe(403);
    expect(asOther.body).toEqual({ code: 'rest_cannot_edit_others', message: 'Sorry, you are not allowed to create posts as this user.', data: { status: 403 } });
    const own = await post('/events', event({ author: author.id }), author);
    expect(own.status).toBe(201);
    expect(own.body.author).toBe(String(author.id));
    const moved = await post(`/events/${own.body.id}`, { author: t.admin.id }, author);
    expect(moved.status).toBe(403);
    expect(moved.body.message).toBe('Sorry, you are not allowed to update posts as this user.');
    const byEditor = await post('/events', event({ author: author.id }), editor);
    expect(byEditor.status).toBe(201);
    expect(byEditor.body.author).toBe(String(author.id));

    const venue = await post('/venues', { venue: 'Other Hall', author: t.admin.id }, contributor);
    expect(venue.status).toBe(403);
    expect(venue.body.code).toBe('rest_cannot_edit_others');
    const nested = await post('/events', event({ venue: { venue: 'Sneaky Hall', author: t.admin.id } }), author);
    expect(nested.status).toBe(403);
    expect(nested.body.code).toBe('rest_cannot_edit_others');
  });
});
