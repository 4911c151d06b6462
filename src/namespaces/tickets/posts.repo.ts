/**
 * @module namespaces/tickets/posts.repo
 * The post rows behind tickets, attendees and orders (they share the one ID sequence of `posts`),
 * and the few facts the area needs about the posts tickets are sold for.
 */
import { sql, type AliasedRawBuilder } from 'kysely';
import type { Db } from '../../storage/db.js';
import { runCompiled } from '../../storage/compiled-queries.js';
import { insertChunks, insertShape } from './compiled-rows.js';
import { randomHex } from './common.js';
import { uniquePostSlug, type PostRecord } from '../../content/posts.js';

const POST_COLUMNS = [
  'id', 'type', 'status', 'slug', 'title', 'content', 'excerpt', 'author', 'parent', 'password', 'menu_order', 'date', 'date_gmt', 'modified',
  'modified_gmt', 'image_url',
] as const;

/**
 * Every column of the posts joined as `alias`, each selected as `{prefix}{column}`, so one query can
 * bring a detail row together with its post (and the post it belongs to) instead of one query each.
 */
export function postColumnsAs(alias: string, prefix: string): AliasedRawBuilder<unknown, string>[] {
  return POST_COLUMNS.map((c) => sql.ref(`${alias}.${c}`).as(`${prefix}${c}`));
}

/**
 * Every column of the posts joined as `alias`, in the order {@link postFromValues} reads them: for a
 * query selecting them with others as one row of values (`rowColumns`).
 */
export function postColumnRefs(alias: string): string[] {
  return POST_COLUMNS.map((c) => `${alias}.${c}`);
}

/** How many values {@link postColumnRefs} gives. */
export const POST_COLUMN_COUNT = POST_COLUMNS.length;

const prefixedKeys = new Map<string, readonly string[]>();

/** The post {@link postColumnsAs} selected with `prefix`, as `getPostsByIds` returns it; undefined when the join found none. */
export function postFromRow(row: Record<string, unknown>, prefix: string): PostRecord | undefined {
  let keys = prefixedKeys.get(prefix);
  if (!keys) prefixedKeys.set(prefix, (keys = POST_COLUMNS.map((c) => `${prefix}${c}`)));
  return postFromValues(keys.map((k) => row[k]), 0);
}

/** The post whose {@link postColumnRefs} values start at `offset` of `values`; undefined when the join found none. */
export function postFromValues(values: readonly unknown[], offset: number): PostRecord | undefined {
  const id = values[offset];
  if (id === null || id === undefined) return undefined;
  const v = values as readonly string[];
  return {
    id: Number(id),
    type: v[offset + 1]!,
    status: v[offset + 2]!,
    slug: v[offset + 3]!,
    title: v[offset + 4]!,
    content: v[offset + 5]!,
    excerpt: v[offset + 6]!,
    author: Number(v[offset + 7]),
    parent: Number(v[offset + 8]),
    password: v[offset + 9]!,
    menu_order: Number(v[offset + 10]),
    date: v[offset + 11]!,
    date_gmt: v[offset + 12]!,
    modified: v[offset + 13]!,
    modified_gmt: v[offset + 14]!,
    image_url: v[offset + 15]!,
  };
}

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
  return (await insertPostRecord(db, post)).id;
}

/** Inserts a post row and returns it as a read would (callers need not read it back). */
export async function insertPostRecord(db: Db, post: NewPost): Promise<PostRecord> {
  return (await insertPostRecords(db, [post]))[0]!;
}

/**
 * Inserts post rows, several in one statement (a checkout's order and its attendees: on PostgreSQL
 * each statement is a round trip; see {@link insertChunks}), and returns them in the order given.
 */
export async function insertPostRecords(db: Db, posts: readonly NewPost[]): Promise<PostRecord[]> {
  // Its slug is made unique against the table, not against the rest of the batch.
  if (posts.length > 1 && posts.some((p) => p.slugFrom !== undefined)) throw new Error('insertPostRecords: a post with slugFrom is inserted alone');
  const rows = [];
  for (const post of posts) {
    const slug = post.slugFrom !== undefined
      ? await uniquePostSlug(db, post.type, post.slugFrom, undefined, post.type)
      : `${post.type.replace(/^tribe_/, '').replace(/_/g, '-')}-${randomHex(8)}`;
    rows.push({
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
    });
  }
  const out: PostRecord[] = [];
  for (const part of insertChunks(rows)) {
    const { shape, parameters } = insertShape('posts', part);
    const returned = await runCompiled(db, `${shape}:returning id`, () => db.insertInto('posts').values(part).returning('id'), parameters);
    if (returned.length !== part.length) throw new Error('insert into posts returned fewer rows than it inserted');
    // Neither engine promises RETURNING's order; both number the rows of one statement in the order given.
    const ids = returned.map((r) => Number(r.id)).sort((a, b) => a - b);
    part.forEach((values, j) => out.push({ id: ids[j]!, ...values }));
  }
  return out;
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
  const unique = [...new Set(ids)];
  const rows = await runCompiled(db, `existingPostIds:${unique.length}`, () => db.selectFrom('posts').select('id').where('id', 'in', unique), unique);
  return new Set(rows.map((r) => Number(r.id)));
}

/** Post types of `ids` (missing IDs are absent from the map). */
export async function postTypes(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const unique = [...new Set(ids)];
  const rows = await runCompiled(db, `postTypes:${unique.length}`, () => db.selectFrom('posts').select(['id', 'type']).where('id', 'in', unique), unique);
  return new Map(rows.map((r) => [Number(r.id), r.type]));
}

/** Markers of an attendee list in a post's content: the attendees block or the shortcode. */
export const ATTENDEE_LIST_MARKERS = Object.freeze(['<!-- wp:tribe/attendees', '[tribe_attendees_list']);

/** True when the post's content shows its attendee list. */
export function showsAttendeeList(content: string): boolean {
  return ATTENDEE_LIST_MARKERS.some((m) => content.includes(m));
}
