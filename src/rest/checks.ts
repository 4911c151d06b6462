/**
 * @module rest/checks
 * The asynchronous argument checks (`ArgSchema.check`): they run after validation and sanitisation
 * and before the permission check, as WordPress runs validate callbacks that query the database. Their
 * rejections join the validation failures in one `rest_invalid_param`, in arg order.
 *
 * @example
 * const args = withChecks(eventWriteArgs(), { author: userExists, image: isImageAttachment });
 * // in a check: req.locals.event = await getEvent(ctx.db, id)
 */
import { invalidParams, type ParamFailure, type RestError } from './errors.js';
import type { ArgCheck, ArgSchemas, RestRequest } from './route.js';

/** A copy of `args` with `check` set on each named arg that is declared (others are ignored). */
export function withChecks<S extends ArgSchemas, C>(args: S, checks: Record<string, ArgCheck<C>>): S {
  const out: ArgSchemas = { ...args };
  for (const [name, check] of Object.entries(checks)) {
    const arg = out[name];
    if (arg) out[name] = { ...arg, check };
  }
  return out as S;
}

/**
 * Runs the checks of the args that have a valid value, in declaration order, and returns one
 * `rest_invalid_param` for these and the validation `failures`, or undefined when all pass. A check
 * that throws ends the request with what it threw.
 */
export async function runChecks(
  args: ArgSchemas,
  req: RestRequest,
  ctx: unknown,
  failures: Record<string, ParamFailure>,
): Promise<RestError | undefined> {
  const found: Record<string, ParamFailure> = {};
  let any = false;
  for (const name of Object.keys(args)) {
    if (Object.hasOwn(failures, name)) {
      found[name] = failures[name];
      any = true;
      continue;
    }
    const check = args[name]!.check;
    const value = req.params[name];
    if (!check || value === undefined || value === null) continue;
    const verdict = await check(value, req, ctx, name);
    if (verdict === true || verdict === undefined) continue;
    found[name] = verdict;
    any = true;
  }
  return any ? invalidParams(found) : undefined;
}
