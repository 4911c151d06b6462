/**
 * @module http/post-pages
 * Public post pages outside the areas: the author archive (`/author/<nicename>/`, the `link` of a
 * user), listing the author's published posts of public types, and a single post of a type without
 * a URL base (`/?p=<id>`, `/?page_id=<id>`, the permalink such posts get). A post whose type has a
 * URL base is redirected there, as `redirect_canonical` does.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { esc } from '../admin/html.js';
import { isPostId, renderContent } from '../content/posts.js';
import { sendSitePage } from './site-page.js';

const PER_PAGE = 20;

function notFound(reply: FastifyReply): FastifyReply {
  reply.callNotFound();
  return reply;
}

async function page(ctx: AppContext, reply: FastifyReply, title: string, body: string, permalink?: string): Promise<FastifyReply> {
  return sendSitePage(ctx, reply, { title, body: `${body}\n<p><a href="${esc(ctx.urls.home)}/">« Home</a></p>`, permalink });
}

async function authorArchive(ctx: AppContext, request: FastifyRequest<{ Params: { nicename: string; n?: string } }>, reply: FastifyReply): Promise<FastifyReply> {
  const author = await ctx.db.selectFrom('users').select(['id', 'display_name']).where('nicename', '=', request.params.nicename).executeTakeFirst();
  const paged = request.params.n === undefined ? 1 : Number(request.params.n);
  if (!author || !Number.isSafeInteger(paged) || paged < 1) return notFound(reply);
  const types = ctx.areas.postTypes.publicTypes();
  const base = ctx.db.selectFrom('posts').where('author', '=', author.id).where('status', '=', 'publish').where('type', 'in', types).where('password', '=', '');
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  // CASE: WordPress keeps the first page of an author without posts (200) but 404s pages past the end.
  if (paged > 1 && (paged - 1) * PER_PAGE >= total) return notFound(reply);
  const rows = await base.select(['id', 'type', 'slug', 'title', 'date']).orderBy('date', 'desc').orderBy('id', 'desc').limit(PER_PAGE).offset((paged - 1) * PER_PAGE).execute();
  const items = rows.map((r) => `<li><a href="${esc(ctx.urls.permalink({ id: Number(r.id), type: r.type, slug: r.slug }))}">${esc(r.title || '(no title)')}</a> <time>${esc(r.date.slice(0, 10))}</time></li>`).join('\n');
  const archive = `${ctx.urls.home}/author/${encodeURIComponent(request.params.nicename)}/`;
  const more = paged * PER_PAGE < total ? `<p><a href="${esc(`${archive}page/${paged + 1}/`)}">Older posts ›</a></p>` : '';
  const newer = paged > 1 ? `<p><a href="${esc(paged === 2 ? archive : `${archive}page/${paged - 1}/`)}">‹ Newer posts</a></p>` : '';
  return page(ctx, reply, `${author.display_name} – ${String(await ctx.options.get('blogname'))}`, `<h1>${esc(author.display_name)}</h1>
${items ? `<ul>${items}</ul>` : '<p>No posts yet.</p>'}${newer}${more}`);
}

/**
 * `/?p=<id>` or `/?page_id=<id>`: the published post of a public type (redirected to its permalink
 * when its type has a URL base); undefined when the query names none, so the front page answers.
 */
export async function servePostById(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const q = request.query as Record<string, unknown>;
  const raw = typeof q.p === 'string' ? q.p : typeof q.page_id === 'string' ? q.page_id : undefined;
  if (raw === undefined) return undefined;
  const id = /^\d+$/.test(raw) ? Number(raw) : NaN;
  const post = isPostId(id)
    ? await ctx.db.selectFrom('posts').select(['id', 'type', 'slug', 'title', 'content', 'password']).where('id', '=', id).where('status', '=', 'publish').executeTakeFirst()
    : undefined;
  const def = post ? ctx.areas.postTypes.get(post.type) : undefined;
  if (!post || !def?.public) return notFound(reply);
  if (def.permalinkBase) return reply.code(301).header('Location', ctx.urls.permalink({ id: Number(post.id), type: post.type, slug: post.slug })).send('');
  const content = post.password ? '<p>This content is password protected.</p>' : renderContent(post.content);
  const permalink = ctx.urls.permalink({ id: Number(post.id), type: post.type, slug: post.slug });
  return page(ctx, reply, `${post.title} – ${String(await ctx.options.get('blogname'))}`, `<article><h1>${esc(post.title)}</h1>\n${content}</article>`, permalink);
}

/** Registers the author archive (`/?p=` is answered by the front page, see `home-page.ts`). */
export function registerPostPages(app: FastifyInstance, ctx: AppContext): void {
  for (const path of ['/author/:nicename/', '/author/:nicename', '/author/:nicename/page/:n/', '/author/:nicename/page/:n']) {
    app.get(path, (request: FastifyRequest<{ Params: { nicename: string; n?: string } }>, reply) => authorArchive(ctx, request, reply));
  }
}
