/**
 * @module storage/compiled-queries
 * Hot queries of fixed shape (rows by a list of IDs) compiled once per database and shape, then
 * run with fresh parameters: building and compiling a Kysely query costs more than SQLite takes to
 * answer it. Combined with the statement cache in `storage/db.ts`, a repeat runs no builder, no
 * compiler and no `prepare`. Used by the events and tickets areas.
 */
import type { CompiledQuery, QueryResult } from 'kysely';
import type { Db } from './db.js';

/**
 * Compiled queries by dialect adapter, then by plugin list: a transaction shares its database's adapter
 * and plugins (it compiles the same SQL), so queries compiled outside a transaction serve inside it too.
 */
const compiledByAdapter = new WeakMap<object, { plugins: readonly object[]; byShape: Map<string, CompiledQuery> }[]>();

/**
 * Compiled queries kept per database, least recently used first out. Shapes hold the number of IDs (a
 * client's choice), and a compiled query of hundreds of IDs weighs tens of kilobytes.
 */
export const MAX_COMPILED_SHAPES = 500;

function compiledFor(db: Db): Map<string, CompiledQuery> {
  const executor = db.getExecutor();
  const plugins = executor.plugins;
  let entries = compiledByAdapter.get(executor.adapter);
  if (!entries) compiledByAdapter.set(executor.adapter, (entries = []));
  let entry = entries.find((e) => e.plugins.length === plugins.length && e.plugins.every((p, i) => p === plugins[i]));
  if (!entry) entries.push((entry = { plugins: [...plugins], byShape: new Map() }));
  return entry.byShape;
}

/** Shapes compiled and kept for `db` (tests). */
export function compiledShapes(db: Db): number {
  return compiledFor(db).size;
}

/**
 * Rows of the query `build` makes, compiled the first time `shape` is asked for on `db`. `parameters`
 * are the values in the order the compiled SQL takes them; on first use they must equal what the built
 * query holds (checked), so a later change of the builder cannot silently bind values to the wrong
 * placeholders.
 */
export async function runCompiled<R>(db: Db, shape: string, build: () => { compile(): CompiledQuery<R> }, parameters: readonly unknown[]): Promise<R[]> {
  return (await executeCompiled(db, shape, build, parameters)).rows;
}

/** {@link runCompiled} with the whole result: writes read `numAffectedRows` from it. */
export async function executeCompiled<R>(db: Db, shape: string, build: () => { compile(): CompiledQuery<R> }, parameters: readonly unknown[]): Promise<QueryResult<R>> {
  const byShape = compiledFor(db);
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
  return db.executeQuery<R>({ ...compiled, parameters });
}
