/**
 * Test support: a local server speaking the Mailchimp Marketing API v3 member calls, with Basic
 * authentication by API key. `failWith` makes every call answer that status.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { memberHash } from '../../remote/mailinglist-client.js';

export interface FakeMailchimp {
  url: string;
  apiKey: string;
  /** `list/hash` → member. */
  members: Map<string, Record<string, unknown>>;
  calls: { method: string; path: string; body: unknown; auth: string }[];
  failWith: number | undefined;
  close(): Promise<void>;
}

export async function startFakeMailchimp(apiKey = 'abc123-us7'): Promise<FakeMailchimp> {
  const fake: FakeMailchimp = { url: '', apiKey, members: new Map(), calls: [], failWith: undefined, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      const path = req.url ?? '';
      const auth = req.headers.authorization ?? '';
      fake.calls.push({ method: req.method ?? '', path, body, auth });
      const send = (status: number, data: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
      if (fake.failWith) return send(fake.failWith, { title: 'Failure', status: fake.failWith, detail: 'Forced failure' });
      if (auth !== `Basic ${Buffer.from(`mc4wp:${fake.apiKey}`).toString('base64')}`) return send(401, { title: 'API Key Invalid', status: 401, detail: 'Your API key may be invalid.' });
      const m = /^\/3\.0\/lists\/([^/]+)\/members(?:\/([0-9a-f]{32}))?$/.exec(path);
      if (!m) return send(404, { title: 'Resource Not Found', status: 404 });
      const list = decodeURIComponent(m[1]!);
      if (req.method === 'GET' && m[2]) {
        const member = fake.members.get(`${list}/${m[2]}`);
        return member ? send(200, member) : send(404, { title: 'Resource Not Found', status: 404 });
      }
      if (req.method === 'POST' && !m[2]) {
        const email = String(body?.email_address ?? '');
        const hash = memberHash(email);
        if (fake.members.has(`${list}/${hash}`)) return send(400, { title: 'Member Exists', status: 400 });
        const member = { id: hash, ...body };
        fake.members.set(`${list}/${hash}`, member);
        return send(200, member);
      }
      if (req.method === 'PATCH' && m[2]) {
        const key = `${list}/${m[2]}`;
        const member = fake.members.get(key);
        if (!member) return send(404, { title: 'Resource Not Found', status: 404 });
        Object.assign(member, body);
        return send(200, member);
      }
      return send(405, { title: 'Method Not Allowed', status: 405 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return fake;
}
