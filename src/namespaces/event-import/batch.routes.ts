/**
 * @module namespaces/event-import/batch.routes
 * `eventsuite/event-aggregator/v1`: the two routes the remote import service calls back. No user
 * credentials, as the original: the proof is the id of a **pending** record plus the one-time batch
 * hash the site handed out (see the README). Arguments are checked in the original's order and
 * stages: types first (WordPress's sanitise stage), then each validator (every failure listed).
 */
import crypto from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { validateValue } from '../../rest/schema.js';
import { invalidParams, RestError } from '../../rest/errors.js';
import { isPhpNumeric } from '../../rest/php-query.js';
import { CREATABLE, defineRoutes, type ArgSchema, type ArgSchemas, type Permission, type RestRequest } from '../../rest/route.js';
import { stateRefused } from './errors.js';
import { applyItems } from './import.service.js';
import { getRecord, mergeActivity, newBatchHash, updateRecord, type ImportRecord } from './records.repo.js';
import { fromServiceItem } from './service-items.js';

export const IMPORT_NS = 'eventsuite/event-aggregator/v1';

/** Seconds the service waits before the next push (the original's `interval_min`/`interval_max`). */
export const INTERVAL_MIN = 10;
export const INTERVAL_MAX = 600;

/** The answer's interval: the site's setting (the original's filter), clamped to 10…600. */
export function clampInterval(value: unknown): number {
  const n = isPhpNumeric(value) ? Math.trunc(Number(value)) : Number.NaN;
  return Number.isFinite(n) && n > INTERVAL_MIN ? Math.min(INTERVAL_MAX, n) : INTERVAL_MIN;
}

// Arguments are checked by `checkedArgs` below; the declarations give discovery its schema.
const unchecked = { validate: () => true, sanitize: (v: unknown) => v } as const;
const arg = (schema: ArgSchema): ArgSchema => ({ ...schema, ...unchecked });

const IMPORT_ID = arg({ required: true, type: 'string', description: 'The import unique ID as provided by Event Aggregator service' });
const BATCH_HASH = arg({ required: true, type: 'string', description: 'The hash of the next expected batch, as previously provided by the client' });
const PERCENTAGE = arg({ required: true, type: 'integer', description: 'The percentage of import completed.' });

const BATCH_ARGS: ArgSchemas = {
  import_id: IMPORT_ID,
  batch_hash: BATCH_HASH,
  status: arg({ required: true, type: 'object', description: 'The current status of the import.' }),
  percentage_complete: PERCENTAGE,
  interval: arg({ required: false, type: 'integer', description: 'The current interval, in seconds, between the end of a batch process and the start of the next; as set on the server.' }),
};

const STATE_ARGS: ArgSchemas = {
  import_id: IMPORT_ID,
  batch_hash: BATCH_HASH,
  status: arg({ required: true, type: 'string', enum: ['success', 'failed', 'pending'], description: 'The new status of the import.' }),
  message: arg({ required: true, type: 'string', description: 'The new status message for the user, not localized.' }),
  message_slug: arg({ required: true, type: 'string', description: 'The new status message slug, to allow for localized messages.' }),
  percentage_complete: PERCENTAGE,
};

const num = (v: unknown) => isPhpNumeric(v);
const int = (v: unknown) => Math.trunc(Number(v));

function isPercentage(v: unknown): boolean {
  return num(v) && int(v) >= 0 && int(v) <= 100;
}

function isValidStatusInformation(v: unknown): boolean {
  const s = v as { data?: Record<string, unknown>; batch?: Record<string, unknown> } | null;
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return false;
  const d = s.data;
  const b = s.batch;
  return !!d && typeof d === 'object' && num(d.total) && num(d.done) && int(d.done) <= int(d.total)
    && !!b && typeof b === 'object' && num(b.total) && num(b.done) && int(b.done) <= int(b.total);
}

type Validator = (value: unknown, req: RestRequest, ctx: AppContext, found: { record?: ImportRecord }) => boolean | Promise<boolean>;

const isPendingImport: Validator = async (value, _req, ctx, found) => {
  const record = typeof value === 'string' && /^\w+$/.test(value) ? await getRecord(ctx.db, value) : undefined;
  found.record = record?.status === 'pending' ? record : undefined;
  return found.record !== undefined;
};

/** Fails closed: no pending record or no stored hash → invalid (the newer releases' rule). */
const isExpectedHash: Validator = (value, _req, _ctx, found) => {
  const expected = found.record?.nextBatchHash ?? '';
  return expected !== '' && typeof value === 'string' && value.length === expected.length && crypto.timingSafeEqual(Buffer.from(value), Buffer.from(expected));
};

const memo = new WeakMap<RestRequest, Promise<RestError | ImportRecord>>();

/** Types of every sent argument, then the validators in order; the pending record when all pass. */
function checkedArgs(args: ArgSchemas, validators: Record<string, Validator>): Permission<AppContext> {
  const run = async (req: RestRequest, ctx: AppContext): Promise<RestError | ImportRecord> => {
    const typeFailures: Record<string, RestError> = {};
    for (const [name, schema] of Object.entries(args)) {
      if (!req.has(name)) continue;
      const { validate: _v, sanitize: _s, ...plain } = schema;
      const verdict = validateValue(req.params[name], plain, name);
      if (verdict !== true) typeFailures[name] = verdict;
    }
    if (Object.keys(typeFailures).length > 0) return invalidParams(typeFailures);
    const found: { record?: ImportRecord } = {};
    const failures: Record<string, false> = {};
    for (const [name, validate] of Object.entries(validators)) {
      if (!req.has(name)) continue;
      if (!(await validate(req.params[name], req, ctx, found))) failures[name] = false;
    }
    if (Object.keys(failures).length > 0) return invalidParams(failures);
    return found.record!;
  };
  return async (req, ctx) => {
    let outcome = memo.get(req);
    if (!outcome) {
      outcome = run(req, ctx);
      memo.set(req, outcome);
    }
    const result = await outcome;
    return result instanceof RestError ? result : true;
  };
}

async function recordOf(req: RestRequest): Promise<ImportRecord> {
  return (await memo.get(req)) as ImportRecord;
}

/** Batches of one record are processed one at a time in this process. */
const running = new Map<string, Promise<unknown>>();
async function serially<T>(id: string, fn: () => Promise<T>): Promise<T> {
  const previous = running.get(id) ?? Promise.resolve();
  const next = previous.then(fn, fn);
  running.set(id, next.catch(() => undefined));
  try {
    return await next;
  } finally {
    if (running.get(id) === next) running.delete(id);
  }
}

async function postBatch(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const record = await recordOf(req);
  return serially(record.id, async () => {
    const status = req.params.status as { data: Record<string, unknown>; batch: Record<string, unknown> };
    const raw = Array.isArray(req.params.events) ? req.params.events : req.params.events && typeof req.params.events === 'object' ? Object.values(req.params.events) : [];
    const items = [];
    const skipped = [];
    for (const entry of raw) {
      const item = fromServiceItem(entry);
      if ('key' in item) items.push(item);
      else skipped.push(item);
    }
    const result = await applyItems(ctx, record.id, items);
    const isLast = int(status.batch.total) === int(status.batch.done) + 1;
    // Every item either became an event or was refused on its own: the batch itself succeeded.
    const finished = isLast;
    const interval = clampInterval(await ctx.options.get('import_batch_interval', INTERVAL_MIN));
    const current = (await getRecord(ctx.db, record.id)) ?? record;
    const nextHash = finished ? null : newBatchHash();
    await updateRecord(ctx.db, record.id, {
      totalEvents: int(status.data.total),
      percentageComplete: int(req.params.percentage_complete),
      activity: mergeActivity(current.activity, result.activity),
      nextBatchHash: nextHash,
      status: finished ? 'success' : 'pending',
      ...(skipped.length + result.skipped.length > 0 ? { message: `${skipped.length + result.skipped.length} items skipped: ${[...skipped, ...result.skipped].map((s) => `${s.uid || '(no id)'}: ${s.reason}`).join('; ').slice(0, 2000)}` } : {}),
    }, ctx.now());
    const body: Record<string, unknown> = { status: 'success', activity: result.activity, interval };
    if (nextHash) body.next_batch_hash = nextHash;
    return body;
  });
}

async function postState(req: RestRequest, ctx: AppContext): Promise<unknown> {
  const record = await recordOf(req);
  const status = req.params.status as 'success' | 'failed' | 'pending';
  const res = await ctx.db
    .updateTable('import_records')
    .set({
      status,
      percentage_complete: int(req.params.percentage_complete),
      ...(status === 'failed' ? { message: String(req.params.message), message_slug: String(req.params.message_slug) } : {}),
      ...(status !== 'pending' ? { next_batch_hash: null } : {}),
    })
    .where('id', '=', record.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) {
    throw stateRefused(record.id, status, (await getRecord(ctx.db, record.id))?.status ?? 'deleted');
  }
  return { status: 'success' };
}

export const importRoutes = defineRoutes<AppContext>(IMPORT_NS, [
  {
    path: '/import/{import_id:\\w+}/batch',
    endpoints: [{
      methods: CREATABLE, args: BATCH_ARGS, handler: postBatch,
      permission: checkedArgs(BATCH_ARGS, {
        import_id: isPendingImport, batch_hash: isExpectedHash, status: (v) => isValidStatusInformation(v),
        percentage_complete: (v) => isPercentage(v), interval: (v) => num(v),
      }),
    }],
  },
  {
    path: '/import/{import_id:\\w+}/state',
    endpoints: [{
      methods: CREATABLE, args: STATE_ARGS, handler: postState,
      permission: checkedArgs(STATE_ARGS, { import_id: isPendingImport, batch_hash: isExpectedHash, percentage_complete: (v) => isPercentage(v) }),
    }],
  },
]);
