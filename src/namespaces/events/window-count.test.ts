import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { ANY_STATUSES } from '../../content/posts.js';
import { countEvents, type EventListFilter } from './events-list.repo.js';
import { seedEvents } from './seed.js';

const NOW = new Date('2025-04-01T12:00:00Z');

/** A deterministic generator, so a failure replays. */
function random(seed: number): () => number {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

describe.each(DIALECTS)('archive totals over a date window on %s', (engine) => {
  let t: TestApp;

  /** What the cells must hold: the events grouped as the triggers group them. */
  const recomputed = async () =>
    (await sql<{ status: string; hidden: number; start_day: string; end_day: string; n: number }>`
      SELECT status, hide_from_listings AS hidden, substr(start_utc, 1, 10) AS start_day, substr(end_utc, 1, 10) AS end_day, count(*) AS n
      FROM event_details GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`.execute(t.db)).rows.map((r) => ({ ...r, hidden: Number(r.hidden), n: Number(r.n) }));
  const cells = async () =>
    (await t.db.selectFrom('event_window_days').selectAll().where('n', '>', 0).orderBy('status').orderBy('hidden').orderBy('start_day').orderBy('end_day').execute()).map((r) => ({ ...r, hidden: Number(r.hidden), n: Number(r.n) }));

  /** The same total counted row by row, as written in the filter. */
  const bruteForce = async (f: EventListFilter) => {
    let q = t.db.selectFrom('event_details').select((eb) => eb.fn.countAll<number>().as('n')).where('start_utc', '>=', f.startsOnOrAfter!).where('end_utc', '<=', f.endsOnOrBefore!);
    q = f.statuses.length === ANY_STATUSES.length ? q.where('status', 'not in', ['trash', 'auto-draft', 'inherit']) : q.where('status', 'in', [...f.statuses]);
    if (!f.includeHidden) q = q.where('hide_from_listings', '=', 0);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => NOW });
    await seedEvents(t.ctx, { events: 300, batchSize: 100, seed: 11 });
  });
  afterAll(() => t.close());

  it('keeps the day cells equal to the events through inserts, updates and deletes', async () => {
    expect(await cells()).toEqual(await recomputed());
    const rnd = random(5);
    const ids = (await t.db.selectFrom('event_details').select('post_id').orderBy('post_id').execute()).map((r) => Number(r.post_id));
    for (const id of ids.slice(0, 60)) {
      const roll = rnd();
      if (roll < 0.3) await t.db.updateTable('event_details').set({ status: rnd() < 0.5 ? 'draft' : 'trash' }).where('post_id', '=', id).execute();
      else if (roll < 0.5) await t.db.updateTable('event_details').set({ hide_from_listings: 1 }).where('post_id', '=', id).execute();
      else if (roll < 0.8) {
        const days = Math.floor(rnd() * 40) - 20;
        await t.db.updateTable('event_details').set((eb) => ({
          start_utc: sql<string>`${engine === 'postgres' ? sql`to_char(CAST(start_utc AS timestamp) + ${`${days} days`}::interval, 'YYYY-MM-DD HH24:MI:SS')` : sql`datetime(start_utc, ${`${days} days`})`}`,
          end_utc: sql<string>`${engine === 'postgres' ? sql`to_char(CAST(end_utc AS timestamp) + ${`${days + 1} days`}::interval, 'YYYY-MM-DD HH24:MI:SS')` : sql`datetime(end_utc, ${`${days + 1} days`})`}`,
        })).where('post_id', '=', id).execute();
      } else await t.db.deleteFrom('posts').where('id', '=', id).execute();
    }
    expect(await cells()).toEqual(await recomputed());
  });

  it('answers the same totals as counting the events, for any window, status set and visibility', async () => {
    const rnd = random(9);
    const day = (offset: number) => new Date(Date.UTC(2025, 3, 1) + offset * 86_400_000).toISOString().slice(0, 10);
    const time = () => `${String(Math.floor(rnd() * 24)).padStart(2, '0')}:${String(Math.floor(rnd() * 60)).padStart(2, '0')}:00`;
    const statusSets = [[...ANY_STATUSES], ['publish'], ['publish', 'private'], ['draft', 'pending', 'trash']];
    let nonZero = 0;
    for (let i = 0; i < 120; i++) {
      const from = Math.floor(rnd() * 400) - 200;
      // Mostly wide windows; also one day, a window inside a day, and an inverted one.
      const length = i % 10 === 0 ? 0 : i % 10 === 1 ? -3 : Math.floor(rnd() * 900);
      const filter: EventListFilter = {
        statuses: statusSets[i % statusSets.length]!,
        includeHidden: i % 3 === 0,
        startsOnOrAfter: `${day(from)} ${i % 4 === 0 ? '00:00:00' : time()}`,
        endsOnOrBefore: `${day(from + length)} ${i % 5 === 0 ? '23:59:59' : time()}`,
      };
      const expected = await bruteForce(filter);
      if (expected > 0) nonZero++;
      expect({ filter, total: await countEvents(t.db, filter) }).toEqual({ filter, total: expected });
    }
    expect(nonZero).toBeGreaterThan(60);
  });

  it('counts the default archive with the day cells, and other filters as before', async () => {
    const list = await t.request('GET', '/eventsuite/events/v1/events', { query: { per_page: 1, status: 'publish' } });
    expect(list.status).toBe(200);
    const filter: EventListFilter = { statuses: ['publish'], includeHidden: false, startsOnOrAfter: '2025-03-31 00:00:00', endsOnOrBefore: '2027-04-01 23:59:59' };
    expect(list.body.total).toBe(await bruteForce(filter));
    // A filter with another condition counts the events themselves, and still agrees.
    const featured = await countEvents(t.db, { ...filter, featured: false });
    const rows = await t.db.selectFrom('event_details').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'publish').where('hide_from_listings', '=', 0).where('featured', '=', 0)
      .where('start_utc', '>=', filter.startsOnOrAfter!).where('end_utc', '<=', filter.endsOnOrBefore!).executeTakeFirstOrThrow();
    expect(featured).toBe(Number(rows.n));
  });
});
