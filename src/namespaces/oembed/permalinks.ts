/**
 * @module namespaces/oembed/permalinks
 * Public URLs of the site's own posts and the reverse lookup (WordPress's `get_permalink` and
 * `url_to_postid`), restricted to what may be embedded: published posts of an embeddable type
 * (`is_post_publicly_viewable`, `is_post_embeddable`). Password-protected posts are embedded too, as
 * WordPress embeds them, with their text hidden (`post-text.ts`).
 *
 * @example
 * permalinkFor(ctx, { type: 'tribe_events', slug: 'spring-gala', id: 12 }); // 'https://example.test/event/spring-gala/'
 * await resolvePermalink(ctx, 'https://example.test/event/spring-gala/');  // the posts row, or undefined
 */
import type { AppContext } from '../../app-context.js';
import { pathSegment, type PermalinkTarget } from '../../config.js';
import type { PostTypes } from '../../content/post-types.js';
import { isPostId, type PostRecord } from '../../content/posts.js';
import { pathSlug } from '../../content/slugs.js';

export type { PermalinkTarget };

/** A post row as stored in `posts`. */
export type PostRow = PostRecord;

/**
 * The public URL of a post: `${home}/<type-base>/<slug>/` for types with a URL base, `${home}/?p=<id>`
 * for every other type (WordPress's plain permalink).
 */
export function permalinkFor(ctx: Pick<AppContext, 'urls'>, post: PermalinkTarget): string {
  return ctx.urls.permalink({ id: post.id, type: post.type, slug: post.slug });
}

/** The author archive URL of a user (`get_author_posts_url`). */
export function authorArchiveUrl(ctx: Pick<AppContext, 'urls'>, nicename: string): string {
  return `${ctx.urls.home}/author/${pathSegment(nicename)}/`;
}

/** What a URL of this site names, before looking at the database; `front` is the home URL itself. */
export type PermalinkQuery = { kind: 'id'; id: number } | { kind: 'slug'; type: string; slug: string } | { kind: 'front' };

function comparableHost(host: string): string {
  const h = host.toLowerCase();
  return h.startsWith('www.') ? h.slice(4) : h;
}

/**
 * Parses a URL of this site into what it names: `?p=<id>` / `?page_id=<id>`, `?<post_type>=<slug>`,
 * `/<type-base>/<slug>/` (an `embed/` suffix is accepted, as the original's rewrite rules do), or
 * the home URL (the static front page, when there is one).
 * The scheme may differ from the home URL's and a `www.` prefix is ignored, as `url_to_postid` does.
 */
export function parsePermalink(home: string, types: PostTypes, raw: string): PermalinkQuery | undefined {
  let url: URL;
  let homeUrl: URL;
  try {
    url = new URL(raw);
    homeUrl = new URL(home);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // CASE: url_to_postid honours `?p=` on any host; we only resolve URLs of this site.
  if (comparableHost(url.host) !== comparableHost(homeUrl.host)) return undefined;
  const homePath = homeUrl.pathname.replace(/\/+$/, '');
  if (homePath !== '' && url.pathname !== homePath && !url.pathname.startsWith(`${homePath}/`)) return undefined;
  const path = url.pathname.slice(homePath.length);

  for (const name of ['p', 'page_id']) {
    const v = url.searchParams.get(name);
    if (v !== null && /^\d+$/.test(v) && isPostId(Number(v))) return { kind: 'id', id: Number(v) };
  }
  if (path === '' || path === '/') {
    // CASE: a custom type's query var is its name; the core types' are not (`?page=` is pagination).
    for (const { type } of types.embeddable().filter((d) => d.permalinkBase !== undefined)) {
      const v = url.searchParams.get(type);
      if (v) return { kind: 'slug', type, slug: pathSlug(v) };
    }
    return { kind: 'front' };
  }
  const m = /^\/([^/]+)\/([^/]+)\/?(?:embed\/?)?$/.exec(path);
  if (!m) return undefined;
  const def = types.byPermalinkBase(m[1]!.toLowerCase());
  if (def === undefined || !types.embeddable().includes(def)) return undefined;
  const type = def.type;
  const slug = pathSlug(m[2]!);
  return slug !== '' ? { kind: 'slug', type, slug } : undefined;
}

/** `page_on_front` while `show_on_front` is `page`, else undefined (the front page lists posts). */
async function frontPageId(ctx: Pick<AppContext, 'options'>): Promise<number | undefined> {
  if ((await ctx.options.get('show_on_front')) !== 'page') return undefined;
  const id = Number(await ctx.options.get('page_on_front'));
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * The embeddable post a URL of this site names, or undefined: the post must exist, be published and
 * be of an embeddable type; a password does not keep it from being embedded. The home URL names the
 * static front page.
 */
export async function resolvePermalink(ctx: Pick<AppContext, 'db' | 'urls' | 'areas' | 'options'>, url: string): Promise<PostRow | undefined> {
  const types = ctx.areas.postTypes;
  const target = parsePermalink(ctx.urls.home, types, url);
  if (!target) return undefined;
  const front = target.kind === 'front' ? await frontPageId(ctx) : undefined;
  if (target.kind === 'front' && front === undefined) return undefined;
  let query = ctx.db
    .selectFrom('posts')
    .selectAll()
    .where('status', '=', 'publish')
    .where('type', 'in', types.embeddable().map((d) => d.type));
  if (target.kind === 'front') query = query.where('id', '=', front!).where('type', '=', 'page');
  else if (target.kind === 'id') query = query.where('id', '=', target.id);
  else query = query.where('type', '=', target.type).where('slug', '=', target.slug);
  return query.orderBy('id').limit(1).executeTakeFirst();
}
