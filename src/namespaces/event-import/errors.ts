/**
 * @module namespaces/event-import/errors
 * The import routes' errors: WordPress's `rest_invalid_param` for arguments (every failing one listed,
 * validators that return false carry the generic message) and the state route's refusal.
 */
import { MESSAGES, RestError } from '../../rest/errors.js';

/** One `rest_invalid_param` for the failing arguments, in order; a RestError value is a type error with its own message. */
export function invalidParams(failures: Record<string, RestError | false>): RestError {
  const names = Object.keys(failures);
  const params: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  for (const name of names) {
    const f = failures[name]!;
    params[name] = f === false ? MESSAGES.invalidParam : f.message;
    if (f !== false) details[name] = { code: f.code, message: f.message, data: f.data ?? null };
  }
  return new RestError('rest_invalid_param', MESSAGES.invalidParams(names), 400, { params, details: Object.keys(details).length > 0 ? details : [] });
}

/**
 * The original returns `new WP_Error( "Could not update the status …" )`: the sentence is the code and
 * the message is empty; WordPress answers it with 500.
 * CASE: kept as the original (500), though only a race with another status change can cause it.
 */
export function stateRefused(id: string, status: string, current: string): RestError {
  return new RestError(`Could not update the status of import ${id} to ${status}; current record status is tribe-ea-${current}`, '', 500);
}
