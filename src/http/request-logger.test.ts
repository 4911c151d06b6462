import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger } from './request-logger.js';

function sinkLogger() {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  return { lines, log: pino({ level: 'info', timestamp: false }, sink) };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('request logger', () => {
  it('writes the request line through the app logger byte for byte as the request child would', async () => {
    const { lines, log } = sinkLogger();
    const fields = { method: 'GET', url: '/x?a=1', status: 200, ms: 1 };
    log.child({ reqId: 'id-1' }).info(fields, 'request');
    log.info({ reqId: 'id-1', ...fields }, 'request');
    await flush();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(lines[0]);
  });

  it('makes the child on first use, bound to the request ID, at the parent level', async () => {
    const { lines, log } = sinkLogger();
    const child = lazyChildLogger(log as unknown as FastifyBaseLogger, { reqId: 'id-2' }, {});
    expect(child.level).toBe('info');
    child.debug('hidden');
    child.error({ err: 'x' }, 'failed');
    await flush();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 50, reqId: 'id-2', err: 'x', msg: 'failed' });
    child.child({ extra: 1 }).warn('w');
    await flush();
    expect(JSON.parse(lines[1]!)).toMatchObject({ reqId: 'id-2', extra: 1, msg: 'w' });
  });
});
