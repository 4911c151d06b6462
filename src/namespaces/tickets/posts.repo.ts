/**
 * @module namespaces/tickets/posts.repo
 * The post rows behind tickets, attendees and orders (they share the one ID sequence of `posts`),
 * and the few facts the area needs about the posts tickets are sold for.
 */
import crypto from 'node:crypto';
import type { Db } from '../../storage/db.js';
import { uniquePostSlug } from '../../content/posts.js';

/** A moment as the `date`/`date_gmt` pair of a post. */
export interface DatePair {
  local: string;
  gmt: string;
}

export interface NewPost {
  type: string;
  status: string;
  title: string;
  content?: string;
  excerpt?: string;
  author?: number;
  menuOrder?: number;
  /** Slug source; posts created in bulk (attendees, orders) get a random slug instead. */
  slugFrom?: string;
  when: DatePair;
}

/** Inserts a post row and returns its ID. */
export async function insertPost(db: Db, post: NewPost): Promise<number> {
  const slug = post.slugFrom !== undefined
    ? await uniquePostSlug(db, post.type, post.slugFrom, undefined, post.type)
    : `${post.type.replace(/^tribe_/, '').replace(/_/g, '-')}-${crypto.randomBytes(8).toString('hex')}`;
  const row = await db
    .insertInto('posts')
    .values({
      type: post.type,
      status: post.status,
      slug,
      title: post.title,
      content: post.content ?? '',
      excerpt: post.excerpt ?? '',
      author: post.author ?? 0,
      parent: 0,
      password: '',
      menu_order: post.menuOrder ?? 0,
      date: post.when.local,
      date_gmt: post.when.gmt,
      modified: post.when.local,
      modified_gmt: post.when.gmt,
      image_url: '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Changes a post's fields and its modified date. */
export async function updatePost(
  db: Db,
  id: number,
  patch: { title?: string; content?: string; status?: string; menu_order?: number; slug?: string },
  when: DatePair,
): Promise<void> {
  await db
    .updateTable('posts')
    .set({ ...patch, modified: when.local, modified_gmt: when.gmt })
    .where('id', '=', id)
    .execute();
}

/** Deletes a post row (detail rows cascade). */
export async function deletePost(db: Db, id: number): Promise<void> {
  await db.deleteFrom('posts').where('id', '=', id).execute();
}

/** IDs of `ids` that name existing posts. */
export async function existingPostIds(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('posts').select('id').where('id', 'in', [...new Set(ids)]).execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/** Post types of `ids` (missing IDs are absent from the map). */
export async function postTypes(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('posts').select(['id', 'type']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [Number(r.id), r.type]));
}

/** Markers of an attendee list in a post's content: the attendees block or the shortcode. */
export const ATTENDEE_LIST_MARKERS = Object.freeze(['<!-- wp:tribe/attendees', '[tribe_attendees_list']);

/** True when the post's content shows its attendee list. */
export function showsAttendeeList(content: string): boolean {
  return ATTENDEE_LIST_MARKERS.some((m) => content.includes(m));
}
