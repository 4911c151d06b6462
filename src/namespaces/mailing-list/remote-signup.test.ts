/**
 * The sign-up against a Mailchimp-protocol service, request by request, as the original's
 * `MC4WP_Form_Listener::process_subscribe_form`, `MC4WP_List_Data_Mapper`, `MC4WP_MailChimp::list_subscribe`
 * and `MC4WP_API_V3` send them: which calls, in which order, to which path (the member named by the
 * MD5 of its lower-cased address), with which body.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInForTest } from '../../auth/test-sessions.js';
import { memberHash } from '../../remote/mailinglist-client.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { startFakeMailchimp, type FakeMailchimp } from './fake-mailchimp.case.js';
import { createSignupForm, type SignupForm } from './forms.repo.js';
import type { NewSignupForm } from './forms.repo.js';
import { LIST_FACTS_TTL_SECONDS } from './list-facts.js';
import { API_KEY_OPTION } from './subscribe.service.js';

const ROUTE = '/mailinglist/v1/form';
const UA = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' };
const MERGE_FIELDS = 'merge-fields?count=100&fields=merge_fields.name,merge_fields.tag,merge_fields.type,merge_fields.required,merge_fields.default_value,merge_fields.options,merge_fields.public';
const CATEGORIES = 'interest-categories?count=100&fields=categories.id,categories.title,categories.type';
const INTERESTS = 'interests?count=100&fields=interests.id,interests.name';
const PERMISSIONS = 'members?fields%5B0%5D=members.marketing_permissions&count=1';

describe.each(DIALECTS)('mailinglist/v1 sign-up requests to the list service on %s', (engine) => {
  let t: TestApp;
  let fake: FakeMailchimp;
  let clock = Date.parse('2026-03-10T12:00:00Z');
  let listCounter = 0;
  /** A list id no earlier test has used (its facts are not cached yet). */
  const freshList = (name: string) => `${name}${++listCounter}`;

  const form = (list: string, settings: Partial<NewSignupForm> = {}): Promise<SignupForm> => createSignupForm(t.ctx, { title: `Form for ${list}`, lists: [list], ...settings });
  /** Posts the form with `fields` (a string is sent as the body as it is). */
  const post = (f: SignupForm, fields: Record<string, string> | string, headers: Record<string, string> = {}, query?: Record<string, string>) => {
    const base = new URLSearchParams({ _mc4wp_form_id: String(f.id), _mc4wp_timestamp: String(Math.floor(clock / 1000) - 30), _mc4wp_honeypot: '' });
    const body = typeof fields === 'string' ? `${base.toString()}&${fields}` : `${base.toString()}&${new URLSearchParams(fields).toString()}`;
    return t.request('POST', ROUTE, { form: body, headers: { ...UA, ...headers }, ...(query ? { query } : {}) });
  };
  const requests = () => fake.calls.map((c) => `${c.method} ${c.path}`);

  beforeAll(async () => {
    fake = await startFakeMailchimp();
    t = await startTestApp(engine, { remotes: { mailinglist: fake.url } }, { now: () => new Date(clock) });
    await t.ctx.options.set(API_KEY_OPTION, fake.apiKey);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.calls.length = 0;
    fake.failOn = undefined;
    fake.omitIds = false;
  });

  it("sends the list's merge fields formatted by type, interests, marketing permissions, language, address and e-mail type; then the form's tags", async () => {
    const list = freshList('full');
    fake.lists.set(list, {
      mergeFields: [
        { tag: 'FNAME', type: 'text' },
        { tag: 'LNAME', type: 'text' },
        { tag: 'ADDRESS', type: 'address' },
        { tag: 'BIRTHDAY', type: 'birthday', options: { date_format: 'DD/MM' } },
        { tag: 'COLORS', type: 'text' },
        { tag: 'PHONE', type: 'phone' },
      ],
      categories: [{ id: 'cat1', title: 'Topics', type: 'checkboxes', interests: [{ id: 'int1', name: 'Music' }, { id: 'int2', name: 'Art' }, { id: 'int3', name: 'Film' }] }],
      marketingPermissions: [{ marketing_permission_id: 'mp1', text: 'Email' }, { marketing_permission_id: 'mp2', text: 'Direct Mail' }],
    });
    // Marketing permissions are read off the list's first member.
    fake.members.set(`${list}/${memberHash('first@example.org')}`, { id: memberHash('first@example.org'), email_address: 'first@example.org', status: 'subscribed' });
    const f = await form(list, { doubleOptin: false, subscriberTags: ['news', 'vip'], removeSubscriberTags: ['old'] });
    const fields = new URLSearchParams({
      EMAIL: 'Ann.Lee@Example.org',
      NAME: 'Ann Lee',
      'ADDRESS[addr1]': '1 Main St',
      'ADDRESS[city]': 'Springfield',
      BIRTHDAY: '29/07',
      PHONE: '',
      SECRET: 'not a merge field',
      'INTERESTS[cat1]': 'Art',
      'INTERESTS[int1]': '1',
      MARKETING_PERMISSIONS: 'Email',
      MC_LANGUAGE: 'de_DE',
      _mc4wp_email_type: 'text',
    });
    fields.append('COLORS[]', 'red');
    fields.append('COLORS[]', 'blue');
    const r = await post(f, fields.toString(), { 'accept-language': 'de-DE,de;q=0.9', 'x-forwarded-for': '198.51.100.4' });
    expect(r.status).toBe(200);
    expect(r.text).toBe('true');
    const hash = memberHash('ann.lee@example.org');
    expect(requests()).toEqual([
      `GET /3.0/lists/${list}/${MERGE_FIELDS}`,
      `GET /3.0/lists/${list}/${CATEGORIES}`,
      `GET /3.0/lists/${list}/interest-categories/cat1/${INTERESTS}`,
      `GET /3.0/lists/${list}/${PERMISSIONS}`,
      `GET /3.0/lists/${list}/members/${hash}`,
      `POST /3.0/lists/${list}/members`,
      `POST /3.0/lists/${list}/members/${hash}/tags`,
    ]);
    expect(fake.calls[5]!.body).toEqual({
      status: 'subscribed',
      email_address: 'Ann.Lee@Example.org',
      interests: { int1: true, int2: true },
      merge_fields: {
        FNAME: 'Ann',
        LNAME: 'Lee',
        ADDRESS: { addr1: '1 Main St', city: 'Springfield', state: '', zip: '' },
        BIRTHDAY: '07/29',
        COLORS: 'red, blue',
      },
      email_type: 'text',
      ip_signup: '198.51.100.4',
      language: 'de',
      marketing_permissions: [{ marketing_permission_id: 'mp1', enabled: true }],
    });
    expect(fake.calls[6]!.body).toEqual({ tags: [{ name: 'news', status: 'active' }, { name: 'vip', status: 'active' }, { name: 'old', status: 'inactive' }] });
    // The visitor's language reaches the service with every call, as the original's client copies it.
    expect(new Set(fake.calls.map((c) => c.acceptLanguage))).toEqual(new Set(['de-DE,de;q=0.9']));
    expect(fake.members.get(`${list}/${hash}`)!.tags).toEqual(['news', 'vip']);
  });

  it("reads a list's facts once a day; Renew lists forgets them; a failed read is not kept", async () => {
    const list = freshList('cached');
    const f = await form(list, { doubleOptin: false });
    const reads = () => requests().filter((p) => p.includes('/merge-fields')).length;
    expect((await post(f, { EMAIL: 'c1@example.org', FNAME: 'Cy' })).text).toBe('true');
    expect((await post(f, { EMAIL: 'c2@example.org', FNAME: 'Cy' })).text).toBe('true');
    expect(reads()).toBe(1);
    clock += LIST_FACTS_TTL_SECONDS * 1000 + 1000;
    expect((await post(f, { EMAIL: 'c3@example.org' })).text).toBe('true');
    expect(reads()).toBe(2);

    const session = await signInForTest(t.ctx, t.admin.id);
    const url = `${t.ctx.config.adminPath}/mailinglist.php`;
    const page = await t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
    const nonce = /name="_wpnonce" value="([^"]+)"/.exec(page.body)![1]!;
    const renew = await t.app.inject({ method: 'POST', url, headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `_wpnonce=${nonce}&do=renew-lists` });
    expect(renew.body).toContain('Lists renewed');
    expect((await post(f, { EMAIL: 'c4@example.org' })).text).toBe('true');
    expect(reads()).toBe(3);

    // The service failing to list the fields: the member is still signed up, without merge fields, and the next sign-up asks again.
    const other = freshList('flaky');
    const g = await form(other, { doubleOptin: false });
    fake.failOn = (c) => (c.path.includes('/merge-fields') ? 503 : undefined);
    expect((await post(g, { EMAIL: 'd1@example.org', FNAME: 'Di' })).text).toBe('true');
    expect(fake.calls.at(-1)!.body).toMatchObject({ email_address: 'd1@example.org', merge_fields: {} });
    fake.failOn = undefined;
    fake.calls.length = 0;
    expect((await post(g, { EMAIL: 'd2@example.org', FNAME: 'Di' })).text).toBe('true');
    expect(requests()[0]).toBe(`GET /3.0/lists/${other}/${MERGE_FIELDS}`);
    expect(fake.calls.at(-1)!.body).toMatchObject({ merge_fields: { FNAME: 'Di' } });
  });

  it('double opt-in: a pending member is first unsubscribed, so that the service sends a new opt-in e-mail', async () => {
    const list = freshList('pending');
    const hash = memberHash('pat@example.org');
    fake.members.set(`${list}/${hash}`, { id: hash, email_address: 'pat@example.org', status: 'pending' });
    const f = await form(list);
    expect((await post(f, { EMAIL: 'PAT@example.org' })).text).toBe('true');
    expect(requests()).toEqual([
      `GET /3.0/lists/${list}/${MERGE_FIELDS}`,
      `GET /3.0/lists/${list}/members/${hash}`,
      `PATCH /3.0/lists/${list}/members/${hash}`,
      `PATCH /3.0/lists/${list}/members/${hash}`,
    ]);
    expect(fake.calls[2]!.body).toEqual({ status: 'unsubscribed' });
    expect(fake.calls[3]!.body).toEqual({ status: 'pending', email_address: 'PAT@example.org', interests: {}, merge_fields: {}, email_type: 'html', ip_signup: '127.0.0.1' });
  });

  it('update_existing keeps a subscribed member subscribed; replace_interests switches off the interests not chosen now', async () => {
    const list = freshList('update');
    fake.lists.set(list, {
      mergeFields: [{ tag: 'FNAME', type: 'text' }],
      categories: [{ id: 'cat', title: 'Topics', type: 'checkboxes', interests: [{ id: 'int1', name: 'Music' }, { id: 'int2', name: 'Art' }, { id: 'int3', name: 'Film' }] }],
      marketingPermissions: [],
    });
    const hash = memberHash('uma@example.org');
    const subscribed = () => fake.members.set(`${list}/${hash}`, { id: hash, email_address: 'uma@example.org', status: 'subscribed', interests: { int1: true, int2: true, int3: false } });
    const chooseFilm = 'EMAIL=uma%40example.org&FNAME=Uma&INTERESTS%5B%5D=int3';

    subscribed();
    const replacing = await form(list, { updateExisting: true });
    expect((await post(replacing, chooseFilm)).text).toBe('true');
    const update = fake.calls.filter((c) => c.method === 'PATCH');
    expect(update).toHaveLength(1);
    expect(update[0]!.path).toBe(`/3.0/lists/${list}/members/${hash}`);
    // Double opt-in does not make a subscribed member pending again.
    expect(update[0]!.body).toEqual({ status: 'subscribed', email_address: 'uma@example.org', interests: { int1: false, int2: false, int3: true }, merge_fields: { FNAME: 'Uma' }, email_type: 'html', ip_signup: '127.0.0.1' });

    subscribed();
    fake.calls.length = 0;
    const keeping = await form(list, { updateExisting: true, replaceInterests: false });
    expect((await post(keeping, chooseFilm)).text).toBe('true');
    expect(fake.calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({ interests: { int1: true, int2: true, int3: true } });

    fake.calls.length = 0;
    const refusing = await form(list, { updateExisting: false, subscriberTags: ['never'] });
    expect((await post(refusing, chooseFilm)).body).toEqual({ code: 'already_subscribed', message: 'Given email address is already subscribed, thank you!', data: { status: 400 } });
    expect(requests().filter((p) => !p.startsWith('GET'))).toEqual([]);
  });

  it('tags the service refuses leave the sign-up successful; a member answered without its id is the empty error code', async () => {
    const list = freshList('tags');
    const f = await form(list, { subscriberTags: ['news'] });
    fake.failOn = (c) => (c.path.endsWith('/tags') ? 400 : undefined);
    expect((await post(f, { EMAIL: 'tess@example.org' })).text).toBe('true');
    expect(requests().at(-1)).toBe(`POST /3.0/lists/${list}/members/${memberHash('tess@example.org')}/tags`);
    fake.failOn = undefined;
    fake.omitIds = true;
    expect((await post(f, { EMAIL: 'tom@example.org' })).body).toEqual({ code: '', message: 'Oops. Something went wrong. Please try again later.', data: { status: 400 } });
  });

  it('signs up once to a list named twice, and leaves out a client address that is no IP address', async () => {
    const list = freshList('twice');
    const f = await form(list);
    expect((await post(f, { EMAIL: 'val@example.org', _mc4wp_lists: `${list},${list}` }, { 'x-forwarded-for': 'unknown' })).text).toBe('true');
    expect(requests().filter((p) => p.startsWith('POST'))).toEqual([`POST /3.0/lists/${list}/members`]);
    expect(fake.calls.at(-1)!.body).not.toHaveProperty('ip_signup');
  });

  it('values the original stops on with a PHP fatal error answer 400 internal_server_error, and nothing is written', async () => {
    const list = freshList('fatal');
    fake.lists.set(list, { mergeFields: [], categories: [{ id: 'cat', title: 'T', type: 'radio', interests: [{ id: 'int1', name: 'One' }] }], marketingPermissions: [] });
    const f = await form(list);
    const expected = { code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: 400 } };
    for (const body of ['EMAIL=wes%40example.org&NAME%5B%5D=Wes', 'EMAIL=wes%40example.org&INTERESTS=int1', 'EMAIL=wes%40example.org&MC_LANGUAGE%5B%5D=nl']) {
      const r = await post(f, body);
      expect(r.status, body).toBe(400);
      expect(r.body, body).toEqual(expected);
    }
    expect(requests().filter((p) => !p.startsWith('GET'))).toEqual([]);
    expect(requests().some((p) => p.includes('/members/'))).toBe(false);
  });

  it('a form with a redirect URL sends a successful sign-up there (302), dynamic tags replaced, unless the client asks for JSON', async () => {
    const list = freshList('redirect');
    const f = await form(list, { redirect: ' https://example.org/thanks?e={email}&src={data key="utm" default="none"}&c={data key=COLORS}&d={date}&x={unknown} ' });
    const r = await post(f, 'EMAIL=rae%40example.org&COLORS%5B%5D=red&COLORS%5B%5D=&COLORS%5B%5D=blue');
    expect(r.status).toBe(302);
    const today = new Date(clock).toISOString().slice(0, 10).replace(/-/g, '%2F');
    expect(r.headers.location).toBe(`https://example.org/thanks?e=rae%40example.org&src=none&c=red%2C+blue&d=${today}&x=unknown`);
    expect(r.text).toBe('');
    expect((await post(f, { EMAIL: 'ray@example.org' }, {}, { utm: 'mail' })).headers.location).toContain('&src=mail&');
    const amp = await post(f, { EMAIL: 'rio@example.org' }, { accept: 'application/json' });
    expect(amp.status).toBe(200);
    expect(amp.text).toBe('true');
    // Failures answer as always.
    fake.members.get(`${list}/${memberHash('rae@example.org')}`)!.status = 'subscribed';
    expect((await post(f, { EMAIL: 'rae@example.org' })).body).toMatchObject({ code: 'already_subscribed' });
  });

  it('a tag left open is text, and a property no user has is the default (no backtracking, no built-ins)', async () => {
    const list = freshList('redirect-open');
    const open = `{data key=NAME default=${'a '.repeat(40)}`;
    const f = await form(list, { redirect: `https://example.org/t?n=${open}&u={user property=constructor default=none}` });
    const started = Date.now();
    const r = await post(f, { EMAIL: 'ode@example.org' });
    expect(Date.now() - started).toBeLessThan(2000); // the old pattern took minutes on 20 repeats
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe(`https://example.org/t?n=data%20key=NAME%20default=${'a%20'.repeat(40)}&u=none`);
  });
});
