import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, startTestApp, type TestApp, type TestUser } from '../../test-support/harness.js';
import { containsPattern, countPostTextCandidates, ilike, postTextCandidates } from '../../storage/dialect.js';
import { searchTerms } from './events.handlers.js';
import { seedEvents } from './seed.js';

const EVENTS = '/eventsuite/events/v1/events';
const WINDOW = { start_date: '2031-01-01', end_date: '2031-12-31', per_page: 50 };

/** Title, description, excerpt and status of the corpus events (each a day apart in 2031). */
const CORPUS: [string, string, string, string][] = [
  ['Café Müller: Jazz & Blues', '<p>Live <strong>JAZZ</strong> tonight!</p>', '', 'publish'],
  ['ÉTÉ festival', "L'été à Paris, au café.", 'Soirée dansante', 'publish'],
  ['Pizzazz night', 'Jazzy tunes, razzmatazz.', '', 'publish'],
  ['Cold lab: 300 \u212A', 'Temperatures in kelvin (K).', '', 'publish'],
  ['İstanbul nights', 'Istanbul, ISTANBUL, istanbul.', '', 'publish'],
  ['Straße fest', 'STRASSE und strasse', '', 'publish'],
  ['100% free_entry', 'Back\\slash and 50% off_peak', '', 'publish'],
  ['Quotes', 'He said "hello world" loudly.', '', 'publish'],
  ['Sax 🎷 evening', 'Emoji 🎷🎺 and more', '', 'publish'],
  ['Co-op meetup', 'e-mail the co-op; -minus term', '', 'publish'],
  ['Σοφία lecture', 'ΣΟΦΊΑ and σοφία', '', 'publish'],
  ['Plain title', 'Body with\nnew lines\tand tabs', 'A hidden gem', 'publish'],
  ['ab', 'a b c', 'x', 'publish'],
  ['Jazz draft', 'Draft jazz', '', 'draft'],
  ['Jazz private', 'Private jazz', '', 'private'],
  ['Jazz pending', 'Pending jazz', '', 'pending'],
  ['Ünïcödé ÀÉÎÕÜ', 'àéîõü', '', 'publish'],
  ['Garden of Eden', 'garden party in the GARDEN', 'gardening', 'publish'],
];

/** What visitors type: the events route splits them as WordPress does (quotes, ten terms or more). */
const SEARCHES = [
  'jazz', 'JAZZ', 'Jazz & Blues', 'azz', 'zz', 'z', 'razzmatazz', 'jazz tonight', 'jazz -blues', '-minus',
  'é', 'É', 'été', 'ÉTÉ', 'café', 'CAFÉ', 'müller', 'MÜLLER', 'ünïcödé', 'ÜNÏCÖDÉ', 'àéî',
  'k', 'kelvin', '300 k', '300 \u212A', '\u212A', 'İstanbul', 'istanbul', 'i̇stanbul', 'ISTANBUL',
  'straße', 'STRASSE', 'strasse', 'ß',
  '100%', '%', '_', 'free_entry', 'free%entry', '\\', 'back\\slash', 'off_peak', '50%',
  '"hello world"', 'hello world', '"said "hello"', '"unclosed quote', '"', "l'été",
  '🎷', 'sax 🎷', '🎷🎺', 'co-op', '-op', 'e-mail', '<strong>', 'strong>jazz', '<p>', 'tonight!',
  'gem', 'hidden gem', '"hidden gem"', 'σοφία', 'ΣΟΦΊΑ', 'Σοφία',
  'a b c d e f g h i j k', 'a b', 'ab', 'a', 'x', 'new lines', 'with\nnew', 'garden', 'GARDEN party', 'nothing-like-this',
];

describe.each(DIALECTS)('search through the text index on %s', (engine) => {
  let t: TestApp;
  let subscriber: TestUser;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await startTestApp(engine);
    subscriber = await t.createUser('subscriber');
    for (const [i, [title, description, excerpt, status]] of CORPUS.entries()) {
      const day = String(1 + i).padStart(2, '0');
      const res = await t.request('POST', EVENTS, {
        json: { title, description, excerpt, status, start_date: `2031-03-${day} 10:00:00`, end_date: `2031-03-${day} 12:00:00` },
        as: t.admin,
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
  });
  afterAll(() => t.close());

  /** IDs of the events `search` finds through the route (the index path): one page, and the total. */
  const found = async (search: string, as: TestUser | null, window: Record<string, string | number> = WINDOW) => {
    const res = await t.request('GET', EVENTS, { query: { ...window, search }, as });
    expect(res.status).toBe(200);
    return { ids: res.body.events.map((e: { id: number }) => e.id) as number[], total: Number(res.headers['x-wp-total']) };
  };

  /** Every event of the unsearched list of a caller, in its order (all pages). */
  const unsearched = new Map<string, number[]>();
  const clearUnsearched = () => unsearched.clear();
  const listed = async (as: TestUser | null, window: Record<string, string | number>) => {
    const key = `${as?.login ?? ''}|${JSON.stringify(window)}`;
    if (!unsearched.has(key)) {
      const all: number[] = [];
      for (let page = 1; ; page++) {
        const res = await t.request('GET', EVENTS, { query: { ...window, page }, as });
        if (res.status !== 200) break;
        all.push(...res.body.events.map((e: { id: number }) => e.id));
        if (page >= Number(res.headers['x-wp-totalpages'])) break;
      }
      unsearched.set(key, all);
    }
    return unsearched.get(key)!;
  };

  /**
   * What the LIKE search finds, without the index: the unsearched list of the same caller, kept in
   * its order, narrowed to the posts where every term is in the title, content or excerpt.
   */
  const expected = async (search: string, as: TestUser | null, window: Record<string, string | number> = WINDOW) => {
    let q = t.db.selectFrom('posts as p').select('p.id').where('p.type', '=', 'tribe_events');
    for (const term of searchTerms(search)) {
      const pattern = containsPattern(term);
      q = q.where((eb) => eb.or([ilike(t.db, eb.ref('p.title'), pattern), ilike(t.db, eb.ref('p.content'), pattern), ilike(t.db, eb.ref('p.excerpt'), pattern)]));
    }
    const matching = new Set((await q.execute()).map((r) => Number(r.id)));
    return (await listed(as, window)).filter((id) => matching.has(id));
  };

  it('finds exactly what LIKE finds, for every caller', async () => {
    for (const as of [t.admin, subscriber, null]) {
      for (const search of SEARCHES) {
        const want = await expected(search, as);
        const got = await found(search, as);
        expect({ search, ids: got.ids, total: got.total }).toEqual({ search, ids: want, total: want.length });
      }
    }
    // The corpus does tell the cases apart: some searches find several events, some none.
    expect((await found('jazz', t.admin)).ids.length).toBeGreaterThanOrEqual(5);
    expect((await found('jazz', null)).ids.length).toBeLessThan((await found('jazz', t.admin)).ids.length);
    expect((await found('nothing-like-this', t.admin)).ids).toEqual([]);
  }, 240_000);

  it('finds what LIKE finds among thousands of seeded events, where the page walks the start order', async () => {
    // More posts hold "welcome" than a page reads through the index (FEW_TEXT_CANDIDATES), so its page
    // tests the events in start order against the candidates instead.
    await seedEvents(t.ctx, { events: 2100, batchSize: 700, seed: 3 });
    clearUnsearched();
    const window = { per_page: 50 };
    for (const as of [t.admin, null]) {
      for (const search of ['welcome', 'WELCOME jazz', '"bring friends"', 'Join us', 'jazz night', 'zz', 'nothing-like-this']) {
        const want = await expected(search, as, window);
        const got = await found(search, as, window);
        expect({ search, ids: got.ids, total: got.total }).toEqual({ search, ids: want.slice(0, 50), total: want.length });
      }
    }
    expect((await found('welcome', t.admin, window)).total).toBeGreaterThan(1000);
    if (engine === 'sqlite') expect(await countPostTextCandidates(t.db, ['welcome'], 10_000)).toBeGreaterThan(2000);
  }, 240_000);

  it('follows edits and deletions', async () => {
    const [first] = ids;
    await t.request('POST', `${EVENTS}/${first}`, { json: { title: 'Renamed quokka gathering', description: 'Nothing else' }, as: t.admin });
    clearUnsearched();
    expect((await found('quokka', t.admin)).ids).toEqual([first]);
    expect((await found('müller', t.admin)).ids).toEqual([]);
    const last = ids[ids.length - 1]!;
    expect((await found('gardening', t.admin)).ids).toEqual([last]);
    await t.request('DELETE', `${EVENTS}/${last}`, { query: { force: 'true' }, as: t.admin });
    clearUnsearched();
    expect((await found('gardening', t.admin)).ids).toEqual([]);
    for (const search of SEARCHES) expect(await found(search, t.admin).then((r) => r.ids)).toEqual(await expected(search, t.admin));
  }, 120_000);

  it.runIf(engine === 'sqlite')('narrows candidates with the FTS5 trigram index of events, which stays in step with them', async () => {
    const candidates = async (terms: string[]) => {
      const cond = postTextCandidates(t.db, sql.ref('id'), terms);
      if (!cond) return undefined;
      return (await t.db.selectFrom('posts').select('id').where(cond).execute()).map((r) => Number(r.id));
    };
    const posts = (await t.db.selectFrom('posts').select('id').execute()).length;
    expect(await candidates(['zz'])).toBeUndefined();
    expect((await candidates(['quokka']))?.length).toBe(1);
    expect((await candidates(['JAZZ', 'tonight']))?.length).toBeLessThan(posts);
    // Other posts (venues here; orders and attendees in a shop) stay out of the index, also when edited.
    const venue = (await t.request('POST', '/eventsuite/events/v1/venues', { json: { venue: 'Wombat hall' }, as: t.admin })).body as { id: number };
    expect(await candidates(['wombat'])).toEqual([]);
    await t.db.updateTable('posts').set({ title: 'Wombat arena' }).where('id', '=', venue.id).execute();
    expect(await candidates(['wombat'])).toEqual([]);
    await t.db.deleteFrom('posts').where('id', '=', venue.id).execute();
    // The index's own structure is sound (it is not checked against `posts`, which holds more than events).
    await expect(sql`INSERT INTO posts_search (posts_search) VALUES ('integrity-check')`.execute(t.db)).resolves.toBeDefined();
  });

  it.runIf(engine === 'postgres')('has pg_trgm indexes that ILIKE can use', async () => {
    const indexes = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'posts' AND indexdef LIKE '%gin_trgm_ops%' ORDER BY indexname`.execute(t.db);
    expect(indexes.rows.map((r) => r.indexname)).toEqual(['posts_content_trgm', 'posts_excerpt_trgm', 'posts_title_trgm']);
    const plan = await t.db.connection().execute(async (conn) => {
      await sql`SET enable_seqscan = off`.execute(conn);
      const rows = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT id FROM posts WHERE title ILIKE '%jazz%' OR content ILIKE '%jazz%'`.execute(conn);
      await sql`RESET enable_seqscan`.execute(conn);
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('posts_title_trgm');
    expect(plan).toContain('posts_content_trgm');
  });

  it.runIf(engine === 'postgres')('reads a text candidate\'s window, status and flags from the event key alone (index-only)', async () => {
    // What a search's count and page test of each candidate `posts` gives: without the rows (wide, and
    // at a million events more than the buffer cache keeps), only the primary key's B-tree.
    const plan = await t.db.connection().execute(async (conn) => {
      await sql`VACUUM event_details`.execute(conn);
      await sql`SET enable_seqscan = off`.execute(conn);
      const rows = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT e.post_id, e.status, e.hide_from_listings, e.start_utc, e.end_utc, e.featured
        FROM event_details e WHERE e.post_id = ${ids[0]!}`.execute(conn);
      await sql`RESET enable_seqscan`.execute(conn);
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Only Scan using event_details_pkey on event_details/);
  });
});
