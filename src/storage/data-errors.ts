/**
 * @module storage/data-errors
 * Driver errors caused by a value the client sent (a number beyond a column's range, text longer
 * than its column, a malformed literal), so the REST layer can answer 400 instead of 500.
 */

// PostgreSQL SQLSTATEs of class 22 (data exception) that input alone can cause: too long, out of
// range, bad datetime, bad literal, a NUL byte or invalid UTF-8 (22021, 22P05), and a LIKE pattern
// ending in its escape character (22025).
const CLIENT_DATA_STATES = new Set(['22001', '22003', '22007', '22008', '22P02', '22021', '22P05', '22025']);

/** True when `err` is a database error about a value, not about the system. */
export function isClientDataError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CLIENT_DATA_STATES.has(code);
}
