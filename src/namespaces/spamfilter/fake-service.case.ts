/**
 * Test support: a local HTTP server speaking the spam service's protocol (Akismet REST 1.1, as
 * Automattic/akismet-api `spec.yml` describes it): `verify-key` and `get-stats` take the key as
 * `key`, the other calls as `api_key`. `validKeys` verify; comments containing `viagra` are spam
 * (`discard` with `casino` too); `alert` (when set) is sent as alert headers on every reply;
 * `stats` answers get-stats (an empty body while unset, `invalid` for a key that is not valid).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSpamService {
  url: string;
  validKeys: Set<string>;
  alert: { code: string; message: string } | undefined;
  stats: unknown;
  /** Every call: its path and decoded form body. */
  calls: { path: string; body: Record<string, string> }[];
  /** Seconds to wait before answering (timeouts). */
  delayMs: number;
  close(): Promise<void>;
}

export async function startFakeSpamService(): Promise<FakeSpamService> {
  let guidCounter = 0;
  const fake: FakeSpamService = {
    url: '',
    validKeys: new Set(['abcdefabcdef']),
    alert: undefined,
    stats: undefined,
    calls: [],
    delayMs: 0,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const path = req.url ?? '';
      fake.calls.push({ path, body });
      const headers: Record<string, string> = { 'content-type': 'text/plain' };
      if (fake.alert) {
        headers['x-akismet-alert-code'] = fake.alert.code;
        headers['x-akismet-alert-msg'] = fake.alert.message;
      }
      const send = (text: string, extra: Record<string, string> = {}) =>
        setTimeout(() => res.writeHead(200, { ...headers, ...extra }).end(text), fake.delayMs);
      const keyOk = fake.validKeys.has((path === '/1.1/verify-key' || path === '/1.1/get-stats' ? body.key : body.api_key) ?? '');
      switch (path) {
        case '/1.1/verify-key':
          return send(keyOk ? 'valid' : 'invalid');
        case '/1.1/comment-check': {
          if (!keyOk) return send('invalid', { 'x-akismet-debug-help': 'We were unable to parse your blog URI' });
          const text = `${body.comment_content ?? ''} ${body.comment_author ?? ''}`.toLowerCase();
          const spam = text.includes('viagra');
          const extra: Record<string, string> = { 'x-akismet-guid': `guid-${++guidCounter}` };
          if (spam && text.includes('casino')) extra['x-akismet-pro-tip'] = 'discard';
          return send(spam ? 'true' : 'false', extra);
        }
        case '/1.1/submit-spam':
        case '/1.1/submit-ham':
          return send('Thanks for making the web a better place.');
        case '/1.1/get-stats':
          if (!keyOk) return send('invalid');
          return send(fake.stats !== undefined ? JSON.stringify(fake.stats) : '', { 'content-type': 'application/json' });
        default:
          res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return fake;
}
