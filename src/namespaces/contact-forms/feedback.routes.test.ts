import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { signInForTest } from '../../auth/test-sessions.js';
import { csvCell } from './submissions.page.js';
import { startMailBox, type MailBox } from '../../test-support/mailbox.js';
import { NS, decodeWords, headersOf, postMultipart } from './fixtures.case.js';

const FORM = `<label>Name [text* your-name]</label>
<label>Email [email* your-email]</label>
[select topic "General" "Billing|billing@example.test"]
[textarea your-message]
[file upload filetypes:txt|pdf limit:1kb]
[acceptance terms] I accept [/acceptance]
[submit "Send"]`;

describe.each(DIALECTS)('contact-form/v1 feedback on %s', (engine) => {
  let t: TestApp;
  let smtp: MailBox;
  let formId: number;
  const unit = (id: number) => ({ _wpcf7: String(id), _wpcf7_unit_tag: `wpcf7-f${id}-p3-o1`, _wpcf7_version: '6.0', _wpcf7_locale: 'en_US', _wpcf7_container_post: '3' });
  const good = { 'your-name': 'Anna', 'your-email': 'anna@example.org', topic: 'Billing', 'your-message': 'Hello\nthere', terms: '1' };

  beforeAll(async () => {
    smtp = await startMailBox();
    t = await startTestApp(engine, { smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
    await t.ctx.options.set('blogname', 'Fair Site');
    const r = await t.request('POST', `${NS}/contact-forms`, {
      as: t.admin,
      json: {
        title: 'Enquiries',
        context: 'save',
        form: FORM,
        mail: {
          subject: '[_site_title] "[your-name]"',
          sender: 'Fair Site <wordpress@example.test>',
          recipient: 'office@example.test',
          body: 'From: [your-name] <[your-email]>\nTopic: [topic] ([_raw_topic])\nIP: [_remote_ip]\n\n[your-message]',
          additional_headers: 'Reply-To: [your-name] <[your-email]>',
          attachments: '[upload]',
        },
      },
    });
    formId = r.body.id;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('accepts only multipart (415), known forms (404) and a unit tag (400)', async () => {
    const json = await t.request('POST', `${NS}/contact-forms/${formId}/feedback`, { json: good });
    expect(json.status).toBe(415);
    expect(json.body).toEqual({ code: 'wpcf7_unsupported_media_type', message: 'The request payload format is not supported.', data: { status: 415 } });
    expect((await t.request('POST', `${NS}/contact-forms/${formId}/feedback`, { form: good })).status).toBe(415);
    expect((await postMultipart(t, `${NS}/contact-forms/999999/feedback`, { ...unit(999999), ...good })).body.code).toBe('wpcf7_not_found');
    const noTag = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...good, _wpcf7_unit_tag: '<>!' });
    expect(noTag.status).toBe(400);
    expect(noTag.body.code).toBe('wpcf7_unit_tag_not_found');
  });

  it('validation_failed lists each field once with its message, idref and error_id', async () => {
    const r = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...unit(formId), 'your-name': '', 'your-email': 'nope', topic: 'Hacked', terms: '1' }, { 'x-forwarded-for': '198.51.100.1' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['contact_form_id', 'status', 'message', 'invalid_fields', 'posted_data_hash', 'into']);
    expect(r.body).toEqual({
      contact_form_id: formId,
      status: 'validation_failed',
      message: 'One or more fields have an error. Please check and try again.',
      invalid_fields: [
        { field: 'your-name', message: 'Please fill out this field.', idref: null, error_id: `wpcf7-f${formId}-p3-o1-ve-your-name` },
        { field: 'your-email', message: 'Please enter an email address.', idref: null, error_id: `wpcf7-f${formId}-p3-o1-ve-your-email` },
        { field: 'topic', message: 'Undefined value was submitted through this field.', idref: null, error_id: `wpcf7-f${formId}-p3-o1-ve-topic` },
      ],
      posted_data_hash: '',
      into: `#wpcf7-f${formId}-p3-o1`,
    });
    const file = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...unit(formId), ...good, upload: { filename: 'evil.exe', type: 'application/octet-stream', data: Buffer.from('MZ') } }, { 'x-forwarded-for': '198.51.100.1' });
    expect(file.body.invalid_fields).toEqual([expect.objectContaining({ field: 'upload', message: 'You are not allowed to upload files of this type.' })]);
    const big = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...unit(formId), ...good, upload: { filename: 'big.txt', type: 'text/plain', data: Buffer.alloc(2048, 65) } }, { 'x-forwarded-for': '198.51.100.1' });
    expect(big.body.invalid_fields).toEqual([expect.objectContaining({ field: 'upload', message: 'The uploaded file is too large.' })]);
  });

  it('acceptance_missing, then spam for a short user agent and disallowed words', async () => {
    const ip = { 'x-forwarded-for': '198.51.100.2' };
    const r = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...unit(formId), ...good, terms: '' }, ip);
    expect(r.body).toMatchObject({ status: 'acceptance_missing', message: 'You must accept the terms and conditions before sending your message.', posted_data_hash: '', invalid_fields: [] });
    const bot = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...unit(formId), ...good }, { ...ip, 'user-agent': 'x' });
    expect(bot.body).toMatchObject({ status: 'spam', message: 'There was an error trying to send your message. Please try again later.', posted_data_hash: '' });
    await t.ctx.options.set('disallowed_keys', 'casino\nfree money');
    try {
      const words = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...unit(formId), ...good, 'your-message': 'Visit our CASINO' }, ip);
      expect(words.body.status).toBe('spam');
    } finally {
      await t.ctx.options.delete('disallowed_keys');
    }
  });

  it('mail_sent: one message with expanded tags, pipes, the attachment and a safe Reply-To', async () => {
    smtp.messages.length = 0;
    const r = await postMultipart(
      t,
      `${NS}/contact-forms/${formId}/feedback`,
      { ...unit(formId), ...good, 'your-name': 'Anna\r\nBcc: victim@example.net', upload: { filename: 'notes.txt', type: 'text/plain', data: Buffer.from('attached notes') } },
      { 'x-forwarded-for': '198.51.100.3' },
    );
    expect(r.body).toMatchObject({ contact_form_id: formId, status: 'mail_sent', message: 'Thank you for your message. It has been sent.', invalid_fields: [] });
    expect(r.body.posted_data_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(r.body)).toEqual(['contact_form_id', 'status', 'message', 'posted_data_hash', 'into', 'invalid_fields']);
    expect(smtp.messages).toHaveLength(1);
    const msg = smtp.messages[0]!;
    expect(msg.to).toEqual(['office@example.test']);
    expect(msg.from).toBe('wordpress@example.test');
    const h = headersOf(msg.raw);
    expect(h.has('bcc')).toBe(false);
    expect(h.get('subject')!.map(decodeWords)).toEqual(['Fair Site "Anna Bcc: victim@example.net"']);
    expect(h.get('reply-to')![0]).toContain('anna@example.org');
    expect(msg.raw).toContain('Topic: billing@example.test (Billing)');
    expect(msg.raw).toContain('IP: 198.51.100.3');
    expect(msg.raw).toContain('filename=notes.txt');
    expect(msg.raw).toContain(Buffer.from('attached notes').toString('base64'));
  });

  it('stores submissions (not with do_not_store); demo mode skips mail; no SMTP is mail_failed', async () => {
    const ip = { 'x-forwarded-for': '198.51.100.4' };
    const before = (await t.db.selectFrom('contact_form_submissions').select('id').where('form_id', '=', formId).execute()).length;
    await t.request('POST', `${NS}/contact-forms/${formId}`, { as: t.admin, json: { context: 'save', additional_settings: 'demo_mode: on\ndo_not_store: true' } });
    smtp.messages.length = 0;
    const demo = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...unit(formId), ...good }, ip);
    expect(demo.body).toMatchObject({ status: 'mail_sent', demo_mode: true });
    expect(Object.keys(demo.body)).toEqual(['contact_form_id', 'status', 'message', 'posted_data_hash', 'demo_mode', 'into', 'invalid_fields']);
    expect(smtp.messages).toHaveLength(0);
    expect((await t.db.selectFrom('contact_form_submissions').select('id').where('form_id', '=', formId).execute()).length).toBe(before);
    await t.request('POST', `${NS}/contact-forms/${formId}`, { as: t.admin, json: { context: 'save', additional_settings: 'subscribers_only: true' } });
    const members = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...unit(formId), ...good }, ip);
    expect(members.body).toEqual({ contact_form_id: formId, status: 'error', message: 'This contact form is available only for logged in users.', into: `#wpcf7-f${formId}-p3-o1`, invalid_fields: [] });
    await t.request('POST', `${NS}/contact-forms/${formId}`, { as: t.admin, json: { context: 'save', additional_settings: '' } });

    const t2 = await startTestApp(engine);
    try {
      const { body } = await t2.request('POST', `${NS}/contact-forms`, { as: t2.admin, json: { title: 'x', context: 'save' } });
      const r = await postMultipart(t2, `${NS}/contact-forms/${body.id}/feedback`, { ...unit(body.id), 'your-name': 'A', 'your-email': 'a@example.org', 'your-subject': 'S' });
      expect(r.body).toMatchObject({ status: 'mail_failed', message: 'There was an error trying to send your message. Please try again later.' });
      const stored = await t2.db.selectFrom('contact_form_submissions').selectAll().execute();
      expect(stored.map((s) => s.status)).toEqual(['mail_failed']);
      expect(JSON.parse(stored[0]!.fields)).toMatchObject({ 'your-name': 'A', 'your-email': 'a@example.org' });
    } finally {
      await t2.close();
    }
  });

  it('quiz: refill hands out a question and the answer hash; a wrong answer fails validation', async () => {
    const { body } = await t.request('POST', `${NS}/contact-forms`, { as: t.admin, json: { title: 'Quiz', context: 'save', form: '[quiz q "1+1=?|2"] [submit]', additional_settings: 'skip_mail: on' } });
    const refill = await t.request('GET', `${NS}/contact-forms/${body.id}/refill`);
    expect(refill.body.quiz.q[0]).toBe('1+1=?');
    const hash = refill.body.quiz.q[1];
    const ip = { 'x-forwarded-for': '198.51.100.5' };
    const wrong = await postMultipart(t, `${NS}/contact-forms/${body.id}/feedback`, { ...unit(body.id), q: '3', _wpcf7_quiz_answer_q: hash }, ip);
    expect(wrong.body.invalid_fields).toEqual([expect.objectContaining({ field: 'q', message: 'The answer to the quiz is incorrect.' })]);
    const right = await postMultipart(t, `${NS}/contact-forms/${body.id}/feedback`, { ...unit(body.id), q: ' 2 ', _wpcf7_quiz_answer_q: hash }, ip);
    expect(right.body.status).toBe('mail_sent');
    // Every answer of a quiz form hands out the next question, after the usual keys.
    expect(Object.keys(right.body)).toEqual(['contact_form_id', 'status', 'message', 'posted_data_hash', 'into', 'invalid_fields', 'quiz']);
    expect(right.body.quiz.q).toEqual(['1+1=?', hash]);
    expect(wrong.body.quiz.q[0]).toBe('1+1=?');
  });

  it('quiz: a tag without questions asks 1+1=?; answers are compared without spaces and case', async () => {
    const { body } = await t.request('POST', `${NS}/contact-forms`, { as: t.admin, json: { title: 'Quiz 2', context: 'save', form: '[quiz plain] [quiz city "Capital of France?|Paris"]', additional_settings: 'skip_mail: on' } });
    const refill = (await t.request('GET', `${NS}/contact-forms/${body.id}/refill`)).body;
    expect(refill.quiz.plain[0]).toBe('1+1=?');
    expect(refill.quiz.city[0]).toBe('Capital of France?');
    const r = await postMultipart(
      t,
      `${NS}/contact-forms/${body.id}/feedback`,
      { ...unit(body.id), plain: '２', _wpcf7_quiz_answer_plain: refill.quiz.plain[1], city: ' pa RIS ', _wpcf7_quiz_answer_city: refill.quiz.city[1] },
      { 'x-forwarded-for': '198.51.100.6' },
    );
    expect(r.body.status).toBe('mail_sent');
  });

  it('messages may use mail tags and are shown as plain text; idref only for usable ids', async () => {
    const ip = { 'x-forwarded-for': '198.51.100.7' };
    const { body } = await t.request('POST', `${NS}/contact-forms`, {
      as: t.admin,
      json: {
        title: 'Tagged',
        context: 'save',
        form: '[text* a id:wpcf7-a] [text* b id:9b] [text* c id:good_c] [text who]',
        additional_settings: 'skip_mail: on',
        messages: { mail_sent_ok: 'Thanks <b>[who]</b>, from [_site_title].', invalid_required: '<em>Required</em> field' },
      },
    });
    const failed = await postMultipart(t, `${NS}/contact-forms/${body.id}/feedback`, { ...unit(body.id) }, ip);
    expect(failed.body.invalid_fields.map((f: { idref: string | null; message: string }) => [f.idref, f.message])).toEqual([
      [null, 'Required field'], [null, 'Required field'], ['good_c', 'Required field'],
    ]);
    const schema = await t.request('GET', `${NS}/contact-forms/${body.id}/feedback/schema`);
    expect(schema.body.rules[0].error).toBe('Required field');
    const sent = await postMultipart(t, `${NS}/contact-forms/${body.id}/feedback`, { ...unit(body.id), a: '1', b: '2', c: '3', who: 'Anna' }, ip);
    expect(sent.body).toMatchObject({ status: 'mail_sent', message: 'Thanks Anna, from Fair Site.' });
  });

  it('acceptance: a posted 0 is unchecked; acceptance_as_validation makes it a field error', async () => {
    const ip = { 'x-forwarded-for': '198.51.100.8' };
    const { body } = await t.request('POST', `${NS}/contact-forms`, { as: t.admin, json: { title: 'Terms', context: 'save', form: '[acceptance terms] I agree [/acceptance]', additional_settings: 'skip_mail: on' } });
    expect((await postMultipart(t, `${NS}/contact-forms/${body.id}/feedback`, { ...unit(body.id), terms: '0' }, ip)).body.status).toBe('acceptance_missing');
    await t.request('POST', `${NS}/contact-forms/${body.id}`, { as: t.admin, json: { context: 'save', additional_settings: 'skip_mail: on\nacceptance_as_validation: on' } });
    const r = await postMultipart(t, `${NS}/contact-forms/${body.id}/feedback`, { ...unit(body.id) }, ip);
    expect(r.body).toMatchObject({ status: 'validation_failed', invalid_fields: [{ field: 'terms', message: 'You must accept the terms and conditions before sending your message.', idref: null, error_id: `wpcf7-f${body.id}-p3-o1-ve-terms` }] });
    expect((await postMultipart(t, `${NS}/contact-forms/${body.id}/feedback`, { ...unit(body.id), terms: '1' }, ip)).body.status).toBe('mail_sent');
  });

  it('subscribers_only: signed-in senders skip the spam checks', async () => {
    const member = await t.createUser('subscriber');
    const { body } = await t.request('POST', `${NS}/contact-forms`, { as: t.admin, json: { title: 'Members', context: 'save', form: '[text msg]', additional_settings: 'skip_mail: on\nsubscribers_only: true' } });
    const r = await postMultipart(t, `${NS}/contact-forms/${body.id}/feedback`, { ...unit(body.id), msg: 'hi' }, { 'x-forwarded-for': '198.51.100.9', 'user-agent': 'x', authorization: member.authorization });
    expect(r.body.status).toBe('mail_sent');
  });

  it('1,000 posts from one address in a minute are cut off with 429; other addresses still get through', async () => {
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      const r = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...unit(formId), 'your-name': '' }, { 'x-forwarded-for': '203.0.113.66' });
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (i === 999) {
        expect(r.body.code).toBe('rest_too_many_requests');
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses.get(200)).toBe(20);
    expect(statuses.get(429)).toBe(980);
    const other = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...unit(formId), ...good }, { 'x-forwarded-for': '203.0.113.67' });
    expect(other.status).toBe(200);
  });

  it('the admin page lists submissions, marks spam (training the filter) and exports CSV', async () => {
    const session = await signInForTest(t.ctx, t.admin.id);
    const url = `${t.ctx.config.adminPath}/contact-form-submissions.php?form=${formId}`;
    const subscriber = await t.createUser('subscriber');
    await t.db.updateTable('users').set({ password_hash: 'x' }).where('id', '=', subscriber.id).execute();
    const denied = await t.app.inject({ method: 'GET', url: `${url}&export=csv`, headers: { cookie: (await signInForTest(t.ctx, subscriber.id)).cookie } });
    expect(denied.statusCode).toBe(403);
    expect(denied.body).not.toContain('anna@example.org');
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(302);
    const page = await t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('anna@example.org');
    const nonce = /name="_wpnonce" value="([^"]+)"/.exec(page.body)![1]!;
    const sub = /name="submission" value="(\d+)"/.exec(page.body)![1]!;
    const mark = await t.app.inject({ method: 'POST', url, headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `_wpnonce=${nonce}&submission=${sub}&mark=spam` });
    expect(mark.body).toContain('Marked as spam.');
    const forged = await t.app.inject({ method: 'POST', url, headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `_wpnonce=bad&submission=${sub}&mark=ham` });
    expect(forged.statusCode).toBe(403);
    const csv = await t.app.inject({ method: 'GET', url: `${url}&export=csv`, headers: { cookie: session.cookie } });
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toContain('"your-name","your-email"');
    expect(csv.body).toContain('"spam"');
    expect(csv.body).toContain('"Anna"');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  });

  it('a 20 MB upload is refused without a crash: 413 over the body limit, the form\'s upload error under it', async () => {
    const huge = { filename: 'huge.txt', type: 'text/plain', data: Buffer.alloc(20 * 1024 * 1024, 66) };
    const r = await postMultipart(t, `${NS}/contact-forms/${formId}/feedback`, { ...unit(formId), ...good, upload: huge }, { 'x-forwarded-for': '198.51.100.20' });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('rest_request_too_large');
    expect((await t.request('GET', `${NS}/contact-forms/${formId}/feedback/schema`)).status).toBe(200);
    const roomy = await startTestApp(engine, { bodyLimit: 32 * 1024 * 1024 });
    try {
      const { body } = await roomy.request('POST', `${NS}/contact-forms`, { as: roomy.admin, json: { title: 'Up', context: 'save', form: '[file* upload filetypes:txt] [submit]' } });
      const big = await postMultipart(roomy, `${NS}/contact-forms/${body.id}/feedback`, { ...unit(body.id), upload: huge });
      expect(big.status).toBe(200);
      expect(big.body).toMatchObject({ status: 'validation_failed', invalid_fields: [expect.objectContaining({ field: 'upload', message: 'The uploaded file is too large.' })] });
    } finally {
      await roomy.close();
    }
  });
});
