import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { signInForTest } from '../../auth/test-sessions.js';
import { memberHash } from '../../remote/mailinglist-client.js';
import { startMailBox, type MailBox } from '../../test-support/mailbox.js';
import { startFakeMailchimp, type FakeMailchimp } from './fake-mailchimp.case.js';
import { createSignupForm } from './index.js';
import { listSignupForms, requiredFields } from './forms.repo.js';
import { isEmail, MAX_POSTED_LISTS } from './form.routes.js';
import { API_KEY_OPTION } from './subscribe.service.js';

const MERGE_FIELDS_QUERY = 'count=100&fields=merge_fields.name,merge_fields.tag,merge_fields.type,merge_fields.required,merge_fields.default_value,merge_fields.options,merge_fields.public';

const ROUTE = '/mailinglist/v1/form';
const UA = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' };

describe.each(DIALECTS)('mailinglist/v1 POST /form with a remote list service on %s', (engine) => {
  let t: TestApp;
  let fake: FakeMailchimp;
  let formId: number;
  const post = (fields: Record<string, string>, headers: Record<string, string> = UA) => t.request('POST', ROUTE, { form: fields, headers });
  const fields = (extra: Record<string, string> = {}) => ({
    _mc4wp_form_id: String(formId),
    _mc4wp_timestamp: String(Math.floor(Date.now() / 1000) - 30),
    _mc4wp_honeypot: '',
    EMAIL: 'ann@example.org',
    fname: 'Ann',
    ...extra,
  });

  beforeAll(async () => {
    fake = await startFakeMailchimp();
    t = await startTestApp(engine, { remotes: { mailinglist: fake.url } });
    formId = (await createSignupForm(t.ctx, { title: 'Newsletter', lists: ['list1'], requiredFields: ['EMAIL', 'FNAME'] })).id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('404 not_found without a form id, for an unknown form, and for any JSON body', async () => {
    const expected = { code: 'not_found', message: 'Resource does not exist.', data: { status: 404 } };
    expect((await post({ EMAIL: 'a@example.org' })).body).toEqual(expected);
    expect((await post(fields({ _mc4wp_form_id: '999999' }))).status).toBe(404);
    // PHP's empty(): '' and '0' are no form id at all (not the first-form fallback of `abc`).
    expect((await post(fields({ _mc4wp_form_id: '' }))).body).toEqual(expected);
    expect((await post(fields({ _mc4wp_form_id: '0' }))).body).toEqual(expected);
    const json = await t.request('POST', ROUTE, { json: fields(), headers: UA });
    expect(json.status).toBe(404);
    expect(json.body).toEqual(expected);
  });

  it('validates in the original order with the form messages', async () => {
    const cases: [Record<string, string>, Record<string, string>, string, string][] = [
      [fields(), { 'user-agent': 'Googlebot/2.1' }, 'spam.user_agent', 'Your submission was marked as spam.'],
      [fields(), { 'user-agent': '0' }, 'spam.user_agent', 'Your submission was marked as spam.'],
      [fields({ _mc4wp_timestamp: String(Math.floor(Date.now() / 1000)) }), UA, 'spam.timestamp', 'Your submission was marked as spam.'],
      [fields({ _mc4wp_timestamp: String(Math.floor(Date.now() / 1000) - 91 * 86400) }), UA, 'spam.timestamp', 'Your submission was marked as spam.'],
      [fields({ _mc4wp_honeypot: 'x' }), UA, 'spam.honeypot', 'Your submission was marked as spam.'],
      [fields({ EMAIL: 'not-an-email' }), UA, 'invalid_email', 'Please provide a valid email address.'],
      [fields({ fname: '' }), UA, 'required_field_missing', 'Please fill in the required fields.'],
      [fields({ _mc4wp_lists: '' , EMAIL: 'x' }), { 'user-agent': '' }, 'spam.user_agent', 'Your submission was marked as spam.'],
    ];
    for (const [f, h, code, message] of cases) {
      const r = await post(f, h);
      expect(r.status, code).toBe(400);
      expect(r.body).toEqual({ code, message, data: { status: 400 } });
    }
    // A timestamp sent as a list is no number (PHP: an array compares greater than any int).
    const listed = new URLSearchParams({ ...fields() });
    listed.delete('_mc4wp_timestamp');
    listed.append('_mc4wp_timestamp[]', String(Math.floor(Date.now() / 1000) - 30));
    expect((await t.request('POST', ROUTE, { form: listed.toString(), headers: UA })).body.code).toBe('spam.timestamp');
    const { id } = await createSignupForm(t.ctx, { title: 'No lists', lists: [] });
    expect((await post(fields({ _mc4wp_form_id: String(id), _mc4wp_honeypot: 'bot' }))).body.code).toBe('no_lists_selected');
    // A required field not sent at all passes (only empty values fail).
    const { fname: _dropped, ...noName } = fields();
    expect((await post(noName)).body.code).toBe(1); // passes validation; no API key stored yet
    expect(fake.calls).toHaveLength(0);
  });

  it('subscribes through the service: pending with double opt-in, then already_subscribed; `true` on success', async () => {
    await t.ctx.options.set(API_KEY_OPTION, fake.apiKey);
    const r = await post(fields({ _mc4wp_lists: 'list1,list2' }), { ...UA, 'x-forwarded-for': '192.0.2.7' });
    expect(r.status).toBe(200);
    expect(r.text).toBe('true');
    const hash = memberHash('ann@example.org');
    // Every list's merge fields are read first, then each list is written to in turn.
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /3.0/lists/list1/merge-fields?${MERGE_FIELDS_QUERY}`,
      `GET /3.0/lists/list2/merge-fields?${MERGE_FIELDS_QUERY}`,
      `GET /3.0/lists/list1/members/${hash}`,
      'POST /3.0/lists/list1/members',
      `GET /3.0/lists/list2/members/${hash}`,
      'POST /3.0/lists/list2/members',
    ]);
    const sent = { status: 'pending', email_address: 'ann@example.org', interests: {}, merge_fields: { FNAME: 'Ann' }, email_type: 'html', ip_signup: '192.0.2.7' };
    expect(fake.calls[3]!.body).toEqual(sent);
    expect(fake.calls[5]!.body).toEqual(sent);
    expect(fake.members.has(`list2/${hash}`)).toBe(true);
    fake.members.get(`list1/${hash}`)!.status = 'subscribed';
    const again = await post(fields());
    expect(again.body).toEqual({ code: 'already_subscribed', message: 'Given email address is already subscribed, thank you!', data: { status: 400 } });
  });

  it('cleans every posted value first, as mc4wp_sanitize_deep: tags stripped, trimmed, &amp; decoded, 1024 bytes at most', async () => {
    const r = await post(fields({ EMAIL: ' dora@example.org ', _mc4wp_honeypot: '  ', fname: '<b>Dora</b> &amp; Co', lname: 'x'.repeat(1500) }));
    expect(r.text).toBe('true');
    const sent = fake.calls.at(-1)!.body as { email_address: string; merge_fields: Record<string, string> };
    expect(sent.email_address).toBe('dora@example.org');
    expect(sent.merge_fields.FNAME).toBe('Dora & Co');
    expect(sent.merge_fields.LNAME).toHaveLength(1024);
    // A value made only of markup is empty once cleaned: a required field left empty.
    expect((await post(fields({ EMAIL: 'eve@example.org', fname: '<i></i>' }))).body.code).toBe('required_field_missing');
  });

  it('ignores empty and overlong field names; list values lose their empty entries', async () => {
    const tags = ['A'.repeat(191), 'B'.repeat(192), ''].map((tag) => ({ tag, type: 'text' }));
    fake.lists.set('wide', { mergeFields: tags, categories: [], marketingPermissions: [] });
    const r = await post(fields({ EMAIL: 'finn@example.org', _mc4wp_lists: 'wide', ['a'.repeat(191)]: 'kept', ['b'.repeat(192)]: 'ignored', '': 'ignored' }));
    expect(r.text).toBe('true');
    const merge = (fake.calls.at(-1)!.body as { merge_fields: Record<string, unknown> }).merge_fields;
    expect(merge['A'.repeat(191)]).toBe('kept');
    expect(Object.keys(merge)).not.toContain('B'.repeat(192));
    expect(Object.keys(merge)).not.toContain('');
    const { id } = await createSignupForm(t.ctx, { title: 'Topics', lists: ['list1'], requiredFields: ['EMAIL', 'TOPICS'] });
    const form = new URLSearchParams({ ...fields({ EMAIL: 'gus@example.org', _mc4wp_form_id: String(id) }) });
    form.append('TOPICS[]', '');
    form.append('TOPICS[]', '');
    const empty = await t.request('POST', ROUTE, { form: form.toString(), headers: UA });
    expect(empty.body.code).toBe('required_field_missing');
  });

  it('a posted _mc4wp_lists replaces the form lists, even when empty', async () => {
    const calls = fake.calls.length;
    // An empty list value is no list at all: no_lists_selected.
    const none = new URLSearchParams({ ...fields({ EMAIL: 'hal@example.org', _mc4wp_honeypot: 'x' }) });
    none.append('_mc4wp_lists[]', '');
    expect((await t.request('POST', ROUTE, { form: none.toString(), headers: UA })).body.code).toBe('no_lists_selected');
    // An empty string passes validation (it splits into one empty name) and then signs up to nothing.
    const blank = await post(fields({ EMAIL: 'hal@example.org', _mc4wp_lists: ' , ' }));
    expect(blank.body).toEqual({ code: '', message: 'Oops. Something went wrong. Please try again later.', data: { status: 400 } });
    expect(fake.calls.length).toBe(calls);
    expect((await post(fields({ EMAIL: 'hal@example.org', _mc4wp_lists: 'list3,,' }))).text).toBe('true');
    expect(fake.members.has(`list3/${memberHash('hal@example.org')}`)).toBe(true);
    expect(fake.members.has(`list1/${memberHash('hal@example.org')}`)).toBe(false);
  });

  it('required fields as get_required_fields reads them: upper-cased, EMAIL apart, GROUP.sub a nested value', async () => {
    expect(requiredFields('EMAIL')).toEqual([]);
    expect(requiredFields('website,EMAIL,FNAME,fname')).toEqual(['WEBSITE', 'FNAME']);
    expect(requiredFields('ADDRESS.ADDR1,INTERESTS[abc123]')).toEqual(['ADDRESS.addr1', 'INTERESTS']);
    // A required `INTERESTS[abc123]` is the INTERESTS field: all of its entries empty is missing.
    const { id } = await createSignupForm(t.ctx, { title: 'Interests', lists: ['list1'], requiredFields: ['EMAIL', 'INTERESTS[abc123]'] });
    const send = (value: string) => {
      const body = new URLSearchParams({ ...fields({ EMAIL: 'ida@example.org', _mc4wp_form_id: String(id) }) });
      body.append('INTERESTS[abc123]', value);
      return t.request('POST', ROUTE, { form: body.toString(), headers: UA });
    };
    expect((await send('')).body.code).toBe('required_field_missing');
    expect((await send('yes')).text).toBe('true');
  });

  it('signs up to every list; as the original, the last list decides the answer', async () => {
    const hash = memberHash('jo@example.org');
    fake.members.set(`list1/${hash}`, { id: hash, email_address: 'jo@example.org', status: 'subscribed' });
    // Already on list1, new on list5: list5 is still joined, and being last it makes the answer.
    expect((await post(fields({ EMAIL: 'jo@example.org', _mc4wp_lists: 'list1,list5' }))).text).toBe('true');
    expect(fake.members.get(`list5/${hash}`)).toMatchObject({ status: 'pending' });
    // New on list6, already on list1 last: list6 is joined, the answer is already_subscribed.
    expect((await post(fields({ EMAIL: 'jo@example.org', _mc4wp_lists: 'list6,list1' }))).body.code).toBe('already_subscribed');
    expect(fake.members.has(`list6/${hash}`)).toBe(true);
  });

  it('refuses a submission naming more lists than a form offers, before any call to the service', async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `many${i}`).join(',');
    const calls = fake.calls.length;
    const r = await post(fields({ EMAIL: 'max@example.org', _mc4wp_lists: names(MAX_POSTED_LISTS + 1) }));
    expect(r.body).toEqual({ code: 'error', message: 'Oops. Something went wrong. Please try again later.', data: { status: 400 } });
    expect(fake.calls.length).toBe(calls);
    // Names repeated count once.
    expect((await post(fields({ EMAIL: 'max@example.org', _mc4wp_lists: `${names(MAX_POSTED_LISTS)},many0,many1` }))).text).toBe('true');
    expect([...fake.members.keys()].filter((k) => k.endsWith(`/${memberHash('max@example.org')}`))).toHaveLength(MAX_POSTED_LISTS);
  });

  it('checks EMAIL as mc4wp_is_email (PHP FILTER_VALIDATE_EMAIL), not WordPress is_email', async () => {
    for (const bad of ['jo..hn@example.org', '.jo@example.org', 'jo@example', 'jo@example.123', `${'a'.repeat(65)}@example.org`, '"jo doe"@example.org'])
      expect((await post(fields({ EMAIL: bad }))).body.code, bad).toBe('invalid_email');
    expect(isEmail('a@b.c')).toBe(true);
    expect(isEmail('"jo\\ doe"@example.org')).toBe(true);
    expect(isEmail('jo@[192.0.2.1]')).toBe(true);
    expect((await post(fields({ EMAIL: 'k@b.io' }))).text).toBe('true');
  });

  it('leaves blank fields out of the merge fields, so they never overwrite stored values', async () => {
    expect((await post(fields({ EMAIL: 'lu@example.org', lname: '', phone: '0' }))).text).toBe('true');
    expect((fake.calls.at(-1)!.body as { merge_fields: Record<string, unknown> }).merge_fields).toEqual({ FNAME: 'Ann' });
  });

  it('reports the service failures with numeric codes: its HTTP status, 0 when unreachable', async () => {
    fake.failWith = 503;
    try {
      const r = await post(fields({ EMAIL: 'bob@example.org' }));
      expect(r.body).toEqual({ code: 503, message: 'Oops. Something went wrong. Please try again later.', data: { status: 400 } });
    } finally {
      fake.failWith = undefined;
    }
    await t.ctx.options.set(API_KEY_OPTION, 'wrong-us1');
    expect((await post(fields({ EMAIL: 'bob@example.org' }))).body.code).toBe(401);
    const down = await startTestApp(engine, { remotes: { mailinglist: 'http://127.0.0.1:9' } });
    try {
      await down.ctx.options.set(API_KEY_OPTION, 'k-us1');
      const { id } = await createSignupForm(down.ctx, { title: 'N', lists: ['l'] });
      const r = await down.request('POST', ROUTE, { form: { ...fields(), _mc4wp_form_id: String(id) }, headers: UA });
      expect(r.body).toMatchObject({ code: 0, data: { status: 400 } });
    } finally {
      await down.close();
    }
  });
});

describe.each(DIALECTS)('mailinglist/v1 with the local list on %s', (engine) => {
  let t: TestApp;
  let smtp: MailBox;
  beforeAll(async () => {
    smtp = await startMailBox();
    t = await startTestApp(engine, { smtpUrl: `smtp://127.0.0.1:${smtp.port}` });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('double opt-in: pending, a confirmation e-mail with a signed link, confirm and unsubscribe pages, CSV', async () => {
    const form = await createSignupForm(t.ctx, { title: 'Local', lists: ['news'] });
    const r = await t.request('POST', ROUTE, {
      form: { _mc4wp_form_id: String(form.id), _mc4wp_timestamp: String(Math.floor(Date.now() / 1000) - 10), _mc4wp_honeypot: '', EMAIL: 'Carla@Example.org', name: 'Carla de Vries' },
      headers: UA,
    });
    expect(r.text).toBe('true');
    const row = await t.db.selectFrom('mailinglist_subscribers').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ list_id: 'news', email: 'carla@example.org', status: 'pending' });
    // NAME completes FNAME and LNAME, as the original's mc4wp_add_name_data.
    expect(JSON.parse(row.fields)).toEqual({ EMAIL: 'Carla@Example.org', NAME: 'Carla de Vries', FNAME: 'Carla', LNAME: 'de Vries' });
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.to.map((a) => a.toLowerCase())).toEqual(['carla@example.org']);
    const raw = smtp.messages[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = /http:\/\/example\.test(\/mailinglist\/confirm\?[^\s]+)/.exec(raw)![1]!;
    const forged = await t.app.inject({ method: 'GET', url: link.replace(/sig=[^&]+/, 'sig=forged') });
    expect(forged.statusCode).toBe(403);
    const confirmed = await t.app.inject({ method: 'GET', url: link });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('your subscription is confirmed');
    expect((await t.db.selectFrom('mailinglist_subscribers').select('status').executeTakeFirstOrThrow()).status).toBe('subscribed');

    const again = await t.request('POST', ROUTE, {
      form: { _mc4wp_form_id: 'abc', _mc4wp_timestamp: String(Math.floor(Date.now() / 1000) - 10), _mc4wp_honeypot: '', EMAIL: 'carla@example.org' },
      headers: UA,
    });
    expect(again.body.code).toBe('already_subscribed');

    const unsubscribe = /href="http:\/\/example\.test(\/mailinglist\/unsubscribe\?[^"]+)"/.exec(confirmed.body)![1]!.replace(/&#38;/g, '&');
    expect((await t.app.inject({ method: 'GET', url: unsubscribe })).body).toContain('<form method="post"');
    expect((await t.db.selectFrom('mailinglist_subscribers').select('status').executeTakeFirstOrThrow()).status).toBe('subscribed');
    const done = await t.app.inject({ method: 'POST', url: unsubscribe });
    expect(done.body).toContain('You were successfully unsubscribed.');
    expect((await t.db.selectFrom('mailinglist_subscribers').select('status').executeTakeFirstOrThrow()).status).toBe('unsubscribed');

    const session = await signInForTest(t.ctx, t.admin.id);
    const csv = await t.app.inject({ method: 'GET', url: `${t.ctx.config.adminPath}/mailinglist.php?export=csv`, headers: { cookie: session.cookie } });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('"news","carla@example.org","unsubscribed"');
    expect((await t.app.inject({ method: 'GET', url: `${t.ctx.config.adminPath}/mailinglist.php?export=csv` })).statusCode).toBe(302);
  });

  it('signs up to a list named twice once, and sends no e-mail for more lists than a form offers', async () => {
    const form = await createSignupForm(t.ctx, { title: 'Lists', lists: ['news'] });
    const submit = (email: string, lists: string) =>
      t.request('POST', ROUTE, {
        form: { _mc4wp_form_id: String(form.id), _mc4wp_timestamp: String(Math.floor(Date.now() / 1000) - 10), _mc4wp_honeypot: '', EMAIL: email, _mc4wp_lists: lists },
        headers: UA,
      });
    const rows = (email: string) => t.db.selectFrom('mailinglist_subscribers').select('list_id').where('email', '=', email).execute();
    const sent = smtp.messages.length;
    expect((await submit('dee@example.org', 'weekly,weekly')).text).toBe('true');
    expect(await rows('dee@example.org')).toEqual([{ list_id: 'weekly' }]);
    expect(smtp.messages.length).toBe(sent + 1);

    const many = Array.from({ length: MAX_POSTED_LISTS + 1 }, (_, i) => `l${i}`).join(',');
    expect((await submit('eve@example.org', many)).body.code).toBe('error');
    expect(await rows('eve@example.org')).toEqual([]);
    expect(smtp.messages.length).toBe(sent + 1);
    // The form's own lists are the site's choice: as many as it names are signed up to.
    const wide = await createSignupForm(t.ctx, { title: 'Wide', lists: many.split(',') });
    const r = await t.request('POST', ROUTE, {
      form: { _mc4wp_form_id: String(wide.id), _mc4wp_timestamp: String(Math.floor(Date.now() / 1000) - 10), _mc4wp_honeypot: '', EMAIL: 'fay@example.org' },
      headers: UA,
    });
    expect(r.text).toBe('true');
    expect(await rows('fay@example.org')).toHaveLength(MAX_POSTED_LISTS + 1);
  });

  it('the admin page creates forms and stores the API key (nonce-checked)', async () => {
    const session = await signInForTest(t.ctx, t.admin.id);
    const url = `${t.ctx.config.adminPath}/mailinglist.php`;
    const page = await t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
    const nonce = /name="_wpnonce" value="([^"]+)"/.exec(page.body)![1]!;
    const post = (payload: string) => t.app.inject({ method: 'POST', url, headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload });
    expect((await post(`_wpnonce=${nonce}&do=create&name=Weekly&lists=a,b&double_optin=1`)).body).toContain('created');
    // Unchecked boxes are off; tags are comma lists; the redirect is kept as given.
    const settings = `_wpnonce=${nonce}&do=create&name=Tagged&lists=c&update_existing=1&subscriber_tags=${encodeURIComponent(' news, ,vip')}&remove_subscriber_tags=old&redirect=${encodeURIComponent('https://example.org/thanks')}`;
    expect((await post(settings)).body).toContain('created');
    const tagged = (await listSignupForms(t.ctx)).find((f) => f.title === 'Tagged')!;
    expect(tagged).toMatchObject({ lists: ['c'], doubleOptin: false, updateExisting: true, replaceInterests: false, subscriberTags: ['news', 'vip'], removeSubscriberTags: ['old'], redirect: 'https://example.org/thanks' });
    expect((await listSignupForms(t.ctx)).find((f) => f.title === 'Weekly')).toMatchObject({ doubleOptin: true, replaceInterests: false, subscriberTags: [], removeSubscriberTags: [] });
    expect((await post(`_wpnonce=${nonce}&do=api-key&api_key=secret-us2`)).body).toContain('API key saved.');
    expect(await t.ctx.options.get(API_KEY_OPTION)).toBe('secret-us2');
    expect((await post('_wpnonce=bad&do=api-key&api_key=evil')).statusCode).toBe(403);
    const after = await t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
    expect(after.body).toContain('Weekly');
    expect(after.body).not.toContain('secret-us2');
  });
});
