/**
 * @module content/posts
 * Shared helpers of the post content model, used by every area that stores posts (events, venues,
 * organizers, tickets, attendees, orders…): slugs (WordPress `sanitize_title`, unique slugs per post
 * type), rendering (`wpautop` as `the_content` / `the_excerpt` apply it) and the post repository.
 * Dates live in `post-dates.ts` (zones, stored text) and `date-parse.ts` (the `strtotime`-like
 * parser); they are re-exported here for the areas' convenience.
 *
 * @example
 * const slug = await uniquePostSlug(db, 'tribe_events', 'Spring Fair'); // 'spring-fair' or 'spring-fair-2'
 */
import type { Expression, ExpressionBuilder, Selectable, SqlBool } from 'kysely';
import type { Db } from '../storage/db.js';
import type { PostsTable } from '../storage/tables/core.js';
import { startsWith } from '../storage/dialect.js';
import { MAX_SLUG_LENGTH, sanitizeTitle, truncateSlug } from './slugs.js';

export * from './post-dates.js';
export { firstOccurrence, parseDateTime } from './date-parse.js';

// ---------------------------------------------------------------------------------------------
// Slugs
// ---------------------------------------------------------------------------------------------

/**
 * The slugs {@link nextFreeSlug} may give for `base`: `base` itself and every candidate, which keeps
 * the whole base while a suffix (`-` and up to ten digits) fits, and otherwise cuts it (trailing
 * dashes dropped), so every candidate begins with the base's first `MAX_SLUG_LENGTH - 12` characters.
 */
export function slugFamily(eb: ExpressionBuilder<any, any>, base: string): Expression<SqlBool> {
  const prefix = base.length <= MAX_SLUG_LENGTH - 12 ? `${base.replace(/-+$/, '')}-` : truncateSlug(base, MAX_SLUG_LENGTH - 12);
  return eb.or([eb('slug', '=', base), startsWith(eb.ref('slug'), prefix)]);
}

/** A slug made unique by appending `-N`, as `wp_unique_post_slug` does; `taken` lists the used slugs. */
export function nextFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${truncateSlug(base, MAX_SLUG_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The slug a post of `type` gets: `desired` sanitised (the title's slug when empty, else the post ID
 * when even that is empty), made unique within the type. `excludeId` is the post being updated.
 */
export async function uniquePostSlug(db: Db, type: string, desired: string, excludeId?: number, fallback = 'post'): Promise<string> {
  const base = sanitizeTitle(desired) || sanitizeTitle(fallback) || 'post';
  let query = db
    .selectFrom('posts')
    .select('slug')
    .where('type', '=', type)
    .where((eb) => slugFamily(eb, base));
  if (excludeId !== undefined) query = query.where('id', '!=', excludeId);
  const rows = await query.execute();
  return nextFreeSlug(base, new Set(rows.map((r) => r.slug)));
}

/** An ID a post can have: a positive 32-bit integer (PostgreSQL refuses larger ones in a comparison). */
export function isPostId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0 && id <= 2 ** 31 - 1;
}

/** True for the unique-slug violation of `posts` (either engine). */
export function isSlugConflict(error: unknown): boolean {
  const e = error as { message?: string; code?: string; constraint?: string } | undefined;
  if (!e) return false;
  if (e.code === '23505' && (e.constraint === 'posts_type_slug' || /posts_type_slug/.test(e.message ?? ''))) return true;
  return /UNIQUE constraint failed: posts\.type, posts\.slug/.test(e.message ?? '');
}

/** Runs a write that generates slugs, retrying a few times when a concurrent writer took the slug. */
export async function withSlugRetry<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (attempt >= 4 || !isSlugConflict(e)) throw e;
    }
  }
}

/** What WordPress appends to the slug of a trashed post (here with `-N` when that slug was taken too). */
export const TRASHED_SUFFIX = '__trashed';
const TRASHED = /__trashed(?:-\d+)?$/;

/**
 * The slug a post gets when trashed (`wp_add_trashed_suffix_to_post_name_for_post`): its own with
 * `__trashed` appended, so new posts may take the slug while it waits in the trash.
 */
export async function trashedPostSlug(db: Db, type: string, id: number, slug: string): Promise<string> {
  if (TRASHED.test(slug)) return slug;
  return uniquePostSlug(db, type, `${truncateSlug(slug, 191)}${TRASHED_SUFFIX}`, id);
}

/** The slug of a post leaving the trash: its slug from before, or the next free one if it was taken meanwhile. */
export async function restoredPostSlug(db: Db, type: string, id: number, slug: string): Promise<string> {
  if (!TRASHED.test(slug)) return slug;
  return uniquePostSlug(db, type, slug.replace(TRASHED, ''), id);
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

const ALL_BLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)';

/**
 * WordPress `wpautop`: double line breaks become paragraphs, single ones `<br />` (outside block
 * elements), block-level tags are not wrapped, `<pre>` contents are left alone.
 */
export function wpautop(text: string, br = true): string {
  if (text.trim() === '') return '';
  let pee = `${text}\n`;
  const pres: string[] = [];
  if (pee.includes('<pre')) {
    pee = pee.replace(/<pre[\s\S]*?<\/pre>/gi, (m) => {
      pres.push(m);
      return `<pre wp-pre-tag-${pres.length - 1}></pre>`;
    });
  }
  pee = pee.replace(/<br\s*\/?>\s*<br\s*\/?>/gi, '\n\n');
  pee = pee.replace(new RegExp(`(<${ALL_BLOCKS}[\\s/>])`, 'gi'), '\n\n$1');
  pee = pee.replace(new RegExp(`(</${ALL_BLOCKS}>)`, 'gi'), '$1\n\n');
  pee = pee.replace(/<hr\s*?\/?>/gi, '<hr />\n\n');
  pee = pee.replace(/\r\n|\r/g, '\n');
  // Newlines inside tags are spaces.
  pee = pee.replace(/<[^>]*>/g, (tag) => tag.replace(/\n/g, ' '));
  pee = pee.replace(/\n\n+/g, '\n\n');
  const pees = pee.split(/\n\s*\n/).filter((p) => p !== '');
  pee = '';
  for (const tinkle of pees) pee += `<p>${tinkle.replace(/^\n+|\n+$/g, '')}</p>\n`;
  pee = pee.replace(/<p>\s*<\/p>/g, '');
  pee = pee.replace(/<p>([^<]+)<\/(div|address|form)>/g, '<p>$1</p></$2>');
  pee = pee.replace(new RegExp(`<p>\\s*(</?${ALL_BLOCKS}[^>]*>)\\s*</p>`, 'gi'), '$1');
  pee = pee.replace(/<p>(<li.+?)<\/p>/g, '$1');
  pee = pee.replace(/<p><blockquote([^>]*)>/gi, '<blockquote$1><p>');
  pee = pee.replace(/<\/blockquote><\/p>/g, '</p></blockquote>');
  pee = pee.replace(new RegExp(`<p>\\s*(</?${ALL_BLOCKS}[^>]*>)`, 'gi'), '$1');
  pee = pee.replace(new RegExp(`(</?${ALL_BLOCKS}[^>]*>)\\s*</p>`, 'gi'), '$1');
  if (br) {
    pee = pee.replace(/<(script|style|svg)[\s\S]*?<\/\1>/gi, (m) => m.replace(/\n/g, '<WPPreserveNewline />'));
    pee = pee.replace(/<br>|<br\/>/g, '<br />');
    pee = pee.replace(/(<br \/>)?\s*\n/g, (m, brTag) => (brTag ? m : '<br />\n'));
    pee = pee.replace(/<WPPreserveNewline \/>/g, '\n');
  }
  pee = pee.replace(new RegExp(`(</?${ALL_BLOCKS}[^>]*>)\\s*<br />`, 'gi'), '$1');
  pee = pee.replace(/<br \/>(\s*<\/?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)/gi, '$1');
  pee = pee.replace(/\n<\/p>$/g, '</p>');
  if (pres.length > 0) pee = pee.replace(/<pre wp-pre-tag-(\d+)><\/pre>/g, (_m, i: string) => pres[Number(i)]!);
  return pee;
}

/** A content field as `the_content` renders it (paragraphs), trimmed. */
export function renderContent(text: string): string {
  return wpautop(text).trim();
}

/** A title as `the_title` renders it, trimmed. */
export function renderTitle(text: string): string {
  return text.trim();
}

/** Text of an HTML fragment (tags stripped, whitespace collapsed), for JSON-LD and search. */
export function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------
// Post rows
// ---------------------------------------------------------------------------------------------

/** A stored post row as every area reads it. */
export type PostRecord = Selectable<PostsTable>;

/** Posts by ID (any type), one query. */
export async function getPostsByIds(db: Db, ids: readonly number[]): Promise<Map<number, PostRecord>> {
  const out = new Map<number, PostRecord>();
  if (ids.length === 0) return out;
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db.selectFrom('posts').selectAll().where('id', 'in', unique.slice(i, i + 500)).execute();
    for (const r of rows) out.set(Number(r.id), { ...r, id: Number(r.id), author: Number(r.author), parent: Number(r.parent), menu_order: Number(r.menu_order) });
  }
  return out;
}

/** One post of `type` by ID, or undefined. */
export async function getPost(db: Db, id: number, type?: string): Promise<PostRecord | undefined> {
  const post = (await getPostsByIds(db, [id])).get(id);
  return post && (type === undefined || post.type === type) ? post : undefined;
}

/** Statuses WordPress registers for posts. */
export const POST_STATUSES = Object.freeze(['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit'] as const);

/** Statuses `post_status=any` covers (everything but trash and auto-draft). */
export const ANY_STATUSES = Object.freeze(['publish', 'future', 'draft', 'pending', 'private'] as const);

