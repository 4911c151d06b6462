/**
 * @module rest/args
 * The per-endpoint argument pipeline of WordPress (`has_valid_params` + `sanitize_params`) and
 * shared arg fragments. One value's schema semantics live in `schema.ts`; the asynchronous checks in
 * `checks.ts`; pagination args in `pagination.ts`.
 *
 * @example
 * const args = { context: contextArg(), status: { type: 'string', enum: ['publish', 'draft'] } };
 * const { values, error } = checkArgs(args, { status: 'draft' }, req);
 * // values: { context: 'view', status: 'draft' }
 */
import { CoreErrors, invalidParams, RestError, type ParamFailure } from './errors.js';
import { defaultOf, type ArgSchema, type ArgSchemas, type RestRequest } from './route.js';
import { isMap, isTypeList, setOwn, type Dict } from './php-values.js';
import { INPUT_LIMITS, MSG, sanitizeValue, tooManyItemsError, validateValue } from './schema.js';
import { parseList } from './php-query.js';
import { sanitizeTextField } from './wp-sanitize.js';

// ---------------------------------------------------------------------------------------------
// The endpoint pipeline: has_valid_params + sanitize_params
// ---------------------------------------------------------------------------------------------

/** Outcome of {@link checkArgs}. */
export interface ArgCheckResult {
  /** The sanitised value of every declared arg that has one (supplied or default). */
  values: Record<string, unknown>;
  /** `rest_missing_callback_param` or `rest_invalid_param`, both 400. */
  error?: RestError;
  /** The invalid args and why (absent when args were missing), for merging with the async checks. */
  failures?: Record<string, ParamFailure>;
}

/** A list (or, for a list-typed arg, CSV text) longer than {@link INPUT_LIMITS}, refused before any check. */
function tooManyItems(value: unknown, arg: ArgSchema, param: string): RestError | undefined {
  const listTyped = isTypeList(arg.type) ? arg.type.includes('array') : arg.type === 'array';
  const n = Array.isArray(value) ? value.length : isMap(value) ? Object.keys(value).length : listTyped && typeof value === 'string' ? parseList(value).length : 0;
  return n > INPUT_LIMITS.listItems ? tooManyItemsError(param) : undefined;
}

function hasType(arg: ArgSchema): boolean {
  return isTypeList(arg.type) ? arg.type.length > 0 : Boolean(arg.type);
}

/**
 * Run one endpoint's declared args over the merged parameter map (already merged by precedence;
 * `null` counts as absent; `now` is the app clock's time, for clock-dependent defaults and relative
 * dates). Defaults fill absent args and are validated like supplied values. First
 * the required check: any missing arg gives `rest_missing_callback_param` with `data.params` in arg
 * order and nothing else. Then, per arg with a value: validation is `arg.validate` if present, else
 * schema validation unless the arg has its own `sanitize` (such args are not type-checked); then
 * sanitisation is `arg.sanitize` if present, else {@link sanitizeValue} for typed args (untyped args
 * pass through). Every failure is collected into one `rest_invalid_param` (see `invalidParams`).
 * The asynchronous `check`s run later, in the dispatcher (`rest/checks.ts`).
 *
 * @example
 * checkArgs({ id: idArg('Ticket ID.') }, { id: 'abc' }, req).error?.toJSON();
 * // { code: 'rest_invalid_param', message: 'Invalid parameter(s): id',
 * //   data: { status: 400, params: { id: 'id is not of type integer.' }, details: { id: {…} } } }
 */
export function checkArgs(args: ArgSchemas, params: Record<string, unknown>, req: RestRequest, now: Date = new Date()): ArgCheckResult {
  const present: [string, ArgSchema, unknown][] = [];
  const missing: string[] = [];
  for (const name in args) {
    if (!Object.hasOwn(args, name)) continue;
    const arg = args[name]!;
    let value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value == null) value = defaultOf(arg, now);
    if (value == null) {
      if (arg.required === true) missing.push(name);
      continue;
    }
    present.push([name, arg, value]);
  }
  if (missing.length > 0) return { values: {}, error: CoreErrors.missingParams(missing) };

  const values: Record<string, unknown> = {};
  const failures: Record<string, ParamFailure> = {};
  for (const [name, arg, value] of present) {
    const tooMany = tooManyItems(value, arg, name);
    if (tooMany) {
      setOwn(failures as Dict, name, tooMany);
      continue;
    }
    const verdict = arg.validate ? arg.validate(value, req, name, now) : arg.sanitize ? true : validateValue(value, arg, name);
    if (verdict !== true) {
      setOwn(failures as Dict, name, verdict);
      continue;
    }
    const sanitized = arg.sanitize ? arg.sanitize(value, req, name, now) : hasType(arg) ? sanitizeValue(value, arg, name) : value;
    if (sanitized instanceof RestError) setOwn(failures as Dict, name, sanitized);
    else setOwn(values, name, sanitized);
  }
  if (Object.keys(failures).length === 0) return { values };
  return { values, failures, error: invalidParams(failures) };
}

// ---------------------------------------------------------------------------------------------
// Shared arg fragments
// ---------------------------------------------------------------------------------------------

/** A required integer path ID, e.g. `{ id: idArg('Ticket ID.') }`. */
export function idArg(description: string): ArgSchema {
  return { type: 'integer', description, required: true };
}

/**
 * The `context` arg of core controllers (`get_context_param`): a string enum of the contexts,
 * reverse-sorted as WordPress lists them, with a default.
 */
export function contextArg(defaultContext = 'view', contexts: readonly string[] = ['view', 'embed', 'edit']): ArgSchema {
  const allowed = [...new Set(contexts)].sort().reverse();
  return { description: MSG.contextDescription, type: 'string', enum: allowed, default: defaultContext };
}

const SEARCH_SCHEMA: ArgSchema = { type: 'string' };

/** The core `search` arg: a type-checked string, cleaned with `sanitize_text_field`. */
export function searchArg(): ArgSchema {
  return {
    description: MSG.searchDescription,
    type: 'string',
    validate: (value, _req, name) => validateValue(value, SEARCH_SCHEMA, name),
    sanitize: (value) => sanitizeTextField(value),
  };
}
