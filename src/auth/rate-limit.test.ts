import { describe, expect, it } from 'vitest';
import { FailureLimiter } from './rate-limit.js';

describe('FailureLimiter', () => {
  it('refuses after maxFailures within the window and tells how long to wait', () => {
    const l = new FailureLimiter({ maxFailures: 3, windowMs: 60_000 });
    const t0 = 1_000_000;
    l.fail('a', t0);
    l.fail('a', t0 + 10_000);
    expect(l.retryAfter('a', t0 + 10_000)).toBe(0);
    l.fail('a', t0 + 20_000);
    expect(l.retryAfter('a', t0 + 20_000)).toBe(40);
    expect(l.retryAfter('b', t0 + 20_000)).toBe(0);
    expect(l.retryAfter('a', t0 + 60_001)).toBe(0);
  });

  it('stays bounded: the least recently failing address goes first', () => {
    const l = new FailureLimiter({ maxFailures: 1, windowMs: 60_000, maxAddresses: 2 });
    l.fail('a', 1);
    l.fail('b', 2);
    l.fail('c', 3);
    expect(l.size).toBe(2);
    expect(l.retryAfter('a', 4)).toBe(0);
    expect(l.retryAfter('b', 4)).toBeGreaterThan(0);
    expect(l.retryAfter('c', 4)).toBeGreaterThan(0);
  });
});
