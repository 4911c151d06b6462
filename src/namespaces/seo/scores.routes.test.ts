import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { insertPost } from '../oembed/oembed-fixtures.js';
import { runAnalyseJob, stalePostIds } from './analysis/analyse.job.js';
import { seoService } from './index.js';
import { signInForTest } from '../../auth/test-sessions.js';

const NS = '/seo/v1';
const GOOD_CONTENT = (kp: string) =>
  `<p>The ${kp} weekend opens on the quay. However, the best seats go early.</p><h2>Programme</h2>`
  + `<p>${'Local bands play every night and the crowd sings along. For example, the brass band starts at six. '.repeat(20)}</p>`
  + `<p>More in <a href="http://example.test/event/other/">our calendar</a> and <a href="https://guide.example.com/">the city guide</a>.</p>`
  + `<p><img src="http://example.test/wp-content/uploads/x.jpg" alt="${kp} crowd"></p>`;

describe.each(DIALECTS)('seo/v1 scores, statistics and indexing on %s', (engine) => {
  let t: TestApp;
  let editor: TestUser;
  let author: TestUser;
  let uploads: string;
  const ids = {} as Record<"good" | "bad" | "none" | "empty" | "draft" | "venue", number>;
  let categoryId: number;

  async function setContent(id: number, content: string, modified = '2026-05-02 10:00:00') {
    await t.db.updateTable('posts').set({ content, modified_gmt: modified, modified }).where('id', '=', id).execute();
  }

  beforeAll(async () => {
    uploads = await fs.mkdtemp(path.join(os.tmpdir(), 'seo-uploads-'));
    await fs.mkdir(path.join(uploads, '2026'));
    await fs.writeFile(path.join(uploads, '2026', 'poster.jpg'), Buffer.alloc(48213));
    t = await startTestApp(engine, { uploadsDir: uploads });
    editor = await t.createUser('editor');
    author = await t.createUser('author');
    ids.good = await insertPost(t.db, { title: 'Harbour jazz weekend', slug: 'harbour-jazz-weekend', author: author.id });
    ids.bad = await insertPost(t.db, { title: 'Summer', slug: 'summer', author: author.id });
    ids.none = await insertPost(t.db, { title: 'No keyphrase', slug: 'no-keyphrase' });
    ids.empty = await insertPost(t.db, { title: 'Empty', slug: 'empty' });
    ids.draft = await insertPost(t.db, { title: 'Draft', status: 'draft' });
    ids.venue = await insertPost(t.db, { type: 'tribe_venue', title: 'The Quay' });
    await setContent(ids.good, GOOD_CONTENT('harbour jazz'));
    await setContent(ids.bad, '<p>Come along.</p>');
    await setContent(ids.none, GOOD_CONTENT('brass'));
    await seoService.setPostFields(t.ctx, ids.good, {
      focusKeyphrase: 'harbour jazz',
      metaDescription: 'Harbour jazz on the quay: three nights of local and touring bands, food stalls and late ferries home. Tickets and programme inside.',
    });
    await seoService.setPostFields(t.ctx, ids.bad, { focusKeyphrase: 'harbour jazz' });
    const term = await t.db.insertInto('terms').values({ taxonomy: 'tribe_events_cat', name: 'Music', slug: 'music', description: '', parent: 0, count: 1 }).returning('id').executeTakeFirstOrThrow();
    categoryId = term.id;
    await t.db.insertInto('term_relationships').values({ post_id: ids.good, term_id: categoryId }).execute();
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(uploads, { recursive: true, force: true });
  });

  it('reading the scores queues the analysis on the jobs runner, which scores every stale post', async () => {
    expect((await stalePostIds(t.db, 100)).length).toBeGreaterThanOrEqual(6);
    await t.request('GET', `${NS}/seo_scores`, { query: { contentType: 'tribe_events' }, as: t.admin });
    const queued = await t.db.selectFrom('jobs').select(['kind', 'status']).where('kind', '=', 'seo.analyse').execute();
    expect(queued.length).toBeGreaterThanOrEqual(1);
    await t.ctx.jobs.runDue();
    expect(await stalePostIds(t.db, 100)).toEqual([]);
  });

  it('the analysis job scores a post again only after its content changes', async () => {
    expect(await stalePostIds(t.db, 100)).toEqual([]);
    const before = await t.db.selectFrom('seo_scores').selectAll().where('post_id', '=', ids.bad).executeTakeFirstOrThrow();
    await setContent(ids.bad, GOOD_CONTENT('harbour jazz'), '2026-05-03 10:00:00');
    expect(await stalePostIds(t.db, 100)).toEqual([ids.bad]);
    await runAnalyseJob(t.ctx, {});
    const after = await t.db.selectFrom('seo_scores').selectAll().where('post_id', '=', ids.bad).executeTakeFirstOrThrow();
    expect(after.seo_score).toBeGreaterThan(before.seo_score!);
    await setContent(ids.bad, '<p>Come along.</p>', '2026-05-04 10:00:00');
    await runAnalyseJob(t.ctx, { postIds: [ids.bad] });
  });

  describe('GET /seo/v1/seo_scores', () => {
    it('groups published events in the original order with admin links', async () => {
      const res = await t.request('GET', `${NS}/seo_scores`, { query: { contentType: 'tribe_events' }, as: t.admin });
      expect(res.status).toBe(200);
      expect(res.body.scores.map((s: any) => [s.name, s.amount])).toEqual([['good', 1], ['ok', 0], ['bad', 1], ['notAnalyzed', 2]]);
      expect(res.body.scores[0].links.view).toBe('http://example.test/wp-admin/edit.php?post_status=publish&post_type=tribe_events&seo_filter=good');
      expect(res.body.scores[3].links.view).toContain('seo_filter=na');
      expect(typeof res.body.queryTime).toBe('number');
      expect(res.body.cacheUsed).toBe(false);
      expect(res.body.scores[0].ids).toBeUndefined();
    });

    it('troubleshooting lists the ids of each non-empty group', async () => {
      const res = await t.request('GET', `${NS}/seo_scores`, { query: { contentType: 'tribe_events', troubleshooting: 'true' }, as: t.admin });
      expect(res.body.scores[0].ids).toBe(String(ids.good));
      expect(res.body.scores[1].ids).toBeUndefined();
      expect(res.body.scores[3].ids).toBe(`${ids.none},${ids.empty}`);
    });

    it('narrows by a category term and carries it in the links', async () => {
      const res = await t.request('GET', `${NS}/seo_scores`, { query: { contentType: 'tribe_events', taxonomy: 'tribe_events_cat', term: categoryId }, as: t.admin });
      expect(res.body.scores.map((s: any) => s.amount)).toEqual([1, 0, 0, 0]);
      expect(res.body.scores[0].links.view).toContain('tribe_events_cat=music');
    });

    it.each([
      [{ contentType: 'nope' }, 'Invalid content type.'],
      [{ contentType: 'tribe_events', taxonomy: 'post_tag', term: 1 }, 'Invalid taxonomy.'],
      [{ contentType: 'tribe_events', term: 1 }, 'Term needs a provided taxonomy.'],
      [{ contentType: 'tribe_events', taxonomy: 'tribe_events_cat' }, 'Taxonomy needs a provided term.'],
      [{ contentType: 'tribe_events', taxonomy: 'tribe_events_cat', term: 999999 }, 'Invalid term.'],
      // term is only intval'd, as the original: a word is term 0, refused by the same checks.
      [{ contentType: 'tribe_events', taxonomy: 'post_tag', term: 'irrelevant' }, 'Invalid taxonomy.'],
      [{ contentType: 'tribe_events', term: 'irrelevant' }, 'Term needs a provided taxonomy.'],
      [{ contentType: 'tribe_events', taxonomy: 'tribe_events_cat', term: 'irrelevant' }, 'Invalid term.'],
    ])('answers 400 {"error"} for %j', async (query, error) => {
      const res = await t.request('GET', `${NS}/seo_scores`, { query, as: t.admin });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    });

    it('needs wpseo_manage_options and contentType', async () => {
      expect((await t.request('GET', `${NS}/seo_scores`, { query: { contentType: 'tribe_events' }, as: editor })).status).toBe(403);
      expect((await t.request('GET', `${NS}/seo_scores`, { as: t.admin })).body.code).toBe('rest_missing_callback_param');
    });
  });

  describe('the admin links of the groups', () => {
    const listed = async (link: string) => {
      const session = await signInForTest(t.ctx, t.admin.id);
      const res = await t.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search, headers: { cookie: session.cookie } });
      expect(res.statusCode, link).toBe(200);
      return [...res.body.matchAll(/post\.php\?post=(\d+)/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
    };

    it('open the posts screen listing exactly the posts of each group', async () => {
      for (const route of ['seo_scores', 'readability_scores']) {
        for (const query of [{ contentType: 'tribe_events' }, { contentType: 'tribe_events', taxonomy: 'tribe_events_cat', term: categoryId }] as Record<string, string | number>[]) {
          const res = await t.request('GET', `${NS}/${route}`, { query: { ...query, troubleshooting: 'true' }, as: t.admin });
          for (const group of res.body.scores) {
            const expected = group.ids ? String(group.ids).split(',').map(Number).sort((a: number, b: number) => a - b) : [];
            expect(await listed(group.links.view), `${route} ${group.name}`).toEqual(expected);
          }
        }
      }
    });

    it('the statistics links open too', async () => {
      const res = await t.request('GET', `${NS}/statistics`, { as: t.admin });
      for (const s of res.body.seo_scores) expect((await listed(s.link)).length, s.seo_rank).toBeGreaterThan(0);
      // An author's links list their own posts only: as many as their statistics count.
      const own = await t.request('GET', `${NS}/statistics`, { as: author });
      let listedOwn = 0;
      for (const s of own.body.seo_scores) listedOwn += (await listed(s.link)).length;
      expect(listedOwn).toBeGreaterThan(0);
      expect(listedOwn).toBe(own.body.seo_scores.reduce((n: number, s: any) => n + s.count, 0));
    });
  });

  describe('GET /seo/v1/readability_scores', () => {
    it('counts an empty text as not analysed and analysed texts by readability', async () => {
      const res = await t.request('GET', `${NS}/readability_scores`, { query: { contentType: 'tribe_events' }, as: t.admin });
      const byName = Object.fromEntries(res.body.scores.map((s: any) => [s.name, s.amount]));
      expect(byName.notAnalyzed).toBe(1);
      expect(byName.good + byName.ok + byName.bad).toBe(3);
      expect(res.body.scores[0].links.view).toContain('readability_filter=good');
    });
  });

  describe('GET /seo/v1/statistics', () => {
    it('ranks with counts, labels and links; zero ranks left out; authors see their own posts', async () => {
      const res = await t.request('GET', `${NS}/statistics`, { as: editor });
      expect(res.status).toBe(200);
      expect(res.body.seo_scores.map((s: any) => [s.seo_rank, s.count])).toEqual([['na', 3], ['bad', 1], ['good', 1]]);
      expect(res.body.seo_scores[2].label).toBe('Posts with the SEO score: <strong>good</strong>');
      expect(res.body.seo_scores[2].link).toContain('seo_filter=good');
      const own = await t.request('GET', `${NS}/statistics`, { as: author });
      expect(own.body.seo_scores.map((s: any) => s.count).reduce((a: number, b: number) => a + b, 0)).toBe(2);
      // Their links are narrowed to their own posts, as the original's (`&author=<id>`).
      for (const s of own.body.seo_scores) expect(s.link).toMatch(new RegExp(`&author=${author.id}$`));
      expect(res.body.seo_scores.every((s: any) => !s.link.includes('author='))).toBe(true);
      expect((await t.request('GET', `${NS}/statistics`)).status).toBe(401);
    });
  });

  describe('GET /seo/v1/file_size', () => {
    it('measures this site’s own media and refuses other hosts', async () => {
      const ok = await t.request('GET', `${NS}/file_size`, { query: { url: 'http://example.test/wp-content/uploads/2026/poster.jpg' }, as: t.admin });
      expect(ok.body).toEqual({ type: 'success', size_in_bytes: 48213 });
      const external = await t.request('GET', `${NS}/file_size`, { query: { url: 'https://elsewhere.example/wp-content/uploads/2026/poster.jpg' }, as: t.admin });
      expect(external.status).toBe(404);
      expect(external.body).toEqual({ type: 'failure', response: 'Cannot get the size of https://elsewhere.example/wp-content/uploads/2026/poster.jpg because it is hosted externally.' });
      const missing = await t.request('GET', `${NS}/file_size`, { query: { url: 'http://example.test/wp-content/uploads/2026/none.jpg' }, as: t.admin });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ type: 'failure', response: 'Cannot get the size of http://example.test/wp-content/uploads/2026/none.jpg because of unknown reasons.' });
      const escape = await t.request('GET', `${NS}/file_size`, { query: { url: 'http://example.test/wp-content/uploads/%2e%2e/%2e%2e/etc/passwd' }, as: t.admin });
      expect(escape.status).toBe(404);
      expect((await t.request('GET', `${NS}/file_size`, { query: { url: 'http://example.test/x' }, as: editor })).status).toBe(403);
    });
  });

  describe('POST /seo/v1/indexing/* and link-indexing/*', () => {
    it('builds indexables in batches of 25, looping on next_url until false', async () => {
      for (let i = 0; i < 24; i++) await insertPost(t.db, { title: `Extra ${i}` });
      expect((await t.request('POST', `${NS}/indexing/prepare`, { as: editor })).body).toEqual({ objects: [], next_url: false });
      let url: string | false = `${NS}/indexing/posts`;
      const batches: number[] = [];
      while (url) {
        const res = await t.request('POST', url.replace('http://example.test/wp-json', ''), { as: editor });
        expect(res.status).toBe(200);
        batches.push(res.body.objects.length);
        if (res.body.next_url) expect(res.body.next_url).toBe('http://example.test/wp-json/seo/v1/indexing/posts');
        url = res.body.next_url;
      }
      expect(batches).toEqual([25, 5]);
      const again = await t.request('POST', `${NS}/indexing/posts`, { as: editor });
      expect(again.body).toEqual({ objects: [], next_url: false });
      const general = await t.request('POST', `${NS}/indexing/general`, { as: editor });
      expect(general.body.objects.map((o: any) => o.object_type)).toEqual(['home-page', 'system-page', 'system-page', 'date-archive']);
      expect(general.body.next_url).toBe('http://example.test/wp-json/seo/v1/indexing/general');
      expect((await t.request('POST', `${NS}/indexing/post-type-archives`, { as: editor })).body.objects[0]).toMatchObject({ object_sub_type: 'tribe_events', permalink: 'http://example.test/events/' });
      expect((await t.request('POST', `${NS}/indexing/terms`, { as: editor })).body.objects[0]).toMatchObject({ object_type: 'term', object_id: categoryId, permalink: 'http://example.test/events/category/music/' });
      expect((await t.request('POST', `${NS}/indexing/complete`, { as: editor })).body).toEqual({ objects: [], next_url: false });
      expect((await t.request('POST', `${NS}/indexing/posts`, { as: author })).status).toBe(200);
      expect((await t.request('POST', `${NS}/indexing/posts`)).status).toBe(401);
    });

    it('records links between posts five at a time', async () => {
      const other = await insertPost(t.db, { title: 'Other', slug: 'other' });
      await t.request('POST', `${NS}/indexing/posts`, { as: editor });
      let next: unknown = true;
      let rounds = 0;
      while (next) {
        const res = await t.request('POST', `${NS}/link-indexing/posts`, { as: editor });
        expect(res.body.objects.length).toBeLessThanOrEqual(5);
        next = res.body.next_url;
        rounds++;
      }
      expect(rounds).toBeGreaterThan(5);
      const links = await t.db.selectFrom('seo_links').selectAll().where('source_id', '=', ids.good).orderBy('id').execute();
      expect(links.map((l) => [l.link_type, l.target_post_id])).toEqual([['internal', other], ['external', null]]);
    });
  });
});
