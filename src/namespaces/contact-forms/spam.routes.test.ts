/**
 * Contact-form submissions checked by the remote spam service (Akismet protocol, local test server):
 * its verdict decides `spam`, the check's guid is stored with the submission, and the service's later
 * webhook verdict changes what the submission shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInForTest } from '../../auth/test-sessions.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { startFakeSpamService, type FakeSpamService } from '../spamfilter/fake-service.case.js';
import { spamfilterService } from '../spamfilter/index.js';
import { NS, postMultipart } from './fixtures.case.js';

const KEY = 'abcdefabcdef';

describe.each(DIALECTS)('contact-form feedback with the remote spam service on %s', (engine) => {
  let t: TestApp;
  let fake: FakeSpamService;
  let formId: number;
  const fields = (message: string) => ({ _wpcf7_unit_tag: 'wpcf7-f1-p1-o1', 'your-name': 'Sam', 'your-email': 'sam@example.org', 'your-subject': 'Hi', 'your-message': message });

  beforeAll(async () => {
    fake = await startFakeSpamService();
    t = await startTestApp(engine, { remotes: { spamfilter: fake.url }, spamfilterApiKey: KEY });
    formId = (await t.request('POST', `${NS}/contact-forms`, { as: t.admin, json: { title: 'F', context: 'save', additional_settings: 'skip_mail: on' } })).body.id;
    await t.request('POST', '/spamfilter/v1/settings', { as: t.admin, json: { spamfilter_strictness: false } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('sends the submission to comment-check and follows its verdict', async () => {
    const ham = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, fields('Question about parking'), { 'x-forwarded-for': '192.0.2.10', referer: 'http://example.test/contact/' });
    expect(ham.body.status).toBe('mail_sent');
    const call = fake.calls.find((c) => c.path === '/1.1/comment-check')!;
    expect(call.body).toMatchObject({ api_key: KEY, blog: 'http://example.test', user_ip: '192.0.2.10', comment_type: 'contact-form', comment_author: 'Sam', comment_author_email: 'sam@example.org', referrer: 'http://example.test/contact/' });
    expect(call.body.comment_content).toContain('Question about parking');

    const spam = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, fields('cheap viagra'), { 'x-forwarded-for': '192.0.2.11' });
    expect(spam.body).toMatchObject({ status: 'spam', posted_data_hash: '' });
    const stored = await t.db.selectFrom('contact_form_submissions').select(['status', 'spam_guid']).where('form_id', '=', formId).orderBy('id').execute();
    expect(stored.map((s) => s.status)).toEqual(['mail_sent', 'spam']);
    expect(stored[0]!.spam_guid).toMatch(/^guid-/);

    // The service later says the first one was spam after all.
    const hook = await t.request('POST', '/spamfilter/v1/webhook', { json: { key: KEY, endpoint: 'comment-check', comments: [{ guid: stored[0]!.spam_guid, result: 'true' }] } });
    expect(hook.body.comments[stored[0]!.spam_guid]).toEqual({ status: 'success' });
    expect((await spamfilterService.verdictsByGuid(t.ctx, [stored[0]!.spam_guid])).get(stored[0]!.spam_guid)).toBe('spam');
  });

  it('strictness on: blatant spam from a signed-out sender is discarded, a signed-in sender\'s is kept (Akismet::allow_discard)', async () => {
    const { body: form } = await t.request('POST', `${NS}/contact-forms`, { as: t.admin, json: { title: 'Strict', context: 'save', additional_settings: 'skip_mail: on' } });
    await t.request('POST', '/spamfilter/v1/settings', { as: t.admin, json: { spamfilter_strictness: true } });
    try {
      const member = await t.createUser('subscriber');
      const anonymous = await postMultipart(t, `${NS}/contact-forms/${form.id}/feedback`, fields('viagra casino'), { 'x-forwarded-for': '192.0.2.12' });
      const signedIn = await postMultipart(t, `${NS}/contact-forms/${form.id}/feedback`, fields('viagra casino'), { 'x-forwarded-for': '192.0.2.13', authorization: member.authorization });
      expect([anonymous.body.status, signedIn.body.status]).toEqual(['spam', 'spam']);
      const stored = await t.db.selectFrom('contact_form_submissions').select(['status', 'user_id']).where('form_id', '=', form.id).execute();
      expect(stored).toEqual([{ status: 'spam', user_id: member.id }]);
    } finally {
      await t.request('POST', '/spamfilter/v1/settings', { as: t.admin, json: { spamfilter_strictness: false } });
    }
  });

  it("the submissions page shows each sender's approved count unless spamfilter_show_user_comments_approved is off", async () => {
    const { body: form } = await t.request('POST', `${NS}/contact-forms`, { as: t.admin, json: { title: 'Counts', context: 'save', additional_settings: 'skip_mail: on' } });
    const send = (message: string, name: string) => postMultipart(t, `${NS}/contact-forms/${form.id}/feedback`, { ...fields(message), 'your-name': name, 'your-email': `${name.toLowerCase()}@example.org` }, { 'x-forwarded-for': '192.0.2.20' });
    await send('First question', 'Uma');
    await send('Second question', 'Uma');
    await send('cheap viagra', 'Uma');
    await send('Hello', 'Vic');
    const session = await signInForTest(t.ctx, t.admin.id);
    const url = `${t.ctx.config.adminPath}/contact-form-submissions.php?form=${form.id}`;
    const counts = async () => [...(await t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } })).body.matchAll(/(\d+) approved/g)].map((m) => m[1]);
    // Newest first: Vic's one, then Uma's spam and her two cleared ones.
    expect(await counts()).toEqual(['1', '2', '2', '2']);
    await t.request('POST', '/spamfilter/v1/settings', { as: t.admin, json: { spamfilter_show_user_comments_approved: false } });
    try {
      expect(await counts()).toEqual([]);
    } finally {
      await t.request('POST', '/spamfilter/v1/settings', { as: t.admin, json: { spamfilter_show_user_comments_approved: true } });
    }
  });

  it('an unreachable service lets the submission through to the built-in classifier', async () => {
    const t2 = await startTestApp(engine, { remotes: { spamfilter: 'http://127.0.0.1:9' }, spamfilterApiKey: KEY });
    try {
      const { body } = await t2.request('POST', `${NS}/contact-forms`, { as: t2.admin, json: { title: 'F', context: 'save', additional_settings: 'skip_mail: on' } });
      const r = await postMultipart(t2, `${NS}/contact-forms/${body.id}/feedback`, fields('cheap viagra'));
      expect(r.body.status).toBe('mail_sent');
      expect((await t2.db.selectFrom('spamfilter_checks').select('via').execute()).map((c) => c.via)).toEqual(['local']);
    } finally {
      await t2.close();
    }
  });
});
