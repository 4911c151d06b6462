/**
 * @module namespaces/mailing-list/pages
 * Public pages of the local list: `/mailinglist/confirm` (double opt-in) and `/mailinglist/unsubscribe`,
 * both with signed links; and the admin page `mailinglist.php` (manage_options): sign-up forms, a new
 * form with its settings, the list service API key, "Renew lists" (the lists' merge fields and
 * interests are read afresh), and the subscribers as CSV (`?export=csv[&list=ID]`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { diePage, esc, layout, notice, redirect, requestParams, sendPage, str } from '../../admin/html.js';
import { adminUrl, pageSession, sessionSubject, signInUrlFor, siteName } from '../../admin/session.js';
import { createNonce, verifyNonce } from '../../auth/nonces.js';
import { createSignupForm, listSignupForms, parseTags } from './forms.repo.js';
import { forgetListFacts } from './list-facts.js';
import { exportCsv, linkFor, setLocalStatus, verifyLink } from './local-list.js';
import { API_KEY_OPTION } from './subscribe.service.js';

export const ADMIN_PAGE = 'mailinglist.php';
const NONCE_ACTION = 'mailinglist-admin';

async function memberPage(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, action: 'confirm' | 'unsubscribe'): Promise<FastifyReply> {
  const q = request.query as Record<string, unknown>;
  const list = str(q.list) ?? '';
  const email = str(q.email) ?? '';
  const site = await siteName(ctx);
  if (!list || !email || !(await verifyLink(ctx, action, list, email, q.sig))) {
    return sendPage(reply, 403, diePage('Link not valid', site, 'This link is not valid. Please use the link from the e-mail you received.'));
  }
  if (action === 'confirm') {
    const done = await setLocalStatus(ctx, list, email, 'subscribed', ['pending']);
    const unsubscribe = await linkFor(ctx, 'unsubscribe', list, email);
    const text = done ? 'Thank you, your subscription is confirmed.' : 'This subscription needs no confirmation (already confirmed or ended).';
    return sendPage(reply, 200, layout('Subscription', site, `${notice(done ? 'success' : 'info', esc(text))}<p><a href="${esc(unsubscribe)}">Unsubscribe</a></p>`));
  }
  // GET shows the button; POST does it (mail scanners follow links, they do not submit forms).
  if (request.method === 'GET') {
    const self = esc(`${ctx.urls.home}/mailinglist/unsubscribe?${new URLSearchParams({ list, email, sig: String(q.sig) }).toString()}`);
    return sendPage(reply, 200, layout('Unsubscribe', site, `<p>Stop e-mail to ${esc(email)}?</p><form method="post" action="${self}"><button type="submit">Unsubscribe</button></form>`));
  }
  const done = await setLocalStatus(ctx, list, email, 'unsubscribed', ['pending', 'subscribed']);
  return sendPage(reply, 200, layout('Unsubscribe', site, notice('success', done ? 'You were successfully unsubscribed.' : 'Given email address is not subscribed.')));
}

async function adminPage(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const session = await pageSession(ctx, request);
  if (!session) return redirect(reply, signInUrlFor(ctx, request));
  const site = await siteName(ctx);
  if (!session.user.can('manage_options')) return sendPage(reply, 403, diePage('Mailing list', site, 'Sorry, you are not allowed to access this page.'));
  const { all, form } = requestParams(request);
  if (str(all.export) === 'csv') {
    const list = str(all.list);
    return reply
      .code(200)
      .headers({ 'Content-Type': 'text/csv; charset=UTF-8', 'Content-Disposition': 'attachment; filename="subscribers.csv"', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' })
      .send(await exportCsv(ctx, list || undefined));
  }
  let flash = '';
  if (request.method === 'POST') {
    if (!(await verifyNonce(ctx, sessionSubject(session), NONCE_ACTION, form._wpnonce))) {
      return sendPage(reply, 403, diePage('Mailing list', site, 'The link you followed has expired.'));
    }
    if (form.do === 'api-key') {
      await ctx.options.set(API_KEY_OPTION, (form.api_key ?? '').trim().slice(0, 100));
      flash = notice('success', 'API key saved.');
    } else if (form.do === 'create') {
      const lists = (form.lists ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (!form.name?.trim() || lists.length === 0) flash = notice('error', 'A form needs a name and at least one list.');
      else {
        const created = await createSignupForm(
          ctx,
          {
            title: form.name,
            lists,
            doubleOptin: form.double_optin === '1',
            updateExisting: form.update_existing === '1',
            replaceInterests: form.replace_interests === '1',
            subscriberTags: parseTags(form.subscriber_tags ?? ''),
            removeSubscriberTags: parseTags(form.remove_subscriber_tags ?? ''),
            redirect: (form.redirect ?? '').trim().slice(0, 2000),
          },
          session.user.id,
        );
        flash = notice('success', `Form ${created.id} created.`);
      }
    } else if (form.do === 'renew-lists') {
      await forgetListFacts(ctx);
      flash = notice('success', 'Lists renewed: their fields and interests are read again at the next sign-up.');
    }
  }
  const nonce = esc(await createNonce(ctx, sessionSubject(session), NONCE_ACTION));
  const action = esc(adminUrl(ctx, ADMIN_PAGE));
  const forms = await listSignupForms(ctx);
  const yes = (on: boolean) => (on ? 'yes' : 'no');
  const rows = forms
    .map(
      (f) =>
        `<tr><td>${f.id}</td><td>${esc(f.title)}</td><td>${esc(f.lists.join(', '))}</td><td>${yes(f.doubleOptin)}</td><td>${yes(f.updateExisting)}</td><td>${yes(f.replaceInterests)}</td><td>${esc([...f.subscriberTags, ...f.removeSubscriberTags.map((t) => `−${t}`)].join(', '))}</td><td>${esc(f.redirect)}</td></tr>`,
    )
    .join('');
  const hasKey = Boolean(await ctx.options.get<unknown>(API_KEY_OPTION, ''));
  const body = `${flash}
<h2>Sign-up forms</h2>
${rows ? `<table><thead><tr><th scope="col">ID</th><th scope="col">Name</th><th scope="col">Lists</th><th scope="col">Double opt-in</th><th scope="col">Update existing</th><th scope="col">Replace interests</th><th scope="col">Tags</th><th scope="col">Redirect</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No sign-up forms yet.</p>'}
<form method="post" action="${action}"><input type="hidden" name="_wpnonce" value="${nonce}"><input type="hidden" name="do" value="create">
<p><label>Name <input name="name" required></label></p><p><label>Lists (comma-separated ids) <input name="lists" required></label></p>
<p><label><input type="checkbox" name="double_optin" value="1" checked> Double opt-in</label> <label><input type="checkbox" name="update_existing" value="1"> Update existing subscribers</label> <label><input type="checkbox" name="replace_interests" value="1" checked> Replace interest groups (when updating)</label></p>
<p><label>Tags to add (comma-separated) <input name="subscriber_tags"></label> <label>Tags to remove <input name="remove_subscriber_tags"></label></p>
<p><label>Redirect to URL after a successful sign-up <input name="redirect" type="url"></label></p>
<p><button type="submit">Create form</button></p></form>
<h2>List service</h2>
<p>${ctx.config.remotes.mailinglist ? `Remote list service: ${esc(ctx.config.remotes.mailinglist)}` : 'No remote list service configured: subscribers are kept on this site.'} API key: ${hasKey ? 'set' : 'not set'}.</p>
<form method="post" action="${action}"><input type="hidden" name="_wpnonce" value="${nonce}"><input type="hidden" name="do" value="api-key">
<p><label>API key <input name="api_key" type="password" autocomplete="off"></label> <button type="submit">Save key</button></p></form>
<form method="post" action="${action}"><input type="hidden" name="_wpnonce" value="${nonce}"><input type="hidden" name="do" value="renew-lists">
<p><button type="submit">Renew lists</button> (read the lists' merge fields and interest groups again)</p></form>
<h2>Subscribers</h2><p><a href="${esc(adminUrl(ctx, ADMIN_PAGE, { export: 'csv' }))}">Export subscribers as CSV</a></p>`;
  return sendPage(reply, 200, layout('Mailing list', site, body));
}

export function registerMailinglistPages(app: FastifyInstance, ctx: AppContext): void {
  app.get('/mailinglist/confirm', (req, reply) => memberPage(ctx, req, reply, 'confirm'));
  app.route({ method: ['GET', 'POST'], url: '/mailinglist/unsubscribe', handler: (req, reply) => memberPage(ctx, req, reply, 'unsubscribe') });
  app.route({ method: ['GET', 'POST'], url: `${ctx.config.adminPath}/${ADMIN_PAGE}`, handler: (req, reply) => adminPage(ctx, req, reply) });
}
