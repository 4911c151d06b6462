/**
 * @module admin/dashboard.page
 * `index.php`: who is signed in, their application passwords, and the sign-out link; and
 * `admin-ajax.php?action=rest-nonce`, where api-fetch renews its `X-WP-Nonce`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { listApplicationPasswords } from '../auth/app-passwords.js';
import { REST_NONCE_ACTION } from '../auth/authenticator.js';
import { createNonce } from '../auth/nonces.js';
import { esc, layout, PAGE_HEADERS, redirect, requestParams, sendPage, str } from './html.js';
import { logoutUrl } from './login.page.js';
import { editableTypes } from './posts.page.js';
import { adminUrl, pageSession, sessionSubject, signInUrlFor, siteName } from './session.js';

function when(gmt: string | null): string {
  return gmt ? `${gmt} UTC` : '—';
}

/** GET `index.php` (and the admin root). */
export async function showDashboard(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const session = await pageSession(ctx, request);
  if (!session) return redirect(reply, signInUrlFor(ctx, request));
  const user = session.user;
  const items = await listApplicationPasswords(ctx, user.id);
  const rows = items
    .map((i) => `<tr><td>${esc(i.name)}</td><td>${esc(when(i.created))}</td><td>${esc(when(i.lastUsed))}</td><td>${esc(i.lastIp ?? '—')}</td></tr>`)
    .join('');
  const table = items.length
    ? `<table><caption class="screen-reader-text">Application passwords</caption><thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Last IP</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p>You have no application passwords yet.</p>';
  const screens = [
    ...editableTypes(ctx, user).map((def) => [def.label, adminUrl(ctx, 'edit.php', { post_type: def.type })]),
    ...ctx.areas.contributions('adminScreens').filter((s) => user.can(s.capability)).map((s) => [s.title, adminUrl(ctx, 'admin.php', { page: s.page })]),
  ];
  const notices = (await Promise.all(ctx.areas.contributions('dashboardNotice').map((n) => n(ctx, user)))).filter(Boolean).join('\n');
  const body = `${notices}<p>Signed in as <strong>${esc(user.displayName)}</strong> (${esc(user.login)}).</p>
${screens.length ? `<nav aria-label="Screens"><ul>${screens.map(([label, url]) => `<li><a href="${esc(url)}">${esc(label)}</a></li>`).join('')}</ul></nav>` : ''}
<h2>Application passwords</h2>
${table}
<p><a href="${esc(adminUrl(ctx, 'authorize-application.php'))}">Create an application password</a></p>
<p><a href="${esc(await logoutUrl(ctx, sessionSubject(session)))}">Log out</a></p>`;
  return sendPage(reply, 200, layout('Dashboard', await siteName(ctx), body));
}

/** GET/POST `admin-ajax.php`: only `action=rest-nonce` (signed in) is served; anything else is `0` / 400. */
export async function adminAjax(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { all } = requestParams(request);
  const session = str(all.action) === 'rest-nonce' ? await pageSession(ctx, request) : null;
  reply.headers({ ...PAGE_HEADERS, 'Content-Type': 'text/html; charset=UTF-8' });
  if (!session) return reply.code(400).send('0');
  return reply.code(200).send(await createNonce(ctx, sessionSubject(session), REST_NONCE_ACTION));
}
