import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { ANY_STATUSES } from '../../content/posts.js';
import { countEvents, listEvents, type EventListFilter } from './events-list.repo.js';
import { CATEGORY_TAXONOMY, TAG_TAXONOMY } from './caps.js';
import { seedEvents } from './seed.js';

const NOW = new Date('2025-04-01T12:00:00Z');

/** A deterministic generator, so a failure replays. */
function random(seed: number): () => number {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

describe.each(DIALECTS)('lists filtered by terms, from event_term_index, on %s', (engine) => {
  let t: TestApp;
  let categories: number[];
  let tags: number[];

  /** What the index must hold: every event's terms joined with its rows. */
  const expectedRows = async () =>
    (await sql<Record<string, unknown>>`
      SELECT tr.term_id, e.start_utc, p.date_gmt, e.post_id, e.end_utc, e.status, e.hide_from_listings, e.featured
      FROM term_relationships tr JOIN event_details e ON e.post_id = tr.post_id JOIN posts p ON p.id = e.post_id
      ORDER BY 1, 2, 3, 4`.execute(t.db)).rows.map(normalised);
  const indexRows = async () =>
    (await sql<Record<string, unknown>>`
      SELECT term_id, start_utc, date_gmt, post_id, end_utc, status, hide_from_listings, featured
      FROM event_term_index ORDER BY 1, 2, 3, 4`.execute(t.db)).rows.map(normalised);
  const normalised = (r: Record<string, unknown>) => ({ ...r, term_id: Number(r.term_id), post_id: Number(r.post_id), hide_from_listings: Number(r.hide_from_listings), featured: Number(r.featured) });

  /** The page and total as the filter reads, written out over `event_details`, `posts` and `term_relationships`. */
  const reference = async (f: EventListFilter, limit: number, offset: number) => {
    let q = t.db.selectFrom('event_details as e').innerJoin('posts as p', 'p.id', 'e.post_id').select(['e.post_id']);
    q = f.statuses.length === ANY_STATUSES.length ? q.where('e.status', 'not in', ['trash', 'auto-draft', 'inherit']) : q.where('e.status', 'in', [...f.statuses]);
    if (!f.includeHidden) q = q.where('e.hide_from_listings', '=', 0);
    if (f.startsOnOrAfter) q = q.where('e.start_utc', '>=', f.startsOnOrAfter);
    if (f.endsOnOrBefore) q = q.where('e.end_utc', '<=', f.endsOnOrBefore);
    if (f.featured !== undefined) q = q.where('e.featured', '=', f.featured ? 1 : 0);
    if (f.ownDraftsOnly) q = q.where((eb) => eb.or([eb('e.status', '=', 'publish'), eb('p.author', '=', f.ownDraftsOnly!.userId)]));
    for (const ids of [f.categoryIds, f.tagIds]) {
      if (ids?.length) q = q.where('e.post_id', 'in', t.db.selectFrom('term_relationships').select('post_id').where('term_id', 'in', [...ids]));
    }
    if (f.venueIds?.length) q = q.where('e.post_id', 'in', t.db.selectFrom('event_venues').select('event_id').where('venue_id', 'in', [...f.venueIds]));
    const all = await (f.include !== undefined
      ? q.where('e.post_id', 'in', f.include.length ? [...f.include] : [0]).orderBy('p.date_gmt').orderBy('e.post_id')
      : q.orderBy('e.start_utc').orderBy('p.date_gmt').orderBy('e.post_id')
    ).execute();
    return { total: all.length, page: all.slice(offset, offset + limit).map((r) => Number(r.post_id)) };
  };

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => NOW });
    await seedEvents(t.ctx, { events: 300, batchSize: 100, seed: 17 });
    const termIds = async (taxonomy: string) => (await t.db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).orderBy('id').execute()).map((r) => Number(r.id));
    categories = await termIds(CATEGORY_TAXONOMY);
    tags = await termIds(TAG_TAXONOMY);
  });
  afterAll(() => t.close());

  it('holds a row per event and term, kept through every kind of write', async () => {
    expect((await indexRows()).length).toBeGreaterThan(300);
    expect(await indexRows()).toEqual(await expectedRows());
    const rnd = random(3);
    const ids = (await t.db.selectFrom('event_details').select('post_id').orderBy('post_id').execute()).map((r) => Number(r.post_id));
    const shift = (column: 'start_utc' | 'end_utc', days: number) =>
      sql<string>`${engine === 'postgres' ? sql`to_char(CAST(${sql.ref(column)} AS timestamp) + ${`${days} days`}::interval, 'YYYY-MM-DD HH24:MI:SS')` : sql`datetime(${sql.ref(column)}, ${`${days} days`})`}`;
    for (const id of ids.slice(0, 90)) {
      const roll = rnd();
      if (roll < 0.15) await t.db.updateTable('event_details').set({ status: rnd() < 0.5 ? 'draft' : 'trash' }).where('post_id', '=', id).execute();
      else if (roll < 0.25) await t.db.updateTable('event_details').set({ hide_from_listings: 1, featured: 1 }).where('post_id', '=', id).execute();
      else if (roll < 0.4) {
        const days = Math.floor(rnd() * 40) - 20;
        await t.db.updateTable('event_details').set({ start_utc: shift('start_utc', days), end_utc: shift('end_utc', days + 1) }).where('post_id', '=', id).execute();
      } else if (roll < 0.5) await t.db.updateTable('posts').set({ date_gmt: `2024-0${1 + Math.floor(rnd() * 9)}-15 10:00:00` }).where('id', '=', id).execute();
      else if (roll < 0.65) await t.db.insertInto('term_relationships').values({ post_id: id, term_id: tags[Math.floor(rnd() * tags.length)]! }).onConflict((oc) => oc.doNothing()).execute();
      else if (roll < 0.8) await t.db.deleteFrom('term_relationships').where('post_id', '=', id).where('term_id', 'in', categories).execute();
      else if (roll < 0.9) await t.db.updateTable('term_relationships').set({ term_id: categories[Math.floor(rnd() * categories.length)]! }).where('post_id', '=', id).where('term_id', 'in', categories).execute().catch(() => undefined);
      else await t.db.deleteFrom('posts').where('id', '=', id).execute();
    }
    // New events (their terms written after their rows, as the services do).
    await seedEvents(t.ctx, { events: 40, batchSize: 40, seed: 23 });
    expect(await indexRows()).toEqual(await expectedRows());
  });

  it('answers the pages and totals of reading every event, for terms with any other filter', async () => {
    const rnd = random(29);
    const day = (offset: number) => new Date(Date.UTC(2025, 3, 1) + offset * 86_400_000).toISOString().slice(0, 10);
    const statusSets = [[...ANY_STATUSES], ['publish'], ['publish', 'private']];
    const venues = (await t.db.selectFrom('event_venues').select('venue_id').distinct().execute()).map((r) => Number(r.venue_id));
    const someEvents = (await t.db.selectFrom('event_details').select('post_id').orderBy('post_id').limit(60).execute()).map((r) => Number(r.post_id));
    let nonEmpty = 0;
    for (let i = 0; i < 90; i++) {
      const pick = (list: number[], n: number) => [...new Set(Array.from({ length: n }, () => list[Math.floor(rnd() * list.length)]!))];
      const filter: EventListFilter = {
        statuses: statusSets[i % statusSets.length]!,
        includeHidden: i % 4 === 0,
        ...(i % 6 !== 5 ? { categoryIds: pick(categories, 1 + (i % 3 === 0 ? 1 : 0)) } : {}),
        ...(i % 5 === 0 || i % 6 === 5 ? { tagIds: pick(tags, 1 + (i % 2)) } : {}),
        ...(i % 9 === 0 ? {} : { startsOnOrAfter: `${day(Math.floor(rnd() * 300) - 150)} 00:00:00` }),
        ...(i % 3 === 1 ? { endsOnOrBefore: `${day(Math.floor(rnd() * 300) + 100)} 23:59:59` } : {}),
        ...(i % 7 === 0 ? { featured: rnd() < 0.5 } : {}),
        ...(i % 8 === 3 ? { venueIds: pick(venues, 3) } : {}),
        ...(i % 10 === 4 ? { ownDraftsOnly: { userId: 1, readPrivate: false } } : {}),
        ...(i % 11 === 6 ? { include: pick(someEvents, 20) } : {}),
      };
      if (i % 13 === 12) {
        // No term: featured lists read the partial index of featured events.
        delete filter.categoryIds;
        delete filter.tagIds;
        filter.featured = i % 2 === 0;
      }
      const limit = [5, 10, 50][i % 3]!;
      const offset = i % 4 === 1 ? limit : 0;
      const expected = await reference(filter, limit, offset);
      if (expected.total > 0) nonEmpty++;
      const page = (await listEvents(t.db, filter, limit, offset)).map((e) => e.id);
      expect({ filter, limit, offset, total: await countEvents(t.db, filter), page }).toEqual({ filter, limit, offset, ...expected });
    }
    expect(nonEmpty).toBeGreaterThan(50);
  });

  it('reads a term-filtered page from the index, not from every event of the term', async () => {
    if (engine !== 'sqlite') return;
    const text = (await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT e.post_id FROM event_term_index e
      WHERE e.term_id IN (${categories[0]!}) AND e.status = 'publish' AND e.start_utc >= '2025-01-01 00:00:00'
      ORDER BY e.start_utc, e.date_gmt, e.post_id LIMIT 10`.execute(t.db)).rows.map((r) => r.detail).join('\n');
    expect(text).toMatch(/SEARCH e USING PRIMARY KEY \(term_id=\? AND start_utc>\?\)/);
    expect(text).not.toMatch(/TEMP B-TREE/);
  });

  it('reads featured events in start order from their partial index', async () => {
    if (engine !== 'sqlite') return;
    const text = (await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT count(*) FROM event_details e
      WHERE e.status NOT IN ('trash', 'auto-draft', 'inherit') AND e.hide_from_listings = 0 AND e.start_utc >= '2025-01-01 00:00:00' AND e.featured = 1`.execute(t.db)).rows.map((r) => r.detail).join('\n');
    expect(text).toMatch(/USING COVERING INDEX event_details_featured_start/);
  });

  it('leaves the index rows alone when a save rewrites an event with the same values (no locks taken)', async () => {
    if (engine !== 'postgres') return;
    const [{ post_id: id }] = (await sql<{ post_id: number }>`SELECT post_id FROM event_term_index LIMIT 1`.execute(t.db)).rows as [{ post_id: number }];
    const versions = async () => (await sql<{ v: string }>`SELECT xmin::text AS v FROM event_term_index WHERE post_id = ${id} ORDER BY term_id`.execute(t.db)).rows.map((r) => r.v);
    const before = await versions();
    await sql`UPDATE event_details SET status = status, start_utc = start_utc, featured = featured WHERE post_id = ${id}`.execute(t.db);
    expect(await versions()).toEqual(before);
    await sql`UPDATE event_details SET featured = 1 - featured WHERE post_id = ${id}`.execute(t.db);
    expect(await versions()).not.toEqual(before);
  });

  it('reads term-filtered pages and totals from the index (emptied, it finds nothing)', async () => {
    const filter: EventListFilter = { statuses: [...ANY_STATUSES], includeHidden: true, categoryIds: categories };
    expect(await countEvents(t.db, filter)).toBeGreaterThan(0);
    await t.db.deleteFrom('event_term_index').execute();
    expect(await countEvents(t.db, filter)).toBe(0);
    expect(await listEvents(t.db, filter, 10, 0)).toEqual([]);
    expect(await countEvents(t.db, { statuses: [...ANY_STATUSES], includeHidden: true, venueIds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] })).toBeGreaterThan(0);
  });
});
