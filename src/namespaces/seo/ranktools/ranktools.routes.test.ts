import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../../test-support/harness.js';
import { freePort } from '../../../test-support/net.js';
import { insertPost } from '../../oembed/oembed-fixtures.js';
import { seoService } from '../index.js';
import { getSeoOption, setSeoOption } from '../store.js';
import { signInForTest } from '../../../auth/test-sessions.js';

const NS = '/seo/v1';

interface Seen { method: string; path: string; auth?: string; body: string }

/** Both ranking tools' OAuth and API servers, under /a and /b. */
async function startTools() {
  const seen: Seen[] = [];
  const valid = new Set<string>();
  const refreshable = new Set<string>(['R1']);
  let challenge = '';
  let tokenCounter = 0;
  let unlimited = false;
  const issue = (res: http.ServerResponse) => {
    tokenCounter++;
    valid.add(`A${tokenCounter}`);
    refreshable.add(`R${tokenCounter}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: `A${tokenCounter}`, refresh_token: `R${tokenCounter}`, expires_in: 3600, token_type: 'Bearer' }));
  };
  const port = await freePort();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      seen.push({ method: req.method!, path: `${url.pathname}${url.search}`, auth: req.headers.authorization, body });
      const json = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (url.pathname.endsWith('/oauth2/access_token') || url.pathname.endsWith('/connect/token')) {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') === 'authorization_code') {
          if (form.get('code') !== 'good') return json(400, { error: 'invalid_grant', error_description: 'The code is not valid' });
          if (url.pathname.startsWith('/b/') && crypto.createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url') !== challenge) {
            return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
          }
          return issue(res);
        }
        if (form.get('grant_type') === 'refresh_token' && refreshable.delete(form.get('refresh_token') ?? '')) return issue(res);
        return json(400, { error: 'invalid_grant', error_description: 'Refresh token revoked' });
      }
      const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!valid.has(bearer)) return json(401, { error: 'invalid_token' });
      if (url.pathname === '/a/api/v1/keywords/phrase_fullsearch') {
        return json(200, { data: { columnNames: ['Ph', 'Nq', 'Td', 'In', 'Kd'], rows: [[`${url.searchParams.get('phrase')} tickets`, '2000', '0.5', 'n', '45']] } });
      }
      if (url.pathname === '/b/v1/account/limit') return json(200, { data: unlimited ? { can_track: false, limit: null, usage: 5000, history_days: 31 } : { can_track: true, limit: 3, usage: 1, history_days: 31 } });
      if (url.pathname === '/b/v1/yoast/upgrade-campaign') return json(200, { data: { discount: 0.3, months: unlimited ? 0 : 2 } });
      if (url.pathname === '/b/v1/websites/77/keywords/bulk') return json(201, { data: JSON.parse(body).map((k: any, i: number) => ({ id: 100 + i, keyword: k.keyword })) });
      if (url.pathname === '/b/v1/yoast/77/keywords') {
        // The tool also reports a keyphrase nobody asked about.
        return json(200, { data: [...JSON.parse(body).keywords.map((k: string) => ({ keyword: k, position: { value: 4 } })), { keyword: 'not asked', position: { value: 9 } }] });
      }
      if (req.method === 'DELETE' && url.pathname === '/b/v1/websites/77/keywords/123') {
        res.writeHead(204);
        return res.end();
      }
      return json(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    setChallenge: (c: string) => { challenge = c; },
    revokeRefresh: () => refreshable.clear(),
    setUnlimited: (on: boolean) => { unlimited = on; },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(DIALECTS)('seo/v1 ranking tools on %s', (engine) => {
  let tools: Awaited<ReturnType<typeof startTools>>;
  let t: TestApp;
  let contributor: TestUser;
  let subscriber: TestUser;
  let clock = Date.parse('2026-06-01T10:00:00Z');

  beforeAll(async () => {
    tools = await startTools();
    t = await startTestApp(engine, { remotes: { ranktool_a: `${tools.base}/a`, ranktool_b: `${tools.base}/b` } }, { now: () => new Date(clock) });
    contributor = await t.createUser('contributor');
    subscriber = await t.createUser('subscriber');
  });
  afterAll(async () => {
    await t.close();
    await tools.close();
  });

  describe('ranktool-a', () => {
    it('without tokens: 400 with the empty-token error', async () => {
      const res = await t.request('GET', `${NS}/ranktool-a/related_keyphrases`, { query: { keyphrase: 'jazz', country_code: 'us' }, as: contributor });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Token usage failed. Token is empty.', status: 400 });
      expect(tools.seen).toHaveLength(0);
    });

    it('permissions: edit_posts; subscribers and visitors are refused', async () => {
      expect((await t.request('POST', `${NS}/ranktool-a/authenticate`, { json: { code: 'good' }, as: subscriber })).status).toBe(403);
      expect((await t.request('POST', `${NS}/ranktool-a/authenticate`, { json: { code: 'good' } })).status).toBe(401);
    });

    it('authenticate: a bad code is 401 with empty tokens; a good one stores the tokens', async () => {
      const bad = await t.request('POST', `${NS}/ranktool-a/authenticate`, { json: { code: 'bad' }, as: contributor });
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ tokens: [], error: 'Authentication failed: The code is not valid', status: 401 });
      const res = await t.request('POST', `${NS}/ranktool-a/authenticate`, { json: { code: 'good' }, as: contributor });
      expect(res.status).toBe(200);
      expect(res.body.tokens).toMatchObject({ access_token: 'A1', refresh_token: 'R1', has_expired: false, expires: clock / 1000 + 3600 });
      const call = tools.seen.at(-1)!;
      expect(call.path).toBe('/a/oauth2/access_token');
      expect(Object.fromEntries(new URLSearchParams(call.body))).toMatchObject({ grant_type: 'authorization_code', code: 'good', client_id: 'eventsuite' });
    });

    it('country_code: two lower-case letters, stored', async () => {
      expect((await t.request('POST', `${NS}/ranktool-a/country_code`, { json: { country_code: 'USA' }, as: contributor })).body.code).toBe('rest_invalid_param');
      expect((await t.request('POST', `${NS}/ranktool-a/country_code`, { json: { country_code: 'nl' }, as: contributor })).body).toEqual({ success: true, status: 200 });
      expect(await getSeoOption(t.ctx, 'semrush_country_code')).toBe('nl');
    });

    it('related_keyphrases: sends the bearer token, caches a day per keyphrase and database', async () => {
      const res = await t.request('GET', `${NS}/ranktool-a/related_keyphrases`, { query: { keyphrase: 'jazz', country_code: 'us' }, as: contributor });
      expect(res.body).toEqual({ results: { columnNames: ['Ph', 'Nq', 'Td', 'In', 'Kd'], rows: [['jazz tickets', '2000', '0.5', 'n', '45']] }, status: 200 });
      const call = tools.seen.at(-1)!;
      expect(call.auth).toBe('Bearer A1');
      expect(call.path).toContain('phrase=jazz&database=us&export_columns=Ph%2CNq%2CTd%2CIn%2CKd');
      const before = tools.seen.length;
      await t.request('GET', `${NS}/ranktool-a/related_keyphrases`, { query: { keyphrase: 'jazz', country_code: 'us' }, as: contributor });
      expect(tools.seen.length).toBe(before);
      expect((await t.request('GET', `${NS}/ranktool-a/related_keyphrases`, { query: { keyphrase: ' ', country_code: 'us' }, as: contributor })).status).toBe(400);
    });

    it('related_keyphrases checks only that country_code is given (the database is passed on as sent); authenticate refuses only an empty code', async () => {
      const missing = await t.request('GET', `${NS}/ranktool-a/related_keyphrases`, { query: { keyphrase: 'folk' }, as: contributor });
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('rest_missing_callback_param');
      const res = await t.request('GET', `${NS}/ranktool-a/related_keyphrases`, { query: { keyphrase: 'folk', country_code: 'uk' }, as: contributor });
      expect(res.status).toBe(200);
      expect(tools.seen.at(-1)!.path).toContain('database=uk');
      const empty = await t.request('POST', `${NS}/ranktool-a/authenticate`, { json: { code: '' }, as: contributor });
      expect(empty.body.code).toBe('rest_invalid_param');
      const blank = await t.request('POST', `${NS}/ranktool-a/authenticate`, { json: { code: ' ' }, as: contributor });
      expect(blank.status).toBe(401);
      expect(blank.body.tokens).toEqual([]);
    });

    it('an expired token is refreshed before the lookup; a failed refresh is 401', async () => {
      clock += 2 * 3600_000;
      const res = await t.request('GET', `${NS}/ranktool-a/related_keyphrases`, { query: { keyphrase: 'blues', country_code: 'us' }, as: contributor });
      expect(res.status).toBe(200);
      expect(tools.seen.at(-2)!.path).toBe('/a/oauth2/access_token');
      expect(Object.fromEntries(new URLSearchParams(tools.seen.at(-2)!.body))).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'R1' });
      expect(tools.seen.at(-1)!.auth).toBe('Bearer A2');
      clock += 2 * 3600_000;
      tools.revokeRefresh();
      const failed = await t.request('GET', `${NS}/ranktool-a/related_keyphrases`, { query: { keyphrase: 'soul', country_code: 'us' }, as: contributor });
      expect(failed.status).toBe(401);
      expect(failed.body).toEqual({ error: 'Authentication failed: Refresh token revoked', status: 401 });
    });

    it('switched off by integrations/set_active: the routes answer rest_no_route', async () => {
      await setSeoOption(t.ctx, 'semrush_integration_active', false);
      expect((await t.request('POST', `${NS}/ranktool-a/country_code`, { json: { country_code: 'us' }, as: contributor })).status).toBe(404);
      await setSeoOption(t.ctx, 'semrush_integration_active', true);
    });
  });

  describe('ranktool-b', () => {
    let author: TestUser;
    beforeAll(async () => { author = await t.createUser('author'); });

    it('without tokens: 400; contributors cannot publish so are refused', async () => {
      const res = await t.request('GET', `${NS}/ranktool-b/account/limit`, { as: author });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 400, error: 'Token usage failed. Token is empty.' });
      expect((await t.request('GET', `${NS}/ranktool-b/account/limit`, { as: contributor })).status).toBe(403);
    });

    it('authorization-url with PKCE, then authenticate with the verifier; websiteId must be an integer', async () => {
      const res = await t.request('GET', `${NS}/ranktool-b/authorization-url`, { as: author });
      const url = new URL(res.body.url);
      expect(res.body.status).toBe(200);
      expect(`${url.origin}${url.pathname}`).toBe(`${tools.base}/b/connect/authorize`);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      tools.setChallenge(url.searchParams.get('code_challenge')!);
      expect((await t.request('POST', `${NS}/ranktool-b/authenticate`, { json: { code: 'good', websiteId: '77' }, as: author })).body.code).toBe('rest_invalid_param');
      const auth = await t.request('POST', `${NS}/ranktool-b/authenticate`, { json: { code: 'good', websiteId: 77 }, as: author });
      expect(auth.status).toBe(200);
      expect(auth.body.tokens.access_token).toMatch(/^A\d+$/);
      expect(await getSeoOption(t.ctx, 'wincher_website_id')).toBe('77');
    });

    it('the integrations screen the tool sends the browser back to finishes the connection', async () => {
      await setSeoOption(t.ctx, 'wincher_website_id', '');
      await setSeoOption(t.ctx, 'wincher_tokens', []);
      const start = await t.request('GET', `${NS}/ranktool-b/authorization-url`, { as: t.admin });
      const authorize = new URL(start.body.url);
      tools.setChallenge(authorize.searchParams.get('code_challenge')!);
      const back = new URL(authorize.searchParams.get('redirect_uri')!);
      expect(back.pathname + back.search).toBe('/wp-admin/admin.php?page=wpseo_integrations');
      const { cookie } = await signInForTest(t.ctx, t.admin.id);
      const screen = (url: string, form?: Record<string, string>) => t.app.inject({
        method: form ? 'POST' : 'GET', url, headers: { cookie, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
      });
      const landing = await screen(`${back.pathname}${back.search}&code=good&websiteId=77`);
      expect(landing.statusCode).toBe(200);
      expect(landing.body).toContain('Finish connecting rank tracking');
      const nonce = /name="_wpnonce" value="([^"]+)"/.exec(landing.body)![1]!;
      const refused = await screen(`${back.pathname}${back.search}`, { _wpnonce: nonce, code: 'bad', websiteId: '77' });
      expect(refused.body).toContain('The code is not valid');
      const done = await screen(`${back.pathname}${back.search}`, { _wpnonce: nonce, code: 'good', websiteId: '77' });
      expect(done.statusCode).toBe(302);
      expect(await getSeoOption(t.ctx, 'wincher_website_id')).toBe('77');
      const shown = await screen(String(done.headers.location).replace('http://example.test', ''));
      expect(shown.body).toContain('Rank tracking is connected.');
      expect(shown.body).toMatch(/Rank tracking \(ranking tool B\)<\/td><td>on<\/td><td>connected/);
      await setSeoOption(t.ctx, 'semrush_country_code', 'de');
      expect((await screen(`${back.pathname}${back.search}`)).body).toContain('Keyphrase research database (country): <code>de</code>');
    });

    it('account limit and upgrade campaign', async () => {
      expect((await t.request('GET', `${NS}/ranktool-b/account/limit`, { as: author })).body).toEqual({ canTrack: true, limit: 3, usage: 1, historyDays: 31, status: 200 });
      expect((await t.request('GET', `${NS}/ranktool-b/account/upgrade-campaign`, { as: author })).body).toEqual({ discount: 0.3, months: 2, status: 200 });
    });

    it('track: within the limit → results by keyword; over it → 400 with the limit', async () => {
      const res = await t.request('POST', `${NS}/ranktool-b/keyphrases/track`, { json: { keyphrases: ['Harbour Jazz', 'blues'] }, as: author });
      expect(res.body).toEqual({ results: { 'harbour jazz': { id: 100, keyword: 'harbour jazz' }, blues: { id: 101, keyword: 'blues' } }, status: 200 });
      const over = await t.request('POST', `${NS}/ranktool-b/keyphrases/track`, { json: { keyphrases: ['a', 'b', 'c'] }, as: author });
      expect(over.status).toBe(400);
      expect(over.body).toEqual({ limit: 3, error: 'Account limit exceeded', status: 400 });
    });

    it('an unlimited account (no limit) can track: limit null, canTrack true, tracking goes through; a zero-month campaign is none', async () => {
      tools.setUnlimited(true);
      try {
        expect((await t.request('GET', `${NS}/ranktool-b/account/limit`, { as: author })).body).toEqual({ canTrack: true, limit: null, usage: 5000, historyDays: 31, status: 200 });
        const res = await t.request('POST', `${NS}/ranktool-b/keyphrases/track`, { json: { keyphrases: ['folk', 'soul', 'funk', 'disco'] }, as: author });
        expect(res.status).toBe(200);
        expect(Object.keys(res.body.results)).toEqual(['folk', 'soul', 'funk', 'disco']);
        // A campaign of zero months is no campaign.
        expect((await t.request('GET', `${NS}/ranktool-b/account/upgrade-campaign`, { as: author })).body).toEqual({ discount: null, months: null, status: 200 });
      } finally {
        tools.setUnlimited(false);
      }
    });

    it('keyphrases: nothing to look up → {} object; otherwise the site focus keyphrases', async () => {
      const empty = await t.request('POST', `${NS}/ranktool-b/keyphrases`, { json: {}, as: author });
      expect(empty.text).toBe('{"results":{},"status":200}');
      const post = await insertPost(t.db, {});
      await seoService.setPostFields(t.ctx, post, { focusKeyphrase: 'Harbour Jazz' });
      const res = await t.request('POST', `${NS}/ranktool-b/keyphrases`, { json: { permalink: 'http://example.test/event/x/' }, as: author });
      expect(res.body).toEqual({ results: { 'harbour jazz': { keyword: 'harbour jazz', position: { value: 4 } } }, status: 200 });
      expect(JSON.parse(tools.seen.at(-1)!.body)).toEqual({ keywords: ['harbour jazz'], url: 'http://example.test/event/x/' });
    });

    it('untrack by keyphraseID', async () => {
      expect((await t.request('DELETE', `${NS}/ranktool-b/keyphrases/untrack`, { query: { keyphraseID: 123 }, as: author })).body).toEqual({ status: 200 });
      expect(tools.seen.at(-1)).toMatchObject({ method: 'DELETE', path: '/b/v1/websites/77/keywords/123' });
    });
  });
});
