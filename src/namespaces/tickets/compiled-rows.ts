/**
 * @module namespaces/tickets/compiled-rows
 * Shapes and parameters of inserts run through `storage/compiled-queries.ts`: the shape names the table
 * and the columns in the order the rows give them (as Kysely binds them), so rows built with another
 * key order, or leaving a column out, compile a statement of their own instead of binding values to
 * the wrong placeholders.
 */

/** Shape and parameters of an insert of `rows` (each with the same keys) into `table`. */
export function insertShape(table: string, rows: readonly Record<string, unknown>[]): { shape: string; parameters: unknown[] } {
  const columns = Object.keys(rows[0]!).filter((k) => rows[0]![k] !== undefined);
  const parameters: unknown[] = [];
  for (const row of rows) for (const c of columns) parameters.push(row[c]);
  return { shape: `insert:${table}:${rows.length}:${columns.join(',')}`, parameters };
}
