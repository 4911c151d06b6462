import { describe, expect, it } from 'vitest';
import { costDetails, currencyConfig, formatCost, formatNumber, lineTotal, sumAmounts } from './money.js';
import { normaliseStatus, providerFilter, resolveProvider, RSVP, TRIBE_COMMERCE } from './providers.js';
import { availablePercentage, redact, ticketStock } from './tickets.present.js';

describe('ticketStock / availablePercentage', () => {
  it('follows the capacity mode: own, global (shared pool), capped (the smaller), unlimited', () => {
    expect(ticketStock({ capacityMode: 'own', capacity: 200, sold: 48, shared: null })).toEqual({ capacity: 200, available: 152 });
    expect(ticketStock({ capacityMode: 'global', capacity: -1, sold: 3, shared: { capacity: 30, sold: 25 } })).toEqual({ capacity: 30, available: 5 });
    expect(ticketStock({ capacityMode: 'capped', capacity: 10, sold: 2, shared: { capacity: 30, sold: 27 } })).toEqual({ capacity: 10, available: 3 });
    expect(ticketStock({ capacityMode: '', capacity: -1, sold: 99, shared: null })).toEqual({ capacity: -1, available: -1 });
    expect(ticketStock({ capacityMode: 'own', capacity: 5, sold: 9, shared: null }).available).toBe(0);
  });

  it('is 100 when unlimited, 0 when nothing is left or capacity is 0, else floored', () => {
    expect(availablePercentage({ capacity: -1, available: -1 })).toBe(100);
    expect(availablePercentage({ capacity: 200, available: 152 })).toBe(76);
    expect(availablePercentage({ capacity: 3, available: 1 })).toBe(33);
    expect(availablePercentage({ capacity: 0, available: 0 })).toBe(0);
    expect(availablePercentage({ capacity: 10, available: 0 })).toBe(0);
  });
});

describe('redact', () => {
  it('replaces every value recursively, keeping keys: numbers and numeric strings 0, booleans null, other strings and null "No Access"', () => {
    expect(redact({ id: 5, title: 'x', ok: true, nested: { a: [1, 'b'], n: null } })).toEqual({ id: 0, title: 'No Access', ok: null, nested: { a: [0, 'No Access'], n: 'No Access' } });
    expect(redact({ author: '0', values: ['12.50'], year: '2024', empty: '', list: [] })).toEqual({ author: 0, values: [0], year: 0, empty: 'No Access', list: [] });
  });
});

describe('money', () => {
  it('formats costs and details as the original', () => {
    expect(formatCost(12, 'USD')).toBe('$12.00');
    expect(formatCost(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatCost(3, 'PLN')).toBe('3.00zł');
    expect(costDetails('12', 'USD')).toEqual({
      currency_symbol: '$', currency_position: 'prefix', values: ['12'], suffix: null,
      currency_decimal_separator: '.', currency_decimal_numbers: 2, currency_thousand_separator: ',',
    });
    expect(currencyConfig('USD')).toEqual({ symbol: '&#x24;', placement: 'prefix', decimal_point: '.', thousands_sep: ',', number_of_decimals: 2 });
  });

  it('formats each amount as its own, however many amounts it has formatted before (they are kept for reuse)', () => {
    const expected = (n: number) => `${Math.floor(n / 1000) > 0 ? `${Math.floor(n / 1000)},${String(n % 1000).padStart(3, '0')}` : n}.50`;
    for (let round = 0; round < 2; round++) {
      for (let n = 0; n < 2500; n += 1) expect(formatNumber(n + 0.5)).toBe(expected(n));
    }
    expect(formatNumber(-0)).toBe('0.00');
    expect(formatNumber(0.125)).toBe('0.13');
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
  });

  it('adds money in cents without float drift', () => {
    expect(lineTotal(0.1, 3)).toBe(0.3);
    expect(sumAmounts([0.1, 0.2])).toBe(0.3);
  });
});

describe('providers', () => {
  it('resolve slugs, aliases and class names; filters drop unknown names', () => {
    expect(resolveProvider('Tribe__Tickets__RSVP')).toBe(RSVP);
    expect(resolveProvider('\\Tribe__Tickets__Commerce__PayPal__Main')).toBe(TRIBE_COMMERCE);
    expect(resolveProvider('tpp')).toBe(TRIBE_COMMERCE);
    expect(resolveProvider('woo')).toBeUndefined();
    expect(providerFilter(['woo', 'rsvp', 'tribe-commerce', 'tpp'])).toEqual(['rsvp', 'tribe-commerce']);
  });

  it('normalise statuses with their aliases', () => {
    expect(normaliseStatus(RSVP, 'Going')).toBe('yes');
    expect(normaliseStatus(RSVP, 'not-going')).toBe('no');
    expect(normaliseStatus(RSVP, 'completed')).toBeUndefined();
    expect(normaliseStatus(TRIBE_COMMERCE, 'refunded')).toBe('refunded');
  });
});
