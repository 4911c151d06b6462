/**
 * Requests the hub signs, on any route: the cases of the original's REST_Authentication_Test
 * (`wp_rest_authenticate`, `wp_rest_authentication_errors`, `is_signed_with_blog_token`) and of
 * `Manager::verify_xml_rpc_signature` / `Jetpack_Signature::sign_request` / `Nonce_Handler::add`,
 * with requests signed as the hub signs them (`hubSignedQuery`).
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type RequestOptions, type TestApp, type TestUser } from '../../test-support/harness.js';
import { HUB_BLOG_TOKEN, HUB_SITE_ID, hubMultipart, hubSignedQuery, type HubMultipart, type HubSigning } from './hub-fixture.case.js';
import { PRUNE_NONCES_JOB, pruneNonces } from './signed-request.js';
import { loadState, saveState, saveTimeDiff, type StoredSignatureError } from './state.js';

const BASE = 'http://example.test';
const EV = '/eventsuite/events/v1';
const CN = '/connector/v4';
const INVALID_SIGNATURE = { code: 'rest_invalid_signature', message: 'The request is not signed correctly.', data: { status: 400 } };

describe.each(DIALECTS)('requests the hub signs, on any route, on %s', (engine) => {
  let t: TestApp;
  let editor: TestUser;
  let subscriber: TestUser;
  let clock = Date.now();
  const logLines: string[] = [];
  /** Every nonce and signature the hub put on a request, and the token secrets: none may reach the log. */
  const secrets = new Set<string>(['blogsecret']);

  const tokenOf = (user: TestUser) => `ukey${user.id}.usecret${user.id}`;

  type Signing = Partial<Omit<HubSigning, 'url' | 'method' | 'body'>> & { as?: TestUser };

  /** The query of a request the hub signs: with the blog token, or as `as` with that user's token. */
  function sign(method: string, route: string, body: unknown, signing: Signing = {}): Record<string, string> {
    const { as, ...rest } = signing;
    const query = hubSignedQuery({
      method,
      url: `${BASE}/wp-json${route}`,
      body: body === undefined ? undefined : JSON.stringify(body),
      at: new Date(clock),
      ...(as ? { token: tokenOf(as), userId: as.id } : {}),
      ...rest,
    });
    secrets.add(query.nonce!).add(query.signature!);
    return query;
  }

  /** Sends `method` to `route`, signed by the hub for the same method, route and body. */
  function hub(method: string, route: string, options: { json?: unknown } & Signing = {}, extra: RequestOptions = {}) {
    const { json, ...signing } = options;
    return t.request(method, route, { query: sign(method, route, json, signing), ...(json !== undefined ? { json } : {}), ...extra });
  }

  const storedErrors = () => t.ctx.options.get<StoredSignatureError[]>('connector_xmlrpc_errors', []);

  /** The reason recorded for the one refused request `send` makes. */
  async function recordedReason(send: () => Promise<{ status: number; body: any }>): Promise<string | undefined> {
    await t.ctx.options.delete('connector_xmlrpc_errors');
    const res = await send();
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_SIGNATURE);
    return (await storedErrors()).at(-1)?.error_code;
  }

  beforeAll(async () => {
    const sink = new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) });
    t = await startTestApp(engine, {}, { now: () => new Date(clock), logger: pino({ level: 'info' }, sink) });
    editor = await t.createUser('editor');
    subscriber = await t.createUser('subscriber');
    // A registered site, as registration leaves it: the hub's site id and blog token.
    await saveState(t.ctx, { id: HUB_SITE_ID, master_user: null, last_heartbeat: null, blog_token: HUB_BLOG_TOKEN, user_tokens: {} });
    for (const user of [editor, subscriber]) {
      secrets.add(`usecret${user.id}`);
      const res = await hub('POST', `${CN}/user-token`, { json: { user_token: `${tokenOf(user)}.${user.id}` } });
      expect(res.body).toEqual({ success: true });
    }
  });
  afterAll(() => t.close());
  beforeEach(() => {
    clock = Date.now();
  });

  // Known vectors: signatures computed outside this code base (Python's hmac/hashlib) over the
  // normalized request Jetpack_Signature builds; a site that signs any other way refuses them.
  it('accepts requests signed as WordPress.com signs them (known vectors: HMAC-SHA1, SHA-1 body hash)', async () => {
    clock = 1_700_000_000_000;
    for (const known of ['vector1', 'vector2', 'vector3', 'arFLwtccFLJuDPge0yvdNmM/QwY=', 'faweInEMFKn4XnP+WUasZo2y47Q=', '1fjDPHiNOULqT8z4Fp0SKU25O3U=']) secrets.add(known);
    const common = { _for: 'jetpack', token: 'blogkey:1:0', timestamp: '1700000000', 'body-hash': '' };
    const get = await t.request('GET', `${CN}/connection/check`, { query: { ...common, nonce: 'vector1', signature: 'arFLwtccFLJuDPge0yvdNmM/QwY=' } });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ status: 'success' });
    const json = { nonce: 'none' };
    const post = await t.request('POST', `${CN}/verify_xmlrpc_error`, {
      query: { ...common, nonce: 'vector2', 'body-hash': 'Klhqp+4sLcY0JrTvGL5kAldE6AY=', signature: 'faweInEMFKn4XnP+WUasZo2y47Q=' },
      json,
    });
    expect(post.status).toBe(200);
    expect(post.body).toBe(false);
    // The same request under an HMAC-SHA256 of the same text is not the hub's.
    await t.ctx.options.delete('connector_xmlrpc_errors');
    const sha256 = await t.request('GET', `${CN}/connection/check`, { query: { ...common, nonce: 'vector3', signature: 'JdvegEJoJ1+//E0z1W4aThGDG1wc0vuRWq7vTzueAf8=' } });
    expect(sha256.body).toEqual(INVALID_SIGNATURE);
    expect((await t.request('GET', `${CN}/connection/check`, { query: { ...common, nonce: 'vector3', signature: '1fjDPHiNOULqT8z4Fp0SKU25O3U=' } })).body).toEqual({ status: 'success' });
  });

  it('the timestamp is on the hub’s clock: the stored offset (time_diff) is taken off before the window applies', async () => {
    const me = '/core/v2/users/me';
    const hubNow = clock + 7200_000;
    expect(await recordedReason(() => hub('GET', me, { as: editor, at: new Date(hubNow) }))).toBe('invalid_signature');
    await saveTimeDiff(t.ctx, 7200);
    try {
      expect((await hub('GET', me, { as: editor, at: new Date(hubNow) })).body.id).toBe(editor.id);
      expect((await hub('GET', me, { as: editor, at: new Date(hubNow - 590_000) })).body.id).toBe(editor.id);
      expect(await recordedReason(() => hub('GET', me, { as: editor, at: new Date(hubNow - 610_000) }))).toBe('invalid_signature');
      await t.ctx.options.delete('connector_xmlrpc_errors');
      expect((await hub('GET', me, { as: editor, at: new Date(hubNow + 310_000) })).body).toEqual(INVALID_SIGNATURE);
      // This site's own time is now two hours stale for the hub.
      expect((await hub('GET', me, { as: editor, at: new Date(clock) })).body).toEqual(INVALID_SIGNATURE);
    } finally {
      await saveTimeDiff(t.ctx, 0);
    }
  });

  it('a hub clock behind this one keeps used nonces longer: no replay while the timestamp still passes', async () => {
    await saveTimeDiff(t.ctx, -5400);
    try {
      const me = '/core/v2/users/me';
      const query = sign('GET', me, undefined, { as: editor, at: new Date(clock - 5400_000) });
      expect((await t.request('GET', me, { query })).body.id).toBe(editor.id);
      clock += 590_000;
      await pruneNonces(t.ctx);
      expect(await recordedReason(() => t.request('GET', me, { query }))).toBe('invalid_nonce');
    } finally {
      await saveTimeDiff(t.ctx, 0);
    }
  });

  it('a nonce pruned is never accepted again, even after the hub’s clock is corrected back into the window', async () => {
    const me = '/core/v2/users/me';
    const query = sign('GET', me, undefined, { as: editor, at: new Date(clock) });
    expect((await t.request('GET', me, { query })).body.id).toBe(editor.id);
    clock += 3601_000;
    await pruneNonces(t.ctx);
    // The hub now reports its clock an hour behind this one: the old timestamp passes the window again.
    await saveTimeDiff(t.ctx, -3600);
    try {
      expect(await recordedReason(() => t.request('GET', me, { query }))).toBe('invalid_nonce');
      expect((await hub('GET', me, { as: editor, at: new Date(clock - 3600_000) })).body.id).toBe(editor.id);
    } finally {
      await saveTimeDiff(t.ctx, 0);
      // The next tests turn the clock back an hour, which a real clock never does.
      await t.ctx.options.delete('connector_nonces_pruned_before');
    }
  });

  it('a request signed with a user token acts as that user on any route', async () => {
    const me = await hub('GET', '/core/v2/users/me', { as: editor });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: editor.id, slug: editor.login });
    const sub = await hub('GET', '/core/v2/users/me', { as: subscriber });
    expect(sub.body.id).toBe(subscriber.id);
    // Plain permalinks: the hub signs the URL it calls, `/?rest_route=…` with the route in the query.
    const query = hubSignedQuery({ method: 'GET', url: `${BASE}/`, token: tokenOf(editor), userId: editor.id, query: { rest_route: '/core/v2/users/me' }, at: new Date(clock) });
    secrets.add(query.nonce!).add(query.signature!);
    const plain = await t.app.inject({ method: 'GET', url: `/?${new URLSearchParams(query).toString()}` });
    expect(plain.statusCode).toBe(200);
    expect(JSON.parse(plain.body).id).toBe(editor.id);
  });

  it("the user's capabilities apply: an editor creates a venue (signed JSON body), a subscriber is refused 403", async () => {
    const created = await hub('POST', `${EV}/venues`, { as: editor, json: { venue: 'Signed Hall' } });
    expect(created.status).toBe(201);
    expect(String(created.body.author)).toBe(String(editor.id));
    const refused = await hub('POST', `${EV}/venues`, { as: subscriber, json: { venue: 'Not Allowed' } });
    expect(refused.status).toBe(403);
  });

  it('batch sub-requests run as the signing user', async () => {
    const json = { requests: [{ method: 'POST', path: `${EV}/venues`, body: { venue: 'Batch Hall' } }] };
    const res = await hub('POST', '/batch/v1', { as: editor, json });
    expect(res.status).toBe(207);
    expect(res.body.responses[0].status).toBe(201);
    expect(String(res.body.responses[0].body.author)).toBe(String(editor.id));
  });

  it('a blog-token signature is the site: no user, but the routes that take the hub’s word accept it', async () => {
    const me = await hub('GET', '/core/v2/users/me');
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('rest_not_logged_in');
    expect((await hub('POST', `${EV}/venues`, { json: { venue: 'Site Hall' } })).status).toBe(401);
    const heartbeat = await hub('GET', `${CN}/heartbeat/data`, { query: { prefix: 'jp-' } });
    expect(heartbeat.status).toBe(200);
    expect(heartbeat.body['jp-version']).toBeDefined();
    expect(heartbeat.headers['cache-control']).toContain('no-store');
  });

  it('a user signature is not a blog-token signature (is_signed_with_blog_token is false)', async () => {
    const res = await hub('POST', `${CN}/user-token`, { as: editor, json: { user_token: `k.s.${editor.id}` } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('invalid_permission_update_user_token');
    expect((await loadState(t.ctx)).user_tokens[String(editor.id)]).toBe(`${tokenOf(editor)}.${editor.id}`);
  });

  it('without _for=jetpack, or with neither token nor signature, the request is not a signed one', async () => {
    const { _for, ...noFor } = sign('GET', '/core/v2/users/me', undefined, { as: editor });
    expect((await t.request('GET', '/core/v2/users/me', { query: noFor })).body.code).toBe('rest_not_logged_in');
    const otherFor = { ...sign('GET', '/core/v2/users/me', undefined, { as: editor }), _for: 'not_jetpack' };
    expect((await t.request('GET', '/core/v2/users/me', { query: otherFor })).body.code).toBe('rest_not_logged_in');
    // Other credentials then apply.
    expect((await t.request('GET', '/core/v2/users/me', { query: noFor, as: subscriber })).body.id).toBe(subscriber.id);
    const blogNoFor = sign('POST', `${CN}/user-token`, { user_token: `k.s.${editor.id}` });
    delete blogNoFor._for;
    const update = await t.request('POST', `${CN}/user-token`, { query: blogNoFor, json: { user_token: `k.s.${editor.id}` } });
    expect(update.status).toBe(401);
    expect(update.body.code).toBe('invalid_permission_update_user_token');
    const bare = await t.request('GET', `${CN}/connection`, { query: { _for: 'jetpack' } });
    expect(bare.status).toBe(200);
  });

  it('only GET and POST carry a signature (400 rest_invalid_request); another method travels as _method', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await hub(method, `${EV}/venues/1`, { as: editor });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'rest_invalid_request', message: 'This request method is not supported.', data: { status: 400 } });
    }
    const venue = await hub('POST', `${EV}/venues`, { as: editor, json: { venue: 'Short-lived Hall' } });
    const removed = await hub('POST', `${EV}/venues/${venue.body.id}`, { as: editor, query: { _method: 'DELETE' } });
    expect(removed.status).toBe(200);
    const row = await t.db.selectFrom('posts').select('status').where('id', '=', venue.body.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('trash');
  });

  it('a wrong signature, key, user or token answers 400 rest_invalid_signature and records the reason', async () => {
    const me = '/core/v2/users/me';
    const badSignature = { ...sign('GET', me, undefined, { as: editor }), signature: 'AAAA' };
    expect(await recordedReason(() => t.request('GET', me, { query: badSignature }))).toBe('signature_mismatch');
    const wrongSecret = sign('GET', me, undefined, { token: `ukey${editor.id}.not-the-secret`, userId: editor.id });
    expect(await recordedReason(() => t.request('GET', me, { query: wrongSecret }))).toBe('signature_mismatch');
    const unknownKey = sign('GET', me, undefined, { token: 'nokey.nosecret', userId: editor.id });
    expect(await recordedReason(() => t.request('GET', me, { query: unknownKey }))).toBe('no_valid_token');
    const unknownBlogKey = sign('GET', me, undefined, { token: 'nokey.nosecret' });
    expect(await recordedReason(() => t.request('GET', me, { query: unknownBlogKey }))).toBe('no_valid_token');
    const admin = { id: t.admin.id } as TestUser;
    expect(await recordedReason(() => hub('GET', me, { token: 'akey.asecret', userId: admin.id }))).toBe('no_token_for_user');
    expect(await recordedReason(() => hub('GET', me, { token: 'akey.asecret', userId: 999_999 }))).toBe('unknown_user');
    // Beyond 32 bits on both engines (PostgreSQL refused the lookup with rest_invalid_param).
    expect(await recordedReason(() => hub('GET', me, { token: 'akey.asecret', userId: 9_999_999_999 }))).toBe('unknown_user');
    expect(await recordedReason(() => t.request('GET', me, { query: { ...sign('GET', me, undefined), token: 'blogkey' } }))).toBe('malformed_token');
    expect(await recordedReason(() => t.request('GET', me, { query: { ...sign('GET', me, undefined), token: 'blogkey:2:0' } }))).toBe('malformed_token');
    expect(await recordedReason(() => t.request('GET', me, { query: { ...sign('GET', me, undefined), token: 'blogkey:1:x' } }))).toBe('malformed_user_id');
    // A parameter added after signing is not covered by the signature.
    const added = { ...sign('GET', me, undefined, { as: editor }), context: 'edit' };
    expect(await recordedReason(() => t.request('GET', me, { query: added }))).toBe('signature_mismatch');
  });

  it('the timestamp must be at most 600 s old and 300 s ahead; timestamp and nonce must be there and well formed', async () => {
    const me = '/core/v2/users/me';
    expect((await hub('GET', me, { as: editor, at: new Date(clock - 590_000) })).body.id).toBe(editor.id);
    expect((await hub('GET', me, { as: editor, at: new Date(clock + 290_000) })).body.id).toBe(editor.id);
    expect(await recordedReason(() => hub('GET', me, { as: editor, at: new Date(clock - 610_000) }))).toBe('invalid_signature');
    await t.ctx.options.delete('connector_xmlrpc_errors');
    expect((await hub('GET', me, { as: editor, at: new Date(clock + 310_000) })).body).toEqual(INVALID_SIGNATURE);
    expect((await hub('GET', me, { as: editor, nonce: 'has-dash' })).body).toEqual(INVALID_SIGNATURE);
    expect((await hub('GET', me, { as: editor, nonce: 'a234567890123' })).body).toEqual(INVALID_SIGNATURE);
    for (const missing of ['timestamp', 'nonce']) {
      const query = sign('GET', me, undefined, { as: editor });
      delete query[missing];
      expect((await t.request('GET', me, { query })).body).toEqual(INVALID_SIGNATURE);
    }
    // A token without a signature, or a signature without a token, is refused without a reason recorded.
    const { signature: _s, ...unsigned } = sign('GET', me, undefined, { as: editor });
    expect(await recordedReason(() => t.request('GET', me, { query: unsigned }))).toBeUndefined();
    const { token: _t, ...tokenless } = sign('GET', me, undefined, { as: editor });
    expect(await recordedReason(() => t.request('GET', me, { query: tokenless }))).toBeUndefined();
  });

  it('the body hash must match the body (and be empty without one)', async () => {
    const route = `${EV}/venues`;
    const signedFor = sign('POST', route, { venue: 'Signed Body' }, { as: editor });
    expect(await recordedReason(() => t.request('POST', route, { query: signedFor, json: { venue: 'Other Body' } }))).toBe('invalid_body_hash');
    const hashForEmpty = { ...sign('POST', route, undefined, { as: editor }), 'body-hash': signedFor['body-hash']! };
    expect(await recordedReason(() => t.request('POST', route, { query: hashForEmpty }))).toBe('invalid_body_hash');
    // A body signed as none, or sent without its hash: the required "body-hash" parameter is missing.
    const emptySigned = sign('POST', route, undefined, { as: editor });
    expect(await recordedReason(() => t.request('POST', route, { query: emptySigned, json: { venue: 'Unsigned Body' } }))).toBe('invalid_signature');
    const { 'body-hash': _h, ...noHash } = sign('POST', route, { venue: 'Signed Body' }, { as: editor });
    expect(await recordedReason(() => t.request('POST', route, { query: noHash, json: { venue: 'Signed Body' } }))).toBe('invalid_signature');
    // A raw body "0" is no body to the original (PHP's empty()): signed with an empty hash, it passes.
    const zero = await t.request('POST', route, { query: sign('POST', route, undefined, { as: editor }), form: '0' });
    expect(zero.status).toBe(400);
    expect(zero.body.code).toBe('rest_missing_callback_param');
  });

  /** A multipart POST the hub signs as `as` (with that user's token), its fields and files as `form`. */
  function hubMultipartRequest(route: string, form: HubMultipart, as: TestUser, tamper?: (payload: string) => string) {
    const multipart = hubMultipart(form, tokenOf(as));
    // The body hash is that of the fields, as the hub computes it.
    const query = hubSignedQuery({ method: 'POST', url: `${BASE}/wp-json${route}`, token: tokenOf(as), userId: as.id, body: multipart.signedBody || undefined, at: new Date(clock) });
    secrets.add(query.nonce!).add(query.signature!);
    return t.request('POST', route, { query, form: tamper ? tamper(multipart.payload) : multipart.payload, headers: { 'content-type': multipart.contentType } });
  }

  it('a multipart body is signed as its fields (_jetpack_is_multipart): the body hash must be theirs', async () => {
    const route = `${EV}/venues`;
    const created = await hubMultipartRequest(route, { fields: { venue: 'Form Hall', city: 'Lyon ~ (Rhône)' } }, editor);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ venue: 'Form Hall', city: 'Lyon ~ (Rhône)' });
    expect(String(created.body.author)).toBe(String(editor.id));
    // A field changed after signing.
    const tampered = () => hubMultipartRequest(route, { fields: { venue: 'Signed Hall' } }, editor, (p) => p.replace('Signed Hall', 'Other Hall'));
    expect(await recordedReason(tampered)).toBe('invalid_body_hash');
    // A marked body signed as none: the required body hash is missing.
    const noHash = sign('POST', route, undefined, { as: editor });
    const marked = hubMultipart({ fields: { venue: 'No Hash Hall' } }, tokenOf(editor));
    expect(await recordedReason(() => t.request('POST', route, { query: noHash, form: marked.payload, headers: { 'content-type': marked.contentType } }))).toBe('invalid_signature');
    // CASE: unmarked, the original signs none of the body; here it must then be empty.
    const unmarked = () => hubMultipartRequest(route, { fields: { venue: 'Unsigned Hall' }, unmarked: true }, editor);
    expect(await recordedReason(unmarked)).toBe('invalid_body');
    const list = await t.request('GET', route, { query: { search: 'Hall' } });
    expect(list.body.venues.map((v: { venue: string }) => v.venue)).not.toEqual(expect.arrayContaining(['Other Hall', 'No Hash Hall', 'Unsigned Hall']));
  });

  it('a replayed signed multipart request is refused before its body is read', async () => {
    const route = `${EV}/venues`;
    const multipart = hubMultipart({ fields: { venue: 'Replay Hall' } }, tokenOf(editor));
    const query = hubSignedQuery({ method: 'POST', url: `${BASE}/wp-json${route}`, token: tokenOf(editor), userId: editor.id, body: multipart.signedBody, at: new Date(clock) });
    secrets.add(query.nonce!).add(query.signature!);
    const headers = { 'content-type': multipart.contentType };
    expect((await t.request('POST', route, { query, form: multipart.payload, headers })).status).toBe(201);
    // Read first, this body would answer 413; the spent nonce answers before.
    const replay = await t.request('POST', route, { query, form: multipart.payload.replace('Replay Hall', 'x'.repeat(t.ctx.config.bodyLimit)), headers });
    expect([replay.status, replay.body.code]).toEqual([400, 'rest_invalid_signature']);
  });

  it('a signed multipart body that cannot be read answers that error, with no signature refusal recorded; no route, no read', async () => {
    await t.ctx.options.delete('connector_xmlrpc_errors');
    const big = await hubMultipartRequest(`${EV}/venues`, { fields: { venue: 'Big Hall' } }, editor, (p) => p.replace('Big Hall', 'x'.repeat(t.ctx.config.bodyLimit)));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('rest_request_too_large');
    expect(big.headers.connection).toBe('close');
    const missing = await hubMultipartRequest(`${EV}/no-such-route`, { fields: { venue: 'Nowhere' } }, editor);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('rest_no_route');
    expect(await storedErrors()).toEqual([]);
  });

  it('a file the route keeps must match its _jetpack_file_hmac_ (HMAC-SHA1 keyed with salt + token)', async () => {
    const admin = { id: t.admin.id } as TestUser;
    secrets.add(`usecret${admin.id}`);
    await hub('POST', `${CN}/user-token`, { json: { user_token: `${tokenOf(admin)}.${admin.id}` } });
    const route = '/shop-admin/themes';
    const file = { filename: 'theme.txt', data: Buffer.from('not a zip archive') };
    // The file reached the route: it answers that a theme must be a zip.
    const kept = await hubMultipartRequest(route, { fields: {}, files: { pluginzip: file } }, admin);
    expect(kept.status).toBe(200);
    expect(kept.body.status).toBe('error');
    const forged = () => hubMultipartRequest(route, { fields: {}, files: { pluginzip: { ...file, hmac: `${'0'.repeat(40)}:salt` } } }, admin);
    expect(await recordedReason(forged)).toBe('invalid_hmac');
    const swapped = () => hubMultipartRequest(route, { fields: {}, files: { pluginzip: file } }, admin, (p) => p.replace('not a zip archive', 'other contents!!!'));
    expect(await recordedReason(swapped)).toBe('invalid_hmac');
    // A file without its HMAC field: a field of that name stands in for it, but the file is not vouched for.
    const bare = hubMultipart({ fields: { pluginzip: 'x' } }, tokenOf(admin));
    const withFile = bare.payload.replace(/--hubBoundary7MA4YWxk--/, '--hubBoundary7MA4YWxk\r\nContent-Disposition: form-data; name="pluginzip"; filename="t.txt"\r\n\r\nabc\r\n--hubBoundary7MA4YWxk--');
    const query = hubSignedQuery({ method: 'POST', url: `${BASE}/wp-json${route}`, token: tokenOf(admin), userId: admin.id, body: bare.signedBody, at: new Date(clock) });
    secrets.add(query.nonce!).add(query.signature!);
    expect(await recordedReason(() => t.request('POST', route, { query, form: withFile, headers: { 'content-type': bare.contentType } }))).toBe('missing_hmac');
  });

  it('each nonce is accepted once, also when replays arrive together', async () => {
    const me = '/core/v2/users/me';
    const query = sign('GET', me, undefined, { as: editor });
    expect((await t.request('GET', me, { query })).body.id).toBe(editor.id);
    expect(await recordedReason(() => t.request('GET', me, { query }))).toBe('invalid_nonce');

    const route = `${EV}/venues`;
    const json = { venue: 'Replayed Hall' };
    const replayed = sign('POST', route, json, { as: editor });
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.request('POST', route, { query: replayed, json })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    const list = await t.request('GET', route, { query: { search: 'Replayed Hall' } });
    expect(list.body.venues.filter((v: { venue: string }) => v.venue === 'Replayed Hall')).toHaveLength(1);
  });

  it('a user who no longer exists, or whose token was removed, is refused', async () => {
    const author = await t.createUser('author');
    secrets.add(`usecret${author.id}`);
    await hub('POST', `${CN}/user-token`, { json: { user_token: `${tokenOf(author)}.${author.id}` } });
    expect((await hub('GET', '/core/v2/users/me', { as: author })).body.id).toBe(author.id);
    const state = await loadState(t.ctx);
    const { [String(author.id)]: _removed, ...others } = state.user_tokens;
    await saveState(t.ctx, { ...state, user_tokens: others });
    expect(await recordedReason(() => hub('GET', '/core/v2/users/me', { as: author }))).toBe('no_token_for_user');
    await saveState(t.ctx, state);
    expect((await hub('GET', '/core/v2/users/me', { as: author })).body.id).toBe(author.id);
    await t.db.deleteFrom('users').where('id', '=', author.id).execute();
    expect(await recordedReason(() => hub('GET', '/core/v2/users/me', { as: author }))).toBe('unknown_user');
  });

  it('records one refusal of a kind an hour (a flood of bad signatures writes nothing)', async () => {
    await t.ctx.options.delete('connector_xmlrpc_errors');
    for (let i = 0; i < 3; i++) await t.request('GET', '/core/v2/users/me', { query: { ...sign('GET', '/core/v2/users/me', undefined), signature: `bad${i}` } });
    expect((await storedErrors()).map((e) => e.error_code)).toEqual(['signature_mismatch']);
    clock += 3601_000;
    await t.request('GET', '/core/v2/users/me', { query: { ...sign('GET', '/core/v2/users/me', undefined), signature: 'bad' } });
    expect((await storedErrors()).map((e) => e.error_code)).toEqual(['signature_mismatch', 'signature_mismatch']);
  });

  it('used nonces are pruned hourly once an hour old', async () => {
    await t.ctx.jobs.runDue();
    const stamps = async () => (await t.db.selectFrom('connector_nonces').select('timestamp').execute()).map((n) => Number(n.timestamp));
    expect((await stamps()).length).toBeGreaterThan(0);
    clock += 2 * 3600_000;
    expect((await hub('GET', '/core/v2/users/me', { as: editor })).body.id).toBe(editor.id);
    const before = await stamps();
    const ran = await t.ctx.jobs.runDue();
    expect(ran.filter((j) => j.kind === PRUNE_NONCES_JOB).map((j) => j.status)).toEqual(['done']);
    // Left: the nonce of the request just made, and those stamped on a hub clock two hours ahead.
    const left = await stamps();
    expect(left.length).toBeLessThan(before.length);
    expect(left).toContain(Math.floor(clock / 1000));
    expect(left.every((at) => at >= Math.floor(clock / 1000) - 3600)).toBe(true);
  });

  it('never logs tokens, nonces or signatures', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.some((l) => l.includes('refused a signed request'))).toBe(true);
    const log = logLines.join('');
    for (const secret of secrets) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/token=(?!\[redacted\])/);
  });
});
