/**
 * @module auth/rate-limit
 * Failed sign-ins per client address: after {@link FailureLimiterOptions.maxFailures} failures within
 * the window, further credential checks from that address are refused until the oldest failure leaves
 * the window.
 *
 * The map lives in this process's memory and is bounded (`maxAddresses`, least recently failed first
 * out), so a flood of addresses cannot exhaust memory; with several instances each counts on its own,
 * which multiplies the allowance by the number of instances but still bounds guessing.
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

  /** Number of addresses tracked (for tests and metrics). */
  get size(): number {
    return this.#failures.size;
  }
}
