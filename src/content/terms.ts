/**
 * @module content/terms
 * Shared term helpers (categories, tags and any other taxonomy): lookup by ID, slug or name,
 * creation with a unique slug per taxonomy, post ↔ term assignment, and `count` maintenance (the
 * number of published posts carrying the term, as WordPress's `_update_post_term_count` keeps it).
 *
 * Callers run these inside their write transaction and call {@link recountTerms} with the term IDs
 * a write touched (every assignment helper returns them).
 *
 * @example
 * const music = await ensureTermByName(trx, 'tribe_events_cat', 'Music');
 * const touched = await setPostTerms(trx, eventId, 'tribe_events_cat', [music.id]);
 * await recountTerms(trx, touched);
 */
import { sql } from 'kysely';
import type { Db } from '../storage/db.js';
import { caseFolded, packedColumns, unpackRow } from '../storage/dialect.js';
import { runCompiled } from '../storage/compiled-queries.js';
import { nextFreeSlug, slugFamily } from './posts.js';
import { sanitizeTitle } from './slugs.js';

/** A term as stored. */
export interface TermRecord {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number;
  count: number;
}

function toTerm(row: { id: number; taxonomy: string; name: string; slug: string; description: string; parent: number; count: number }): TermRecord {
  return { ...row, id: Number(row.id), parent: Number(row.parent), count: Number(row.count) };
}

/** Thrown by {@link createTerm} when a term with that name already exists under the same parent. */
export class TermExistsError extends Error {
  constructor(readonly termId: number) {
    super('A term with the name provided already exists with this parent.');
    this.name = 'TermExistsError';
  }
}

/** Terms by ID (optionally only of `taxonomy`), one query. */
export async function getTermsByIds(db: Db, ids: readonly number[], taxonomy?: string): Promise<Map<number, TermRecord>> {
  const out = new Map<number, TermRecord>();
  const unique = [...new Set(ids)].filter((n) => Number.isInteger(n) && n > 0);
  if (unique.length === 0) return out;
  const rows = taxonomy === undefined
    ? await runCompiled(db, `termsByIds:${unique.length}`, () => db.selectFrom('terms').selectAll().where('id', 'in', unique), unique)
    : await runCompiled(db, `termsByIdsOf:${unique.length}`, () => db.selectFrom('terms').selectAll().where('id', 'in', unique).where('taxonomy', '=', taxonomy), [...unique, taxonomy]);
  for (const r of rows) out.set(Number(r.id), toTerm(r));
  return out;
}

/** One term of `taxonomy` by ID. */
export async function getTerm(db: Db, taxonomy: string, id: number): Promise<TermRecord | undefined> {
  return (await getTermsByIds(db, [id], taxonomy)).get(id);
}

/** One term of `taxonomy` by exact (stored, sanitized) slug. */
export async function getTermBySlug(db: Db, taxonomy: string, slug: string): Promise<TermRecord | undefined> {
  const row = await db.selectFrom('terms').selectAll().where('taxonomy', '=', taxonomy).where('slug', '=', slug).executeTakeFirst();
  return row ? toTerm(row) : undefined;
}

/** One term of `taxonomy` by name (exact first, then case-insensitive), optionally under `parent`. */
export async function getTermByName(db: Db, taxonomy: string, name: string, parent?: number): Promise<TermRecord | undefined> {
  let q = db.selectFrom('terms').selectAll().where('taxonomy', '=', taxonomy).where('name', '=', name);
  if (parent !== undefined) q = q.where('parent', '=', parent);
  const row = await q.orderBy('id').executeTakeFirst();
  if (row) return toTerm(row);
  let qi = db.selectFrom('terms').selectAll().where('taxonomy', '=', taxonomy).where(caseFolded(db, sql.ref('name')), '=', name.toLowerCase());
  if (parent !== undefined) qi = qi.where('parent', '=', parent);
  const rowi = await qi.orderBy('id').executeTakeFirst();
  return rowi ? toTerm(rowi) : undefined;
}

/**
 * Resolves list items that are term IDs or slugs (as the events list filters take them): a slug
 * first, then a numeric ID. Returns the IDs in order and the items that matched nothing.
 */
export async function resolveTermRefs(db: Db, taxonomy: string, refs: readonly string[]): Promise<{ ids: number[]; unknown: string[] }> {
  const ids: number[] = [];
  const unknown: string[] = [];
  if (refs.length === 0) return { ids, unknown };
  const numeric = refs.filter((r) => /^\d+$/.test(r)).map(Number);
  // CASE: `get_term_by('slug')` sanitizes what it is given, so `Music` and `музыка` find their terms.
  const slugOf = new Map(refs.map((r) => [r, sanitizeTitle(r)]));
  const slugs = [...new Set(slugOf.values())];
  const [bySlug, byId] = await Promise.all([
    runCompiled(db, `termIdsBySlug:${slugs.length}`, () => db.selectFrom('terms').select(['id', 'slug']).where('taxonomy', '=', taxonomy).where('slug', 'in', slugs), [taxonomy, ...slugs]),
    getTermsByIds(db, numeric, taxonomy),
  ]);
  const slugMap = new Map(bySlug.map((r) => [r.slug, Number(r.id)]));
  for (const ref of refs) {
    const id = slugMap.get(slugOf.get(ref)!) ?? (/^\d+$/.test(ref) ? byId.get(Number(ref))?.id : undefined);
    if (id === undefined) unknown.push(ref);
    else if (!ids.includes(id)) ids.push(id);
  }
  return { ids, unknown };
}

/** A slug unique within `taxonomy`, from `desired` (or the name when empty). */
export async function uniqueTermSlug(db: Db, taxonomy: string, desired: string, excludeId?: number): Promise<string> {
  const base = sanitizeTitle(desired) || 'term';
  let q = db
    .selectFrom('terms')
    .select('slug')
    .where('taxonomy', '=', taxonomy)
    .where((eb) => slugFamily(eb, base));
  if (excludeId !== undefined) q = q.where('id', '!=', excludeId);
  const rows = await q.execute();
  return nextFreeSlug(base, new Set(rows.map((r) => r.slug)));
}

export interface TermInput {
  name: string;
  slug?: string;
  description?: string;
  parent?: number;
}

/**
 * Creates a term. A name already used under the same parent throws {@link TermExistsError} (as
 * `wp_insert_term`'s `term_exists`); the slug is made unique within the taxonomy.
 */
export async function createTerm(db: Db, taxonomy: string, input: TermInput): Promise<TermRecord> {
  const name = input.name.trim();
  const parent = input.parent ?? 0;
  const existing = await db
    .selectFrom('terms')
    .select('id')
    .where('taxonomy', '=', taxonomy)
    .where('parent', '=', parent)
    .where(caseFolded(db, sql.ref('name')), '=', name.toLowerCase())
    .executeTakeFirst();
  if (existing) throw new TermExistsError(Number(existing.id));
  for (let attempt = 0; ; attempt++) {
    const slug = await uniqueTermSlug(db, taxonomy, input.slug?.trim() || name);
    const row = await db
      .insertInto('terms')
      .values({ taxonomy, name, slug, description: input.description ?? '', parent, count: 0 })
      .onConflict((oc) => oc.columns(['taxonomy', 'slug']).doNothing())
      .returning(['id'])
      .executeTakeFirst();
    if (row) return { id: Number(row.id), taxonomy, name, slug, description: input.description ?? '', parent, count: 0 };
    // Another process took the slug meanwhile (no error: a PostgreSQL transaction would be aborted):
    // the same term created concurrently, or another term, and then the next free slug.
    const same = await db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).where('parent', '=', parent).where(caseFolded(db, sql.ref('name')), '=', name.toLowerCase()).executeTakeFirst();
    if (same) throw new TermExistsError(Number(same.id));
    if (attempt >= 3) throw new Error(`no free slug for the term "${name}"`);
  }
}

/** The term of `taxonomy` called `name`, created when missing. */
export async function ensureTermByName(db: Db, taxonomy: string, name: string): Promise<TermRecord> {
  const found = await getTermByName(db, taxonomy, name.trim());
  if (found) return found;
  try {
    return await createTerm(db, taxonomy, { name });
  } catch (e) {
    if (e instanceof TermExistsError) return (await getTerm(db, taxonomy, e.termId))!;
    throw e;
  }
}

/** Updates a term's fields; a new slug is made unique. */
export async function updateTerm(db: Db, term: TermRecord, changes: Partial<TermInput>): Promise<TermRecord> {
  const next: TermRecord = { ...term };
  if (changes.name !== undefined) next.name = changes.name.trim();
  if (changes.description !== undefined) next.description = changes.description;
  if (changes.parent !== undefined) next.parent = changes.parent;
  if (changes.slug !== undefined && changes.slug.trim() !== '' && changes.slug !== term.slug) {
    next.slug = await uniqueTermSlug(db, term.taxonomy, changes.slug, term.id);
  }
  if (changes.name !== undefined || changes.parent !== undefined) {
    const clash = await db
      .selectFrom('terms')
      .select('id')
      .where('taxonomy', '=', term.taxonomy)
      .where('parent', '=', next.parent)
      .where(caseFolded(db, sql.ref('name')), '=', next.name.toLowerCase())
      .where('id', '!=', term.id)
      .executeTakeFirst();
    if (clash) throw new TermExistsError(Number(clash.id));
  }
  await db
    .updateTable('terms')
    .set({ name: next.name, slug: next.slug, description: next.description, parent: next.parent })
    .where('id', '=', term.id)
    .execute();
  return next;
}

/** Deletes a term and its assignments; children move up to the deleted term's parent (as WordPress). */
export async function deleteTerm(db: Db, term: TermRecord): Promise<void> {
  await db.updateTable('terms').set({ parent: term.parent }).where('taxonomy', '=', term.taxonomy).where('parent', '=', term.id).execute();
  await db.deleteFrom('term_relationships').where('term_id', '=', term.id).execute();
  await db.deleteFrom('terms').where('id', '=', term.id).execute();
}

/**
 * Replaces the terms of `taxonomy` on a post with `termIds` (in that order). Returns the IDs whose
 * count may have changed (removed ∪ added).
 */
export async function setPostTerms(db: Db, postId: number, taxonomy: string, termIds: readonly number[]): Promise<number[]> {
  const current = await db
    .selectFrom('term_relationships as tr')
    .innerJoin('terms as t', 't.id', 'tr.term_id')
    .select('tr.term_id')
    .where('tr.post_id', '=', postId)
    .where('t.taxonomy', '=', taxonomy)
    .execute();
  const have = new Set(current.map((r) => Number(r.term_id)));
  const want = new Set(termIds);
  const removed = [...have].filter((id) => !want.has(id));
  const added = [...want].filter((id) => !have.has(id));
  if (removed.length > 0) await db.deleteFrom('term_relationships').where('post_id', '=', postId).where('term_id', 'in', removed).execute();
  if (added.length > 0) await db.insertInto('term_relationships').values(added.map((term_id) => ({ post_id: postId, term_id }))).execute();
  return [...removed, ...added];
}

/** Term IDs assigned to the given posts (any taxonomy): for recounting after status changes. */
export async function termIdsOfPosts(db: Db, postIds: readonly number[]): Promise<number[]> {
  if (postIds.length === 0) return [];
  const rows = await db.selectFrom('term_relationships').select('term_id').distinct().where('post_id', 'in', [...postIds]).execute();
  return rows.map((r) => Number(r.term_id));
}

/**
 * Recomputes `count` (published posts carrying the term) for the given terms in one statement. Run it
 * in the transaction of the write that changed assignments or post statuses.
 */
export async function recountTerms(db: Db, termIds: readonly number[]): Promise<void> {
  const unique = [...new Set(termIds)];
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    await db
      .updateTable('terms')
      .set({
        count: sql<number>`(SELECT COUNT(*) FROM term_relationships tr INNER JOIN posts p ON p.id = tr.post_id WHERE tr.term_id = terms.id AND p.status = 'publish')`,
      })
      .where('id', 'in', chunk)
      .execute();
  }
}

/** Recomputes `count` of every term of `taxonomy` (seeding, repairs). */
export async function recountTaxonomy(db: Db, taxonomy: string): Promise<void> {
  await db
    .updateTable('terms')
    .set({
      count: sql<number>`(SELECT COUNT(*) FROM term_relationships tr INNER JOIN posts p ON p.id = tr.post_id WHERE tr.term_id = terms.id AND p.status = 'publish')`,
    })
    .where('taxonomy', '=', taxonomy)
    .execute();
}

/**
 * Name order as WordPress's database collation (`utf8mb4_unicode_ci`) sorts `wp_get_post_terms`:
 * case and accents aside (`art`, `Music`, `Ölhafen`, `Theatre`), then by ID. Byte order put every
 * capital before every small letter and accented letters after `z`.
 */
const byName = new Intl.Collator('en', { sensitivity: 'base' });
const termOrder = (a: TermRecord, b: TermRecord) => byName.compare(a.name, b.name) || a.id - b.id;

/**
 * The terms of the given taxonomies on each post, ordered by name (as `wp_get_post_terms`), in one
 * query for any number of posts.
 */
export async function termsOfPosts(db: Db, postIds: readonly number[], taxonomies: readonly string[]): Promise<Map<number, TermRecord[]>> {
  const out = new Map<number, TermRecord[]>();
  if (postIds.length === 0 || taxonomies.length === 0) return out;
  const ids = [...new Set(postIds)];
  const rows = await runCompiled(db, `termsOfPosts:${ids.length}:${taxonomies.length}`, () =>
    db
      .selectFrom('term_relationships as tr')
      .innerJoin('terms as t', 't.id', 'tr.term_id')
      .select(['tr.post_id', packedColumns(db, ['t.id', 't.taxonomy', 't.name', 't.slug', 't.description', 't.parent', 't.count']).as('term')])
      .where('tr.post_id', 'in', ids)
      .where('t.taxonomy', 'in', [...taxonomies]), [...ids, ...taxonomies]);
  // A term shared by several posts is one record (records are not mutated).
  const terms = new Map<number, TermRecord>();
  for (const r of rows) {
    const [id, taxonomy, name, slug, description, parent, count] = unpackRow(r.term) as [number, string, string, string, string, number, number];
    let term = terms.get(Number(id));
    if (!term) terms.set(Number(id), (term = toTerm({ id, taxonomy, name, slug, description, parent, count })));
    const pid = Number(r.post_id);
    const list = out.get(pid);
    if (list) list.push(term);
    else out.set(pid, [term]);
  }
  for (const list of out.values()) if (list.length > 1) list.sort(termOrder);
  return out;
}
