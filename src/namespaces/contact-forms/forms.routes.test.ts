import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { NS } from './fixtures.case.js';

describe.each(DIALECTS)('contact-form/v1 forms on %s', (engine) => {
  let t: TestApp;
  let contributor: TestUser;
  let editor: TestUser;
  beforeAll(async () => {
    t = await startTestApp(engine);
    contributor = await t.createUser('contributor');
    editor = await t.createUser('editor');
  });
  afterAll(() => t.close());

  it('maps the capabilities and always answers 403 wpcf7_forbidden', async () => {
    const anon = await t.request('GET', `${NS}/contact-forms`);
    expect(anon.status).toBe(403);
    expect(anon.body).toEqual({ code: 'wpcf7_forbidden', message: 'You are not allowed to access contact forms.', data: { status: 403 } });
    expect((await t.request('GET', `${NS}/contact-forms`, { as: contributor })).status).toBe(200);
    const create = await t.request('POST', `${NS}/contact-forms`, { as: contributor, json: { title: 'x', context: 'save' } });
    expect(create.body).toMatchObject({ code: 'wpcf7_forbidden', message: 'You are not allowed to create a contact form.' });
    for (const method of ['GET', 'POST', 'DELETE']) {
      const r = await t.request(method, `${NS}/contact-forms/1`, { as: contributor });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('You are not allowed to access the requested contact form.');
    }
  });

  it('describes an unsaved draft without context=save, stores with it', async () => {
    const draft = await t.request('POST', `${NS}/contact-forms`, { as: editor, json: { title: 'Draft' } });
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({ id: null, slug: null, title: 'Draft' });
    expect((await t.request('GET', `${NS}/contact-forms`, { as: editor })).body).toEqual([]);

    const r = await t.request('POST', `${NS}/contact-forms`, { as: editor, json: { title: 'Contact form 1', context: 'save' } });
    expect(r.body).toMatchObject({ slug: 'contact-form-1', title: 'Contact form 1', locale: 'en_US', config_errors: [] });
    const id = r.body.id;
    expect(id).toBeGreaterThan(0);
    const fields = r.body.properties.form.fields;
    expect(fields.map((f: { type: string; name: string }) => `${f.type}:${f.name}`)).toEqual(['text*:your-name', 'email*:your-email', 'text*:your-subject', 'textarea:your-message', 'submit:']);
    expect(fields[0]).toEqual({ type: 'text*', basetype: 'text', name: 'your-name', options: ['autocomplete:name'], raw_values: [], labels: [], values: [], pipes: [], content: '' });
    expect(fields[4].raw_values).toEqual(['Submit']);
    expect(r.body.properties.mail).not.toHaveProperty('active');
    expect(r.body.properties.mail).toMatchObject({ recipient: '[_site_admin_email]', additional_headers: 'Reply-To: [your-email]', use_html: 0, exclude_blank: 0, sender: '[_site_title] <wordpress@example.test>' });
    expect(r.body.properties.mail_2.active).toBe(false);
    expect(r.body.properties.messages.mail_sent_ok).toBe('Thank you for your message. It has been sent.');
    expect(r.body.properties.additional_settings).toEqual({ content: '', settings: [] });

    const list = await t.request('GET', `${NS}/contact-forms`, { as: editor });
    expect(list.body).toEqual([{ id, hash: expect.stringMatching(/^[0-9a-f]{7}$/), slug: 'contact-form-1', title: 'Contact form 1', locale: 'en_US' }]);
    const one = await t.request('GET', `${NS}/contact-forms/${id}`, { as: editor });
    expect(Object.keys(one.body)).toEqual(['id', 'slug', 'title', 'locale', 'properties']);

    expect((await t.request('POST', `${NS}/contact-forms`, { as: editor, json: { id, title: 'x' } })).body).toMatchObject({ code: 'wpcf7_post_exists', data: { status: 400 } });
  });

  it('updates only what is given, reports configuration errors, parses the form tags', async () => {
    const { body: created } = await t.request('POST', `${NS}/contact-forms`, { as: t.admin, json: { title: 'Tags', context: 'save' } });
    const form = '[text* name minlength:2 maxlength:20 id:nm "Your name"] [select menu include_blank "Apple" "Pear|pear@example.test"] [checkbox* colours exclusive "Red" "Blue"] [acceptance terms] I agree [/acceptance] [[text escaped]] [number n min:1 max:9] [submit]';
    const r = await t.request('PATCH', `${NS}/contact-forms/${created.id}`, {
      as: t.admin,
      json: {
        context: 'save',
        form,
        mail: { subject: 'Hi', sender: 'not a mailbox', recipient: 'me@example.test', body: 'b', additional_headers: '  Reply-To: [name]  \n\n bad header line' },
        additional_settings: 'demo_mode: on\nsomething else\nskip_mail: off\nflag: yes',
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.title).toBe('Tags');
    expect(r.body.properties.mail.active).toBe(true);
    expect(r.body.properties.mail.additional_headers).toBe('Reply-To: [name]\nbad header line');
    expect(r.body.config_errors['mail.sender']).toEqual([{ message: 'Invalid mailbox syntax is used.', link: 'https://contactform7.com/configuration-errors/invalid-mailbox-syntax/' }]);
    expect(r.body.config_errors['mail.additional_headers'][0].message).toBe('There are invalid mail header fields.');
    const foreign = await t.request('POST', `${NS}/contact-forms/${created.id}`, { as: t.admin, json: { mail: { subject: 's', body: 'b', sender: 'x@elsewhere.example', recipient: '[_site_admin_email]' } } });
    expect(foreign.body.config_errors['form.body']).toEqual([{ message: 'Unavailable names (name) are used for form controls.', link: 'https://contactform7.com/configuration-errors/unavailable-names/' }]);
    expect(foreign.body.config_errors).toMatchObject({ 'mail.sender': [{ message: 'Sender email address does not belong to the site domain.', link: 'https://contactform7.com/configuration-errors/email-not-in-site-domain/' }] });
    // Blank lines are dropped when saving; a non-matching line leaves a gap: an object keyed by line.
    expect(r.body.properties.additional_settings.settings).toEqual({ 0: ['demo_mode', true], 2: ['skip_mail', false], 3: ['flag', 'yes'] });
    const fields = r.body.properties.form.fields;
    expect(fields.map((f: { name: string }) => f.name)).toEqual(['name', 'menu', 'colours', 'terms', 'n', '']);
    expect(fields[0]).toMatchObject({ options: ['minlength:2', 'maxlength:20', 'id:nm'], raw_values: ['Your name'] });
    expect(fields[1]).toMatchObject({ raw_values: ['Apple', 'Pear|pear@example.test'], values: ['Apple', 'Pear'], labels: ['Apple', 'Pear'], pipes: [['Apple', 'Apple'], ['Pear', 'pear@example.test']] });
    expect(fields[3]).toMatchObject({ basetype: 'acceptance', content: 'I agree' });
    // Not saved without context=save.
    const preview = await t.request('POST', `${NS}/contact-forms/${created.id}`, { as: t.admin, json: { title: 'Renamed' } });
    expect(preview.body.title).toBe('Renamed');
    expect((await t.request('GET', `${NS}/contact-forms/${created.id}`, { as: t.admin })).body.title).toBe('Tags');

    const schema = await t.request('GET', `${NS}/contact-forms/${created.id}/feedback/schema`);
    expect(schema.body.version).toBe('Contact Form 7 SWV Schema 2024-10');
    // The original's order: the tag modules in turn (checkbox, number, select, text), then the enum rules.
    expect(schema.body.rules).toEqual([
      { rule: 'required', field: 'colours', error: 'Please fill out this field.' },
      { rule: 'maxitems', field: 'colours', threshold: 1, error: 'Too many items are selected.' },
      { rule: 'number', field: 'n', error: 'Please enter a number.' },
      { rule: 'minnumber', field: 'n', threshold: '1', error: 'This field has a too small number.' },
      { rule: 'maxnumber', field: 'n', threshold: '9', error: 'This field has a too large number.' },
      { rule: 'required', field: 'name', error: 'Please fill out this field.' },
      { rule: 'minlength', field: 'name', threshold: 2, error: 'This field has a too short input.' },
      { rule: 'maxlength', field: 'name', threshold: 20, error: 'This field has a too long input.' },
      { rule: 'enum', field: 'colours', accept: ['Red', 'Blue'], error: 'Undefined value was submitted through this field.' },
      { rule: 'enum', field: 'menu', accept: ['Apple', 'Pear'], error: 'Undefined value was submitted through this field.' },
    ]);
    expect((await t.request('GET', `${NS}/contact-forms/${created.id}/refill`)).text).toBe('[]');
  });

  it('saves fields as the original: tags stripped from the title, Untitled when empty, en_US for a bad locale, text trimmed', async () => {
    const r = await t.request('POST', `${NS}/contact-forms`, {
      as: t.admin,
      json: { title: '  <b>Big</b>\n  news ', locale: 'EN-us', context: 'save', form: '\n  [text a]  \n', mail: { subject: 's', body: '\n body \n' }, messages: { spam: '  Go away.  ' } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: 'Big news', locale: 'en_US' });
    expect(r.body.properties.form.content).toBe('[text a]');
    expect(r.body.properties.mail.body).toBe('body');
    expect(r.body.properties.messages.spam).toBe('Go away.');
    const id = r.body.id;
    const renamed = await t.request('PATCH', `${NS}/contact-forms/${id}`, { as: t.admin, json: { title: '<i></i> ', locale: 'de_DE_formal', context: 'save' } });
    expect(renamed.body).toMatchObject({ title: 'Untitled', locale: 'de_DE_formal' });
    // Valid in form but longer than any stored locale: treated as invalid rather than failing the save.
    const long = await t.request('PATCH', `${NS}/contact-forms/${id}`, { as: t.admin, json: { locale: `en_${'A'.repeat(40)}`, context: 'save' } });
    expect(long.status).toBe(200);
    expect(long.body.locale).toBe('en_US');
    expect((await t.request('GET', `${NS}/contact-forms/${id}`, { as: t.admin })).body).toMatchObject({ title: 'Untitled', locale: 'en_US' });
  });

  it('GET /contact-forms reads its query as WP_Query does: the block editor\'s orderby=modified, order, per_page, offset, search terms', async () => {
    let clock = new Date('2026-01-01T10:00:00Z');
    const w = await startTestApp(engine, {}, { now: () => clock });
    try {
      const titles = ['Alpha enquiry', 'Beta booking', 'Gamma enquiry form'];
      const ids: number[] = [];
      for (const title of titles) {
        ids.push((await w.request('POST', `${NS}/contact-forms`, { as: w.admin, json: { title, context: 'save' } })).body.id);
        clock = new Date(clock.getTime() + 60_000);
      }
      // Alpha is edited last.
      await w.request('POST', `${NS}/contact-forms/${ids[0]}`, { as: w.admin, json: { form: '[text x]', context: 'save' } });
      const list = async (query: Record<string, string>) => (await w.request('GET', `${NS}/contact-forms`, { as: w.admin, query })).body.map((f: { title: string }) => f.title.split(' ')[0]);
      expect(await list({})).toEqual(['Alpha', 'Beta', 'Gamma']);
      expect(await list({ orderby: 'modified', order: 'DESC', posts_per_page: '20' })).toEqual(['Alpha', 'Gamma', 'Beta']);
      expect(await list({ order: 'sideways' })).toEqual(['Gamma', 'Beta', 'Alpha']);
      expect(await list({ orderby: 'title', order: 'desc' })).toEqual(['Gamma', 'Beta', 'Alpha']);
      expect(await list({ orderby: 'nonsense' })).toEqual(['Alpha', 'Beta', 'Gamma']);
      expect(await list({ offset: '1' })).toEqual(['Alpha', 'Beta', 'Gamma']);
      expect(await list({ per_page: '-1', offset: '1' })).toEqual(['Alpha', 'Beta', 'Gamma']);
      expect(await list({ per_page: '1', offset: '-1' })).toEqual(['Beta']);
      expect(await list({ per_page: '-2' })).toEqual(['Alpha', 'Beta']);
      expect(await list({ per_page: '0' })).toEqual(['Alpha', 'Beta', 'Gamma']);
      await w.ctx.options.set('posts_per_page', 2);
      expect(await list({ per_page: '0' })).toEqual(['Alpha', 'Beta']);
      expect(await list({ search: 'enquiry form' })).toEqual(['Gamma']);
      expect(await list({ search: '"enquiry form"' })).toEqual(['Gamma']);
      expect(await list({ search: 'form enquiry' })).toEqual(['Gamma']);
      expect(await list({ search: '"form enquiry"' })).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('404 wpcf7_not_found for missing forms; delete answers deleted', async () => {
    for (const [m, p] of [['GET', '/contact-forms/999999'], ['POST', '/contact-forms/999999'], ['DELETE', '/contact-forms/999999'], ['GET', '/contact-forms/999999/feedback/schema'], ['GET', '/contact-forms/999999/refill']] as const) {
      const r = await t.request(m, NS + p, { as: t.admin });
      expect(r.status, p).toBe(404);
      expect(r.body.code).toBe('wpcf7_not_found');
    }
    expect((await t.request('GET', `${NS}/contact-forms/99999999999999999999`, { as: t.admin })).status).toBeLessThan(500);
    const { body } = await t.request('POST', `${NS}/contact-forms`, { as: t.admin, json: { title: 'Doomed', context: 'save' } });
    expect((await t.request('DELETE', `${NS}/contact-forms/${body.id}`, { as: t.admin })).body).toEqual({ deleted: true });
    expect((await t.request('GET', `${NS}/contact-forms/${body.id}`, { as: t.admin })).status).toBe(404);
  });

  it('keeps the markup of users with unfiltered_html; takes a large form; lists honour search, order and paging', async () => {
    const author = await t.createUser('author');
    expect((await t.request('POST', `${NS}/contact-forms`, { as: author, json: { title: 'x', context: 'save' } })).status).toBe(403);
    const big = 'x'.repeat(200_000);
    const r = await t.request('POST', `${NS}/contact-forms`, { as: editor, json: { title: 'Scripted', context: 'save', form: `<p onclick="alert(1)">Hi</p><script>alert(2)</script>[text a] ${big}` } });
    expect(r.status).toBe(200);
    expect(r.body.properties.form.content.startsWith('<p onclick="alert(1)">Hi</p><script>')).toBe(true);
    expect(r.body.properties.form.fields).toHaveLength(1);
    const search = await t.request('GET', `${NS}/contact-forms`, { as: editor, query: { search: 'Scripted' } });
    expect(search.body.map((f: { title: string }) => f.title)).toEqual(['Scripted']);
    const paged = await t.request('GET', `${NS}/contact-forms`, { as: editor, query: { per_page: 1, offset: 1, order: 'desc' } });
    expect(paged.body).toHaveLength(1);
  });
});
