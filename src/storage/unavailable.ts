/**
 * @module storage/unavailable
 * Driver errors that say the database cannot serve right now — PostgreSQL restarted, unreachable or
 * out of connections; SQLite read-only, out of space or locked past its busy timeout — as opposed to
 * a bug or a bad value. The REST layer answers them 503 with `Retry-After` instead of 500.
 */

/** Seconds a client is asked to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

// SQLSTATE classes and codes: 08 connection exception, 53 insufficient resources (disk full, out of
// memory, too many connections), 57P01–57P03 the server shutting down or starting, 25006 a read-only
// (standby) server.
const PG_STATE = /^(08|53)|^57P0[1-3]$|^25006$/;
// Node socket errors on the way to the server.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
// pg's own messages for a connection lost or never made (no code on them).
const PG_CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable)/;
// SQLite primary result codes (extended codes start with them: SQLITE_READONLY_DBMOVED, SQLITE_IOERR_WRITE…).
const SQLITE_CODE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|PROTOCOL|NOMEM)(_|$)/;

/** True when `err` (or an error it wraps) says the database is unavailable, not that the request is wrong. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, errors } = e as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string' && (PG_STATE.test(code) || SOCKET_CODES.has(code) || SQLITE_CODE.test(code))) return true;
    if (typeof message === 'string' && PG_CONNECTION_MESSAGES.test(message)) return true;
    // Node's connect tries every address of a host and reports an AggregateError.
    if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
