/**
 * Contact-form benchmark (issue #15 item 4), in one run with the bare Node `http` baseline:
 * feedback submissions per second through the whole pipeline — multipart parsing, validation of
 * the default template's rules, the built-in spam classifier (tokenising and reading its counts),
 * mail to a local SMTP server, and the stored submission. Each request comes from its own client
 * address (`X-Forwarded-For` behind `TRUST_PROXY`), so the per-address limit does not turn the load
 * into 429s. Afterwards the mails received and submissions stored are compared with the 200s.
 *
 * The baseline answers the bytes of the form's `feedback/schema` (a fixed JSON of similar size; the
 * feedback answer itself is not a GET resource the bare server could copy).
 */
import type autocannon from 'autocannon';
import { startMailBox } from '../src/test-support/mailbox.js';
import { basicAuth, measure, report, requestJson, startServer, type Check } from './lib.js';

const NS = '/wp-json/contact-form/v1';

export async function run(): Promise<void> {
  const smtp = await startMailBox();
  const app = await startServer('app-server.ts', { SMTP_URL: `smtp://127.0.0.1:${smtp.port}?pool=true`, TRUST_PROXY: 'true' });
  const auth = basicAuth(/ADMIN (\S+)/.exec(app.output)?.[1] ?? '');
  let bare: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const form = await requestJson<{ id: number }>(`${app.url}${NS}/contact-forms`, { headers: auth, json: { title: 'Bench form', context: 'save' } });
    const id = form.body.id;
    const fd = new FormData();
    for (const [k, v] of Object.entries({
      _wpcf7: String(id), _wpcf7_unit_tag: `wpcf7-f${id}-p1-o1`, _wpcf7_version: '6.0', _wpcf7_locale: 'en_US',
      'your-name': 'Anna Meyer', 'your-email': 'anna@example.org', 'your-subject': 'Wheelchair access',
      'your-message': 'Hello, is the main hall step-free? We would come with two wheelchair users. Thanks!',
    })) fd.append(k, v);
    const encoded = new Request('http://x/', { method: 'POST', body: fd });
    const body = Buffer.from(await encoded.arrayBuffer()).toString('latin1');
    const type = encoded.headers.get('content-type')!;
    const feedbackUrl = `${app.url}${NS}/contact-forms/${id}/feedback`;
    let n = 0;
    const request: autocannon.Request = {
      method: 'POST',
      path: new URL(feedbackUrl).pathname,
      setupRequest: (req) => {
        n++;
        return { ...req, body, headers: { 'content-type': type, 'user-agent': 'Mozilla/5.0 (bench)', 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` } };
      },
    };
    bare = await startServer('bare-server.ts', { BARE_SOURCE_URLS: `${app.url}${NS}/contact-forms/${id}/feedback/schema` });
    const baseline = await measure({ name: 'bare node http (schema bytes)', url: `${bare.url}${NS}/contact-forms/${id}/feedback/schema` });
    const before = smtp.messages.length;
    const row = await measure({ name: 'POST feedback (validate + classifier + SMTP + store)', url: feedbackUrl, requests: [request], connections: 8 });
    await new Promise((r) => setTimeout(r, 500));
    const mails = smtp.messages.length - before;
    const checks: Check[] = [{ goal: 'every 200 sent its mail', measured: `${mails} mails for ${row.total - row.non2xx} answers`, met: mails >= row.total - row.non2xx - row.errors }];
    report('Contact form feedback', baseline, [row], {}, checks);
  } finally {
    await bare?.stop();
    await app.stop();
    await smtp.close();
  }
}
