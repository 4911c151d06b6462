import { describe, expect, it } from 'vitest';
import { scanFormTags } from './form-tags.js';
import { buildSchema, dateOption, validate } from './swv.js';
import { DEFAULT_MESSAGES } from './template.js';

const rulesOf = (form: string) => buildSchema(scanFormTags(form), DEFAULT_MESSAGES, 'en_US', '2030-01-31').rules;

describe('dateOption (the original\'s get_date_option)', () => {
  const option = (value: string, today = '2030-01-31') => dateOption(scanFormTags(`[date d min:${value}]`)[0]!, 'min', today);

  it('takes a real Y-m-d as it is and refuses an impossible one', () => {
    expect(option('2030-02-28')).toBe('2030-02-28');
    expect(option('2030-02-30')).toBeUndefined();
    expect(option('someday')).toBeUndefined();
  });

  it('reads today (or tomorrow, yesterday), moved by days, weeks, fortnights, months or years, as the original', () => {
    expect(option('today')).toBe('2030-01-31');
    expect(option('today+1day')).toBe('2030-02-01');
    expect(option('today-3days')).toBe('2030-01-28');
    expect(option('today+2weeks')).toBe('2030-02-14');
    expect(option('today_+_2_weeks')).toBe('2030-02-14'); // `_` reads as a space
    expect(option('today+1month')).toBe('2030-03-03'); // months overflow as PHP's
    expect(option('today+1year', '2028-02-29')).toBe('2029-03-01');
    expect(option('today+5fortnights')).toBe('2030-04-11');
    expect(option('today+7')).toBe('2030-02-07'); // days by default
    expect(option('tomorrow')).toBe('2030-02-01');
    expect(option('TODAY')).toBe('2030-01-31');
    expect(option('today-1950years', '2025-01-31')).toBe('0075-01-31');
  });

  it('gives no bound for what it cannot read, or a date beyond the years 0–9999', () => {
    for (const value of ['todayfoo', 'today+1_fortnightly', 'today+2hours', 'next_monday', 'today+10000years', 'today-999999days', 'today+1234567days', 'today+99999999999years']) {
      expect(option(value), value).toBeUndefined();
    }
  });

  it('reads option names in any case, as the original', () => {
    const rules = buildSchema(scanFormTags('[date d MIN:today] [text t MaxLength:5] [checkbox c Exclusive "a" "b"]'), DEFAULT_MESSAGES, 'en_US', '2030-01-31').rules;
    expect(rules.filter((r) => r.threshold !== undefined).map((r) => `${r.rule}:${r.threshold}`)).toEqual(['maxitems:1', 'mindate:2030-01-31', 'maxlength:5']);
  });

  it('makes the schema\'s date bounds from them', () => {
    const rules = buildSchema(scanFormTags('[date d min:today max:today+1month]'), DEFAULT_MESSAGES, 'en_US', '2030-01-31').rules;
    expect(rules.filter((r) => r.threshold !== undefined).map((r) => [r.rule, r.threshold])).toEqual([['mindate', '2030-01-31'], ['maxdate', '2030-03-03']]);
  });
});

describe('buildSchema (GET /contact-form/v1/contact-forms/{id}/feedback/schema)', () => {
  it('orders rules as the original: tag modules in load order, then checkbox and select enums', () => {
    const rules = rulesOf('[textarea msg] [text* who] [select* pick "a" "b"] [number n] [file f] [date d] [radio r "x" "y"]');
    expect(rules.map((r) => `${r.rule}:${r.field}`)).toEqual([
      'required:r', 'maxitems:r',
      'date:d',
      'file:f', 'maxfilesize:f',
      'number:n',
      'required:pick',
      'required:who', 'maxlength:who',
      'maxlength:msg',
      'enum:r',
      'enum:pick',
    ]);
  });

  it('gives a slider 0..100 unless set, and reads .5 as a number option', () => {
    expect(rulesOf('[range r]').filter((r) => r.threshold !== undefined).map((r) => [r.rule, r.threshold])).toEqual([['minnumber', '0'], ['maxnumber', '100']]);
    expect(rulesOf('[range r min:-5 max:.5]').filter((r) => r.threshold !== undefined).map((r) => r.threshold)).toEqual(['-5', '.5']);
    expect(rulesOf('[number n]').some((r) => r.rule === 'minnumber')).toBe(false);
  });

  it('takes maxlength from maxlength:N or the size/N form; 0 means the default', () => {
    const max = (form: string) => rulesOf(form).find((r) => r.rule === 'maxlength')?.threshold;
    expect(max('[text t maxlength:0]')).toBe(400);
    expect(max('[text t 40/80]')).toBe(80);
    expect(max('[text t /12]')).toBe(12);
    expect(max('[textarea t]')).toBe(2000);
  });

  it('lists no blank choice, drops a first_as_label value, merges same-named choices and skips free_text', () => {
    const enums = (form: string) => rulesOf(form).filter((r) => r.rule === 'enum').map((r) => [r.field, r.accept]);
    expect(enums('[select s include_blank "A" "B"]')).toEqual([['s', ['A', 'B']]]);
    expect(enums('[select s first_as_label "Choose" "A"]')).toEqual([['s', ['A']]]);
    expect(enums('[radio r "A"] [radio r "B" "A"]')).toEqual([['r', ['A', 'B']]]);
    expect(enums('[checkbox c "A"] [checkbox c free_text "B"]')).toEqual([]);
  });

  it('accepts the blank choice of a select without listing it', () => {
    const schema = buildSchema(scanFormTags('[select s include_blank "A"]'), DEFAULT_MESSAGES, 'en_US', '2030-01-31');
    expect(validate(schema, { values: { s: '' }, files: {} }).size).toBe(0);
    expect(validate(schema, { values: { s: 'Z' }, files: {} }).get('s')).toBe('Undefined value was submitted through this field.');
  });
});
