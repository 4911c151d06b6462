import { describe, it, expect } from 'vitest';
import type { RestError } from './errors.js';
import { checkFormat, parseRestDate } from './formats.js';

interface Outcome {
  code: string;
  message: string;
  data: unknown;
}

function outcome(result: RestError | undefined): Outcome | undefined {
  return result === undefined ? undefined : { code: result.code, message: result.message, data: result.data ?? null };
}

function err(code: string, message: string, data: unknown = null): Outcome {
  return { code, message, data };
}

describe('formats (3.5)', () => {
  const dateErr = err('rest_invalid_date', 'Invalid date.');
  const validDates = [
    '2020-01-01T10:00:00',
    '2020-01-01t10:00:00',
    '2020-01-01 10:00:00',
    '2020-01-01T10:00:00.123456Z',
    '2020-01-01T10:00:00+02:00',
    '2020-01-01T10:00:00-05',
    '2021-02-30T00:00:00',
    '2020-01-01T24:00:00',
  ];
  it.each(validDates)('date-time accepts %j', (value) => {
    expect(checkFormat('date-time', value, 'd')).toBeUndefined();
  });
  const invalidDates = [
    '2020-01-01',
    '2020-13-01T00:00:00',
    '2020-01-32T00:00:00',
    '2020-01-01T25:00:00',
    '2020-01-01T10:60:00',
    '2020-01-01T10:00:00+0200',
    '2020-01-01T10:00',
    '20200101T000000',
    'not a date',
    '1970-01-01T00:00:00Z',
  ];
  it.each(invalidDates)('date-time rejects %j', (value) => {
    expect(outcome(checkFormat('date-time', value, 'd'))).toStrictEqual(dateErr);
  });

  const parsed: [string, boolean, number | false][] = [
    ['2020-01-01T00:00:00Z', false, 1577836800],
    ['2020-01-01T00:00:00', false, 1577836800],
    ['2020-01-01T02:00:00+02:00', false, 1577836800],
    ['2019-12-31T19:00:00-05', false, 1577836800],
    ['2020-01-01T00:00:00+05:00', true, 1577836800],
    ['2020-01-01', false, false],
  ];
  it.each(parsed)('parseRestDate(%j, forceUtc=%s) is %s', (date, forceUtc, expected) => {
    expect(parseRestDate(date, forceUtc)).toBe(expected);
  });

  const emailErr = err('rest_invalid_email', 'Invalid email address.');
  it.each(['a@b.co', 'first.last+tag@example.com', "o'hara@example.org", 'x_y@sub.example.co.uk'])('email accepts %j', (value) => {
    expect(checkFormat('email', value, 'e')).toBeUndefined();
  });
  it.each(['x@y.z', 'ab@cdef', 'abc.example.com', '@example.com', 'a b@example.com', 'ab@ex..com', 'ab@-ex.com', 'ab@.ex.com', 'ab@exa_mple.com', 'ab@example.com.'])(
    'email rejects %j',
    (value) => {
      expect(outcome(checkFormat('email', value, 'e'))).toStrictEqual(emailErr);
    },
  );

  it.each(['127.0.0.1', '255.255.255.255', '::1', '::', '2001:db8::1', 'fe80:0:0:0:0:0:0:1', '::ffff:192.168.0.1', '1:2:3:4:5:6:7:8', 'FE80::ABCD', '1:2:3:4:5:6:7::8'])(
    'ip accepts %j',
    (value) => {
      expect(checkFormat('ip', value, 'addr')).toBeUndefined();
    },
  );
  it.each(['256.0.0.1', '1.2.3', '1.2.3.4.5', ':::', '1:2:3:4:5:6:7:8:9', '12345::', 'g::1', '::ffff:256.1.1.1', '::ffff:01.1.1.1', 'abc', '1:2:3:4:5:6::7:8:9'])(
    'ip rejects %j',
    (value) => {
      expect(outcome(checkFormat('ip', value, 'addr'))).toStrictEqual(err('rest_invalid_ip', 'addr is not a valid IP address.'));
    },
  );

  it('uuid accepts lower-case hex of any version', () => {
    expect(checkFormat('uuid', '123e4567-e89b-12d3-a456-426614174000', 'u')).toBeUndefined();
  });
  it.each(['123E4567-E89B-12D3-A456-426614174000', '123e4567e89b12d3a456426614174000', '123e4567-e89b-12d3-a456-42661417400', 'x'])('uuid rejects %j', (value) => {
    expect(outcome(checkFormat('uuid', value, 'u'))).toStrictEqual(err('rest_invalid_uuid', 'u is not a valid UUID.'));
  });

  it.each(['#fff', '#FFFFFF', '#a1B2c3'])('hex-color accepts %j', (value) => {
    expect(checkFormat('hex-color', value, 'c')).toBeUndefined();
  });
  it.each(['fff', '#ffff', '#ggg', '#fffffff', ''])('hex-color rejects %j', (value) => {
    expect(outcome(checkFormat('hex-color', value, 'c'))).toStrictEqual(err('rest_invalid_hex_color', 'Invalid hex color.'));
  });
});
