/**
 * @module admin/jobs.page
 * `jobs.php`: the background jobs queue for administrators (`manage_options`): counts by state, the
 * latest jobs (optionally of one state) with attempts and last error, and the recurring schedules.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { JOB_STATUSES, type JobStatus } from '../jobs/index.js';
import { diePage, esc, layout, redirect, requestParams, sendPage, str } from './html.js';
import { adminUrl, pageSession, signInUrlFor, siteName } from './session.js';

const SHOWN = 100;

/** GET `jobs.php[?status=queued|running|done|failed|cancelled]`. */
export async function showJobs(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const session = await pageSession(ctx, request);
  if (!session) return redirect(reply, signInUrlFor(ctx, request));
  const site = await siteName(ctx);
  if (!session.user.can('manage_options')) {
    return sendPage(reply, 403, diePage('Sorry, you are not allowed to access this page.', site, 'Sorry, you are not allowed to access this page.', { text: 'Dashboard', url: adminUrl(ctx) }));
  }
  const wanted = str(requestParams(request).query.status);
  const status = JOB_STATUSES.includes(wanted as JobStatus) ? (wanted as JobStatus) : undefined;
  const [counts, jobs, schedules] = await Promise.all([ctx.jobs.counts(), ctx.jobs.list({ ...(status ? { status } : {}), limit: SHOWN }), ctx.jobs.schedules()]);

  const filter = [
    `<a href="${esc(adminUrl(ctx, 'jobs.php'))}"${status ? '' : ' aria-current="page"'}>All</a>`,
    ...JOB_STATUSES.map((s) => `<a href="${esc(adminUrl(ctx, 'jobs.php', { status: s }))}"${status === s ? ' aria-current="page"' : ''}>${esc(s)} (${counts[s]})</a>`),
  ].join(' | ');
  const rows = jobs
    .map(
      (j) =>
        `<tr data-job="${j.id}"><td>${j.id}</td><td>${esc(j.kind)}</td><td class="status-${esc(j.status)}">${esc(j.status)}</td>` +
        `<td>${j.attempts}/${j.maxAttempts}</td><td>${esc(j.runAt)}</td><td>${esc(j.finished ?? '—')}</td><td>${esc(j.lastError ?? '')}</td></tr>`,
    )
    .join('');
  const table = jobs.length
    ? `<table><caption class="screen-reader-text">Jobs</caption><thead><tr><th scope="col">ID</th><th scope="col">Kind</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Run at (UTC)</th><th scope="col">Finished (UTC)</th><th scope="col">Last error</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p>No jobs.</p>';
  const scheduleRows = schedules
    .map((s) => `<tr><td>${esc(s.name)}</td><td>${esc(s.kind)}</td><td>${esc(s.every)}</td><td>${esc(s.nextRun)}</td><td>${esc(s.lastRun ?? '—')}</td></tr>`)
    .join('');
  const scheduleTable = schedules.length
    ? `<table><caption class="screen-reader-text">Schedules</caption><thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Every</th><th scope="col">Next run (UTC)</th><th scope="col">Last run (UTC)</th></tr></thead><tbody>${scheduleRows}</tbody></table>`
    : '<p>No schedules yet (the runner stores them when it starts).</p>';
  const body = `<nav aria-label="Job states"><p>${filter}</p></nav>
${table}
<p>The latest ${SHOWN} are shown. Retry or cancel with <code>eventsuite jobs retry|cancel ID</code>.</p>
<h2>Schedules</h2>
${scheduleTable}
<p><a href="${esc(adminUrl(ctx))}">Dashboard</a></p>`;
  return sendPage(reply, 200, layout('Background jobs', site, body));
}
