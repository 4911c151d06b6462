/**
 * @module admin/html
 * Building blocks of the server-rendered admin pages: escaping (everything dynamic goes through
 * {@link esc}), one small accessible layout, the `wp_die`-style error page, and the response headers
 * every admin page carries (no caching, no framing, no scripts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** HTML-escapes text for element content and quoted attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Headers of every admin page. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=UTF-8',
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // No form-action: approving an application redirects the form submission to the app's own URL.
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
});

const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2327;background:#f0f0f1;margin:0}
main{max-width:34rem;margin:3rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #c3c4c7;border-radius:4px}
h1{font-size:1.5rem;margin-top:0}h2{font-size:1.15rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input[type=text],input[type=password]{box-sizing:border-box;width:100%;padding:.5rem;font-size:1rem;border:1px solid #8c8f94;border-radius:4px}
input[type=checkbox]+label{display:inline;font-weight:400;margin-left:.35rem}
button{font-size:1rem;padding:.5rem 1rem;border-radius:4px;border:1px solid #2271b1;background:#2271b1;color:#fff;cursor:pointer}
button.secondary{background:#f6f7f7;color:#2271b1}
:focus-visible{outline:2px solid #043959;outline-offset:2px}
.notice{border-left:4px solid #72aee6;background:#f6f7f7;padding:.5rem 1rem;margin:1rem 0}
.notice-error{border-color:#d63638}.notice-success{border-color:#00a32a}
kbd,code{font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
.screen-reader-text{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem;border-bottom:1px solid #dcdcde}
`;

/** A whole page: `bodyHtml` must already be escaped markup. */
export function layout(title: string, siteName: string, bodyHtml: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${esc(title)} &lsaquo; ${esc(siteName)}</title>
<style>${STYLE}</style>
</head>
<body>
<main id="main">
<h1>${esc(title)}</h1>
${bodyHtml}
</main>
</body>
</html>
`;
}

/** Sends an HTML page with the admin headers. */
export function sendPage(reply: FastifyReply, status: number, html: string, headers: Record<string, string | string[]> = {}): FastifyReply {
  reply.code(status).headers({ ...PAGE_HEADERS });
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.send(html);
}

/** A notice box; `messageHtml` must already be escaped markup. */
export function notice(kind: 'error' | 'success' | 'info', messageHtml: string): string {
  const role = kind === 'error' ? 'alert' : 'status';
  return `<div class="notice notice-${kind}" role="${role}"><p>${messageHtml}</p></div>`;
}

/** The `wp_die` page: a title, a message and an optional link back. */
export function diePage(title: string, siteName: string, message: string, link?: { text: string; url: string }): string {
  const back = link ? `<p><a href="${esc(link.url)}">${esc(link.text)}</a></p>` : '';
  return layout(title, siteName, `<div class="wp-die-message"><p>${esc(message)}</p></div>${back}`);
}

/** A redirect; `location` must already be a safe absolute URL (see `redirects.ts`). */
export function redirect(reply: FastifyReply, location: string, headers: Record<string, string | string[]> = {}): FastifyReply {
  reply.code(302).header('Location', location).header('Cache-Control', PAGE_HEADERS['Cache-Control']!);
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.send('');
}

/** A single string parameter (arrays and objects from PHP-style parsing count as absent). */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The request's parameters as `$_REQUEST`: form fields over query parameters. */
export function requestParams(request: FastifyRequest): { query: Record<string, unknown>; form: Record<string, string>; all: Record<string, unknown> } {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const form: Record<string, string> = {};
  const type = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (request.method === 'POST' && typeof request.body === 'string' && type === 'application/x-www-form-urlencoded') {
    for (const [k, v] of new URLSearchParams(request.body)) if (k !== '__proto__') form[k] = v;
  }
  return { query, form, all: { ...query, ...form } };
}
