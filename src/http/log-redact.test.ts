import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { loadConfig } from '../config.js';
import { createTestDb, type TestDb } from '../storage/test-db.js';
import { redactUrl } from './log-redact.js';

describe('redactUrl', () => {
  it('replaces secret values and keeps the rest', () => {
    expect(redactUrl('/wp-json/eventsuite/tickets/v1/qr?api_key=abc&ticket_id=5&security_code=f00')).toBe(
      '/wp-json/eventsuite/tickets/v1/qr?api_key=[redacted]&ticket_id=5&security_code=[redacted]',
    );
    expect(redactUrl('/x?_wpnonce=1&password=2&pwd=3&add_ticket_nonce=4&access_token=5&key=6&page=2')).toBe(
      '/x?_wpnonce=[redacted]&password=[redacted]&pwd=[redacted]&add_ticket_nonce=[redacted]&access_token=[redacted]&key=[redacted]&page=2',
    );
    expect(redactUrl('/x?api%5Fkey=1&nonce[0]=2&%E0%A4=3')).toBe('/x?api%5Fkey=[redacted]&nonce[0]=[redacted]&%E0%A4=3');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
  });
});

describe('request log', () => {
  let app: App;
  let db: TestDb;
  const lines: string[] = [];
  beforeAll(async () => {
    db = await createTestDb('sqlite');
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    app = await buildApp({ config: loadConfig({}, { baseUrl: 'http://example.test' }), db: db.db, logger: pino({ level: 'info' }, sink) });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
  });

  it('keeps no secret of the query string', async () => {
    await app.inject({ url: '/wp-json/eventsuite/tickets/v1/qr?api_key=sekrit-key&ticket_id=1&security_code=sekrit-code&_wpnonce=sekrit-nonce' });
    await app.inject({ url: '/?rest_route=/eventsuite/tickets/v1/attendees&api_key=sekrit-2' });
    const log = lines.join('');
    expect(log).toContain('"url":"/wp-json/eventsuite/tickets/v1/qr?api_key=[redacted]');
    expect(log).not.toContain('sekrit');
  });

  it('writes one line per request, bound to its ID', async () => {
    const before = lines.length;
    await app.inject({ url: '/wp-json/nonexistent/route' });
    const mine = lines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');
    expect(mine).toHaveLength(1);
    expect(Object.keys(mine[0]!)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'url', 'status', 'ms', 'msg']);
    expect(mine[0]).toMatchObject({ level: 30, method: 'GET', url: '/wp-json/nonexistent/route', status: 404 });
    expect(mine[0]!.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('hides credential parameters and keeps the rest', () => {
    expect(redactUrl('/wp-json/spamfilter/v1/alert?key=abcdefabcdef&x=1')).toBe('/wp-json/spamfilter/v1/alert?key=[redacted]&x=1');
    expect(redactUrl('/wp-json/eventsuite/tickets/v1/qr?api_key=k&ticket_id=5&security_code=s')).toBe('/wp-json/eventsuite/tickets/v1/qr?api_key=[redacted]&ticket_id=5&security_code=[redacted]');
    expect(redactUrl('/mailinglist/confirm?list=news&email=a%40b.c&sig=xyz')).toBe('/mailinglist/confirm?list=news&email=a%40b.c&sig=[redacted]');
    expect(redactUrl('/x?_wpnonce=n&edit_ticket_nonce=m&page=2')).toBe('/x?_wpnonce=[redacted]&edit_ticket_nonce=[redacted]&page=2');
    expect(redactUrl('/plain')).toBe('/plain');
  });
});
