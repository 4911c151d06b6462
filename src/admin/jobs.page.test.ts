import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../test-support/harness.js';

const LOGIN = '/wp-admin/wp-login.php';
const JOBS = '/wp-admin/jobs.php';

/** Signs in through the form and returns the cookie header for later requests. */
async function signIn(t: TestApp, login: string, password: string): Promise<string> {
  const form = await t.app.inject({ method: 'GET', url: LOGIN });
  const nonce = /name="_wpnonce"[^>]*value="([^"]*)"/.exec(form.body)?.[1] ?? '';
  const jar = new Map<string, string>();
  const keep = (set: string | string[] | undefined) => {
    for (const c of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  };
  keep(form.headers['set-cookie']);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await t.app.inject({
    method: 'POST',
    url: LOGIN,
    headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ log: login, pwd: password, _wpnonce: nonce, redirect_to: '' }).toString(),
  });
  expect(res.statusCode).toBe(302);
  keep(res.headers['set-cookie']);
  return cookie();
}

describe.each(DIALECTS)('admin jobs.php on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  it('sends signed-out browsers to the sign-in page', async () => {
    const res = await t.app.inject({ method: 'GET', url: JOBS });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toContain('wp-login.php?redirect_to=');
  });

  it('refuses users who may not manage options', async () => {
    const user = await t.createUser('editor');
    const res = await t.app.inject({ method: 'GET', url: JOBS, headers: { cookie: await signIn(t, user.login, `${user.login}-password`) } });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('events.publish-due');
  });

  it('lists jobs with their state and escaped errors, filtered by state, and the schedules', async () => {
    const queued = await t.ctx.jobs.enqueue('events.publish-due', {}, { runAt: new Date(Date.now() + 3_600_000) });
    const failed = await t.ctx.jobs.enqueue('events.publish-due', {}, { dedupeKey: 'page-test-failed' });
    await t.db.updateTable('jobs').set({ status: 'failed', attempts: 5, last_error: '<script>alert(1)</script> SMTP 451', finished_gmt: '2026-11-23 10:00:00' }).where('id', '=', failed.id).execute();
    await t.ctx.jobs.runDue(queued.id + 1000); // stores the schedules, runs nothing
    const cookie = await signIn(t, 'admin', 'admin-password');

    const all = await t.app.inject({ method: 'GET', url: JOBS, headers: { cookie } });
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toContain('text/html');
    expect(all.body).toContain(`<tr data-job="${queued.id}"><td>${queued.id}</td><td>events.publish-due</td><td class="status-queued">queued</td><td>0/5</td>`);
    expect(all.body).toContain(`<tr data-job="${failed.id}">`);
    expect(all.body).toContain('&#60;script&#62;alert(1)&#60;/script&#62; SMTP 451');
    expect(all.body).not.toContain('<script>alert(1)');
    expect(all.body).toContain('failed (1)');
    expect(all.body).toContain('<td>tickets.cancel-stale-orders</td><td>tickets.cancel-stale-orders</td><td>300s</td>');

    const onlyFailed = await t.app.inject({ method: 'GET', url: `${JOBS}?status=failed`, headers: { cookie } });
    expect(onlyFailed.body).toContain(`<tr data-job="${failed.id}">`);
    expect(onlyFailed.body).not.toContain(`<tr data-job="${queued.id}">`);
    // An unknown state shows everything rather than failing.
    expect((await t.app.inject({ method: 'GET', url: `${JOBS}?status[]=x`, headers: { cookie } })).statusCode).toBe(200);
  });
});
