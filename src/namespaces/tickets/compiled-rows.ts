/**
 * @module namespaces/tickets/compiled-rows
 * Shapes and parameters of queries run through `storage/compiled-queries.ts`. Inserts: the shape names
 * the table and the columns in the order the rows give them (as Kysely binds them), so rows built with
 * another key order, or leaving a column out, compile a statement of their own instead of binding
 * values to the wrong placeholders. Filtered lists: each condition names itself and its values.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../storage/db.js';
import { executeCompiled } from '../../storage/compiled-queries.js';
import { capabilities } from '../../storage/dialect.js';

/** Most rows one insert statement holds: well below either engine's limit of bound values. */
const MAX_ROWS_PER_INSERT = 512;

/**
 * `rows` in chunks whose sizes are powers of two (largest first, at most {@link MAX_ROWS_PER_INSERT}):
 * each chunk size is a statement shape of its own, so any number of rows uses at most ten shapes. One
 * shape per row count would fill the compiled-query and prepared-statement caches, which the hot
 * reads share.
 */
export function insertChunks<T>(rows: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length;) {
    let size = MAX_ROWS_PER_INSERT;
    while (size > rows.length - i) size /= 2;
    chunks.push(rows.slice(i, i + size));
    i += size;
  }
  return chunks;
}

/** Shape and parameters of an insert of `rows` (each with the same keys) into `table`. */
export function insertShape(table: string, rows: readonly object[]): { shape: string; parameters: unknown[] } {
  const first = rows[0] as Record<string, unknown>;
  const columns = Object.keys(first).filter((k) => first[k] !== undefined);
  const parameters: unknown[] = [];
  for (const row of rows) for (const c of columns) parameters.push((row as Record<string, unknown>)[c]);
  return { shape: `insert:${table}:${rows.length}:${columns.join(',')}`, parameters };
}

/** Rows of one table to insert, every row with the same keys in the same order (see {@link insertShape}). */
export interface InsertPart {
  table: string;
  rows: readonly object[];
  /** All rows in one statement: few, and bounded by the caller (an order's lines); otherwise in chunks. */
  whole?: boolean;
}

/**
 * Inserts the rows of several tables, in the order of `parts`, in chunks ({@link insertChunks}). Where
 * a `WITH` may hold writes (`capabilities(db).writesInWith`: PostgreSQL, where each statement is a
 * round trip) the first chunk of every part goes in one statement, `WITH w0 AS (INSERT …), … INSERT …`,
 * and only further chunks run apart, so the shapes stay as few as the chunks'. The rows of that one
 * statement are checked against each other's constraints (foreign keys) at its end.
 */
export async function insertParts(db: Db, parts: readonly InsertPart[]): Promise<void> {
  const chunked = parts.filter((p) => p.rows.length > 0).map((p) => ({ table: p.table, chunks: p.whole ? [p.rows] : insertChunks(p.rows) }));
  const insert = (table: string, rows: readonly object[]) => (db as Kysely<any>).insertInto(table).values(rows as Record<string, unknown>[]);
  if (chunked.length > 1 && capabilities(db).writesInWith) {
    const firsts = chunked.map((p) => ({ table: p.table, rows: p.chunks.shift()! }));
    const shapes = firsts.map((f) => insertShape(f.table, f.rows));
    const build = () => {
      const last = firsts[firsts.length - 1]!;
      const before = firsts.slice(0, -1).map((f, i) => sql`${sql.id(`w${i}`)} AS (${insert(f.table, f.rows)})`);
      const query = sql`WITH ${sql.join(before)} ${insert(last.table, last.rows)}`;
      return { compile: () => query.compile(db) };
    };
    await executeCompiled(db, `with:${shapes.map((s) => s.shape).join('|')}`, build, shapes.flatMap((s) => s.parameters));
  }
  for (const part of chunked) {
    for (const rows of part.chunks) {
      const { shape, parameters } = insertShape(part.table, rows);
      await executeCompiled(db, shape, () => insert(part.table, rows), parameters);
    }
  }
}

/**
 * One condition of a filtered list run through `storage/compiled-queries.ts`: `key` names it in the
 * compiled query's shape (with the number of values of lists, and any literal it puts in the SQL),
 * `parameters` are the values it binds, in order, and `apply` adds it to the query being built (only
 * when the shape is compiled for the first time).
 */
export interface ListFilter<Q> {
  key: string;
  parameters: readonly unknown[];
  apply: (query: Q) => Q;
}

/** The shape key and the bound values of `filters`, in the order they are applied. */
export function filtersShape<Q>(filters: readonly ListFilter<Q>[]): { key: string; parameters: unknown[] } {
  return { key: filters.map((f) => f.key).join(','), parameters: filters.flatMap((f) => f.parameters) };
}

/** `query` with every filter applied. */
export function applyFilters<Q>(query: Q, filters: readonly ListFilter<Q>[]): Q {
  let out = query;
  for (const f of filters) out = f.apply(out);
  return out;
}

/**
 * The `orderby=include` order of a list: by the place of `id` in `include` (others last), then by `id`.
 * `CASE id WHEN include[0] THEN 0 … ELSE n END`, binding each ID and place.
 */
export function includeOrder<Q extends SelectQueryBuilder<any, any, any>>(id: string, include: readonly number[], dir: 'asc' | 'desc'): ListFilter<Q> {
  return {
    key: `include ${include.length} ${dir}`,
    parameters: [...include.flatMap((value, i) => [value, i]), include.length],
    apply: (query) => {
      const cases = sql.join(include.map((value, i) => sql`WHEN ${value} THEN ${i}`), sql` `);
      return query.orderBy(sql`CASE ${sql.ref(id)} ${cases} ELSE ${include.length} END`, dir).orderBy(id, 'asc') as Q;
    },
  };
}
