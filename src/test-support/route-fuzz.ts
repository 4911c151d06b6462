/**
 * @module test-support/route-fuzz
 * A route fuzzer driven by the discovery document: every route and method, signed out and as an
 * administrator, with hostile arguments (wrong types, huge and empty values, arrays where scalars go),
 * broken JSON, wrong content types, thousands of parameters and bad percent-encoding. Each response
 * must be below 500 (502/503: a remote service the test site points at nothing) and every error must
 * have WordPress's shape `{code, message, data:{status}}`.
 *
 * Case `i` of seed `s` is a pure function of (s, i) and of the site's seeded objects, so a failure is
 * replayed with the same seed and case number. Cases go through the targets in passes, signed out
 * then as the administrator; each pair of passes gives every target another kind, so the first
 * `targets × 2 × n` cases try n kinds on every route and method as both, and `targets × 2 × kinds`
 * cases every combination; later cases draw the same combinations again with other values.
 *
 * Used by `test/route-fuzz.test.ts` (short, fixed budget) and `bench/fuzz.ts` (longer).
 */
import http from 'node:http';
import net from 'node:net';
import type { TestApp, TestUser } from './harness.js';
import { createApplicationPassword } from '../auth/app-passwords.js';
import { seededRandom, type Rng } from '../seeded-random.js';

// ---- Seeded cases ------------------------------------------------------------------------------

/** The generator of one case: independent of every other case. */
function caseRng(seed: number, index: number): Rng {
  return seededRandom((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
}

const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

// ---- Targets -----------------------------------------------------------------------------------

interface ArgSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: ArgSchema;
  required?: boolean;
}

export interface FuzzTarget {
  /** The discovery key, e.g. `/eventsuite/events/v1/events/(?P<id>\d+)`. */
  key: string;
  method: string;
  args: Record<string, ArgSchema>;
}

/** Every (route, method) of the discovery document. */
export function fuzzTargets(discovery: { routes: Record<string, { endpoints: { methods: string[]; args?: unknown }[] }> }): FuzzTarget[] {
  const out: FuzzTarget[] = [];
  for (const [key, route] of Object.entries(discovery.routes)) {
    for (const ep of route.endpoints) {
      const args = ep.args && !Array.isArray(ep.args) ? (ep.args as Record<string, ArgSchema>) : {};
      for (const method of ep.methods) out.push({ key, method, args });
    }
  }
  return out;
}

// ---- Seeded objects the path parameters point at -----------------------------------------------

/** Real values for path parameters, by the route segment before the parameter (`events`, `users`…). */
export type IdPool = Record<string, (string | number)[]>;

/** Values a hostile client puts where an ID, a slug or a UUID goes. */
const JUNK_PATH = ['0', '-1', '99999999999999999999', '2147483648', '9223372036854775808', 'abc', '1e3', '%20', '%00', '..', 'me', 'x'.repeat(300), '1.5', '0x10', '%E2%80%AE', 'null'];

/** A concrete path for a discovery key: each parameter gets a real value, a matching junk value or junk. */
function concretePath(key: string, pool: IdPool, rng: Rng): string {
  return key.replace(/\(\?P<([^>]+)>(?:[^()]|\((?:[^()])*\))+\)/g, (_m, name: string, offset: number) => {
    const before = key.slice(0, offset).split('/').filter((x) => x && x !== 'by-slug').pop() ?? '';
    const real = pool[name === 'id' || name === 'slug' ? `${before}:${name}` : name] ?? pool[`${before}:id`] ?? pool.any ?? [];
    const r = rng();
    if (r < 0.6 && real.length > 0) return encode(String(pick(rng, real)));
    return pick(rng, JUNK_PATH);
  });
}

// ---- Hostile values ----------------------------------------------------------------------------

const HUGE = 'x'.repeat(100_000);
const SCALAR_JUNK: unknown[] = ['abc', '-1', '0', '99999999999999999999', '1.5', '1e308', '', ' ', 'true', 'null', '2025-13-45 25:61:61', '0000-00-00 00:00:00', '<script>x</script>', 'é🎉', '\u0000', 'a\u0000b', '\ud800', '%00', '../../etc/passwd', "' OR 1=1 --", 'x'.repeat(5000), -2147483649, 2 ** 53 + 1, 1e308, -0, 0.5, true, false, null];
const STRUCT_JUNK: unknown[] = [[], ['a', 'b'], [[1]], {}, { a: { b: 'c' } }, [{ id: 'x' }], JSON.parse('{"__proto__":{"polluted":1}}'), { constructor: { prototype: { polluted: 1 } } }];

/** A value of the wrong kind for `schema` (or just hostile when the schema says nothing). */
function wrongValue(schema: ArgSchema | undefined, rng: Rng): unknown {
  const types = schema?.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const r = rng();
  if (types.includes('array') || types.includes('object')) {
    if (r < 0.5) return pick(rng, SCALAR_JUNK);
    return r < 0.75 ? [pick(rng, SCALAR_JUNK), pick(rng, STRUCT_JUNK)] : { x: pick(rng, SCALAR_JUNK), 0: pick(rng, STRUCT_JUNK) };
  }
  if (schema?.enum && r < 0.3) return `${String(pick(rng, schema.enum))}x`;
  if (r < 0.35) return pick(rng, STRUCT_JUNK);
  return pick(rng, SCALAR_JUNK);
}

/** A valid-looking value (so the hostile one next to it gets past the first checks). */
function plausibleValue(schema: ArgSchema | undefined, pool: IdPool, rng: Rng): unknown {
  if (schema?.enum && schema.enum.length > 0) return pick(rng, schema.enum);
  const type = Array.isArray(schema?.type) ? schema!.type[0] : schema?.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Number(pick(rng, pool.any ?? [1]));
    case 'boolean':
      return rng() < 0.5;
    case 'array':
      return [pick(rng, pool.any ?? [1])];
    case 'object':
      return {};
    default:
      return pick(rng, ['fuzz', '1', 'publish', '2025-06-01 10:00:00', 'fuzz@example.test']);
  }
}

// ---- Cases -------------------------------------------------------------------------------------

export const KINDS = [
  'wrong-types',
  'empty',
  'huge',
  'arrays-for-scalars',
  'broken-json',
  'wrong-content-type',
  'many-params',
  'bad-percent-encoding',
  'globals',
  'method-override',
  'form-body',
] as const;
export type Kind = (typeof KINDS)[number];

export interface FuzzCase {
  index: number;
  kind: Kind;
  target: FuzzTarget;
  as: 'anonymous' | 'administrator';
  method: string;
  /** The method the server acts on (after `_method` / `X-HTTP-Method-Override`). */
  effectiveMethod: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** `encodeURIComponent` that also takes lone surrogates (sent as their raw UTF-8-like bytes). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text.split('').map((ch) => { try { return encodeURIComponent(ch); } catch { return '%ED%A0%80'; } }).join('');
  }
}

function queryString(params: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (k: string, v: unknown) => {
    if (Array.isArray(v)) v.forEach((x) => add(`${k}[]`, x));
    else if (v !== null && typeof v === 'object') for (const [sub, x] of Object.entries(v)) add(`${k}[${sub}]`, x);
    else parts.push(`${encode(k)}=${encode(v === null ? '' : String(v))}`);
  };
  for (const [k, v] of Object.entries(params)) add(k, v);
  return parts.join('&');
}

const BROKEN_JSON = ['{', '{"a":', '[1,2', '{"a":1,}', "{'a':1}", 'nul', '"unterminated', '{"a":"\\ud800"}', '{"a":1}{"b":2}', '\u0000', '{"__proto__":{"polluted":1}}', '[]', 'null', '123', '"text"', '{"a":1e99999}'];
const CONTENT_TYPES = ['text/plain', 'application/xml', 'multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=zz', 'application/json; charset=utf-16', 'application/x-www-form-urlencoded; charset=nope', 'application/octet-stream', 'image/png', ';;;', 'application/json, text/plain', 'application/merge-patch+json'];

/** Builds case `index` of `seed`. */
export function buildCase(seed: number, index: number, targets: FuzzTarget[], pool: IdPool): FuzzCase {
  const rng = caseRng(seed, index);
  const t = targets.length;
  const pass = Math.floor(index / t);
  const target = targets[index % t]!;
  const as = pass % 2 === 0 ? 'anonymous' : 'administrator';
  // Each pair of passes gives every route another kind, so n pairs try n kinds on every route.
  const kind = KINDS[((index % t) + Math.floor(pass / 2)) % KINDS.length]!;
  const path = concretePath(target.key, pool, rng);
  const names = Object.keys(target.args);
  const chosen = names.filter(() => rng() < 0.7);
  const params: Record<string, unknown> = {};
  for (const n of names) if (!chosen.includes(n) && rng() < 0.5) params[n] = plausibleValue(target.args[n], pool, rng);
  const headers: Record<string, string> = {};
  let method = target.method;
  let effective: string | undefined;
  let query = '';
  let payload: string | Buffer | undefined;
  const readsQuery = method === 'GET' || method === 'DELETE' || rng() < 0.2;

  switch (kind) {
    case 'wrong-types':
      for (const n of chosen.length ? chosen : ['id', 'page']) params[n] = wrongValue(target.args[n], rng);
      break;
    case 'empty':
      for (const n of names) params[n] = pick(rng, ['', ' ', [], {}, null]);
      break;
    case 'huge': {
      const list = chosen.length ? chosen : ['search'];
      for (const n of list) params[n] = pick(rng, ['9'.repeat(400), 1e308, -1e308, Array.from({ length: 2000 }, (_, i) => i), 'y'.repeat(20_000)]);
      params[pick(rng, list)] = HUGE; // one very long value per case keeps the budget
      break;
    }
    case 'arrays-for-scalars':
      for (const n of chosen.length ? chosen : ['id']) params[n] = rng() < 0.5 ? ['1', '2'] : { 0: '1', nested: { deeper: ['x'] } };
      break;
    case 'globals':
      Object.assign(params, {
        [pick(rng, ['_fields', '_embed', 'context', 'per_page', 'page', 'offset', 'orderby', 'order', '_jsonp', '_envelope', 'search', 'include', 'exclude', 'status', '_locale', 'rest_route'])]: wrongValue(undefined, rng),
        context: pick(rng, ['edit', 'embed', 'view', 'help', 'x', ['edit']]),
        per_page: pick(rng, ['-1', '0', '100000', 'all', '1e3']),
        page: pick(rng, ['0', '-5', '99999999', '1.5']),
        _fields: pick(rng, ['id', 'a.b.c', '', ',,,', 'x'.repeat(2000), ['id', ['x']]]),
        _embed: pick(rng, ['1', 'true', 'author,wp:term', ['x']]),
      });
      break;
    default:
      break;
  }

  // Where the arguments travel.
  if (kind === 'broken-json') {
    headers['content-type'] = 'application/json';
    payload = pick(rng, BROKEN_JSON);
    if (rng() < 0.1) payload = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  } else if (kind === 'wrong-content-type') {
    headers['content-type'] = pick(rng, CONTENT_TYPES);
    payload = rng() < 0.5 ? JSON.stringify(params) : queryString(params) || 'a=1';
  } else if (kind === 'many-params') {
    const count = 1000 + Math.floor(rng() * 1500);
    const junk = Array.from({ length: count }, (_, i) => (i % 3 === 0 ? `p${i}=${i}` : i % 3 === 1 ? `a[${i}]=${i}` : `${pick(rng, names.length ? names : ['x'])}[]=${i}`)).join('&');
    const deep = `d${'[a]'.repeat(500)}=1`;
    query = `${junk}&${deep}`;
    if (!readsQuery) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = junk;
    }
  } else if (kind === 'bad-percent-encoding') {
    const bad = pick(rng, ['%', '%zz', '%E0%A4%A', '%C0%AF', '%FF%FE', '%%%', 'a%2', '%ED%A0%80']);
    query = `${pick(rng, names.length ? names : ['search'])}=${bad}&${bad}=1&_fields=${bad}`;
    if (!readsQuery) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = `${pick(rng, names.length ? names : ['title'])}=${bad}&x=%zz`;
    }
  } else if (kind === 'method-override') {
    const other = pick(rng, ['DELETE', 'PUT', 'PATCH', 'POST', 'GET', 'HEAD', 'OPTIONS', 'TRACE', 'delete', '']);
    if (rng() < 0.5) query = `_method=${encode(other)}&${queryString(params)}`;
    else {
      headers['x-http-method-override'] = other;
      query = queryString(params);
    }
    method = pick(rng, ['POST', 'GET', target.method]);
    if (other) effective = other.toUpperCase();
  } else if (kind === 'form-body') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = queryString(params);
    if (rng() < 0.5) method = pick(rng, ['HEAD', 'OPTIONS', target.method]);
  } else if (readsQuery) {
    query = queryString(params);
  } else {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(params);
  }

  return { index, kind, target, as, method, effectiveMethod: effective ?? method, url: `${path}${query ? `?${query}` : ''}`, headers, ...(payload !== undefined ? { payload } : {}) };
}

// ---- Checks ------------------------------------------------------------------------------------

export interface FuzzResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/**
 * Routes whose originals answer some errors in a shape of their own, kept byte for byte
 * (/work/shared/reference/integrations.md): the check accepts exactly that shape there.
 */
const ORIGINAL_ERROR_SHAPES: { route: RegExp; why: string; accepts(status: number, body: any): boolean }[] = [
  {
    route: /^\/seo\/v1\/(ranktool-[ab]|configuration)\//,
    why: 'Yoast SEMrush/Wincher integrations and first-time configuration: {success?, error?, status} with the HTTP status in `status`',
    accepts: (status, body) => body?.status === status,
  },
  { route: /^\/seo\/v1\/file_size$/, why: 'Yoast: 404 {"type":"failure","response":…}', accepts: (status, body) => status === 404 && body?.type === 'failure' },
  { route: /^\/seo\/v1\/(seo|readability)_scores$/, why: 'Yoast dashboard scores: 400 {"error":…}', accepts: (status, body) => status === 400 && typeof body?.error === 'string' },
  { route: /^\/seo\/v1\/introductions\/[^/]+\/seen$/, why: 'Yoast: unknown introduction → 400 [], failed write → 400 {"json":{"success":false}}', accepts: (status, body) => status === 400 && ((Array.isArray(body) && body.length === 0) || body?.json?.success === false) },
  { route: /^\/seo\/v1\/videohost_embed_permission$/, why: 'Yoast: storing the stored value → 400 {"json":{"success":false}}', accepts: (status, body) => status === 400 && body?.json?.success === false },
  { route: /^\/shop\/v3\/marketplace\//, why: 'WooCommerce marketplace: wp_send_json_error → {"success":false,"data":…}', accepts: (_status, body) => body?.success === false && typeof body?.data === 'object' },
  { route: /^\/eventsuite\/tickets\/v1\/qr$/, why: 'Event Tickets check-in scanner: wrong key → 400 echo of the parameters, refusals → 403 {msg, error}', accepts: (status, body) => (status === 400 && typeof body === 'object' && body !== null && 'api_key' in body) || (status === 403 && typeof body?.error === 'string') },
  { route: /^\/shop-admin\/onboarding\/plugins\/scheduled-installs\//, why: 'WooCommerce: unknown job → 404 with a `null` body', accepts: (status, body) => status === 404 && body === null },
  { route: /./, why: 'WordPress core: a bad JSONP callback → 400 {code, message} without `data`', accepts: (status, body) => status === 400 && (body?.code === 'rest_callback_invalid' || body?.code === 'rest_callback_disabled') },
];

/** What is wrong with a response to `route` (a concrete route, e.g. `/core/v2/users/me`), or undefined when nothing is. */
export function responseDefect(method: string, res: FuzzResponse, route = ''): string | undefined {
  if (res.status >= 500 && res.status !== 502 && res.status !== 503) return `status ${res.status}`;
  if (res.status < 400) return undefined;
  if (method !== 'HEAD') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body === '' ? 'null' : (/^\/\*\*\/[\w.[\]]+\(([\s\S]*)\)$/.exec(res.body)?.[1] ?? res.body));
    } catch {
      parsed = undefined;
    }
    if (ORIGINAL_ERROR_SHAPES.some((o) => o.route.test(route) && o.accepts(res.status, parsed))) return undefined;
  }
  if (method === 'HEAD' || res.body === '') return method === 'HEAD' ? undefined : 'error without a body';
  // JSONP (`_jsonp=cb`) wraps errors as well: `/**/cb({...})`.
  const jsonp = /^\/\*\*\/[\w.[\]]+\(([\s\S]*)\)$/.exec(res.body);
  const text = jsonp ? jsonp[1]! : res.body;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return 'error body is not JSON';
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'error body is not an object';
  if (typeof body.code !== 'string' || typeof body.message !== 'string') return 'error without code/message';
  if (!body.data || typeof body.data !== 'object' || body.data.status !== res.status) return `error data.status ≠ ${res.status}`;
  return undefined;
}

// ---- Runner ------------------------------------------------------------------------------------

export interface FuzzFailure {
  seed: number;
  index: number;
  kind: Kind;
  as: string;
  request: string;
  defect: string;
  response: string;
}

export interface FuzzRun {
  cases: number;
  /** Milliseconds spent per kind. */
  msByKind: Partial<Record<Kind, number>>;
  /** The slowest cases (for tuning the budget). */
  slowest: { index: number; ms: number; request: string }[];
  failures: FuzzFailure[];
  statuses: Record<number, number>;
}

/** The first `max` failures, 5xx first, each with what replays it. */
export function describeFailures(failures: FuzzFailure[], max: number): string[] {
  return [...failures]
    .sort((a, b) => Number(b.response.startsWith('5')) - Number(a.response.startsWith('5')))
    .slice(0, max)
    .map((f) => `seed ${f.seed} case ${f.index} [${f.kind}, ${f.as}] ${f.defect}\n  ${f.request}\n  → ${f.response}`);
}

export interface FuzzOptions {
  seed: number;
  /** Case numbers to run, from `first` (default 0). */
  first?: number;
  cases: number;
  /** Stop earlier when this many milliseconds have passed. */
  deadlineMs?: number;
  /** Called every `progressEvery` cases (default 1000). */
  progress?: (done: number, run: FuzzRun) => void;
}

/** Runs cases `first … first+cases-1` against `t` through `inject`, collecting defects. */
export async function fuzz(t: TestApp, targets: FuzzTarget[], pool: IdPool, opts: FuzzOptions): Promise<FuzzRun> {
  const run: FuzzRun = { cases: 0, msByKind: {}, slowest: [], failures: [], statuses: {} };
  const started = Date.now();
  let admin = t.admin;
  let renewals = 0;
  const first = opts.first ?? 0;
  for (let i = first; i < first + opts.cases; i++) {
    if (opts.deadlineMs !== undefined && Date.now() - started > opts.deadlineMs) break;
    const c = buildCase(opts.seed, i, targets, pool);
    const headers = { ...c.headers, ...(c.as === 'administrator' ? { authorization: admin.authorization, 'x-forwarded-for': adminAddress(renewals) } : {}) };
    const sent = performance.now();
    const res = await t.app.inject({ method: c.method as never, url: `${t.ctx.config.apiPath}${c.url}`, headers, ...(c.payload !== undefined ? { payload: c.payload } : {}) });
    run.cases++;
    const ms = performance.now() - sent;
    run.msByKind[c.kind] = (run.msByKind[c.kind] ?? 0) + ms;
    if (run.slowest.length < 5 || ms > run.slowest[4]!.ms) {
      run.slowest.push({ index: i, ms: Math.round(ms), request: `${c.kind} ${c.as} ${c.method} ${c.url.slice(0, 100)}` });
      run.slowest.sort((a, b) => b.ms - a.ms).splice(5);
    }
    run.statuses[res.statusCode] = (run.statuses[res.statusCode] ?? 0) + 1;
    const defect = responseDefect(c.effectiveMethod, { status: res.statusCode, headers: res.headers, body: res.body }, c.url.split('?')[0]);
    if (defect) {
      run.failures.push({
        seed: opts.seed,
        index: i,
        kind: c.kind,
        as: c.as,
        request: `${c.method} ${c.url.slice(0, 200)} ${JSON.stringify(c.headers)} ${String(c.payload ?? '').slice(0, 200)}`,
        defect,
        response: `${res.statusCode} ${res.body.slice(0, 300)}`,
      });
    }
    // The administrator may revoke its own application passwords: give it a new one, from a new
    // address, so the failures the revoked one earned do not lock the new one out.
    if (c.as === 'administrator' && (res.statusCode === 401 || res.statusCode === 429)) {
      const next = await stillAdmin(t, admin, adminAddress(renewals));
      if (next !== admin) renewals++;
      admin = next;
    }
    if (opts.progress && (i - first + 1) % 1000 === 0) opts.progress(i - first + 1, run);
  }
  return run;
}

/** The administrator's client address after `renewals` new application passwords (the test apps trust the proxy header). */
function adminAddress(renewals: number): string {
  return `198.18.${(renewals >> 8) & 255}.${renewals & 255}`;
}

async function stillAdmin(t: TestApp, admin: TestUser, address: string): Promise<TestUser> {
  const me = await t.app.inject({ method: 'GET', url: `${t.ctx.config.apiPath}/core/v2/users/me`, headers: { authorization: admin.authorization, 'x-forwarded-for': address } });
  if (me.statusCode === 200) return admin;
  const { password } = await createApplicationPassword(t.ctx, admin.id, { name: 'fuzz' });
  return { ...admin, appPassword: password, authorization: `Basic ${Buffer.from(`${admin.login}:${password}`).toString('base64')}` };
}

// ---- The HTTP layer, over a real socket --------------------------------------------------------

/**
 * What only the HTTP layer sees, once per target over a socket to `port` (the app listening): a URL
 * over Node's header limit (431), a malformed percent-encoding in the path (400), multipart without a
 * boundary (400), a body over `bodyLimit` (413), and a request line Node cannot parse (400). Answers
 * the defects found; the server must still answer afterwards.
 */
export async function fuzzHttpLayer(t: TestApp, targets: FuzzTarget[], port: number, bodyLimit: number): Promise<string[]> {
  const failures: string[] = [];
  const apiPath = t.ctx.config.apiPath;
  for (const [i, target] of targets.entries()) {
    const path = `${apiPath}${target.key.replace(/\(\?P<[^>]+>(?:[^()]|\((?:[^()])*\))+\)/g, '1')}`;
    const auth: Record<string, string> = i % 2 ? { authorization: t.admin.authorization } : {};
    const cases: [string, Record<string, string>, string | undefined, number][] = [
      [`${path}?${Array.from({ length: 5000 }, (_, n) => `p${n}=1`).join('&')}`, auth, undefined, 431],
      [`${path}/%E0%A4%A`, auth, undefined, 400],
      [path, { ...auth, 'content-type': 'multipart/form-data' }, 'a=1', 400],
      [path, { ...auth, 'content-type': 'application/json' }, JSON.stringify({ x: 'y'.repeat(bodyLimit + 10) }), 413],
    ];
    // Fastify reads no body on GET: those get the URL cases only.
    const [url, headers, payload, expected] = cases[target.method === 'GET' ? i % 2 : i % cases.length]!;
    const res = await rawRequest(port, target.method, url, headers, payload);
    const defect = responseDefect(target.method, res, url.slice(apiPath.length).split('?')[0]) ?? (res.status === expected ? undefined : `status ${res.status}, expected ${expected}`);
    if (defect) failures.push(`${target.method} ${url.slice(0, 120)} ${JSON.stringify(headers)} → ${defect}: ${res.body.slice(0, 200)}`);
  }
  const garbage = await rawSocket(port, 'GARBAGE\r\n\r\n');
  if (!/^HTTP\/1\.1 400 [\s\S]*"code":"[a-z_]+"[\s\S]*"status":400/.test(garbage)) failures.push(`unparsable request line → ${garbage.slice(0, 200)}`);
  const after = await rawRequest(port, 'GET', `${apiPath}/`, {});
  if (after.status !== 200) failures.push(`the server no longer answers GET ${apiPath}/ (${after.status})`);
  return failures;
}

function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, payload?: string): Promise<FuzzResponse> {
  return new Promise((resolve, reject) => {
    const length = payload === undefined ? {} : { 'content-length': String(Buffer.byteLength(payload)) };
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { ...length, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

function rawSocket(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (c) => (out += c.toString('utf8')));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}
