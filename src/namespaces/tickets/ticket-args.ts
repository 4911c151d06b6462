/**
 * @module namespaces/tickets/ticket-args
 * Arg fragments of the tickets namespace, after the original's validator (ET
 * `REST/V1/Validator/Base.php`): page sizes held to the spec's bounds, CSV-or-array lists, ID lists,
 * `is_time` dates, `is_string`, `is_numeric`, `is_email`. Checks that need the database (an ID names a
 * post, a ticket) are attached with `withChecks` and run before the permission check, in WordPress's order.
 */
import { validateValue } from '../../rest/schema.js';
import { sanitizeTextField } from '../../rest/wp-sanitize.js';
import { absint, isPhpNumeric } from '../../rest/php-query.js';
import type { ArgCheck as RestArgCheck, ArgSchema } from '../../rest/route.js';
import type { TypedArg } from '../../rest/typed.js';
import type { AppContext } from '../../app-context.js';
import { listToArray, parseUtcTime, positiveInt, positiveIntList } from './common.js';
import { existingPostIds, postTypes } from './posts.repo.js';
import { TICKET_TYPES } from './providers.js';

/** Item type of list args, for the `/doc` document (`oneOf` array/string). */
export const LIST_ARGS = new WeakMap<ArgSchema, 'string' | 'integer'>();

/** An integer passed through `absint` only: declared bounds are shown, not enforced. */
export function absintArg(description: string, defaults: { default?: number; minimum?: number; maximum?: number } = {}): TypedArg<number> {
  return { description, type: 'integer', ...defaults, sanitize: (v) => absint(v) };
}

/**
 * A page number or size, held to the bounds the spec states (400 `rest_invalid_param` outside them).
 * CASE: upstream only passes these through `absint`, never rejecting 0 or 101.
 */
export function pageArg(description: string, bounds: { default: number; minimum: number; maximum?: number }): TypedArg<number> {
  return { description, type: 'integer', ...bounds };
}

/**
 * A ticket or attendee ID in the path: any positive integer. IDs past what the table can hold name
 * nothing and are left for the handler to answer 404 (the original's "not found").
 */
export function pathIdArg(description: string): TypedArg<number> & { required: true } {
  const digits = (v: unknown) => (typeof v === 'number' || typeof v === 'string') && /^\s*0*[1-9]\d*\s*$/.test(String(v));
  return { description, type: 'integer', required: true, validate: digits, sanitize: (v) => Number(String(v).trim()) };
}

/** A CSV list or array of strings (`list_to_array`). */
export function csvArg(description: string, items: 'string' | 'integer' = 'string', extra: Partial<ArgSchema> = {}): TypedArg<string[]> {
  const arg: ArgSchema = { description, ...extra, sanitize: (v) => listToArray(v) };
  LIST_ARGS.set(arg, items);
  return arg;
}

/** A CSV list or array of positive integers (`is_positive_int_list`). */
export function idListArg(description: string, check?: ArgCheck): TypedArg<number[]> {
  const arg: ArgSchema = {
    description,
    ...(check ? { check } : {}),
    validate: (v) => positiveIntList(v) !== undefined,
    sanitize: (v) => positiveIntList(v) ?? [],
  };
  LIST_ARGS.set(arg, 'integer');
  return arg;
}

/** A string checked by `is_string` (scalars pass, arrays fail), cleaned by `sanitize_text_field`. */
export function stringArg(description: string, extra: Partial<ArgSchema> = {}): TypedArg<string> {
  return { description, type: 'string', ...extra, validate: (v) => typeof v === 'string' || typeof v === 'number', sanitize: (v) => sanitizeTextField(v) };
}

/** A UTC date or timestamp (`is_time`), sanitised to UTC `YYYY-MM-DD HH:MM:SS`. */
export function timeArg(description: string): TypedArg<string> {
  return {
    description,
    type: 'string',
    validate: (v, _req, _name, now) => parseUtcTime(v, now) !== undefined,
    sanitize: (v, _req, _name, now) => parseUtcTime(v, now),
  };
}

/** A positive integer (`is_positive_int`). */
export function positiveIntArg(description: string, required: true): TypedArg<number> & { required: true };
export function positiveIntArg(description: string, required?: boolean): TypedArg<number>;
export function positiveIntArg(description: string, required = false): TypedArg<number> {
  return { description, type: 'integer', ...(required ? { required: true } : {}), validate: (v) => positiveInt(v) !== undefined, sanitize: (v) => positiveInt(v) };
}

/** A numeric string (`is_numeric`), kept as a string. */
export function numericStringArg(description: string, required: true): TypedArg<string> & { required: true };
export function numericStringArg(description: string, required?: boolean): TypedArg<string>;
export function numericStringArg(description: string, required = false): TypedArg<string> {
  return { description, type: 'string', ...(required ? { required: true } : {}), validate: (v) => (typeof v === 'string' || typeof v === 'number') && isPhpNumeric(v), sanitize: (v) => String(v) };
}

/** An e-mail address (`is_email`). */
export function emailArg(description: string, required: true): TypedArg<string> & { required: true };
export function emailArg(description: string, required?: boolean): TypedArg<string>;
export function emailArg(description: string, required = false): TypedArg<string> {
  return {
    description,
    type: 'string',
    format: 'email',
    ...(required ? { required: true } : {}),
    validate: (v, _req, name) => validateValue(v, { type: 'string', format: 'email' }, name) === true,
    sanitize: (v) => sanitizeTextField(v),
  };
}

/** A database check of one arg (run before the permission check, see `rest/checks.ts`). */
export type ArgCheck = RestArgCheck<AppContext>;

/** `is_post_id`: an existing post. */
export const isPostId: ArgCheck = async (value, _req, ctx) => {
  const id = positiveInt(value);
  return id !== undefined && (await existingPostIds(ctx.db, [id])).has(id);
};

/** `is_post_id_list`: every ID an existing post. */
export const isPostIdList: ArgCheck = async (value, _req, ctx) => {
  const ids = Array.isArray(value) ? (value as number[]) : positiveIntList(value);
  // An empty list names no post (`include_post=`): refused rather than read as "no filter".
  if (!ids || ids.length === 0) return false;
  const found = await existingPostIds(ctx.db, ids);
  return ids.every((id) => found.has(id));
};

/** `is_ticket_id`: a ticket of any provider. */
export const isTicketId: ArgCheck = async (value, _req, ctx) => {
  const id = positiveInt(value);
  if (id === undefined) return false;
  const type = (await postTypes(ctx.db, [id])).get(id);
  return type !== undefined && TICKET_TYPES.includes(type);
};

/** `is_ticket_id_list`: every ID a ticket. */
export const isTicketIdList: ArgCheck = async (value, _req, ctx) => {
  const ids = Array.isArray(value) ? (value as number[]) : positiveIntList(value);
  if (!ids) return false;
  const types = await postTypes(ctx.db, ids);
  return ids.every((id) => TICKET_TYPES.includes(types.get(id) ?? ''));
};
