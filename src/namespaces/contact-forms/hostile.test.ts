/**
 * Odd values in every field the three form namespaces read (spam filter, contact forms, mailing
 * list), as JSON, form-encoded and multipart bodies, signed out and as an administrator: never a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { postMultipart } from './fixtures.case.js';

const ODD: unknown[] = ['', ' ', '0', '-1', '99999999999999999999', 'é🎉', '<script>x</script>', '\r\nBcc: x@example.net', 'x'.repeat(5000), [], ['a', 'b'], { a: { b: 'c' } }, null, true, 1e308];
const FIELDS = ['key', 'interval', 'endpoint', 'comments', 'spamfilter_strictness', 'id', 'title', 'locale', 'form', 'mail', 'mail_2', 'messages', 'additional_settings', 'context', 'per_page', 'offset', 'order', 'orderby', 'search',
  '_wpcf7_unit_tag', 'your-name', 'your-email', 'your-subject', 'your-message', '_mc4wp_form_id', '_mc4wp_timestamp', '_mc4wp_honeypot', '_mc4wp_lists', '_mc4wp_action', 'EMAIL'];

describe.each(DIALECTS)('form namespaces under hostile input on %s', (engine) => {
  let t: TestApp;
  let formId: number;
  beforeAll(async () => {
    t = await startTestApp(engine, { spamfilterApiKey: 'abcdefabcdef' });
    formId = (await t.request('POST', '/contact-form/v1/contact-forms', { as: t.admin, json: { title: 'H', context: 'save' } })).body.id;
    await t.request('POST', '/contact-form/v1/contact-forms', { as: t.admin, json: {} });
  });
  afterAll(() => t.close());

  it('answers every odd value without a server error', async () => {
    const routes: [string, string][] = [
      ['GET', '/spamfilter/v1/key'], ['POST', '/spamfilter/v1/key'], ['DELETE', '/spamfilter/v1/key'], ['POST', '/spamfilter/v1/settings'], ['GET', '/spamfilter/v1/stats'],
      ['GET', '/spamfilter/v1/stats/all'], ['POST', '/spamfilter/v1/alert'], ['POST', '/spamfilter/v1/webhook'],
      ['GET', '/contact-form/v1/contact-forms'], ['POST', '/contact-form/v1/contact-forms'], ['POST', `/contact-form/v1/contact-forms/${formId}`],
      ['POST', `/contact-form/v1/contact-forms/${formId}/feedback`], ['POST', '/mailinglist/v1/form'],
    ];
    const failures: string[] = [];
    for (const [method, path] of routes) {
      for (const value of ODD) {
        const body = Object.fromEntries(FIELDS.map((f) => [f, value]));
        if (path.endsWith('/webhook')) Object.assign(body, { key: 'abcdefabcdef', endpoint: 'comment-check', comments: [value, { guid: value, result: value }] });
        for (const as of [null, t.admin]) {
          const query = method === 'GET' || method === 'DELETE' ? { query: Object.fromEntries(FIELDS.map((f) => [f, typeof value === 'string' ? value : JSON.stringify(value)])) } : {};
          const json = await t.request(method, path, { as, ...(method === 'GET' || method === 'DELETE' ? query : { json: body }) });
          if (json.status >= 500) failures.push(`${method} ${path} json ${JSON.stringify(value).slice(0, 30)} → ${json.status} ${json.text.slice(0, 120)}`);
          if (method === 'POST') {
            const flat = Object.fromEntries(FIELDS.map((f) => [f, typeof value === 'string' ? value : JSON.stringify(value)]));
            const form = await t.request(method, path, { as, form: flat, headers: { 'x-forwarded-for': `10.9.${ODD.indexOf(value)}.${as ? 1 : 2}` } });
            if (form.status >= 500) failures.push(`${method} ${path} form ${JSON.stringify(value).slice(0, 30)} → ${form.status} ${form.text.slice(0, 120)}`);
            const parts = Object.fromEntries(FIELDS.map((f) => [f, Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value : JSON.stringify(value)]));
            const multi = await postMultipart(t, path, parts, { 'x-forwarded-for': `10.8.${ODD.indexOf(value)}.${as ? 1 : 2}`, ...(as ? { authorization: as.authorization } : {}) });
            if (multi.status >= 500) failures.push(`${method} ${path} multipart ${JSON.stringify(value).slice(0, 30)} → ${multi.status} ${multi.text.slice(0, 120)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);
});
