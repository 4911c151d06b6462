/**
 * @module namespaces/contact-forms/rate-limit
 * Submissions per client address in a sliding window, so one address cannot flood a form (or the
 * mail server behind it) while others still get through. In memory, bounded in addresses; with
 * several instances each counts on its own.
 */

export class SubmissionLimiter {
  readonly #hits = new Map<string, number[]>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    readonly maxAddresses = 10_000,
  ) {}

  /** Counts one attempt of `address`; returns 0 when allowed, else seconds until it may try again. */
  hit(address: string, now: number): number {
    const from = now - this.windowMs;
    const recent = (this.#hits.get(address) ?? []).filter((t) => t > from);
    if (recent.length >= this.max) {
      this.#hits.set(address, recent);
      return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
    }
    recent.push(now);
    this.#hits.delete(address);
    this.#hits.set(address, recent);
    while (this.#hits.size > this.maxAddresses) {
      const oldest = this.#hits.keys().next().value;
      if (oldest === undefined) break;
      this.#hits.delete(oldest);
    }
    return 0;
  }
}

/** Feedback posts allowed per address per minute. */
export const FEEDBACK_PER_MINUTE = 20;
