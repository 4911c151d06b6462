import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';

describe.each(DIALECTS)('embed pages on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
    await t.ctx.options.set('blogname', 'Example Events');
  });
  afterAll(() => t.close());

  it('serves the page the oEmbed iframe points at, framable and script-free', async () => {
    const created = await t.request('POST', '/eventsuite/events/v1/events', {
      as: t.admin,
      json: { title: 'Spring <Gala>', description: 'A night of music and dance.', start_date: '2030-04-01 19:00', end_date: '2030-04-01 23:00' },
    });
    expect(created.status).toBe(201);
    const oembed = await t.request('GET', '/oembed/1.0/embed', { query: { url: created.body.url } });
    const src = /<iframe[^>]*src="([^"#]+)/.exec(oembed.body.html)![1]!;
    expect(src).toBe(`${created.body.url}embed/`);
    const res = await t.app.inject({ method: 'GET', url: new URL(src).pathname });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain('Spring &#60;Gala&#62;');
    expect(res.body).toContain('A night of music and dance.');
    expect(res.body).not.toContain('<script');
  });

  it('answers 404 for drafts and unknown slugs', async () => {
    const draft = await t.request('POST', '/eventsuite/events/v1/events', {
      as: t.admin,
      json: { title: 'Hidden', status: 'draft', start_date: '2030-04-02 19:00', end_date: '2030-04-02 23:00' },
    });
    expect((await t.app.inject({ method: 'GET', url: `/event/${draft.body.slug}/embed/` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/event/no-such-event/embed/' })).statusCode).toBe(404);
  });
});
