import { describe, it, expect, vi } from 'vitest';
import { RestError } from './errors.js';
import type { ArgSchema, ArgSchemas, RestRequest } from './route.js';
import { checkArgs, contextArg, idArg, searchArg } from './args.js';
import { sanitizeValue, validateValue } from './schema.js';
import { paginationArgs } from './pagination.js';
import { absint } from './php-query.js';

interface Outcome {
  code: string;
  message: string;
  data: unknown;
}

function outcome(result: true | RestError): true | Outcome {
  return result === true ? true : { code: result.code, message: result.message, data: result.data ?? null };
}

function err(code: string, message: string, data: unknown = null): Outcome {
  return { code, message, data };
}

function typeErr(param: string, type: string): Outcome {
  return err('rest_invalid_type', `${param} is not of type ${type}.`, { param });
}

type ValidationRow = [label: string, schema: ArgSchema, value: unknown, expected: true | Outcome];

function runValidationTable(rows: ValidationRow[], param = 'x'): void {
  it.each(rows)('%s', (_label, schema, value, expected) => {
    expect(outcome(validateValue(value, schema, param))).toStrictEqual(expected);
  });
}

const req = {
  method: 'GET',
  route: '/test',
  query: {},
  body: {},
  json: undefined,
  rawBody: undefined,
  urlParams: {},
  headers: {},
  files: {},
  user: null,
  auth: { method: 'none' },
  ip: '127.0.0.1',
  params: {},
  has: () => false,
  locals: {},
} satisfies RestRequest;

// ---------------------------------------------------------------------------------------------

describe('types and coercion (3.4)', () => {
  // [type, value, valid, sanitised]
  const rows: [string, unknown, boolean, unknown][] = [
    ['integer', 5, true, 5],
    ['integer', '5', true, 5],
    ['integer', '5.0', true, 5],
    ['integer', 5.0, true, 5],
    ['integer', ' 5', true, 5],
    ['integer', '5 ', true, 5],
    ['integer', '-3', true, -3],
    ['integer', '+3', true, 3],
    ['integer', '1e3', true, 1000],
    ['integer', '5.5', false, undefined],
    ['integer', 5.5, false, undefined],
    ['integer', 'abc', false, undefined],
    ['integer', '', false, undefined],
    ['integer', '0x1A', false, undefined],
    ['integer', true, false, undefined],
    ['integer', [5], false, undefined],
    ['number', '1e3', true, 1000],
    ['number', '-2.5', true, -2.5],
    ['number', '.5', true, 0.5],
    ['number', 3, true, 3],
    ['number', 'abc', false, undefined],
    ['number', true, false, undefined],
    ['boolean', true, true, true],
    ['boolean', false, true, false],
    ['boolean', 0, true, false],
    ['boolean', 1, true, true],
    ['boolean', 'true', true, true],
    ['boolean', 'TRUE', true, true],
    ['boolean', 'False', true, false],
    ['boolean', '0', true, false],
    ['boolean', '1', true, true],
    ['boolean', 'yes', false, undefined],
    ['boolean', 'on', false, undefined],
    ['boolean', '', false, undefined],
    ['boolean', 2, false, undefined],
    ['boolean', null, false, undefined],
    ['string', 'x', true, 'x'],
    ['string', '', true, ''],
    ['string', 5, false, undefined],
    ['string', true, false, undefined],
    ['string', ['x'], false, undefined],
    ['array', ['a'], true, ['a']],
    ['array', 'a,b', true, ['a', 'b']],
    ['array', 'a b', true, ['a', 'b']],
    ['array', '', true, []],
    ['array', 5, true, ['5']],
    ['array', { 0: 'a', 1: 'b' }, true, ['a', 'b']],
    ['array', {}, true, []],
    ['array', { x: '1' }, false, undefined],
    ['array', null, false, undefined],
    ['object', { a: 1 }, true, { a: 1 }],
    ['object', '', true, {}],
    ['object', ['a'], true, { 0: 'a' }],
    ['object', 'x', false, undefined],
    ['object', 5, false, undefined],
    ['object', true, false, undefined],
    ['null', null, true, null],
    ['null', '', false, undefined],
    ['null', 0, false, undefined],
  ];
  it.each(rows)('%s accepts %j: %s', (type, value, valid, sanitised) => {
    const schema: ArgSchema = { type };
    const result = validateValue(value, schema, 'x');
    if (valid) {
      expect(result).toBe(true);
      expect(sanitizeValue(value, schema, 'x')).toStrictEqual(sanitised);
    } else {
      expect(outcome(result)).toStrictEqual(typeErr('x', type));
    }
  });

  it('names the param in the message and in data', () => {
    expect(validateValue('abc', { type: 'integer' }, 'id')).toMatchObject({
      code: 'rest_invalid_type',
      message: 'id is not of type integer.',
      data: { param: 'id' },
      status: 400,
    });
  });

  const typeLists: [string, ArgSchema['type'], unknown, true | Outcome, unknown][] = [
    ['"" prefers string', ['array', 'string'], '', true, ''],
    ['"" prefers string over object', ['object', 'string'], '', true, ''],
    ['"" without string becomes the first type', ['array', 'object'], '', true, []],
    ['first satisfied type wins (integer)', ['integer', 'string'], '5', true, 5],
    ['first satisfied type wins (string)', ['string', 'integer'], '5', true, '5'],
    ['boolean before string', ['boolean', 'string'], 'true', true, true],
    ['null listed', ['integer', 'null'], null, true, null],
    ['failure lists types with commas', ['integer', 'null'], 'abc', typeErr('x', 'integer,null'), null],
    ['unknown listed type tolerates anything', ['integer', 'date'] as unknown as ArgSchema['type'], 'abc', true, 'abc'],
  ];
  it.each(typeLists)('type list: %s', (_label, type, value, expected, sanitised) => {
    const schema = { type } as ArgSchema;
    expect(outcome(validateValue(value, schema, 'x'))).toStrictEqual(expected);
    expect(sanitizeValue(value, schema, 'x')).toStrictEqual(sanitised);
  });

  runValidationTable([
    ['unknown type name accepts anything', { type: 'date' }, { a: 1 }, true],
    ['absent type accepts anything', {}, [1, 2], true],
    ['unknown type still applies format', { type: 'date', format: 'email' }, 'nope', err('rest_invalid_email', 'Invalid email address.')],
    ['absent type still applies enum', { enum: ['a'] }, 'b', err('rest_not_in_enum', 'x is not a.')],
  ]);
});

// ---------------------------------------------------------------------------------------------

describe('keywords (3.5)', () => {
  describe('enum', () => {
    runValidationTable([
      ['one allowed value', { type: 'string', enum: ['publish'] }, 'draft', err('rest_not_in_enum', 'x is not publish.')],
      ['two allowed values', { type: 'string', enum: ['asc', 'desc'] }, 'up', err('rest_not_in_enum', 'x is not one of asc and desc.')],
      ['member passes', { type: 'string', enum: ['asc', 'desc'] }, 'desc', true],
      ['compared after sanitising to the type', { type: 'integer', enum: [1, 2] }, '2', true],
      ['int and float compare equal', { type: 'number', enum: [1] }, '1.0', true],
      ['strict: a string is not the integer', { enum: [1] }, '1', err('rest_not_in_enum', 'x is not 1.')],
      ['arrays compared deeply', { type: 'array', enum: [['a', 'b']] }, 'a,b', true],
      ['array order matters', { type: 'array', enum: [['a', 'b']] }, 'b,a', err('rest_not_in_enum', 'x is not ["a","b"].')],
      ['map key order ignored', { type: 'object', enum: [{ a: 1, b: 2 }] }, { b: 2, a: 1 }, true],
      ['booleans sanitised first', { type: 'boolean', enum: [true] }, 'TRUE', true],
      ['booleans print as PHP does', { type: 'boolean', enum: [true, false] }, 'x', typeErr('x', 'boolean')],
      ['non-scalars print as JSON', { enum: [[1, 2], { a: 'b/c' }] }, 'z', err('rest_not_in_enum', 'x is not one of [1,2] and {"a":"b\\/c"}.')],
      ['an empty enum is ignored', { type: 'string', enum: [] }, 'anything', true],
      ['type is checked before enum', { type: 'string', enum: ['1'] }, 1, typeErr('x', 'string')],
    ]);

    it('matches the reference message for three values', () => {
      const result = validateValue('bogus', { type: 'string', enum: ['publish', 'draft', 'pending'] }, 'status');
      expect(outcome(result)).toStrictEqual(err('rest_not_in_enum', 'status is not one of publish, draft, and pending.'));
    });

    it('prints booleans the PHP way (true is 1, false is empty)', () => {
      expect(outcome(validateValue('x', { enum: [true, false] }, 'x'))).toStrictEqual(err('rest_not_in_enum', 'x is not one of 1 and .'));
    });
  });

  describe('minimum / maximum', () => {
    const bounds = (extra: Partial<ArgSchema>): ArgSchema => ({ type: 'integer', ...extra });
    runValidationTable([
      ['minimum only', bounds({ minimum: 1 }), 0, err('rest_out_of_bounds', 'x must be greater than or equal to 1')],
      ['minimum is inclusive', bounds({ minimum: 1 }), 1, true],
      ['exclusive minimum', bounds({ minimum: 1, exclusiveMinimum: true }), 1, err('rest_out_of_bounds', 'x must be greater than 1')],
      ['maximum only', bounds({ maximum: 100 }), 101, err('rest_out_of_bounds', 'x must be less than or equal to 100')],
      ['maximum is inclusive', bounds({ maximum: 100 }), 100, true],
      ['exclusive maximum', bounds({ maximum: 100, exclusiveMaximum: true }), 100, err('rest_out_of_bounds', 'x must be less than 100')],
      ['range, both inclusive, below', bounds({ minimum: 1, maximum: 100 }), 0, err('rest_out_of_bounds', 'x must be between 1 (inclusive) and 100 (inclusive)')],
      ['range, both inclusive, edges pass', bounds({ minimum: 1, maximum: 100 }), 100, true],
      ['range, exclusive minimum', bounds({ minimum: 1, maximum: 100, exclusiveMinimum: true }), 1, err('rest_out_of_bounds', 'x must be between 1 (exclusive) and 100 (inclusive)')],
      ['range, exclusive maximum', bounds({ minimum: 1, maximum: 100, exclusiveMaximum: true }), 100, err('rest_out_of_bounds', 'x must be between 1 (inclusive) and 100 (exclusive)')],
      ['range, both exclusive', bounds({ minimum: 1, maximum: 100, exclusiveMinimum: true, exclusiveMaximum: true }), 100, err('rest_out_of_bounds', 'x must be between 1 (exclusive) and 100 (exclusive)')],
      ['numeric strings compare as numbers', bounds({ minimum: 1, maximum: 100 }), '150', err('rest_out_of_bounds', 'x must be between 1 (inclusive) and 100 (inclusive)')],
      ['float bounds print truncated', { type: 'number', minimum: 1.5 }, 1, err('rest_out_of_bounds', 'x must be greater than or equal to 1')],
      ['negative float bounds truncate toward zero', { type: 'number', maximum: -1.5 }, 0, err('rest_out_of_bounds', 'x must be less than or equal to -1')],
      ['number type too', { type: 'number', minimum: 0.5 }, 0.25, err('rest_out_of_bounds', 'x must be greater than or equal to 0')],
      ['bounds are checked before integrality', bounds({ maximum: 3 }), '5.5', err('rest_out_of_bounds', 'x must be less than or equal to 3')],
      ['integrality after bounds pass', bounds({ maximum: 10 }), '5.5', typeErr('x', 'integer')],
    ]);

    it('matches the reference per_page message', () => {
      const result = validateValue(500, { type: 'integer', minimum: 1, maximum: 100 }, 'per_page');
      expect(outcome(result)).toStrictEqual(err('rest_out_of_bounds', 'per_page must be between 1 (inclusive) and 100 (inclusive)'));
    });
  });

  describe('multipleOf', () => {
    runValidationTable([
      ['not a multiple', { type: 'integer', multipleOf: 3 }, 10, err('rest_invalid_multiple', 'x must be a multiple of 3.')],
      ['a multiple', { type: 'integer', multipleOf: 3 }, 9, true],
      ['negative multiple', { type: 'integer', multipleOf: 3 }, -9, true],
      ['float multiple', { type: 'number', multipleOf: 0.25 }, 0.75, true],
      ['float message', { type: 'number', multipleOf: 0.5 }, 0.7, err('rest_invalid_multiple', 'x must be a multiple of 0.5.')],
      ['checked before bounds', { type: 'integer', multipleOf: 2, maximum: 5 }, 7, err('rest_invalid_multiple', 'x must be a multiple of 2.')],
    ]);
  });

  describe('minLength / maxLength / pattern', () => {
    runValidationTable([
      ['too short (plural)', { type: 'string', minLength: 3 }, 'ab', err('rest_too_short', 'x must be at least 3 characters long.')],
      ['too short (singular)', { type: 'string', minLength: 1 }, '', err('rest_too_short', 'x must be at least 1 character long.')],
      ['too long (plural)', { type: 'string', maxLength: 2 }, 'abc', err('rest_too_long', 'x must be at most 2 characters long.')],
      ['too long (singular)', { type: 'string', maxLength: 1 }, 'ab', err('rest_too_long', 'x must be at most 1 character long.')],
      ['thousands separator in counts', { type: 'string', minLength: 1000 }, 'a', err('rest_too_short', 'x must be at least 1,000 characters long.')],
      ['counts code points, not UTF-16 units', { type: 'string', maxLength: 2 }, '😀😀', true],
      ['counts code points (over)', { type: 'string', maxLength: 2 }, '😀😀😀', err('rest_too_long', 'x must be at most 2 characters long.')],
      ['counts multibyte letters once', { type: 'string', minLength: 2, maxLength: 2 }, '日本', true],
      ['anchored pattern fails', { type: 'string', pattern: '^\\d+$' }, 'a1', err('rest_invalid_pattern', 'x does not match pattern ^\\d+$.')],
      ['length before pattern', { type: 'string', minLength: 5, pattern: '^\\d+$' }, 'ab', err('rest_too_short', 'x must be at least 5 characters long.')],
    ]);
  });

  describe('arrays: items, minItems, maxItems, uniqueItems', () => {
    runValidationTable(
      [
        ['items report their index', { type: 'array', items: { type: 'integer' } }, ['1', 'x'], typeErr('tags[1]', 'integer')],
        ['items of a CSV string', { type: 'array', items: { type: 'integer' } }, '1,2', true],
        ['too few items (singular)', { type: 'array', minItems: 1 }, [], err('rest_too_few_items', 'tags must contain at least 1 item.')],
        ['too many items (plural)', { type: 'array', maxItems: 2 }, 'a,b,c', err('rest_too_many_items', 'tags must contain at most 2 items.')],
        ['duplicate items', { type: 'array', uniqueItems: true }, ['a', 'a'], err('rest_duplicate_items', 'tags has duplicate items.')],
        ['"1" and 1 differ when validating', { type: 'array', uniqueItems: true }, ['1', 1], true],
        ['maps equal regardless of key order', { type: 'array', uniqueItems: true }, [{ a: 1, b: 2 }, { b: 2, a: 1 }], err('rest_duplicate_items', 'tags has duplicate items.')],
        ['items are checked before the count', { type: 'array', items: { type: 'integer' }, maxItems: 1 }, ['x', 'y'], typeErr('tags[0]', 'integer')],
        ['nested items name both levels', { type: 'array', items: { type: 'array', items: { type: 'integer' } } }, [['1'], ['2', 'z']], typeErr('tags[1][1]', 'integer')],
      ],
      'tags',
    );

    it('sanitises items and re-indexes', () => {
      expect(sanitizeValue({ 3: '7', 9: '8' }, { type: 'array', items: { type: 'integer' } }, 'x')).toStrictEqual([7, 8]);
    });

    it('reports duplicates that appear only after sanitising', () => {
      const result = sanitizeValue(['1', 1], { type: 'array', items: { type: 'integer' }, uniqueItems: true }, 'ids');
      expect(result).toBeInstanceOf(RestError);
      expect((result as RestError).code).toBe('rest_duplicate_items');
    });
  });

  describe('objects: required, properties, additionalProperties, patternProperties, min/maxProperties', () => {
    const props = { a: { type: 'string' } } satisfies Record<string, ArgSchema>;
    runValidationTable(
      [
        ['draft-04 required list', { type: 'object', required: ['a'] }, {}, err('rest_property_required', 'a is a required property of meta.')],
        ['draft-03 per-property required', { type: 'object', properties: { a: { type: 'string', required: true } } }, { b: 1 }, err('rest_property_required', 'a is a required property of meta.')],
        ['a null value satisfies required', { type: 'object', required: ['a'] }, { a: null }, true],
        ['properties report as param[key]', { type: 'object', properties: props }, { a: 5 }, typeErr('meta[a]', 'string')],
        ['additionalProperties false rejects', { type: 'object', properties: props, additionalProperties: false }, { a: 'x', b: 1 }, err('rest_additional_properties_forbidden', 'b is not a valid property of Object.')],
        ['unknown keys allowed by default', { type: 'object', properties: props }, { a: 'x', b: 1 }, true],
        ['additionalProperties schema validates extras', { type: 'object', additionalProperties: { type: 'integer' } }, { b: 'x' }, typeErr('meta[b]', 'integer')],
        ['patternProperties validate matching keys', { type: 'object', patternProperties: { '^x_': { type: 'integer' } } }, { x_a: 'y' }, typeErr('meta[x_a]', 'integer')],
        ['patternProperties beat additionalProperties false', { type: 'object', patternProperties: { '^x_': { type: 'integer' } }, additionalProperties: false }, { x_a: 1 }, true],
        ['too few properties (singular)', { type: 'object', minProperties: 1 }, {}, err('rest_too_few_properties', 'meta must contain at least 1 property.')],
        ['too many properties (plural)', { type: 'object', maxProperties: 2 }, { a: 1, b: 2, c: 3 }, err('rest_too_many_properties', 'meta must contain at most 2 properties.')],
        ['"" is an empty object', { type: 'object', minProperties: 1 }, '', err('rest_too_few_properties', 'meta must contain at least 1 property.')],
        ['required is checked before properties', { type: 'object', properties: props, required: ['z'] }, { a: 5 }, err('rest_property_required', 'z is a required property of meta.')],
        ['prototype names are not schema properties', { type: 'object', properties: props, additionalProperties: false }, { constructor: 1 }, err('rest_additional_properties_forbidden', 'constructor is not a valid property of Object.')],
      ],
      'meta',
    );

    it('sanitises properties and drops forbidden keys', () => {
      const schema: ArgSchema = { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false };
      expect(sanitizeValue({ a: '1', b: '2' }, schema, 'o')).toStrictEqual({ a: 1 });
    });

    it('keeps unknown keys without additionalProperties, sanitising pattern and additional ones', () => {
      const schema: ArgSchema = {
        type: 'object',
        properties: { a: { type: 'integer' } },
        patternProperties: { '^n_': { type: 'number' } },
      };
      expect(sanitizeValue({ a: '1', n_x: '2.5', z: 'keep' }, schema, 'o')).toStrictEqual({ a: 1, n_x: 2.5, z: 'keep' });
      expect(sanitizeValue({ b: '3' }, { type: 'object', additionalProperties: { type: 'integer' } }, 'o')).toStrictEqual({ b: 3 });
    });

    it('keeps a JSON __proto__ key as data, never as a prototype', () => {
      const value = JSON.parse('{"__proto__": {"polluted": 1}, "a": "1"}') as unknown;
      const result = sanitizeValue(value, { type: 'object' }, 'o') as Record<string, unknown>;
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      expect(Object.hasOwn(result, '__proto__')).toBe(true);
      expect((result as { polluted?: unknown }).polluted).toBeUndefined();
    });
  });

  describe('anyOf / oneOf', () => {
    runValidationTable([
      ['anyOf: a match passes', { anyOf: [{ type: 'string' }, { type: 'integer' }] }, 'x', true],
      ['anyOf: only type errors → generic message', { anyOf: [{ type: 'string' }, { type: 'integer' }] }, true, err('rest_no_matching_schema', 'x does not match any of the expected formats.')],
      ['anyOf: titles are listed', { anyOf: [{ title: 'Name', type: 'string' }, { title: 'Id', type: 'integer' }] }, true, err('rest_no_matching_schema', 'x is not a valid Name and Id.')],
      ['anyOf: one sub-schema gives its reason and position', { anyOf: [{ type: 'integer' }] }, 'a', err('rest_no_matching_schema', 'x does not match the expected format. Reason: x is not of type integer.', { position: 0 })],
      ['anyOf: a titled single reason', { anyOf: [{ title: 'Count', type: 'integer' }] }, 'a', err('rest_no_matching_schema', 'x is not a valid Count. Reason: x is not of type integer.', { position: 0 })],
      ['anyOf: the one non-type error is reported', { anyOf: [{ type: 'string', minLength: 5 }, { type: 'integer' }] }, 'ab', err('rest_no_matching_schema', 'x does not match the expected format. Reason: x must be at least 5 characters long.', { position: 0 })],
      ['anyOf: sub-schemas inherit the type', { type: 'string', anyOf: [{ minLength: 3 }, { pattern: '^a' }] }, 'ab', true],
      ['anyOf runs before the type check', { type: 'integer', anyOf: [{ minimum: 5 }] }, 'abc', err('rest_no_matching_schema', 'x does not match the expected format. Reason: x is not of type integer.', { position: 0 })],
      ['oneOf: exactly one match passes', { oneOf: [{ type: 'string' }, { type: 'integer' }] }, 5, true],
      ['oneOf: several matches', { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 3 }] }, 'ab', err('rest_one_of_multiple_matches', 'x matches more than one of the expected formats.', { positions: [0, 1] })],
      ['oneOf: several titled matches', { oneOf: [{ title: 'A', type: 'string' }, { title: 'B', type: 'string' }] }, 'ab', err('rest_one_of_multiple_matches', 'x matches A and B, but should match only one.', { positions: [0, 1] })],
      ['oneOf: no match', { oneOf: [{ type: 'integer' }, { type: 'boolean' }] }, 'x', err('rest_no_matching_schema', 'x does not match any of the expected formats.')],
    ]);

    it('anyOf between objects reports the sub-schema sharing most properties', () => {
      const schema: ArgSchema = {
        anyOf: [
          { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
          { type: 'object', properties: { b: { type: 'integer' }, c: { type: 'integer' } } },
        ],
      };
      expect(outcome(validateValue({ b: 'x', c: 1 }, schema, 'o'))).toStrictEqual(
        err('rest_no_matching_schema', 'o does not match the expected format. Reason: o[b] is not of type integer.', { position: 1 }),
      );
    });

    const sanitised: [string, ArgSchema, unknown, unknown][] = [
      ['anyOf integer branch', { anyOf: [{ type: 'integer' }, { type: 'string' }] }, '5', 5],
      ['anyOf string branch', { anyOf: [{ type: 'integer' }, { type: 'string' }] }, 'x', 'x'],
      ['oneOf boolean branch', { oneOf: [{ type: 'integer' }, { type: 'boolean' }] }, 'false', false],
    ];
    it.each(sanitised)('sanitises with the matching schema: %s', (_label, schema, value, expected) => {
      expect(sanitizeValue(value, schema, 'x')).toStrictEqual(expected);
    });

    it('sanitising without a match returns the error', () => {
      const result = sanitizeValue(true, { anyOf: [{ type: 'integer' }] }, 'x');
      expect(result).toBeInstanceOf(RestError);
      expect((result as RestError).code).toBe('rest_no_matching_schema');
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe('format keyword in validateValue (3.5)', () => {
  // The checks themselves are in formats.test.ts; here, when validateValue applies them.
  runValidationTable([
    ['uri is never validated', { type: 'string', format: 'uri' }, 'javascript:alert(1)', true],
    ['format ignored for non-string types', { type: 'integer', format: 'email' }, 5, true],
    ['format applies without a type', { format: 'email' }, 'nope', err('rest_invalid_email', 'Invalid email address.')],
    ['format applies when a type list resolves to string', { type: ['string', 'null'], format: 'uuid' }, 'x', err('rest_invalid_uuid', 'x is not a valid UUID.')],
    ['format skipped when a type list resolves to null', { type: ['string', 'null'], format: 'uuid' }, null, true],
    ['enum is checked before format', { type: 'string', enum: ['x'], format: 'email' }, 'y', err('rest_not_in_enum', 'x is not x.')],
  ]);
});

// ---------------------------------------------------------------------------------------------

describe('sanitisation (rest_sanitize_value_from_schema)', () => {
  const rows: [string, ArgSchema, unknown, unknown][] = [
    ['integer truncates', { type: 'integer' }, '5.9', 5],
    ['integer of garbage is 0', { type: 'integer' }, 'abc', 0],
    ['integer of true is 1', { type: 'integer' }, true, 1],
    ['integer toward zero', { type: 'integer' }, '-3.7', -3],
    ['number is a float', { type: 'number' }, '2.5', 2.5],
    ['boolean "FALSE"', { type: 'boolean' }, 'FALSE', false],
    ['boolean "0"', { type: 'boolean' }, '0', false],
    ['boolean "yes" is truthy', { type: 'boolean' }, 'yes', true],
    ['boolean "" is false', { type: 'boolean' }, '', false],
    ['boolean 0', { type: 'boolean' }, 0, false],
    ['string from integer', { type: 'string' }, 5, '5'],
    ['string from true', { type: 'string' }, true, '1'],
    ['string from float', { type: 'string' }, 1.5, '1.5'],
    ['array of a CSV without items', { type: 'array' }, '1,2', ['1', '2']],
    ['array of a map is re-indexed', { type: 'array' }, { x: 'a', y: 'b' }, ['a', 'b']],
    ['null type', { type: 'null' }, 'x', null],
    ['no type passes through', {}, { a: 1 }, { a: 1 }],
    ['type list without a match is null', { type: ['integer', 'boolean'] }, 'x', null],
    ['uri strips javascript:', { type: 'string', format: 'uri' }, 'javascript:alert(1)', ''],
    ['text-field', { type: 'string', format: 'text-field' }, '  a\n\t<b>b</b>  ', 'a b'],
    ['textarea-field keeps newlines', { type: 'string', format: 'textarea-field' }, 'a\n\n<i>b</i> ', 'a\n\nb'],
    ['email format uses sanitize_text_field', { type: 'string', format: 'email' }, ' a@b.co ', 'a@b.co'],
    ['date-time is trimmed', { type: 'string', format: 'date-time' }, ' 2020-01-01T00:00:00 ', '2020-01-01T00:00:00'],
    ['hex-color keeps a colour', { type: 'string', format: 'hex-color' }, '#FFF', '#FFF'],
    ['hex-color drops anything else', { type: 'string', format: 'hex-color' }, 'red', ''],
  ];
  it.each(rows)('%s', (_label, schema, value, expected) => {
    expect(sanitizeValue(value, schema, 'x')).toStrictEqual(expected);
  });
});

// ---------------------------------------------------------------------------------------------

describe('checkArgs (3.1–3.3, 3.8)', () => {
  const collection: ArgSchemas = {
    ...paginationArgs(),
    status: { type: 'string', enum: ['publish', 'draft', 'pending'] },
  };

  it('applies defaults and coerces supplied values', () => {
    expect(checkArgs(collection, { per_page: '20' }, req)).toStrictEqual({ values: { page: 1, per_page: 20 } });
  });

  it('treats null as absent, falling back to the default', () => {
    expect(checkArgs(collection, { per_page: null, status: null }, req)).toStrictEqual({ values: { page: 1, per_page: 10 } });
  });

  it('ignores undeclared params', () => {
    expect(checkArgs({ a: { type: 'integer' } }, { a: '1', _locale: 'user', _fields: 'id' }, req)).toStrictEqual({ values: { a: 1 } });
  });

  it('leaves absent optional args out of values', () => {
    expect(checkArgs({ a: { type: 'integer' }, b: { type: 'string' } }, { b: 'x' }, req).values).toStrictEqual({ b: 'x' });
  });

  it('reports missing required args in arg order, and nothing else', () => {
    const args: ArgSchemas = {
      title: { type: 'string', required: true },
      per_page: { type: 'integer', maximum: 100 },
      start_date: { type: 'string', required: true },
    };
    const { error } = checkArgs(args, { per_page: 500, start_date: null }, req);
    expect(error?.toJSON()).toStrictEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title, start_date',
      data: { status: 400, params: ['title', 'start_date'] },
    });
  });

  it('lets a default satisfy required', () => {
    expect(checkArgs({ n: { type: 'integer', required: true, default: 3 } }, {}, req)).toStrictEqual({ values: { n: 3 } });
  });

  it('validates defaults like supplied values', () => {
    const { error } = checkArgs({ n: { type: 'integer', default: 'abc' } }, {}, req);
    expect(error?.code).toBe('rest_invalid_param');
    expect(error?.data?.params).toStrictEqual({ n: 'n is not of type integer.' });
  });

  it('aggregates every invalid arg into one error shaped as WordPress sends it', () => {
    const { error } = checkArgs(collection, { per_page: 500, status: 'bogus', page: '2' }, req);
    expect(error).toBeInstanceOf(RestError);
    expect(error?.status).toBe(400);
    expect(error?.toJSON()).toStrictEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page, status',
      data: {
        status: 400,
        params: {
          per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
          status: 'status is not one of publish, draft, and pending.',
        },
        details: {
          per_page: { code: 'rest_out_of_bounds', message: 'per_page must be between 1 (inclusive) and 100 (inclusive)', data: null },
          status: { code: 'rest_not_in_enum', message: 'status is not one of publish, draft, and pending.', data: null },
        },
      },
    });
  });

  it('gives type errors {param} as detail data', () => {
    const { error } = checkArgs({ id: idArg('Ticket ID.') }, { id: 'abc' }, req);
    expect(error?.data?.details).toStrictEqual({
      id: { code: 'rest_invalid_type', message: 'id is not of type integer.', data: { param: 'id' } },
    });
  });

  it('does not type-check an arg that has its own sanitize and no validate', () => {
    const args: ArgSchemas = { maxwidth: { type: 'integer', default: 600, sanitize: (v) => absint(v) } };
    expect(checkArgs(args, { maxwidth: 'abc' }, req)).toStrictEqual({ values: { maxwidth: 0 } });
  });

  it('lets validate replace schema validation, then sanitises by schema', () => {
    const args: ArgSchemas = { n: { type: 'integer', validate: () => true } };
    expect(checkArgs(args, { n: '7.9' }, req)).toStrictEqual({ values: { n: 7 } });
  });

  it('passes value, request, name and the clock time to validate and sanitize', () => {
    const validate = vi.fn(() => true);
    const sanitize = vi.fn((v: unknown) => `${String(v)}!`);
    const now = new Date('2030-01-01T00:00:00Z');
    const result = checkArgs({ q: { validate, sanitize } }, { q: 'hi' }, req, now);
    expect(validate).toHaveBeenCalledWith('hi', req, 'q', now);
    expect(sanitize).toHaveBeenCalledWith('hi', req, 'q', now);
    expect(result).toStrictEqual({ values: { q: 'hi!' } });
  });

  it('passes untyped args through unchanged', () => {
    const value = { nested: ['x'] };
    expect(checkArgs({ raw: { description: 'Anything.' } }, { raw: value }, req).values.raw).toBe(value);
  });

  it('gives a validator returning false the generic message and no details entry', () => {
    const { error } = checkArgs({ a: { validate: () => false } }, { a: 1 }, req);
    expect(error?.toJSON()).toStrictEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): a',
      data: { status: 400, params: { a: 'Invalid parameter.' }, details: [] },
    });
  });

  it('uses a returned string as the message', () => {
    const { error } = checkArgs({ a: { validate: () => 'a must be even.' } }, { a: 1 }, req);
    expect(error?.data?.params).toStrictEqual({ a: 'a must be even.' });
    expect(error?.data?.details).toStrictEqual({ a: { code: 'rest_invalid_param', message: 'a must be even.', data: null } });
  });

  it('uses a returned RestError for message and details, joining all its messages', () => {
    const extra = new RestError('second', 'Second problem.', 400);
    const validate = () => new RestError('custom_code', 'First problem.', 400, { hint: 1 }, [extra]);
    const { error } = checkArgs({ a: { validate } }, { a: 1 }, req);
    expect(error?.data?.params).toStrictEqual({ a: 'First problem. Second problem.' });
    expect(error?.data?.details).toStrictEqual({
      a: {
        code: 'custom_code',
        message: 'First problem.',
        data: { hint: 1 },
        additional_errors: [{ code: 'second', message: 'Second problem.', data: null }],
      },
    });
  });

  it('treats a RestError from sanitize as invalid', () => {
    const args: ArgSchemas = { a: { sanitize: () => new RestError('nope', 'Nope.', 400) } };
    expect(checkArgs(args, { a: 1 }, req).error?.data?.params).toStrictEqual({ a: 'Nope.' });
  });

  it('reports failures in arg order across validators and schemas', () => {
    const args: ArgSchemas = {
      first: { type: 'integer' },
      second: { validate: () => false },
      third: { type: 'boolean' },
    };
    const { error } = checkArgs(args, { third: 'maybe', second: 1, first: 'x' }, req);
    expect(error?.message).toBe('Invalid parameter(s): first, second, third');
    expect(Object.keys(error?.data?.details as object)).toStrictEqual(['first', 'third']);
  });

  it('still validates an untyped arg with enum', () => {
    const { error } = checkArgs({ mode: { enum: ['a', 'b'] } }, { mode: 'c' }, req);
    expect(error?.data?.params).toStrictEqual({ mode: 'mode is not one of a and b.' });
  });

  it('does not read inherited properties of the params object', () => {
    const args: ArgSchemas = { constructor: { type: 'string', required: true }, toString: { type: 'string' } };
    expect(checkArgs(args, {}, req).error?.data?.params).toStrictEqual(['constructor']);
  });

  it('keeps the sanitised values of valid args when others fail', () => {
    const { values, error } = checkArgs(collection, { page: '3', per_page: 0 }, req);
    expect(error?.code).toBe('rest_invalid_param');
    expect(values.page).toBe(3);
  });
});

// ---------------------------------------------------------------------------------------------

describe('shared arg fragments', () => {
  it('idArg is a required integer', () => {
    expect(idArg('Ticket ID.')).toStrictEqual({ type: 'integer', description: 'Ticket ID.', required: true });
  });

  it('contextArg lists contexts reverse-sorted with a default', () => {
    expect(contextArg()).toStrictEqual({
      description: 'Scope under which the request is made; determines fields present in response.',
      type: 'string',
      enum: ['view', 'embed', 'edit'],
      default: 'view',
    });
    expect(contextArg('edit', ['edit', 'view']).enum).toStrictEqual(['view', 'edit']);
  });

  const context: [unknown, true | string][] = [
    [undefined, true],
    ['edit', true],
    ['bogus', 'context is not one of view, embed, and edit.'],
    [5, 'context is not of type string.'],
  ];
  it.each(context)('context %j', (value, expected) => {
    const { values, error } = checkArgs({ context: contextArg() }, value === undefined ? {} : { context: value }, req);
    if (expected === true) expect(values.context).toBe(value ?? 'view');
    else expect(error?.data?.params).toStrictEqual({ context: expected });
  });

  it('paginationArgs follows WordPress defaults and bounds', () => {
    expect(paginationArgs()).toStrictEqual({
      page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
      per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 },
    });
  });

  const pages: [Record<string, unknown>, Record<string, string> | Record<string, number>][] = [
    [{}, { page: 1, per_page: 5 }],
    [{ per_page: '20' }, { page: 1, per_page: 20 }],
    [{ per_page: 21 }, { per_page: 'per_page must be between 1 (inclusive) and 20 (inclusive)' }],
    [{ page: 0 }, { page: 'page must be greater than or equal to 1' }],
    [{ page: 'two' }, { page: 'page is not of type integer.' }],
  ];
  it.each(pages)('paginationArgs({perPage: 5, max: 20}) with %j', (params, expected) => {
    const { values, error } = checkArgs(paginationArgs({ perPage: 5, max: 20 }), params, req);
    expect(error ? error.data?.params : values).toStrictEqual(expected);
  });

  const searches: [unknown, unknown][] = [
    ['  a <b>x</b> ', { values: { search: 'a x' } }],
    [123, { error: 'search is not of type string.' }],
  ];
  it.each(searches)('searchArg with %j', (value, expected) => {
    const { values, error } = checkArgs({ search: searchArg() }, { search: value }, req);
    expect(error ? { error: (error.data?.params as Record<string, string>).search } : { values }).toStrictEqual(expected);
  });
});
