/**
 * @module namespaces/tickets/fixtures.case
 * Test fixtures of the tickets area (imported by `*.test.ts` only; `.case.ts` keeps them out of the build): posts to sell tickets for,
 * tickets created through the block editor's route with a real nonce, and a local SMTP server and
 * payment gateway.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp, TestResponse, TestUser } from '../../test-support/harness.js';
import { OFFLINE_PAYMENTS_OPTION } from './settings.js';

export const NS = '/eventsuite/tickets/v1';

let counter = 0;

/** Inserts a post (an event unless `type` says otherwise) and returns its ID. */
export async function makePost(
  t: TestApp,
  opts: { type?: string; status?: string; title?: string; content?: string; password?: string; author?: number } = {},
): Promise<number> {
  const n = ++counter;
  const row = await t.db
    .insertInto('posts')
    .values({
      type: opts.type ?? 'tribe_events',
      status: opts.status ?? 'publish',
      slug: `fixture-${n}-${Date.now()}`,
      title: opts.title ?? `Event ${n}`,
      content: opts.content ?? '',
      excerpt: '',
      author: opts.author ?? t.admin.id,
      parent: 0,
      password: opts.password ?? '',
      menu_order: 0,
      date: '2025-01-01 10:00:00',
      date_gmt: '2025-01-01 10:00:00',
      modified: '2025-01-01 10:00:00',
      modified_gmt: '2025-01-01 10:00:00',
      image_url: '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The `add_ticket_nonce` for `postId`, as the ticket list hands it to editors. */
export async function addNonce(t: TestApp, postId: number, as: TestUser = t.admin): Promise<string> {
  const res = await t.request('GET', `${NS}/tickets`, { query: { include_post: postId, status: 'any', post_status: 'any' }, as });
  return res.body?.add_ticket_nonce ?? '';
}

/** Creates a ticket through `POST /tickets` and returns the 202 body (ticket object with nonces). */
export async function addTicket(t: TestApp, postId: number, fields: Record<string, unknown> = {}, as: TestUser = t.admin): Promise<any> {
  const res = await t.request('POST', `${NS}/tickets`, {
    json: { post_id: postId, provider: 'tribe-commerce', price: '10', name: 'General admission', add_ticket_nonce: await addNonce(t, postId, as), ...fields },
    as,
  });
  if (res.status !== 202) throw new Error(`addTicket failed: ${res.status} ${res.text}`);
  return res.body;
}

/**
 * Checks out `json` paying offline (switched on for the site first, as a manager would) and marks the
 * order paid as the administrator: a completed order, as buyers paying at the door end up with.
 */
export async function buyPaidOffline(t: TestApp, json: Record<string, unknown>, as: TestUser | null = null): Promise<TestResponse> {
  await t.ctx.options.set(OFFLINE_PAYMENTS_OPTION, true);
  const res = await t.request('POST', `${NS}/orders`, { json: { ...json, gateway: 'offline' }, as });
  if (res.status !== 201 || res.body.status !== 'pending') return res;
  const paid = await t.request('POST', `${NS}/orders/${res.body.id}`, { json: { status: 'completed' }, as: t.admin });
  if (paid.status !== 200) throw new Error(`marking order ${res.body.id} paid failed: ${paid.status} ${paid.text}`);
  return { ...res, body: paid.body };
}

export { startMailBox, type MailBox } from '../../test-support/mailbox.js';

export interface FakeGateway {
  url: string;
  /** What the next `POST /payments` answers (status code and body). */
  next: { status: number; body: Record<string, unknown> };
  /** Payment statuses by id, answered by `GET /payments/{id}`. */
  payments: Map<string, string>;
  calls: { method: string; path: string; body: unknown; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A local payment gateway speaking the protocol of `remote/payment-gateway-remote.ts`. */
export async function startGateway(): Promise<FakeGateway> {
  let seq = 0;
  const gw: Omit<FakeGateway, 'url' | 'close'> = { next: { status: 201, body: { status: 'succeeded' } }, payments: new Map(), calls: [] };
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = data ? (JSON.parse(data) as unknown) : undefined;
      gw.calls.push({ method: req.method ?? '', path: req.url ?? '', body, headers: req.headers });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const m = /^\/payments(?:\/([^/]+))?(?:\/(refund|cancel))?$/.exec(req.url ?? '');
      if (!m) return send(404, { error: 'not found' });
      if (req.method === 'POST' && !m[1]) {
        const id = `pay_${++seq}`;
        const status = String(gw.next.body.status ?? 'succeeded');
        gw.payments.set(id, status);
        return send(gw.next.status, { id, ...gw.next.body });
      }
      const id = decodeURIComponent(m[1] ?? '');
      if (!gw.payments.has(id)) return send(404, { error: 'unknown payment' });
      if (req.method === 'GET') return send(200, { id, status: gw.payments.get(id) });
      if (m[2] === 'refund') gw.payments.set(id, 'refunded');
      if (m[2] === 'cancel') gw.payments.set(id, 'canceled');
      return send(200, { id, status: gw.payments.get(id) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(gw, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
