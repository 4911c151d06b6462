/**
 * Test support: a local server speaking the Mailchimp Marketing API v3 calls the sign-up makes, with
 * Basic authentication by API key: members (look-up, add, update, tags), and a list's merge fields,
 * interest categories, interests and marketing permissions. A list not set up in `lists` has the
 * merge fields of a new Mailchimp audience (FNAME, LNAME, ADDRESS, PHONE, BIRTHDAY) and no interests.
 * A new member gets every interest of its list (off unless sent), as the service shows them.
 * `failWith` makes every call answer that status; `failOn` picks calls to fail.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { memberHash } from '../../remote/mailinglist-client.js';

export interface FakeList {
  mergeFields: Record<string, unknown>[];
  categories: { id: string; title: string; type: string; interests: { id: string; name: string }[] }[];
  marketingPermissions: { marketing_permission_id: string; text: string }[];
}

export interface FakeCall {
  method: string;
  /** Path and query, as sent. */
  path: string;
  body: unknown;
  auth: string;
  acceptLanguage: string | undefined;
}

export interface FakeMailchimp {
  url: string;
  apiKey: string;
  /** `list/hash` → member. */
  members: Map<string, Record<string, unknown>>;
  lists: Map<string, FakeList>;
  calls: FakeCall[];
  failWith: number | undefined;
  /** A status for the calls to fail (`undefined` lets the call through). */
  failOn: ((call: FakeCall) => number | undefined) | undefined;
  /** Members are answered without their `id` (a broken service). */
  omitIds: boolean;
  close(): Promise<void>;
}

export const DEFAULT_MERGE_FIELDS: Record<string, unknown>[] = [
  { tag: 'FNAME', name: 'First Name', type: 'text', required: false, default_value: '', options: { size: 25 }, public: true },
  { tag: 'LNAME', name: 'Last Name', type: 'text', required: false, default_value: '', options: { size: 25 }, public: true },
  { tag: 'ADDRESS', name: 'Address', type: 'address', required: false, default_value: '', options: { default_country: 164 }, public: true },
  { tag: 'PHONE', name: 'Phone Number', type: 'phone', required: false, default_value: '', options: { phone_format: 'none' }, public: true },
  { tag: 'BIRTHDAY', name: 'Birthday', type: 'birthday', required: false, default_value: '', options: { date_format: 'MM/DD' }, public: true },
];

export async function startFakeMailchimp(apiKey = 'abc123-us7'): Promise<FakeMailchimp> {
  const fake: FakeMailchimp = { url: '', apiKey, members: new Map(), lists: new Map(), calls: [], failWith: undefined, failOn: undefined, omitIds: false, close: async () => undefined };
  const listOf = (id: string): FakeList => fake.lists.get(id) ?? { mergeFields: DEFAULT_MERGE_FIELDS, categories: [], marketingPermissions: [] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      const path = req.url ?? '';
      const auth = req.headers.authorization ?? '';
      const call: FakeCall = { method: req.method ?? '', path, body, auth, acceptLanguage: req.headers['accept-language'] };
      fake.calls.push(call);
      const send = (status: number, data?: unknown) => {
        if (data === undefined) return res.writeHead(status).end();
        return res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
      };
      const sendMember = (member: Record<string, unknown>) => {
        const { id: _id, ...withoutId } = member;
        return send(200, fake.omitIds ? withoutId : member);
      };
      const forced = fake.failWith ?? fake.failOn?.(call);
      if (forced) return send(forced, { title: 'Failure', status: forced, detail: 'Forced failure' });
      if (auth !== `Basic ${Buffer.from(`mc4wp:${fake.apiKey}`).toString('base64')}`) return send(401, { title: 'API Key Invalid', status: 401, detail: 'Your API key may be invalid.' });
      const notFound = () => send(404, { title: 'Resource Not Found', status: 404 });
      const [pathname] = path.split('?');
      const lists = /^\/3\.0\/lists\/([^/]+)\/(merge-fields|interest-categories)(?:\/([^/]+)\/interests)?$/.exec(pathname!);
      if (lists && req.method === 'GET') {
        const list = listOf(decodeURIComponent(lists[1]!));
        if (lists[2] === 'merge-fields') return send(200, { merge_fields: list.mergeFields, list_id: lists[1], total_items: list.mergeFields.length });
        if (!lists[3]) return send(200, { categories: list.categories.map(({ id, title, type }) => ({ id, title, type })) });
        const category = list.categories.find((c) => c.id === decodeURIComponent(lists[3]!));
        return category ? send(200, { interests: category.interests }) : notFound();
      }
      const m = /^\/3\.0\/lists\/([^/]+)\/members(?:\/([0-9a-f]{32})(\/tags)?)?$/.exec(pathname!);
      if (!m) return notFound();
      const listId = decodeURIComponent(m[1]!);
      const key = `${listId}/${m[2]}`;
      if (req.method === 'GET' && !m[2]) {
        const first = [...fake.members.entries()].find(([k]) => k.startsWith(`${listId}/`));
        const permissions = listOf(listId).marketingPermissions.map((p) => ({ ...p, enabled: false }));
        return send(200, { members: first ? [{ marketing_permissions: permissions }] : [] });
      }
      if (req.method === 'GET' && m[2] && !m[3]) {
        const member = fake.members.get(key);
        return member ? sendMember(member) : notFound();
      }
      if (req.method === 'POST' && !m[2]) {
        const email = String(body?.email_address ?? '');
        const hash = memberHash(email);
        if (fake.members.has(`${listId}/${hash}`)) return send(400, { title: 'Member Exists', status: 400 });
        const interests = Object.fromEntries(listOf(listId).categories.flatMap((c) => c.interests.map((i) => [i.id, false])));
        const member: Record<string, unknown> = { id: hash, ...body };
        if (Object.keys(interests).length > 0) member.interests = { ...interests, ...(body?.interests as object) };
        fake.members.set(`${listId}/${hash}`, member);
        return sendMember(member);
      }
      if (req.method === 'PATCH' && m[2] && !m[3]) {
        const member = fake.members.get(key);
        if (!member) return notFound();
        const { merge_fields: fields, interests, ...rest } = body ?? {};
        Object.assign(member, rest);
        if (fields) member.merge_fields = { ...(member.merge_fields as object), ...(fields as object) };
        if (interests) member.interests = { ...(member.interests as object), ...(interests as object) };
        return sendMember(member);
      }
      if (req.method === 'POST' && m[3]) {
        const member = fake.members.get(key);
        if (!member) return notFound();
        const tags = new Set((member.tags as string[] | undefined) ?? []);
        for (const tag of (body?.tags as { name: string; status: string }[]) ?? []) {
          if (tag.status === 'inactive') tags.delete(tag.name);
          else tags.add(tag.name);
        }
        member.tags = [...tags];
        return send(204);
      }
      return send(405, { title: 'Method Not Allowed', status: 405 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return fake;
}
