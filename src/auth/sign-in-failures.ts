/**
 * @module auth/sign-in-failures
 * The failed-sign-in limit shared by every instance on one database. Each failed attempt is one
 * UPSERT of two rows (the (address, login) pair and the address), counting failures in a window that
 * starts at the first failure; before a credential is checked, one primary-key read tells whether
 * the pair or the address is over its limit anywhere. Within the process, `rate-limit.ts` still counts
 * attempts before they are verified and caps those in flight, so concurrent guesses cannot outrun it.
 *
 * Keys are digests, so the table holds neither addresses nor login names. Windows that are over are
 * deleted now and then by the process recording a failure, which keeps the table to the failures of
 * the last window.
 *
 * @example
 * const attempt = await beginSignIn(ctx, request.ip, login, Date.now());
 * if (typeof attempt === 'number') return tooMany(attempt);
 * try { if (await check()) attempt.succeeded(); } finally { await attempt.end(); }
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { Db } from '../storage/db.js';
import { authState } from './auth-state.js';
import { DEFAULT_LIMITS } from './rate-limit.js';

export interface SharedLimits {
  /** Failures of one login from one address within the window. */
  pairFailures: number;
  /** Failures from one address across logins. */
  addressFailures: number;
  windowMs: number;
}

export const DEFAULT_SHARED_LIMITS: Readonly<SharedLimits> = Object.freeze({ pairFailures: DEFAULT_LIMITS.maxFailures, addressFailures: 50, windowMs: DEFAULT_LIMITS.windowMs });

/** Failures recorded between two sweeps of expired windows. */
const SWEEP_EVERY = 100;

function digest(text: string): string {
  return crypto.createHash('sha256').update(text).digest('base64url');
}

function keysOf(address: string, login: string): { pair: string; address: string } {
  return { pair: digest(`pair\u0000${address}\u0000${login.trim().toLowerCase()}`), address: digest(`address\u0000${address}`) };
}

/** Failed sign-ins in the database, for every instance. */
export class SharedSignInFailures {
  #sinceSweep = 0;

  constructor(
    readonly db: Db,
    readonly limits: SharedLimits = DEFAULT_SHARED_LIMITS,
  ) {}

  /** Seconds until `login` may be tried from `address` (0 = now). */
  async retryAfter(address: string, login: string, now: number): Promise<number> {
    const keys = keysOf(address, login);
    const rows = await this.db.selectFrom('sign_in_failures').select(['key', 'failures', 'window_start']).where('key', 'in', [keys.pair, keys.address]).execute();
    let wait = 0;
    for (const row of rows) {
      const max = row.key === keys.pair ? this.limits.pairFailures : this.limits.addressFailures;
      const ends = Number(row.window_start) + this.limits.windowMs;
      if (row.failures >= max && ends > now) wait = Math.max(wait, Math.max(1, Math.ceil((ends - now) / 1000)));
    }
    return wait;
  }

  /** Records one failure of `login` from `address`: a single UPSERT of both keys. */
  async record(address: string, login: string, now: number): Promise<void> {
    const keys = keysOf(address, login);
    const expired = now - this.limits.windowMs;
    await this.db
      .insertInto('sign_in_failures')
      .values([
        { key: keys.pair, failures: 1, window_start: now },
        { key: keys.address, failures: 1, window_start: now },
      ])
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql`case when sign_in_failures.window_start <= ${expired} then 1 else sign_in_failures.failures + 1 end`,
          window_start: sql`case when sign_in_failures.window_start <= ${expired} then excluded.window_start else sign_in_failures.window_start end`,
        }),
      )
      .execute();
    if (++this.#sinceSweep >= SWEEP_EVERY) {
      this.#sinceSweep = 0;
      await this.db.deleteFrom('sign_in_failures').where('window_start', '<=', expired).execute();
    }
  }
}

const stores = new WeakMap<AppContext, SharedSignInFailures>();

function storeOf(ctx: AppContext): SharedSignInFailures {
  let store = stores.get(ctx);
  if (!store) stores.set(ctx, (store = new SharedSignInFailures(ctx.db)));
  return store;
}

/** One sign-in attempt under way; counts as failed unless {@link SharedSignInAttempt.succeeded} is called. */
export interface SharedSignInAttempt {
  succeeded(): void;
  /** Must be called when the check is over, whatever its outcome; records a failure in the database. */
  end(): Promise<void>;
}

/**
 * Starts a sign-in attempt of `login` from `address`, or answers the seconds to wait when the shared
 * count (any instance) or this process's limiter refuses it.
 */
export async function beginSignIn(ctx: AppContext, address: string, login: string, now: number): Promise<number | SharedSignInAttempt> {
  const store = storeOf(ctx);
  const shared = await store.retryAfter(address, login, now);
  if (shared > 0) return shared;
  const local = authState(ctx).limiter.begin(address, login, now);
  if (typeof local === 'number') return local;
  let ok = false;
  let open = true;
  return {
    succeeded: () => {
      ok = true;
      local.succeeded();
    },
    end: async () => {
      if (!open) return;
      open = false;
      local.end();
      if (ok) return;
      try {
        await store.record(address, login, now);
      } catch (err) {
        // The local count still holds; a database that cannot take the write fails elsewhere loudly.
        ctx.log.warn({ err: (err as Error).message }, 'failed sign-in not recorded in the database');
      }
    },
  };
}
