/**
 * @module namespaces/events/checks
 * Argument checks that need the database (existing users, venues, organizers, events, terms,
 * attachments). WordPress runs such validate callbacks before the permission callback, so they run
 * at the start of the permission stage: a bad argument answers 400 even to anonymous callers, and
 * every failing argument is reported in one `rest_invalid_param`. Like the originals' boolean
 * validators, a failure carries WordPress's generic "Invalid parameter." message.
 */
import type { AppContext } from '../../app-context.js';
import { resolveTermRefs } from '../../content/terms.js';
import type { RestError } from '../../rest/errors.js';
import { parseList } from '../../rest/php-query.js';
import type { Permission, RestRequest } from '../../rest/route.js';
import { CATEGORY_TAXONOMY, TAG_TAXONOMY } from './caps.js';
import { invalidParams } from './errors.js';
import { existingEventIds } from './events.repo.js';
import { existingLinkedIds, type LinkedKind } from './linked.repo.js';
import { attachmentByUrl } from './post-write.js';
import { linkedRefs, termRefs } from './validators.js';

type Failures = Record<string, string | undefined>;

const requestMemo = new WeakMap<RestRequest, Map<string, Promise<unknown>>>();

/**
 * A value computed once per request (lookups shared by the checks, the permission, the `Allow`
 * header's second permission run, and the handler).
 */
export function perRequest<T>(req: RestRequest, key: string, compute: () => Promise<T>): Promise<T> {
  let memo = requestMemo.get(req);
  if (!memo) {
    memo = new Map();
    requestMemo.set(req, memo);
  }
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = compute();
    memo.set(key, value);
  }
  return value;
}
/** Records failing arguments in `failures`, or returns an error that ends the request at once. */
export type Check = (req: RestRequest, ctx: AppContext, failures: Failures) => Promise<void | RestError>;

/**
 * Runs the checks, then (only when all pass) the permission. The checks' outcome is remembered per
 * request: the dispatcher runs permissions again for the `Allow` header.
 */
export function checked(checks: readonly Check[], permission: Permission<AppContext>): Permission<AppContext> {
  const outcomes = new WeakMap<RestRequest, Promise<RestError | undefined>>();
  const run = async (req: RestRequest, ctx: AppContext): Promise<RestError | undefined> => {
    const failures: Failures = {};
    for (const check of checks) {
      const error = await check(req, ctx, failures);
      if (error) return error;
    }
    return Object.keys(failures).length > 0 ? invalidParams(failures) : undefined;
  };
  return async (req, ctx) => {
    let outcome = outcomes.get(req);
    if (!outcome) {
      outcome = run(req, ctx);
      outcomes.set(req, outcome);
    }
    const error = await outcome;
    return error ?? permission(req, ctx);
  };
}

async function userExists(ctx: AppContext, id: number): Promise<boolean> {
  const row = await ctx.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** `author` must be an existing user. */
export const checkAuthor: Check = async (req, ctx, failures) => {
  if (!req.has('author')) return;
  const id = Number(req.params.author);
  if (!Number.isInteger(id) || id <= 0 || !(await userExists(ctx, id))) failures.author = undefined;
};

/**
 * `image` must be an image attachment: by ID, or by URL when the URL is one of this site's media (the
 * original side-loads other URLs into its media library; there is no media library to load into here).
 */
export const checkImage: Check = async (req, ctx, failures) => {
  if (!req.has('image')) return;
  const v = req.params.image;
  if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))) {
    if (Number(v) === 0) return;
    const row = await ctx.db.selectFrom('posts').select('id').where('id', '=', Number(v)).where('type', '=', 'attachment').where('image_url', '!=', '').executeTakeFirst();
    if (!row) failures.image = undefined;
  } else if (typeof v === 'string' && v.trim() !== '' && !(await attachmentByUrl(ctx.db, v))) {
    failures.image = undefined;
  }
};

/** IDs in `venue` / `organizer` write input must be existing venues / organizers. */
function checkLinkedWrite(param: 'venue' | 'organizer'): Check {
  return async (req, ctx, failures) => {
    if (!req.has(param)) return;
    const refs = linkedRefs(req.params[param]);
    if (!refs) {
      failures[param] = undefined;
      return;
    }
    const ids = refs.flatMap((r) => ('id' in r ? [r.id] : []));
    const found = await existingLinkedIds(ctx.db, param, ids);
    const bad = ids.find((id) => !found.has(id));
    if (bad !== undefined) failures[param] = undefined;
  };
}

/** Numeric items of `categories` / `tags` write input must be existing terms (names may be new). */
function checkTermWrite(param: 'categories' | 'tags'): Check {
  const taxonomy = param === 'categories' ? CATEGORY_TAXONOMY : TAG_TAXONOMY;
  return async (req, ctx, failures) => {
    if (!req.has(param)) return;
    const refs = termRefs(req.params[param]) ?? [];
    const numeric = refs.filter((r) => /^\d+$/.test(r));
    if (numeric.length === 0) return;
    const rows = await ctx.db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).where('id', 'in', numeric.map(Number)).execute();
    const have = new Set(rows.map((r) => String(r.id)));
    const bad = numeric.find((r) => !have.has(r));
    if (bad !== undefined) failures[param] = undefined;
  };
}

/** Every database check of an event create/update. */
export const EVENT_WRITE_CHECKS: readonly Check[] = [
  checkAuthor, checkImage, checkTermWrite('categories'), checkTermWrite('tags'), checkLinkedWrite('venue'), checkLinkedWrite('organizer'),
];

/** Every database check of a venue/organizer create/update. */
export const LINKED_WRITE_CHECKS: readonly Check[] = [checkAuthor, checkImage];

/** `categories` / `tags` filters: each slug or ID must exist. */
function checkTermFilter(param: 'categories' | 'tags'): Check {
  const taxonomy = param === 'categories' ? CATEGORY_TAXONOMY : TAG_TAXONOMY;
  return async (req, ctx, failures) => {
    if (!req.has(param)) return;
    const { unknown } = await resolveTermRefs(ctx.db, taxonomy, parseList(req.params[param]));
    if (unknown.length > 0) failures[param] = undefined;
  };
}

/** `venue` / `organizer` filters: IDs of existing venues / organizers. */
function checkLinkedFilter(param: LinkedKind): Check {
  return async (req, ctx, failures) => {
    if (!req.has(param)) return;
    const items = parseList(req.params[param]);
    if (items.length === 0 || !items.every((i) => /^\d+$/.test(i))) {
      failures[param] = undefined;
      return;
    }
    const ids = items.map(Number);
    const found = await existingLinkedIds(ctx.db, param, ids);
    const bad = ids.find((id) => !found.has(id));
    if (bad !== undefined) failures[param] = undefined;
  };
}

/** An event ID parameter (`post_parent`, `event`, `post`) must be an existing event. */
export function checkEventParam(param: string): Check {
  return async (req, ctx, failures) => {
    if (!req.has(param)) return;
    const id = Number(req.params[param]);
    if (!Number.isInteger(id) || id <= 0 || !(await existingEventIds(ctx.db, [id])).has(id)) failures[param] = undefined;
  };
}

/** Every database check of the events archive. */
export const EVENT_LIST_CHECKS: readonly Check[] = [
  checkTermFilter('categories'), checkTermFilter('tags'), checkLinkedFilter('venue'), checkLinkedFilter('organizer'), checkEventParam('post_parent'),
];
