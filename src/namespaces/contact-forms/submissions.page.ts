/**
 * @module namespaces/contact-forms/submissions.page
 * Admin page `contact-form-submissions.php`: the forms, a form's stored submissions with their spam
 * verdict and, unless the spam filter's `spamfilter_show_user_comments_approved` is off, how many of
 * the sender's submissions are approved (not spam); marking one spam or not spam (which trains the
 * spam filter), and the CSV export (`&export=csv`). Signed-in users who may read contact forms
 * (`edit_posts`); marking needs `publish_pages` and a nonce.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { esc, layout, notice, redirect, requestParams, sendPage, str } from '../../admin/html.js';
import { adminUrl, pageSession, sessionSubject, signInUrlFor, siteName } from '../../admin/session.js';
import { createNonce, verifyNonce } from '../../auth/nonces.js';
import { count as formatCount } from '../../rest/php-values.js';
import { spamfilterService } from '../spamfilter/index.js';
import { getForm, listForms } from './forms.repo.js';
import { getSubmission, listSubmissions, type StoredSubmission } from './submissions.repo.js';

export const SUBMISSIONS_PAGE = 'contact-form-submissions.php';
const MARK_ACTION = 'wpcf7-mark-submission';

/** One CSV cell: quoted, and a leading formula character neutralised for spreadsheets. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

function csv(rows: StoredSubmission[], verdicts: Map<string, string>): string {
  const fieldNames = [...new Set(rows.flatMap((r) => Object.keys(r.fields)))];
  const head = ['id', 'date_gmt', 'status', 'spam', 'remote_ip', 'user_agent', ...fieldNames];
  const lines = [head.map(csvCell).join(',')];
  for (const r of rows) {
    const vals = fieldNames.map((n) => {
      const v = r.fields[n];
      return Array.isArray(v) ? v.join(', ') : (v ?? '');
    });
    lines.push([String(r.id), r.createdGmt, r.status, verdicts.get(r.spamGuid) ?? '', r.remoteIp, r.userAgent, ...vals].map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function page(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const session = await pageSession(ctx, request);
  if (!session) return redirect(reply, signInUrlFor(ctx, request));
  const site = await siteName(ctx);
  if (!session.user.can('edit_posts')) return sendPage(reply, 403, layout('Contact form submissions', site, notice('error', 'You are not allowed to access contact forms.')));
  const { all, form: posted } = requestParams(request);
  let flash = '';

  if (request.method === 'POST') {
    const id = Number(posted.submission);
    const label = posted.mark === 'spam' ? 'spam' : posted.mark === 'ham' ? 'ham' : undefined;
    if (!session.user.can('publish_pages') || !(await verifyNonce(ctx, sessionSubject(session), MARK_ACTION, posted._wpnonce))) {
      return sendPage(reply, 403, layout('Contact form submissions', site, notice('error', 'The link you followed has expired.')));
    }
    const sub = Number.isSafeInteger(id) ? await getSubmission(ctx, id) : undefined;
    if (!sub || !label || !sub.spamGuid) flash = notice('error', 'That submission cannot be marked.');
    else {
      await spamfilterService.markCheck(ctx, sub.spamGuid, label);
      flash = notice('success', label === 'spam' ? 'Marked as spam.' : 'Marked as not spam.');
    }
  }

  const formId = Number(str(all.form) ?? posted.form ?? 0);
  const form = Number.isSafeInteger(formId) && formId > 0 ? await getForm(ctx, formId) : undefined;
  if (!form) {
    const forms = await listForms(ctx, {});
    const items = forms.map((f) => `<li><a href="${esc(adminUrl(ctx, SUBMISSIONS_PAGE, { form: String(f.id) }))}">${esc(f.title)}</a></li>`).join('');
    return sendPage(reply, 200, layout('Contact form submissions', site, `${flash}<h2>Forms</h2>${items ? `<ul>${items}</ul>` : '<p>No contact forms yet.</p>'}`));
  }
  const rows = await listSubmissions(ctx, form.id);
  const verdicts = await spamfilterService.verdictsByGuid(ctx, rows.map((r) => r.spamGuid));
  if (str(all.export) === 'csv') {
    return reply
      .code(200)
      .headers({ 'Content-Type': 'text/csv; charset=UTF-8', 'Content-Disposition': `attachment; filename="contact-form-${form.id}-submissions.csv"`, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' })
      .send(csv(rows, verdicts));
  }
  const approved = (await spamfilterService.showApprovedCounts(ctx)) ? await spamfilterService.approvedCounts(ctx, rows.map((r) => r.spamGuid)) : undefined;
  const nonce = await createNonce(ctx, sessionSubject(session), MARK_ACTION);
  const action = esc(adminUrl(ctx, SUBMISSIONS_PAGE, { form: String(form.id) }));
  const markForm = (r: StoredSubmission, label: 'spam' | 'ham', text: string) =>
    `<form method="post" action="${action}" style="display:inline"><input type="hidden" name="_wpnonce" value="${esc(nonce)}"><input type="hidden" name="submission" value="${r.id}"><input type="hidden" name="mark" value="${label}"><button type="submit">${text}</button></form>`;
  const body = rows
    .map((r) => {
      const verdict = verdicts.get(r.spamGuid) ?? '';
      const fields = Object.entries(r.fields)
        .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(Array.isArray(v) ? v.join(', ') : v)}</dd>`)
        .join('');
      const marks = r.spamGuid ? `${verdict !== 'spam' ? markForm(r, 'spam', 'Spam') : ''}${verdict !== 'ham' ? markForm(r, 'ham', 'Not spam') : ''}` : '';
      const count = approved ? approved.get(r.spamGuid) ?? 0 : undefined;
      const sender = count === undefined ? '' : `<br><span class="approved-count">${formatCount(count)} approved</span>`;
      return `<tr><td>${esc(r.createdGmt)} UTC</td><td>${esc(r.status)}</td><td>${esc(verdict)}</td><td><dl>${fields}</dl></td><td>${esc(r.remoteIp)}${sender}</td><td>${marks}</td></tr>`;
    })
    .join('');
  const table = rows.length
    ? `<table><thead><tr><th scope="col">Date</th><th scope="col">Outcome</th><th scope="col">Spam check</th><th scope="col">Fields</th><th scope="col">Address</th><th scope="col">Mark</th></tr></thead><tbody>${body}</tbody></table>`
    : '<p>No submissions stored.</p>';
  const exportLink = `<p><a href="${esc(adminUrl(ctx, SUBMISSIONS_PAGE, { form: String(form.id), export: 'csv' }))}">Export as CSV</a></p>`;
  return sendPage(reply, 200, layout(`Submissions: ${form.title}`, site, `${flash}${exportLink}${table}`));
}

export function registerSubmissionPages(app: FastifyInstance, ctx: AppContext): void {
  app.route({ method: ['GET', 'POST'], url: `${ctx.config.adminPath}/${SUBMISSIONS_PAGE}`, handler: (req, reply) => page(ctx, req, reply) });
}
