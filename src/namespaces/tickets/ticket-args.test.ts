import { describe, expect, it } from 'vitest';
import { createRestRequest } from '../../rest/request.js';
import { timeArg } from './ticket-args.js';

describe('timeArg', () => {
  it('reads relative dates against the app clock the pipeline passes in', () => {
    const arg = timeArg('After.');
    const req = createRestRequest({ method: 'GET', route: '/' });
    const now = new Date('2040-06-15T12:00:00Z');
    expect(arg.validate!('tomorrow', req, 'after', now)).toBe(true);
    expect(arg.sanitize!('tomorrow', req, 'after', now)).toBe('2040-06-16 00:00:00');
    expect(arg.sanitize!('-2 hours', req, 'after', now)).toBe('2040-06-15 10:00:00');
    expect(arg.validate!('not a date', req, 'after', now)).toBe(false);
  });
});
