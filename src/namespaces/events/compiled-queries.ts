/**
 * @module namespaces/events/compiled-queries
 * Hot queries of fixed shape (rows by a list of IDs) compiled once per database handle and shape, then
 * run with fresh parameters: building and compiling a Kysely query costs more than SQLite takes to
 * answer it. Combined with the statement cache in `storage/db.ts`, a repeat runs no builder, no
 * compiler and no `prepare`. Shapes hold the number of IDs, so a database handle keeps at most
 * {@link MAX_COMPILED_SHAPES} of them (least recently used first out): a compiled query of hundreds of
 * IDs weighs tens of kilobytes.
 */
import type { CompiledQuery } from 'kysely';
import type { Db } from '../../storage/db.js';

export const MAX_COMPILED_SHAPES = 200;

const compiledByDb = new WeakMap<object, Map<string, CompiledQuery>>();

/** Shapes compiled and kept for `db` (tests). */
export function compiledShapes(db: object): number {
  return compiledByDb.get(db)?.size ?? 0;
}

/**
 * Rows of the query `build` makes, compiled the first time `shape` is asked for on `db`. `parameters`
 * are the values in the order the compiled SQL takes them; on first use they must equal what the built
 * query holds (checked), so a later change of the builder cannot silently bind values to the wrong
 * placeholders.
 */
export async function runCompiled<R>(db: Db, shape: string, build: () => { compile(): CompiledQuery<R> }, parameters: readonly unknown[]): Promise<R[]> {
  let byShape = compiledByDb.get(db);
  if (!byShape) compiledByDb.set(db, (byShape = new Map()));
  let compiled = byShape.get(shape) as CompiledQuery<R> | undefined;
  if (compiled) {
    byShape.delete(shape); // most recently used last
  } else {
    compiled = build().compile();
    if (JSON.stringify(compiled.parameters) !== JSON.stringify(parameters)) {
      throw new Error(`compiled query ${shape}: parameters ${JSON.stringify(compiled.parameters)} differ from ${JSON.stringify(parameters)}`);
    }
    if (byShape.size >= MAX_COMPILED_SHAPES) byShape.delete(byShape.keys().next().value!);
  }
  byShape.set(shape, compiled);
  const result = await db.executeQuery<R>({ ...compiled, parameters });
  return result.rows;
}
