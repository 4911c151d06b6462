/**
 * @module auth/rate-limit
 * Failed sign-ins: {@link FailureLimiter} counts failures per key in a sliding window; after
 * `maxFailures` further checks for that key are refused until the oldest failure leaves the window.
 * {@link SignInLimiter} applies it per (address, login) and, with a higher ceiling, per address, counts
 * each attempt as failed before it is verified (so concurrent guesses cannot outrun the limit) and
 * caps the attempts one address has in flight.
 *
 * The map lives in this process's memory and is bounded (`maxAddresses`, least recently failed first
 * out), so a flood of addresses cannot exhaust memory. Sign-ins also count their failures in the
 * database, shared by every instance (`sign-in-failures.ts`); this map adds the up-front count and
 * the in-flight cap within one process.
 */

export interface FailureLimiterOptions {
  maxFailures: number;
  windowMs: number;
  maxAddresses: number;
}

export const DEFAULT_LIMITS: Readonly<FailureLimiterOptions> = Object.freeze({
  maxFailures: 10,
  windowMs: 5 * 60_000,
  maxAddresses: 10_000,
});

/** Counts failures per address in a sliding window. */
export class FailureLimiter {
  readonly #failures = new Map<string, number[]>();
  readonly #opts: FailureLimiterOptions;

  constructor(options: Partial<FailureLimiterOptions> = {}) {
    this.#opts = { ...DEFAULT_LIMITS, ...options };
  }

  #recent(address: string, now: number): number[] {
    const list = this.#failures.get(address);
    if (!list) return [];
    const from = now - this.#opts.windowMs;
    const kept = list.filter((t) => t > from);
    if (kept.length === 0) this.#failures.delete(address);
    else if (kept.length !== list.length) this.#failures.set(address, kept);
    return kept;
  }

  /** Seconds until `address` may try again, or 0 when it may try now. */
  retryAfter(address: string, now: number): number {
    const recent = this.#recent(address, now);
    if (recent.length < this.#opts.maxFailures) return 0;
    const oldestCounted = recent[recent.length - this.#opts.maxFailures]!;
    return Math.max(1, Math.ceil((oldestCounted + this.#opts.windowMs - now) / 1000));
  }

  /** Records one failure of `address`. */
  fail(address: string, now: number): void {
    const recent = this.#recent(address, now);
    recent.push(now);
    // Keep only what can still matter, and move the address to the back of the eviction order.
    this.#failures.delete(address);
    this.#failures.set(address, recent.slice(-this.#opts.maxFailures));
    while (this.#failures.size > this.#opts.maxAddresses) {
      const oldest = this.#failures.keys().next().value;
      if (oldest === undefined) break;
      this.#failures.delete(oldest);
    }
  }

  /** Removes one recorded failure of `address` at `at` (an attempt that turned out to succeed). */
  forgive(address: string, at: number): void {
    const list = this.#failures.get(address);
    const i = list ? list.lastIndexOf(at) : -1;
    if (i === -1) return;
    list!.splice(i, 1);
    if (list!.length === 0) this.#failures.delete(address);
  }

  /** Number of addresses tracked (for tests and metrics). */
  get size(): number {
    return this.#failures.size;
  }
}

export interface SignInLimiterOptions {
  /** Failures of one login from one address within the window (default 10). */
  pairFailures: number;
  /** Failures from one address across logins (default 50): one address cannot lock everyone out. */
  addressFailures: number;
  /** Credential checks one address may have running at once (default 4). */
  maxInFlight: number;
  windowMs: number;
  maxAddresses: number;
}

/** One sign-in attempt under way: counted as failed until {@link SignInAttempt.succeeded}. */
export interface SignInAttempt {
  succeeded(): void;
  /** Must be called when the check is over, whatever its outcome. */
  end(): void;
}

/** Failed-sign-in limits per (address, login) and per address, with attempts counted up front. */
export class SignInLimiter {
  readonly #pairs: FailureLimiter;
  readonly #addresses: FailureLimiter;
  readonly #inFlight = new Map<string, number>();
  readonly #maxInFlight: number;

  constructor(options: Partial<SignInLimiterOptions> = {}) {
    const { pairFailures = DEFAULT_LIMITS.maxFailures, addressFailures = 50, maxInFlight = 4, windowMs = DEFAULT_LIMITS.windowMs, maxAddresses = DEFAULT_LIMITS.maxAddresses } = options;
    this.#pairs = new FailureLimiter({ maxFailures: pairFailures, windowMs, maxAddresses });
    this.#addresses = new FailureLimiter({ maxFailures: addressFailures, windowMs, maxAddresses });
    this.#maxInFlight = maxInFlight;
  }

  /** Seconds to wait before `login` may be tried from `address` (0 = now), without starting anything. */
  retryAfter(address: string, login: string, now: number): number {
    return Math.max(this.#pairs.retryAfter(pairKey(address, login), now), this.#addresses.retryAfter(address, now));
  }

  /** Starts an attempt, or answers the seconds to wait when one is not allowed now. */
  begin(address: string, login: string, now: number): number | SignInAttempt {
    const wait = this.retryAfter(address, login, now);
    if (wait > 0) return wait;
    const running = this.#inFlight.get(address) ?? 0;
    if (running >= this.#maxInFlight) return 1;
    const pair = pairKey(address, login);
    this.#pairs.fail(pair, now);
    this.#addresses.fail(address, now);
    this.#inFlight.set(address, running + 1);
    let open = true;
    return {
      succeeded: () => {
        this.#pairs.forgive(pair, now);
        this.#addresses.forgive(address, now);
      },
      end: () => {
        if (!open) return;
        open = false;
        const left = (this.#inFlight.get(address) ?? 1) - 1;
        if (left > 0) this.#inFlight.set(address, left);
        else this.#inFlight.delete(address);
      },
    };
  }
}

function pairKey(address: string, login: string): string {
  return `${address}\u0000${login.trim().toLowerCase()}`;
}
