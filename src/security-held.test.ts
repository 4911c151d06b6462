/**
 * What held in the issue 8 review, kept true: wrong Basic credentials are 401, X-Forwarded-For is
 * ignored without TRUST_PROXY, revocation works at once, filters do not inject SQL, JSON size and
 * depth limits, and the batch cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from './test-support/harness.js';

function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

describe.each(DIALECTS)('security properties that held, on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { trustProxy: false });
  });
  afterAll(() => t.close());

  it('answers wrong Basic credentials with 401, and ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const victim = await t.createUser('editor');
    for (let i = 0; i < 10; i++) {
      const res = await t.request('GET', '/', { headers: { authorization: basic(victim.login, `wrong${i}`), 'x-forwarded-for': `203.0.113.${i}` } });
      expect(res.status).toBe(401);
    }
    // Every try came from the same real address, whatever the header said.
    const res = await t.request('GET', '/', { headers: { authorization: basic(victim.login, 'again'), 'x-forwarded-for': '198.51.100.77' } });
    expect(res.status).toBe(429);
  });

  it('refuses an application password at once when it is revoked', async () => {
    const user = await t.createUser('author');
    expect((await t.request('GET', '/core/v2/users/me', { as: user })).status).toBe(200);
    expect((await t.request('DELETE', '/core/v2/users/me/application-passwords', { as: user })).status).toBe(200);
    expect((await t.request('GET', '/core/v2/users/me', { as: user })).status).toBe(401);
  });

  it('treats SQL in filters as text', async () => {
    const count = async () => Number((await t.db.selectFrom('posts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n);
    const before = await count();
    for (const search of ["' OR 1=1 --", '"; DROP TABLE posts; --', "%' UNION SELECT password_hash FROM users --"]) {
      const res = await t.request('GET', '/eventsuite/events/v1/events', { query: { search } });
      expect(res.status).toBe(200);
      expect(res.body.events).toEqual([]);
      const terms = await t.request('GET', '/eventsuite/events/v1/categories', { query: { slug: search } });
      expect(terms.status).toBeLessThan(500);
      const attendees = await t.request('GET', '/eventsuite/tickets/v1/attendees', { query: { search }, as: t.admin });
      expect(attendees.status).toBe(200);
      expect(attendees.body.total).toBe(0);
    }
    expect(await count()).toBe(before);
  });

  it('refuses JSON nested too deep or bodies over BODY_LIMIT with 4xx', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const res = await t.request('POST', '/eventsuite/events/v1/events', { headers: { 'content-type': 'application/json' }, form: deep, as: t.admin });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const big = await t.request('POST', '/eventsuite/events/v1/events', { json: { title: 'x'.repeat(t.ctx.config.bodyLimit + 10) }, as: t.admin });
    expect(big.status).toBe(413);
  });

  it('caps a batch at 25 requests', async () => {
    const requests = Array.from({ length: 26 }, () => ({ method: 'GET', path: '/eventsuite/events/v1/events' }));
    const res = await t.request('POST', '/batch/v1', { json: { requests }, as: t.admin });
    expect(res.status).toBe(400);
  });
});
