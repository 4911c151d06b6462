/**
 * The authorisation matrix (issue 13 §4) over every route of the discovery document:
 * - no write as anonymous: every POST/PUT/PATCH/DELETE, with arguments that pass validation and real
 *   IDs in the path, answers 401/403 — except the routes the originals make public, listed below with
 *   the reason;
 * - no write on admin routes for a subscriber (only its own application passwords and the public ones);
 * - no private read: no response to anonymous or a subscriber holds a draft's or a private event's
 *   title, an attendee's or a user's e-mail, or a stored secret (check-in key, service API keys);
 * - no attendee personal data (e-mail, name) to anyone who may not manage attendees (anonymous,
 *   subscriber, author of other events — a contributor can do less than an author), on any GET with
 *   tempting parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../src/test-support/harness.js';
import { seedFuzzSite, type FuzzSite } from '../src/test-support/fuzz-site.js';
import { fuzzTargets, type FuzzTarget } from '../src/test-support/route-fuzz.js';
import { setCheckinApiKey } from '../src/namespaces/tickets/index.js';

const ANY_WRITE = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Writes the originals open to anonymous callers, by route and method, and why
 * (/work/shared/reference/events-tickets.md, integrations.md). They may answer anything below 500.
 */
const PUBLIC_WRITES: { route: RegExp; methods: string[]; why: string }[] = [
  { route: /^\/contact-form\/v1\/contact-forms\/[^/]+\/feedback$/, methods: ['POST'], why: 'Contact Form 7: visitors submit the form (spam check, rate limit, multipart only)' },
  { route: /^\/mailinglist\/v1\/form$/, methods: ['POST'], why: 'Mailchimp for WordPress: the public sign-up form, no permission check by design' },
  { route: /^\/eventsuite\/tickets\/v1\/cart$/, methods: ['POST', 'PUT', 'PATCH'], why: "Event Tickets: anyone fills the visitor's own cart" },
  { route: /^\/eventsuite\/tickets\/v1\/orders$/, methods: ['POST'], why: 'Event Tickets: checkout is open to visitors' },
  { route: /^\/eventsuite\/tickets\/v1\/orders\/[^/]+$/, methods: ['POST', 'PUT', 'PATCH'], why: "Event Tickets: the buyer acts on its own order with the order key; others get order-not-found" },
  { route: /^\/eventsuite\/tickets\/v1\/tickets(\/[^/]+)?$/, methods: ANY_WRITE, why: "Event Tickets: ticket writes check the editor's nonce and the post inside the handler (after reading the ticket), so anonymous gets a ticket read error or 403" },
  { route: /^\/connector\/v4\/(verify_registration|remote_authorize|remote_provision|remote_register|remote_connect)$/, methods: ['POST', 'PUT', 'PATCH'], why: 'Jetpack connection: handshakes called by the remote service, authenticated by secrets and signatures, not by a user' },
  { route: /^\/connector\/v4\/verify_xmlrpc_error$/, methods: ['POST'], why: 'Jetpack: public nonce echo (answers true/false, writes nothing)' },
  { route: /^\/spamfilter\/v1\/webhook$/, methods: ['POST'], why: 'Akismet: the service calls the webhook, authenticated by the key in the payload' },
];

/** Writes a subscriber may make beyond the public ones. */
const SUBSCRIBER_WRITES: { route: RegExp; methods: string[]; why: string }[] = [
  { route: /^\/core\/v2\/users\/\(\?P<user_id>[^/]*\/application-passwords/, methods: ['POST', 'PUT', 'PATCH', 'DELETE'], why: 'WordPress: a user manages its own application passwords (edit_user on itself)' },
];

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SECRET = { checkin: 'checkin-secret-8d1f2a7c', spamfilter: 'spamfilter-secret-55aa01', mailinglist: 'mailinglist-secret-9c3e' };

function listed(list: typeof PUBLIC_WRITES, target: FuzzTarget): string | undefined {
  return list.find((p) => p.route.test(target.key) && p.methods.includes(target.method))?.why;
}

/** A path for a discovery key with the seeded objects' IDs (`me` for user_id). */
function pathOf(key: string, site: FuzzSite): string {
  return key.replace(/\(\?P<([^>]+)>(?:[^()]|\((?:[^()])*\))+\)/g, (_m, name: string, offset: number) => {
    const before = key.slice(0, offset).split('/').filter((x) => x && x !== 'by-slug').pop() ?? '';
    const pool = site.pool[name === 'id' || name === 'slug' ? `${before}:${name}` : name] ?? site.pool[`${before}:id`] ?? site.pool.any!;
    return encodeURIComponent(String(pool[0]));
  });
}

/** Arguments that pass the declared schema, so the permission check is what answers. */
function validArgs(target: FuzzTarget, site: FuzzSite): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Path parameters stay in the path (in WordPress the query would override them).
  const inPath = new Set([...target.key.matchAll(/\(\?P<([^>]+)>/g)].map((m) => m[1]));
  for (const [name, schema] of Object.entries(target.args)) {
    if (inPath.has(name)) continue;
    const s = schema as { type?: string | string[]; enum?: unknown[]; required?: boolean; format?: string };
    // Optional arguments stay out, except the ones most handlers key on.
    if (!s.required && !['title', 'name', 'post_id', 'status'].includes(name)) continue;
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (s.enum?.length) out[name] = s.enum[0];
    else if (type === 'integer' || type === 'number') out[name] = Number(site.pool.any![0]);
    else if (type === 'boolean') out[name] = true;
    else if (type === 'array') out[name] = ['matrix'];
    else if (type === 'object') out[name] = {};
    else if (s.format === 'email') out[name] = 'matrix@example.test';
    else if (s.format === 'uri') out[name] = 'https://example.test/matrix';
    else if (name.endsWith('_date') || name === 'date') out[name] = '2030-01-01 10:00:00';
    else out[name] = name === 'status' ? 'publish' : 'matrix';
  }
  return out;
}

describe.each(DIALECTS)('authorisation matrix on %s', (engine) => {
  let t: TestApp;
  let site: FuzzSite;
  let targets: FuzzTarget[];
  let author: TestUser;
  let secrets: string[];
  beforeAll(async () => {
    t = await startTestApp(engine);
    site = await seedFuzzSite(t);
    author = await t.createUser('author');
    await setCheckinApiKey(t.ctx, SECRET.checkin);
    await t.ctx.options.set('spamfilter_api_key', SECRET.spamfilter);
    await t.ctx.options.set('mailinglist_api_key', SECRET.mailinglist);
    targets = fuzzTargets((await t.request('GET', '/')).body);
    secrets = ['Fuzz draft secret', 'Fuzz private secret', site.attendee.email, site.attendee.name, t.admin.email, SECRET.checkin, SECRET.spamfilter, SECRET.mailinglist];
  });
  afterAll(() => t?.close());

  /** Status of a write: 401/403 refuse; a 400 from argument validation (which WordPress runs before the permission check) or a 404 for a path no route matches also write nothing. */
  const refused = (status: number, code: unknown) => status === 401 || status === 403 || (status === 400 && (code === 'rest_missing_callback_param' || code === 'rest_invalid_param')) || (status === 404 && code === 'rest_no_route');

  async function writeAs(as: TestUser | null, target: FuzzTarget) {
    const path = pathOf(target.key, site);
    const args = validArgs(target, site);
    return target.method === 'DELETE' ? t.request('DELETE', path, { query: args as never, as }) : t.request(target.method, path, { json: args, as });
  }

  it('refuses every write to anonymous callers, except the public routes listed', async () => {
    const wrong: string[] = [];
    for (const target of targets.filter((x) => WRITE_METHODS.has(x.method))) {
      const res = await writeAs(null, target);
      if (listed(PUBLIC_WRITES, target) ? res.status >= 500 : !refused(res.status, res.body?.code)) wrong.push(`${target.method} ${target.key} → ${res.status} ${res.text.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('refuses admin writes to a subscriber', async () => {
    const wrong: string[] = [];
    for (const target of targets.filter((x) => WRITE_METHODS.has(x.method))) {
      const res = await writeAs(site.subscriber, target);
      if (listed(PUBLIC_WRITES, target) || listed(SUBSCRIBER_WRITES, target) ? res.status >= 500 : !refused(res.status, res.body?.code)) wrong.push(`${target.method} ${target.key} → ${res.status} ${res.text.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('shows no private object, e-mail, attendee or secret to anonymous callers, subscribers and authors', async () => {
    const leaks: string[] = [];
    const tempting: Record<string, string | number>[] = [
      { _embed: 1 },
      { context: 'edit', status: 'draft' },
      { status: 'any', post_status: 'any', per_page: 100 },
      { status: 'private', include: site.privateEvents.join(','), search: 'Fuzz' },
      { post_id: site.pool['events:id']![3]!, event: site.pool['events:id']![3]! },
    ];
    // A contributor's capabilities are a subset of an author's, so the author stands for both.
    for (const as of [null, site.subscriber, author]) {
      for (const target of targets.filter((x) => x.method === 'GET')) {
        for (const query of tempting) {
          const res = await t.request('GET', pathOf(target.key, site), { query, as });
          const found = secrets.filter((s) => res.text.toLowerCase().includes(s.toLowerCase()));
          if (found.length) leaks.push(`${as?.login ?? 'anonymous'} GET ${target.key} ${JSON.stringify(query)} → ${res.status} holds ${found.join(', ')}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    // The same reads as the administrator do find them: the markers are real.
    const admin = await t.request('GET', `/eventsuite/tickets/v1/attendees/${site.attendee.id}`, { as: t.admin });
    expect(admin.text).toContain(site.attendee.email);
    const draft = await t.request('GET', `/eventsuite/events/v1/events/${site.privateEvents[0]}`, { as: t.admin });
    expect(draft.text).toContain('Fuzz draft secret');
  }, 300_000);

  // Last: it changes the site. The refusals above mean something only if the same requests get past
  // argument validation: as the administrator most of them are carried out.
  it('carries out most of the same writes for the administrator', async () => {
    const writes = targets.filter((x) => WRITE_METHODS.has(x.method) && !listed(PUBLIC_WRITES, x));
    let done = 0;
    for (const target of writes) if ((await writeAs(t.admin, target)).status < 300) done++;
    expect(done / writes.length).toBeGreaterThan(0.4); // 99 of 192 when written
  }, 300_000);
});
