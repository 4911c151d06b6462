import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { StatementCounter } from '../../test-support/statement-counter.js';
import { listAttendeePage, type AttendeeListQuery } from './attendees-list.repo.js';
import { addTicket, makePost, NS } from './fixtures.case.js';

/**
 * The manager's attendee list of an event or a ticket reads its total from the kept attendee counts
 * (`ticket_attendee_counts`) while every attendee post has a status the list takes; these lists must give the same totals as the
 * rows they page through, whatever statuses the attendee posts and the event have.
 */
describe.each(DIALECTS)('attendee list totals on %s', (engine) => {
  let t: TestApp;
  let event: number;
  let other: number;
  let ticket: number;
  const attendees: number[] = [];

  /** The total of a list, and the rows of the same list (one page of 100). */
  const listed = async (query: string) => {
    const res = await t.request('GET', `${NS}/attendees?${query}&per_page=100`, { as: t.admin });
    expect(res.status).toBe(200);
    return { total: res.body.total as number, rows: (res.body.attendees as { id: number }[]).length };
  };
  const setStatus = (id: number, status: string) => t.db.updateTable('posts').set({ status }).where('id', '=', id).execute();

  beforeAll(async () => {
    t = await startTestApp(engine);
    event = await makePost(t, { title: 'Counted gala' });
    other = await makePost(t, { title: 'Other gala' });
    ticket = (await addTicket(t, event, { name: 'Gala seat', ticket: { mode: 'own', capacity: 100 } })).id;
    const otherTicket = (await addTicket(t, other, { name: 'Other seat', ticket: { mode: 'own', capacity: 100 } })).id;
    for (let i = 0; i < 5; i++) {
      const res = await t.request('POST', `${NS}/attendees`, { json: { ticket_id: ticket, full_name: `Guest ${i}`, email: `guest${i}@example.test` }, as: t.admin });
      expect(res.status).toBe(201);
      attendees.push(res.body.id);
    }
    await t.request('POST', `${NS}/attendees`, { json: { ticket_id: otherTicket, full_name: 'Elsewhere', email: 'elsewhere@example.test' }, as: t.admin });
  });
  afterAll(() => t.close());

  it('counts only the attendees whose posts have a status the list takes', async () => {
    expect(await listed(`post_id=${event}`)).toEqual({ total: 5, rows: 5 });
    expect(await listed(`ticket_id=${ticket}`)).toEqual({ total: 5, rows: 5 });
    await setStatus(attendees[0]!, 'trash');
    expect(await listed(`post_id=${event}`)).toEqual({ total: 4, rows: 4 });
    expect(await listed(`ticket_id=${ticket}`)).toEqual({ total: 4, rows: 4 });
    expect(await listed(`post_id=${event}&status=trash`)).toEqual({ total: 1, rows: 1 });
    await setStatus(attendees[0]!, 'private');
    expect(await listed(`post_id=${event}`)).toEqual({ total: 5, rows: 5 });
    expect(await listed(`post_id=${event}&status=publish`)).toEqual({ total: 4, rows: 4 });
    await setStatus(attendees[0]!, 'publish');
  });

  it('asks for the statuses and counts in one statement, and counts the rows when a status is left out', async () => {
    const counter = new StatementCounter();
    const db = t.db.withPlugin(counter);
    const q: AttendeeListQuery = { postIds: [event], statuses: ['publish', 'private'], orderby: 'id', order: 'ASC', limit: 10, offset: 0 };
    expect((await listAttendeePage(db, q)).total).toBe(5);
    expect(counter.executed).toBe(2); // the count, the page
    await setStatus(attendees[0]!, 'trash');
    counter.executed = 0;
    expect((await listAttendeePage(db, q)).total).toBe(4);
    expect(counter.executed).toBe(3); // no total from the counts, the rows counted, the page
    await setStatus(attendees[0]!, 'publish');
  });

  it("follows the event's own status", async () => {
    await setStatus(event, 'draft');
    expect(await listed(`post_id=${event}`)).toEqual({ total: 5, rows: 5 });
    expect(await listed(`post_id=${event}&post_status=publish`)).toEqual({ total: 0, rows: 0 });
    await setStatus(event, 'trash');
    expect(await listed(`post_id=${event}`)).toEqual({ total: 0, rows: 0 });
    expect(await listed(`post_id=${event}&post_status=trash`)).toEqual({ total: 5, rows: 5 });
    await setStatus(event, 'publish');
    expect(await listed(`include_post=${event},${other}`)).toEqual({ total: 6, rows: 6 });
  });

  it('counts with other filters as their rows say', async () => {
    expect(await listed(`post_id=${event}&checkedin=0`)).toEqual({ total: 5, rows: 5 });
    expect(await listed(`post_id=${event}&checkedin=1`)).toEqual({ total: 0, rows: 0 });
    expect(await listed(`post_id=${event}&search=Guest%201`)).toEqual({ total: 1, rows: 1 });
  });
});
