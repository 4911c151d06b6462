/**
 * @module admin/posts.page
 * The posts screens the API links to: `edit.php?post_type=…` (the posts of a type, by status, term
 * and whatever filters areas contribute, such as the SEO area's `seo_filter`) and
 * `post.php?post=N&action=edit` (one post; the core types `post` and `page` are edited here, the
 * areas' types through their own routes). Only public types have these screens (`show_ui`): tickets,
 * attendees, orders and forms are the areas' own business, and attendee titles are buyers' names.
 * Capabilities as WordPress maps them: `edit_<type>s` to list, `edit_others_<type>s` for others'
 * unpublished posts, `read_private_<type>s` for private ones.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { SiteUser } from '../auth/users.js';
import { createNonce, verifyNonce } from '../auth/nonces.js';
import { CORE_POST_TYPES, type PostTypeDef } from '../content/post-types.js';
import { ANY_STATUSES, getPost, postDatePair, siteTimeZone, type PostRecord } from '../content/posts.js';
import { ksesPost, ksesTitle } from '../content/kses.js';
import { pathSlug } from '../content/slugs.js';
import { diePage, esc, layout, notice, redirect, requestParams, sendPage, str } from './html.js';
import { adminUrl, pageSession, sessionSubject, signInUrlFor, siteName } from './session.js';

/** A list filter an area adds to `edit.php` (`seo_filter=good`). */
export interface PostListFilter {
  /** The query parameter. */
  param: string;
  /** How the list's heading names it (`SEO score`). */
  label: string;
  /** The condition a value puts on the posts row `p`; undefined for a value that means nothing (ignored). */
  condition(value: string): ((eb: ExpressionBuilder<any, any>) => Expression<SqlBool>) | undefined;
}

declare module '../area.js' {
  interface ExtensionPoints {
    postListFilters: PostListFilter;
  }
}

const PER_PAGE = 20;
/** Query variables naming a term of a taxonomy, as WordPress's rewrite tags. */
const TERM_QUERY_VARS: Readonly<Record<string, string>> = Object.freeze({ tribe_events_cat: 'tribe_events_cat', tag: 'post_tag', post_tag: 'post_tag' });
const EDITABLE_TYPES = new Set(CORE_POST_TYPES.map((d) => d.type));
const NONCE_ACTION = (id: number) => `update-post_${id}`;

/** `edit_posts`, `edit_pages`, `edit_others_tribe_events`, … of a type. */
function capOf(def: PostTypeDef, primitive: 'edit' | 'edit_others' | 'read_private' | 'publish'): string {
  return `${primitive}_${def.capabilityType ?? (def.type === 'page' ? 'page' : 'post')}s`;
}

/** The types with posts screens (WordPress's `show_ui`). */
function screenType(ctx: AppContext, type: string): PostTypeDef | undefined {
  const def = ctx.areas.postTypes.get(type);
  return def?.public ? def : undefined;
}

/** The post types whose lists `user` may open (`edit.php?post_type=…`). */
export function editableTypes(ctx: AppContext, user: SiteUser): PostTypeDef[] {
  return ctx.areas.postTypes.all().filter((def) => def.public && user.can(capOf(def, 'edit')));
}

/** `map_meta_cap('edit_post')`: the post's author needs the type's edit capability, others `edit_others_*` too. */
function canEdit(user: SiteUser, def: PostTypeDef, post: PostRecord): boolean {
  if (!user.can(capOf(def, 'edit'))) return false;
  if (post.author !== user.id && !user.can(capOf(def, 'edit_others'))) return false;
  return post.status !== 'private' || post.author === user.id || user.can(capOf(def, 'read_private'));
}

async function signedIn(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const session = await pageSession(ctx, request);
  if (!session) {
    redirect(reply, signInUrlFor(ctx, request));
    return undefined;
  }
  return session;
}

/** GET `edit.php`. */
export async function listPosts(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const session = await signedIn(ctx, request, reply);
  if (!session) return reply;
  const site = await siteName(ctx);
  const { query } = requestParams(request);
  const type = str(query.post_type) ?? 'post';
  // CASE: WordPress answers an unknown type with a 500 wp_die; it is the client's mistake.
  if (!ctx.areas.postTypes.get(type)) return sendPage(reply, 400, diePage('Error', site, 'Invalid post type.'));
  const def = screenType(ctx, type);
  const user = session.user;
  if (!def || !user.can(capOf(def, 'edit'))) return sendPage(reply, 403, diePage('Error', site, 'Sorry, you are not allowed to edit posts in this post type.'));

  const asked = str(query.post_status);
  const statuses: string[] = asked && (ANY_STATUSES as readonly string[]).includes(asked) ? [asked] : [...ANY_STATUSES];
  const notes: string[] = [];
  let q = ctx.db.selectFrom('posts as p').where('p.type', '=', type).where('p.status', 'in', statuses);
  if (!user.can(capOf(def, 'edit_others'))) q = q.where((eb) => eb.or([eb('p.author', '=', user.id), eb('p.status', '=', 'publish')]));
  if (!user.can(capOf(def, 'read_private'))) q = q.where((eb) => eb.or([eb('p.author', '=', user.id), eb('p.status', '!=', 'private')]));
  const author = str(query.author);
  if (author && /^[1-9]\d{0,9}$/.test(author)) {
    notes.push(`Author: ${author}`);
    q = q.where('p.author', '=', Number(author));
  }
  for (const [name, taxonomy] of Object.entries(TERM_QUERY_VARS)) {
    const value = str(query[name]);
    if (!value) continue;
    const slug = pathSlug(value);
    notes.push(`${taxonomy === 'post_tag' ? 'Tag' : 'Category'}: ${slug}`);
    q = q.where((eb) =>
      eb.exists(eb.selectFrom('term_relationships as tr').innerJoin('terms as t', 't.id', 'tr.term_id').select('tr.post_id').whereRef('tr.post_id', '=', 'p.id').where('t.taxonomy', '=', taxonomy).where('t.slug', '=', slug)),
    );
  }
  for (const filter of ctx.areas.contributions('postListFilters')) {
    const value = str(query[filter.param]);
    const condition = value ? filter.condition(value) : undefined;
    if (!condition) continue;
    notes.push(`${filter.label}: ${value}`);
    q = q.where(condition);
  }
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const paged = Math.min(Math.max(1, Math.trunc(Number(str(query.paged) ?? 1)) || 1), pages);
  const rows = await q
    .select(['p.id', 'p.title', 'p.status', 'p.slug', 'p.type', 'p.date'])
    .orderBy('p.date', 'desc')
    .orderBy('p.id', 'desc')
    .limit(PER_PAGE)
    .offset((paged - 1) * PER_PAGE)
    .execute();

  const items = rows
    .map((r) => {
      const id = Number(r.id);
      const edit = adminUrl(ctx, 'post.php', { post: String(id), action: 'edit' });
      const view = r.status === 'publish' ? ` <a href="${esc(ctx.urls.permalink({ id, type: r.type, slug: r.slug }))}">View</a>` : '';
      return `<tr><td><a href="${esc(edit)}">${esc(r.title || '(no title)')}</a>${view}</td><td>${esc(r.status)}</td><td>${esc(r.date)}</td></tr>`;
    })
    .join('');
  const pageLink = (n: number, text: string) => {
    const params = Object.fromEntries(Object.entries(query).flatMap(([k, v]) => (typeof v === 'string' && k !== 'paged' ? [[k, v]] : [])));
    return `<a href="${esc(adminUrl(ctx, 'edit.php', { ...params, paged: String(n) }))}">${text}</a>`;
  };
  const nav = pages > 1 ? `<p>Page ${paged} of ${pages} ${paged > 1 ? pageLink(paged - 1, '‹ Previous') : ''} ${paged < pages ? pageLink(paged + 1, 'Next ›') : ''}</p>` : '';
  const body = `${notes.length ? `<p>${esc(notes.join(' · '))}</p>` : ''}
<p>${total} ${total === 1 ? 'item' : 'items'}</p>
${rows.length ? `<table><thead><tr><th scope="col">Title</th><th scope="col">Status</th><th scope="col">Date</th></tr></thead><tbody>${items}</tbody></table>` : '<p>No posts found.</p>'}
${nav}`;
  return sendPage(reply, 200, layout(def.label, site, body));
}

/** GET/POST `post.php?post=N&action=edit`. */
export async function editPost(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const session = await signedIn(ctx, request, reply);
  if (!session) return reply;
  const site = await siteName(ctx);
  const { all, form } = requestParams(request);
  const id = Number(str(all.post) ?? NaN);
  const post = Number.isSafeInteger(id) && id > 0 ? await getPost(ctx.db, id) : undefined;
  const def = post ? screenType(ctx, post.type) : undefined;
  if (!post || !def || post.status === 'trash') return sendPage(reply, 404, diePage('Error', site, 'You attempted to edit an item that does not exist. Perhaps it was deleted?'));
  const user = session.user;
  if (!canEdit(user, def, post)) return sendPage(reply, 403, diePage('Error', site, 'Sorry, you are not allowed to edit this item.'));
  const editable = EDITABLE_TYPES.has(post.type);
  const subject = sessionSubject(session);

  let flash = '';
  if (request.method === 'POST') {
    if (!editable) return sendPage(reply, 405, diePage('Error', site, `${def.label} are edited through their own screens and routes.`));
    if (!(await verifyNonce(ctx, subject, NONCE_ACTION(id), form._wpnonce))) return sendPage(reply, 403, diePage('Error', site, 'The link you followed has expired.'));
    const status = form.status === 'publish' && !user.can(capOf(def, 'publish')) ? 'pending' : form.status;
    if (!['publish', 'draft', 'pending', 'private'].includes(status ?? '')) {
      flash = notice('error', 'Choose a status.');
    } else {
      const when = postDatePair(ctx.now(), await siteTimeZone(ctx.options));
      // As `kses_init_filters` on save: markup is filtered for users who may not post unfiltered HTML.
      const trusted = user.can('unfiltered_html');
      const title = (form.post_title ?? '').slice(0, 10_000);
      const content = (form.content ?? '').slice(0, 1_000_000);
      await ctx.db
        .updateTable('posts')
        .set({ title: trusted ? title : ksesTitle(title), content: trusted ? content : ksesPost(content), status: status!, modified: when.local, modified_gmt: when.gmt })
        .where('id', '=', id)
        .execute();
      return redirect(reply, adminUrl(ctx, 'post.php', { post: String(id), action: 'edit', message: '1' }));
    }
  }
  if (str(all.message) === '1') flash = notice('success', 'Post updated.');
  const view = post.status === 'publish' ? `<p><a href="${esc(ctx.urls.permalink({ id, type: post.type, slug: post.slug }))}">View ${esc(def.label.replace(/s$/, '').toLowerCase())}</a></p>` : '';
  const list = `<p><a href="${esc(adminUrl(ctx, 'edit.php', { post_type: post.type }))}">All ${esc(def.label.toLowerCase())}</a></p>`;
  const details = `<table><tbody>
<tr><th scope="row">Type</th><td>${esc(def.label)}</td></tr>
<tr><th scope="row">Status</th><td>${esc(post.status)}</td></tr>
<tr><th scope="row">Slug</th><td><code>${esc(post.slug)}</code></td></tr>
<tr><th scope="row">Published</th><td>${esc(post.date)}</td></tr>
<tr><th scope="row">Last modified</th><td>${esc(post.modified)}</td></tr>
</tbody></table>`;
  if (!editable) {
    const body = `${flash}<h2>${esc(post.title || '(no title)')}</h2>${details}${view}${list}`;
    return sendPage(reply, 200, layout(`Edit ${def.label.replace(/s$/, '')}`, site, body));
  }
  const action = esc(adminUrl(ctx, 'post.php', { post: String(id), action: 'edit' }));
  const statusOptions = ['publish', 'draft', 'pending', 'private']
    .map((s) => `<option value="${s}"${s === post.status ? ' selected' : ''}>${s}</option>`)
    .join('');
  const body = `${flash}
<form method="post" action="${action}">
<input type="hidden" name="_wpnonce" value="${esc(await createNonce(ctx, subject, NONCE_ACTION(id)))}">
<p><label for="post_title">Title</label><input type="text" id="post_title" name="post_title" value="${esc(post.title)}"></p>
<p><label for="content">Content</label><textarea id="content" name="content" rows="12" style="width:100%;box-sizing:border-box">${esc(post.content)}</textarea></p>
<p><label for="status">Status</label><select id="status" name="status">${statusOptions}</select></p>
<p><button type="submit">Update</button></p>
</form>
${details}${view}${list}`;
  return sendPage(reply, 200, layout(`Edit ${def.label.replace(/s$/, '')}`, site, body));
}
