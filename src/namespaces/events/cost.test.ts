import { describe, expect, it } from 'vitest';
import { displayCost, parseCost } from './cost.js';

describe('event costs', () => {
  it('reads the symbol and its position out of the text', () => {
    expect(parseCost('$20')).toMatchObject({ values: ['20'], symbol: '$', position: 'prefix', code: 'USD' });
    expect(parseCost('20€')).toMatchObject({ values: ['20'], symbol: '€', position: 'postfix', code: 'EUR' });
    expect(parseCost('£5.50')).toMatchObject({ values: ['5.5'], symbol: '£', code: 'GBP' });
    expect(parseCost('Free')).toMatchObject({ values: ['0'], symbol: '$', position: 'prefix' });
    expect(parseCost('15')).toMatchObject({ values: ['15'], symbol: '$', position: 'prefix' });
    expect(parseCost('Donation')).toMatchObject({ text: 'Donation', values: [], symbol: '', code: '' });
    expect(parseCost('')).toMatchObject({ text: '', values: [], symbol: '', position: '' });
    expect(parseCost(['30', '0', '20', '20'])).toMatchObject({ values: ['0', '20', '30'] });
    expect(parseCost('$1,200')).toMatchObject({ values: ['1200'] });
  });
  it('builds the display cost', () => {
    expect(displayCost('$5', ['5'], '$', 'prefix')).toBe('$5');
    expect(displayCost('0', ['0'], '$', 'prefix')).toBe('Free');
    expect(displayCost('', ['0', '20', '30'], '$', 'postfix')).toBe('Free – 30$');
    expect(displayCost('10-20', ['10', '20'], '€', 'prefix')).toBe('€10 – €20');
    expect(displayCost('Donation', [], '', '')).toBe('Donation');
    expect(displayCost('', [], '', '')).toBe('');
  });
});
