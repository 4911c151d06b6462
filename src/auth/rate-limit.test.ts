import { describe, expect, it } from 'vitest';
import { FailureLimiter, SignInLimiter } from './rate-limit.js';

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

describe('SignInLimiter', () => {
  it('counts an attempt before it is verified, so concurrent guesses cannot outrun the limit', () => {
    const l = new SignInLimiter({ pairFailures: 3, addressFailures: 10, maxInFlight: 100 });
    const attempts = Array.from({ length: 20 }, () => l.begin('a', 'joe', 1_000));
    expect(attempts.filter((a) => typeof a !== 'number')).toHaveLength(3);
  });

  it('caps attempts in flight per address', () => {
    const l = new SignInLimiter({ pairFailures: 100, addressFailures: 100, maxInFlight: 2 });
    const first = l.begin('a', 'u1', 0);
    const second = l.begin('a', 'u2', 0);
    expect(typeof l.begin('a', 'u3', 0)).toBe('number');
    expect(typeof l.begin('b', 'u3', 0)).not.toBe('number');
    if (typeof first !== 'number') first.end();
    expect(typeof l.begin('a', 'u3', 0)).not.toBe('number');
    if (typeof second !== 'number') second.end();
  });

  it('locks one login at one address, not every user behind that address, up to a higher per-address ceiling', () => {
    const l = new SignInLimiter({ pairFailures: 3, addressFailures: 6, maxInFlight: 10 });
    for (let i = 0; i < 3; i++) {
      const a = l.begin('a', 'victim', i);
      if (typeof a !== 'number') a.end();
    }
    expect(typeof l.begin('a', 'victim', 10)).toBe('number');
    expect(typeof l.begin('a', 'VICTIM', 10)).toBe('number');
    const other = l.begin('a', 'colleague', 10);
    expect(typeof other).not.toBe('number');
    if (typeof other !== 'number') {
      other.succeeded();
      other.end();
    }
    for (let i = 0; i < 3; i++) {
      const a = l.begin('a', `guess${i}`, 20);
      if (typeof a !== 'number') a.end();
    }
    expect(typeof l.begin('a', 'someone', 30)).toBe('number');
    expect(typeof l.begin('b', 'someone', 30)).not.toBe('number');
  });

  it('forgets a successful attempt', () => {
    const l = new SignInLimiter({ pairFailures: 1, addressFailures: 1, maxInFlight: 10 });
    const a = l.begin('a', 'u', 0);
    if (typeof a === 'number') throw new Error('refused');
    a.succeeded();
    a.end();
    expect(typeof l.begin('a', 'u', 1)).not.toBe('number');
  });
});
