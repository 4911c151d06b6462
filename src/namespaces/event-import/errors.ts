/**
 * @module namespaces/event-import/errors
 * The import routes' errors: the state route's refusal (invalid arguments are core's
 * `invalidParams`, every failing one listed).
 */
import { RestError } from '../../rest/errors.js';

/**
 * The original returns `new WP_Error( "Could not update the status …" )`: the sentence is the code and
 * the message is empty; WordPress answers it with 500.
 * CASE: kept as the original (500), though only a race with another status change can cause it.
 */
export function stateRefused(id: string, status: string, current: string): RestError {
  return new RestError(`Could not update the status of import ${id} to ${status}; current record status is tribe-ea-${current}`, '', 500);
}
