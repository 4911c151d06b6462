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
    // Separators as the original reads them (Post_RepositoryTest cost values): a comma before other than three
    // digits is a decimal comma; with both, the last one is the decimal separator.
    expect(parseCost('5,50 7,50')).toMatchObject({ values: ['5.5', '7.5'] });
    expect(parseCost('€6.50 - €8.50')).toMatchObject({ values: ['6.5', '8.5'], symbol: '€' });
    expect(parseCost('25,55')).toMatchObject({ values: ['25.55'] });
    expect(parseCost('1.234,5 €')).toMatchObject({ values: ['1234.5'], symbol: '€', position: 'postfix' });
    expect(parseCost('1,234.5')).toMatchObject({ values: ['1234.5'] });
    expect(parseCost('$10, $20')).toMatchObject({ values: ['10', '20'] });
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
