import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { startFakeSpamService, type FakeSpamService } from './fake-service.case.js';
import { spamfilterService } from './index.js';

const NS = '/spamfilter/v1';
const KEY = 'abcdefabcdef';

describe.each(DIALECTS)('spamfilter/v1 with a remote service on %s', (engine) => {
  let t: TestApp;
  let fake: FakeSpamService;
  let editor: TestUser;
  beforeAll(async () => {
    fake = await startFakeSpamService();
    t = await startTestApp(engine, { remotes: { spamfilter: fake.url } });
    editor = await t.createUser('editor');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('key routes need manage_options: 401 signed out, 403 for an editor', async () => {
    for (const [method, path] of [['GET', '/key'], ['POST', '/key'], ['DELETE', '/key'], ['GET', '/settings'], ['POST', '/settings'], ['GET', '/stats'], ['GET', '/stats/all']] as const) {
      const anon = await t.request(method, NS + path, { json: { key: KEY } });
      expect(anon.status, `${method} ${path}`).toBe(401);
      expect(anon.body.code).toBe('rest_forbidden');
      expect((await t.request(method, NS + path, { as: editor, json: { key: KEY } })).status).toBe(403);
    }
  });

  it('GET /key is false until a verified key is stored; the stored key comes back bare', async () => {
    const none = await t.request('GET', `${NS}/key`, { as: t.admin });
    expect(none.status).toBe(200);
    expect(none.text).toBe('false');
    const bad = await t.request('POST', `${NS}/key`, { as: t.admin, json: { key: 'zzzzzzzzzzzz' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_key', data: { status: 400 } });
    expect((await t.request('POST', `${NS}/key`, { as: t.admin, json: {} })).body.code).toBe('rest_missing_callback_param');
    const ok = await t.request('PUT', `${NS}/key`, { as: t.admin, json: { key: `  ${KEY}\n` } });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe(`"${KEY}"`);
    expect(fake.calls.at(-1)).toEqual({ path: '/1.1/verify-key', body: { key: KEY, blog: 'http://example.test' } });
    expect((await t.request('GET', `${NS}/key`, { as: t.admin })).body).toBe(KEY);
  });

  it('settings: defaults, partial writes, boolean strings, type errors', async () => {
    expect((await t.request('GET', `${NS}/settings`, { as: t.admin })).body).toEqual({
      spamfilter_strictness: true,
      spamfilter_show_user_comments_approved: true,
      spamfilter_enable_mcp_access: false,
    });
    const w = await t.request('PATCH', `${NS}/settings`, { as: t.admin, form: { spamfilter_strictness: 'false', spamfilter_enable_mcp_access: '1' } });
    expect(w.body).toEqual({ spamfilter_strictness: false, spamfilter_show_user_comments_approved: true, spamfilter_enable_mcp_access: true });
    const bad = await t.request('POST', `${NS}/settings`, { as: t.admin, json: { spamfilter_strictness: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(bad.body.data.params.spamfilter_strictness).toMatch(/not of type boolean/);
    await t.request('POST', `${NS}/settings`, { as: t.admin, json: { spamfilter_strictness: true, spamfilter_enable_mcp_access: false } });
  });

  it('stats pass the remote answer through keyed by interval; [] when it gives nothing; null when it is not JSON', async () => {
    fake.stats = { spam: 1523, ham: 412, missed_spam: 3, false_positives: 1, accuracy: 99.7 };
    const r = await t.request('GET', `${NS}/stats`, { as: t.admin, query: { interval: ' bogus ' } });
    expect(r.body).toEqual({ all: fake.stats });
    // get-stats names the key `key` (Akismet_REST_API::get_stats; akismet-api spec.yml).
    expect(fake.calls.at(-1)?.body).toMatchObject({ blog: 'http://example.test', key: KEY, from: 'all' });
    expect((await t.request('GET', `${NS}/stats/6-months`, { as: t.admin })).body).toEqual({ '6-months': fake.stats });
    expect(fake.calls.at(-1)?.body.from).toBe('6-months');
    // A key the service refuses: it answers `invalid`, which json_decode makes null.
    fake.validKeys.delete(KEY);
    try {
      const refused = await t.request('GET', `${NS}/stats`, { as: t.admin });
      expect(refused.status).toBe(200);
      expect(refused.text).toBe('{"all":null}');
    } finally {
      fake.validKeys.add(KEY);
    }
    // `0` is empty() in PHP: nothing, like an empty answer.
    fake.stats = 0;
    expect((await t.request('GET', `${NS}/stats`, { as: t.admin })).text).toBe('[]');
    fake.stats = undefined;
    const empty = await t.request('GET', `${NS}/stats`, { as: t.admin, query: { interval: '60-days' } });
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('[]');
  });

  it('alert: key-gated; refresh stores the service alert headers; delete clears', async () => {
    expect((await t.request('GET', `${NS}/alert`)).status).toBe(401);
    expect((await t.request('GET', `${NS}/alert`, { query: { key: 'wrongwrongwr' } })).body.code).toBe('rest_forbidden');
    expect((await t.request('GET', `${NS}/alert`, { query: { key: 'wrongwrongwr' }, as: editor })).status).toBe(403);
    expect((await t.request('GET', `${NS}/alert`, { query: { key: KEY.toUpperCase() } })).body).toEqual({ code: false, message: false });
    fake.alert = { code: '30001', message: 'Your Akismet subscription is suspended.' };
    try {
      const r = await t.request('POST', `${NS}/alert`, { json: { key: KEY } });
      expect(r.body).toEqual({ code: '30001', message: 'Your Akismet subscription is suspended.' });
    } finally {
      fake.alert = undefined;
    }
    expect((await t.request('GET', `${NS}/alert`, { query: { key: KEY } })).body.code).toBe('30001');
    expect((await t.request('DELETE', `${NS}/alert`, { query: { key: KEY } })).body).toEqual({ code: false, message: false });
  });

  it('alert: the key is trimmed before it is compared (sanitize_key); the webhook compares it as sent', async () => {
    expect((await t.request('GET', `${NS}/alert`, { query: { key: ` ${KEY.toUpperCase()}\n` } })).body).toEqual({ code: false, message: false });
    expect((await t.request('POST', `${NS}/webhook`, { json: { key: ` ${KEY}`, endpoint: 'submit-ham' } })).status).toBe(401);
  });

  it('alert: a reply without alert headers clears the stored alert (Akismet::update_alert); submit calls leave it', async () => {
    fake.alert = { code: '30001', message: 'Your Akismet subscription is suspended.' };
    try {
      expect((await t.request('POST', `${NS}/alert`, { json: { key: KEY } })).body.code).toBe('30001');
    } finally {
      fake.alert = undefined;
    }
    // submit-spam / submit-ham replies do not state the alert.
    const check = await spamfilterService.checkSpam(t.ctx, { source: 'test', content: 'hello again', ip: '10.0.0.1' });
    fake.alert = { code: '30001', message: 'Your Akismet subscription is suspended.' };
    try {
      await t.request('POST', `${NS}/alert`, { json: { key: KEY } });
    } finally {
      fake.alert = undefined;
    }
    await spamfilterService.markCheck(t.ctx, check.guid, 'spam');
    expect(fake.calls.at(-1)?.path).toBe('/1.1/submit-spam');
    expect((await t.request('GET', `${NS}/alert`, { query: { key: KEY } })).body.code).toBe('30001');
    // The service stopped reporting it: the next stats call forgets it.
    await t.request('GET', `${NS}/stats`, { as: t.admin });
    expect((await t.request('GET', `${NS}/alert`, { query: { key: KEY } })).body).toEqual({ code: false, message: false });
  });

  it('checks go to the remote service; the webhook applies later verdicts by guid', async () => {
    const ham = await spamfilterService.checkSpam(t.ctx, { source: 'test', content: 'hello there', ip: '10.0.0.1', userAgent: 'Mozilla/5.0' });
    expect(ham).toMatchObject({ spam: false, via: 'remote' });
    expect(fake.calls.at(-1)).toMatchObject({ path: '/1.1/comment-check', body: { comment_content: 'hello there', user_ip: '10.0.0.1', api_key: KEY } });
    const spam = await spamfilterService.checkSpam(t.ctx, { source: 'test', content: 'viagra casino', ip: '10.0.0.1' });
    expect(spam).toMatchObject({ spam: true, discard: true, via: 'remote' });
    // Akismet::allow_discard: never for a signed-in sender.
    const member = await spamfilterService.checkSpam(t.ctx, { source: 'test', content: 'viagra casino', ip: '10.0.0.1', userId: editor.id });
    expect(member).toMatchObject({ spam: true, discard: false, via: 'remote' });

    expect((await t.request('POST', `${NS}/webhook`, { json: { endpoint: 'comment-check', comments: [] } })).status).toBe(401);
    const malformed = await t.request('POST', `${NS}/webhook`, { json: { key: KEY, endpoint: 'comment-check', comments: 'x' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('malformed_request');
    expect((await t.request('POST', `${NS}/webhook`, { json: { key: KEY, endpoint: 'submit-ham', comments: 'x' } })).body).toEqual({ comments: [] });
    const r = await t.request('POST', `${NS}/webhook`, {
      json: { key: KEY, endpoint: 'comment-check', comments: [{ guid: ham.guid, result: 'true' }, { guid: 'nope', result: 'false' }, { result: 'true' }] },
    });
    expect(r.body).toEqual({ comments: { [ham.guid]: { status: 'success' }, nope: { status: 'error', message: 'Could not find matching comment.' } } });
    expect((await spamfilterService.verdictsByGuid(t.ctx, [ham.guid])).get(ham.guid)).toBe('spam');

    // `comments` may be any PHP array: a JSON object of entries is read like a list.
    const keyed = await t.request('POST', `${NS}/webhook`, { json: { key: KEY, endpoint: 'comment-check', comments: { first: { guid: 'nope', result: 'true' } } } });
    expect(keyed.body).toEqual({ comments: { nope: { status: 'error', message: 'Could not find matching comment.' } } });
    expect((await t.request('POST', `${NS}/webhook`, { json: { key: KEY, endpoint: 'comment-check', comments: null } })).body.code).toBe('malformed_request');

    // Two stored checks with one guid: an error for that guid, in the original's words.
    const twin = { guid: 'twin-guid', source: 'test', verdict: 'ham', via: 'remote', actual: null, fields: '{}', created_gmt: '2026-01-01 00:00:00' };
    await t.ctx.db.insertInto('spamfilter_checks').values([twin, twin]).execute();
    const dup = await t.request('POST', `${NS}/webhook`, { json: { key: KEY, endpoint: 'comment-check', comments: [{ guid: 'twin-guid', result: 'true' }] } });
    expect(dup.body).toEqual({ comments: { 'twin-guid': { status: 'error', message: 'Multiple comments matched request.' } } });

    // An administrator's correction wins over later webhook verdicts, and is sent to the service.
    await spamfilterService.markCheck(t.ctx, ham.guid, 'ham');
    expect(fake.calls.at(-1)?.path).toBe('/1.1/submit-ham');
    await t.request('POST', `${NS}/webhook`, { json: { key: KEY, endpoint: 'comment-check', comments: [{ guid: ham.guid, result: 'true' }] } });
    expect((await spamfilterService.verdictsByGuid(t.ctx, [ham.guid])).get(ham.guid)).toBe('ham');
  });

  it('DELETE /key removes it and answers true', async () => {
    const r = await t.request('DELETE', `${NS}/key`, { as: t.admin });
    expect(r.text).toBe('true');
    expect((await t.request('GET', `${NS}/key`, { as: t.admin })).text).toBe('false');
  });
});

describe.each(DIALECTS)('spamfilter/v1 with the key from the environment on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(engine, { spamfilterApiKey: KEY }); });
  afterAll(() => t.close());

  it('reads the key but refuses to change it: 409 hardcoded_key', async () => {
    expect((await t.request('GET', `${NS}/key`, { as: t.admin })).body).toBe(KEY);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const r = await t.request(method, `${NS}/key`, { as: t.admin, json: { key: 'otherotherot' } });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: 'hardcoded_key', data: { status: 409 } });
      expect(r.body.message).toBe(method === 'DELETE' ? "This site's API key is hardcoded and cannot be deleted." : "This site's API key is hardcoded and cannot be changed via the API.");
    }
  });

  it('no remote: setting a key is invalid_key; alert refresh answers false fields', async () => {
    const t2 = await startTestApp(engine);
    try {
      expect((await t2.request('POST', `${NS}/key`, { as: t2.admin, json: { key: KEY } })).body.code).toBe('invalid_key');
    } finally {
      await t2.close();
    }
    expect((await t.request('POST', `${NS}/alert`, { json: { key: KEY } })).body).toEqual({ code: false, message: false });
  });
});

describe.each(DIALECTS)('spamfilter built-in classifier and local stats on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(engine); });
  afterAll(() => t.close());

  const spammy = (i: number) => ({ source: 'test', content: `BUY cheap pills now http://pills${i % 3}.example/buy best price pills`, author: 'Pill Seller', email: `seller${i}@spam.example`, ip: '10.0.0.9', userAgent: 'curl/8.0' });
  const hammy = (i: number) => ({ source: 'test', content: `Hello, could you tell me whether the concert on day ${i} has wheelchair access? Thanks`, author: 'Anna Meyer', email: `anna${i}@mail.example`, ip: '10.0.0.8', userAgent: 'Mozilla/5.0 (X11)' });

  it('says ham while untrained, learns from marks, and stats count real history', async () => {
    const first = await spamfilterService.checkSpam(t.ctx, spammy(0));
    expect(first).toMatchObject({ spam: false, via: 'local' });
    for (let i = 1; i <= 6; i++) {
      const s = await spamfilterService.checkSpam(t.ctx, spammy(i));
      await spamfilterService.markCheck(t.ctx, s.guid, 'spam');
      const h = await spamfilterService.checkSpam(t.ctx, hammy(i));
      await spamfilterService.markCheck(t.ctx, h.guid, 'ham');
    }
    expect(await spamfilterService.markCheck(t.ctx, 'no-such-guid', 'spam')).toBe(false);
    const caught = await spamfilterService.checkSpam(t.ctx, spammy(10));
    expect(caught.spam).toBe(true);
    const passed = await spamfilterService.checkSpam(t.ctx, hammy(10));
    expect(passed.spam).toBe(false);

    const r = await t.request('GET', `${NS}/stats`, { as: t.admin });
    const today = t.ctx.now().toISOString().slice(0, 10);
    // 15 checks: 6 spam marked (all missed: the model was untrained or unsure), 6 ham, first unmarked ham, 1 caught, 1 passed.
    const all = r.body.all;
    expect(all.spam + all.ham + all.missed_spam + all.false_positives).toBe(15);
    expect(all.spam).toBeGreaterThanOrEqual(1);
    const counts = { spam: all.spam, ham: all.ham, missed_spam: all.missed_spam, false_positives: all.false_positives };
    expect(all.accuracy).toBe(Math.round(((15 - all.missed_spam - all.false_positives) / 15) * 1000) / 10);
    // The breakdown as get-stats gives it (akismet-api spec.yml): all by year, 6-months by month, 60-days by day, with `da`.
    expect(all.breakdown).toEqual({ [today.slice(0, 4)]: { ...counts, da: `${today.slice(0, 4)}-01-01` } });
    expect((await t.request('GET', `${NS}/stats/6-months`, { as: t.admin })).body['6-months'].breakdown).toEqual({ [today.slice(0, 7)]: { ...counts, da: `${today.slice(0, 7)}-01` } });
    const days = (await t.request('GET', `${NS}/stats/60-days`, { as: t.admin })).body;
    expect(Object.keys(days)).toEqual(['60-days']);
    expect(days['60-days'].breakdown).toEqual({ [today]: { ...counts, da: today } });
  });

  it('strictness decides whether blatant spam is discarded or kept: only once chosen, never for signed-in senders', async () => {
    // Never saved: GET /settings says true (get_settings reads it with default '1'), but the worst
    // spam is kept (Akismet::allow_discard reads it without one).
    expect((await t.request('GET', `${NS}/settings`, { as: t.admin })).body.spamfilter_strictness).toBe(true);
    expect(await spamfilterService.checkSpam(t.ctx, spammy(19))).toMatchObject({ spam: true, discard: false });
    await t.request('POST', `${NS}/settings`, { as: t.admin, json: { spamfilter_strictness: true } });
    const strict = await spamfilterService.checkSpam(t.ctx, spammy(20));
    expect(strict).toMatchObject({ spam: true, discard: true });
    expect(await spamfilterService.checkSpam(t.ctx, { ...spammy(23), userId: t.admin.id })).toMatchObject({ spam: true, discard: false });
    await t.request('POST', `${NS}/settings`, { as: t.admin, json: { spamfilter_strictness: false } });
    const lenient = await spamfilterService.checkSpam(t.ctx, spammy(21));
    expect(lenient).toMatchObject({ spam: true, discard: false });
    expect((await spamfilterService.checkSpam(t.ctx, hammy(22))).discard).toBe(false);
  });

  it("approved counts: a sender's checks that are currently ham, by user id, else by e-mail, name and URL without case", async () => {
    const sender = { source: 'test', content: 'A question about the venue', author: 'Otto Lang', email: 'otto@mail.example', url: 'https://otto.example', ip: '10.0.0.7', userAgent: 'Mozilla/5.0' };
    const first = await spamfilterService.checkSpam(t.ctx, sender);
    await spamfilterService.checkSpam(t.ctx, { ...sender, email: 'OTTO@mail.example', author: 'otto lang' });
    const third = await spamfilterService.checkSpam(t.ctx, sender);
    await spamfilterService.markCheck(t.ctx, third.guid, 'spam');
    const otherUrl = await spamfilterService.checkSpam(t.ctx, { ...sender, url: '' });
    const member = await spamfilterService.checkSpam(t.ctx, { ...sender, email: 'member@mail.example', userId: 41 });
    await spamfilterService.checkSpam(t.ctx, { ...sender, email: 'changed@mail.example', userId: 41 });
    const nobody = await spamfilterService.checkSpam(t.ctx, { source: 'test', content: 'hello', ip: '10.0.0.7' });
    const counts = await spamfilterService.approvedCounts(t.ctx, [first.guid, third.guid, otherUrl.guid, member.guid, nobody.guid, 'no-such-guid']);
    expect(Object.fromEntries(counts)).toEqual({ [first.guid]: 2, [third.guid]: 2, [otherUrl.guid]: 1, [member.guid]: 2, [nobody.guid]: 0 });
  });
});
