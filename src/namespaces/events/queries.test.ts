import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { pino } from 'pino';
import type { AppContext } from '../../app-context.js';
import { Dispatcher } from '../../rest/dispatch.js';
import { createRestRequest } from '../../rest/request.js';
import { DIALECTS, startTestApp, type TestApp } from '../../test-support/harness.js';
import { seedEvents } from './seed.js';
import { eventsService } from './events.public.js';
import { emptyEventTrash } from './events.service.js';

const NOW = new Date('2025-04-01T12:00:00Z');

/** Counts executed queries and keeps every compiled node (subqueries included). */
class Recorder implements KyselyPlugin {
  nodes: RootOperationNode[] = [];
  executed = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.nodes.push(args.node);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.executed++;
    return args.result;
  }
}

describe.each(DIALECTS)('event queries on %s', (engine) => {
  let t: TestApp;
  let seeded: Awaited<ReturnType<typeof seedEvents>>;

  beforeAll(async () => {
    t = await startTestApp(engine, {}, { now: () => NOW });
    seeded = await seedEvents(t.ctx, { events: 400, batchSize: 150, seed: 7 });
  });
  afterAll(() => t.close());

  it('seeds realistic events, venues, organizers and consistent term counts', async () => {
    expect(seeded).toMatchObject({ events: 400, categories: 20, tags: 40 });
    const n = await t.db.selectFrom('event_details').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    expect(Number(n!.n)).toBe(400);
    const wrong = await t.db
      .selectFrom('terms as t')
      .select('t.id')
      .where((eb) => eb('t.count', '!=', eb.selectFrom('term_relationships as tr').innerJoin('posts as p', 'p.id', 'tr.post_id').select((e) => e.fn.countAll<number>().as('c')).whereRef('tr.term_id', '=', 't.id').where('p.status', '=', 'publish')))
      .execute();
    expect(wrong).toEqual([]);
    const res = await t.request('GET', '/eventsuite/events/v1/events', { query: { per_page: 50 } });
    expect(res.status).toBe(200);
    expect(res.body.events).toHaveLength(50);
    expect(res.body.events[0].venue.id).toBeGreaterThan(0);
    expect(res.body.events[0].organizer.length).toBeGreaterThan(0);
    expect(res.body.events[0].categories.length).toBe(1);
  });

  it('answers a page with a fixed number of queries, whatever its size', async () => {
    const counts: number[] = [];
    for (const query of [{ per_page: '1' }, { per_page: '50' }, { per_page: '50', categories: 'music,theatre,family' }]) {
      const recorder = new Recorder();
      const ctx: AppContext = { ...t.ctx, db: t.db.withPlugin(recorder) };
      const dispatcher = new Dispatcher(t.app.registry, ctx, pino({ level: 'silent' }));
      await t.ctx.options.get('posts_per_page');
      const res = await dispatcher.dispatch(createRestRequest({ method: 'GET', route: '/eventsuite/events/v1/events', query }));
      expect(res.status).toBe(200);
      counts.push(recorder.executed);
    }
    // The filtered run adds the category resolution (shared by the check and the filter) and the child
    // categories (2 queries), nothing per event.
    expect(counts[1]).toBe(counts[0]);
    expect(counts[2]).toBe(counts[0]! + 2);
    expect(counts[0]).toBeLessThanOrEqual(10);
  });

  it('offers read-only lookups to other areas (eventsService)', async () => {
    const [first, second] = await t.db.selectFrom('event_details').select(['post_id', 'status']).orderBy('post_id').limit(2).execute();
    const id = Number(first!.post_id);
    const ev = await eventsService.getEvent(t.ctx, id);
    expect(ev).toMatchObject({ id, restUrl: `${t.ctx.urls.apiRoot}eventsuite/events/v1/events/${id}`, passwordProtected: false });
    expect(ev!.startUtc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect([...(await eventsService.getEvents(t.ctx, [id, Number(second!.post_id), 999999])).keys()]).toEqual([id, Number(second!.post_id)]);
    expect(await eventsService.exists(t.ctx, id)).toBe(true);
    expect(await eventsService.exists(t.ctx, 999999)).toBe(false);
    const venue = await t.db.selectFrom('posts').select('id').where('type', '=', 'tribe_venue').executeTakeFirstOrThrow();
    expect(await eventsService.getEvent(t.ctx, Number(venue.id))).toBeUndefined();
    expect(eventsService.isReadable({ status: 'publish', author: 1 }, null)).toBe(true);
    expect(eventsService.isReadable({ status: 'draft', author: 1 }, null)).toBe(false);
    await t.db.updateTable('posts').set({ password: 'pw' }).where('id', '=', id).execute();
    expect(await eventsService.passwordMatches(t.ctx, id, 'pw')).toBe(true);
    expect(await eventsService.passwordMatches(t.ctx, id, 'nope')).toBe(false);
  });

  it('empties the trash of events trashed 30 days ago, with their links and terms', async () => {
    const row = await t.db.selectFrom('event_details').select('post_id').where('status', '=', 'publish').orderBy('post_id', 'desc').executeTakeFirstOrThrow();
    const id = Number(row.post_id);
    const terms = await t.db.selectFrom('term_relationships').select('term_id').where('post_id', '=', id).execute();
    await t.db.updateTable('posts').set({ status: 'trash', modified_gmt: '2025-02-01 00:00:00' }).where('id', '=', id).execute();
    await t.db.updateTable('event_details').set({ status: 'trash' }).where('post_id', '=', id).execute();
    expect(await emptyEventTrash(t.ctx)).toBe(1);
    expect(await t.db.selectFrom('event_details').select('post_id').where('post_id', '=', id).executeTakeFirst()).toBeUndefined();
    expect(await t.db.selectFrom('event_venues').select('event_id').where('event_id', '=', id).executeTakeFirst()).toBeUndefined();
    const term = await t.db.selectFrom('terms').select(['id', 'count']).where('id', '=', Number(terms[0]!.term_id)).executeTakeFirstOrThrow();
    const published = await t.db.selectFrom('term_relationships as tr').innerJoin('posts as p', 'p.id', 'tr.post_id').select((eb) => eb.fn.countAll<number>().as('n')).where('tr.term_id', '=', term.id).where('p.status', '=', 'publish').executeTakeFirstOrThrow();
    expect(Number(term.count)).toBe(Number(published.n));
  });

  it.runIf(engine === 'sqlite')('uses indexes for the default window (no full scan of events)', async () => {
    const recorder = new Recorder();
    const ctx: AppContext = { ...t.ctx, db: t.db.withPlugin(recorder) };
    const dispatcher = new Dispatcher(t.app.registry, ctx, pino({ level: 'silent' }));
    await dispatcher.dispatch(createRestRequest({ method: 'GET', route: '/eventsuite/events/v1/events', query: {} }));
    const compiled = recorder.nodes.map((node) => t.db.getExecutor().compileQuery(node, { queryId: 'x' } as never)).filter((q) => /from "event_details" as "e"/.test(q.sql));
    // The total (one statement: the day cells, and its first and last day's events, each counted on a
    // window index, recorded apart too), the page's IDs (on a window index) and its rows by primary key.
    expect(compiled.length).toBe(5);
    expect(compiled.filter((q) => /from "event_window_days" as "c"/.test(q.sql))).toHaveLength(1);
    for (const q of compiled) {
      const plan = await t.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]));
      const lines = plan.rows.map((r) => r.detail);
      const byIds = /"e"\."post_id" in \(/.test(q.sql);
      const access = byIds ? /^SEARCH e USING INTEGER PRIMARY KEY/ : /^(SEARCH|SCAN) e USING (COVERING )?INDEX event_details_/;
      expect(lines.some((l) => access.test(l)), lines.join(' | ')).toBe(true);
      expect(lines.some((l) => /^SCAN e$/.test(l))).toBe(false);
    }
  });
});
