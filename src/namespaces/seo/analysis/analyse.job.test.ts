import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../../../test-support/harness.js';
import { runAnalyseJob, stalePostIds } from './analyse.job.js';

describe.each(DIALECTS)('the seo.analyse job on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  it('works through many stale posts in batches, letting other work of the process in between', async () => {
    const when = { local: '2026-05-01 10:00:00', gmt: '2026-05-01 10:00:00' };
    const rows = Array.from({ length: 450 }, (_, i) => ({ type: 'post', status: 'publish', slug: `batch-${i}`, title: `Batch ${i}`, content: '<p>Words.</p>', excerpt: '', author: 0, parent: 0, password: '', menu_order: 0, image_url: '', date: when.local, date_gmt: when.gmt, modified: when.local, modified_gmt: when.gmt }));
    for (let i = 0; i < rows.length; i += 50) await t.db.insertInto('posts').values(rows.slice(i, i + 50)).execute();
    const stale = (await stalePostIds(t.db, 1000)).length;
    expect(stale).toBeGreaterThanOrEqual(450);
    // On SQLite every query answers synchronously: without a turn of the event loop between batches,
    // this timer (a request, in a server) would wait for the whole job.
    let done = false;
    let turnDuringJob = false;
    setTimeout(() => (turnDuringJob = !done), 0);
    await runAnalyseJob(t.ctx, {});
    done = true;
    expect(turnDuringJob).toBe(true);
    expect(await stalePostIds(t.db, 1000)).toEqual([]);
    expect(Number((await t.db.selectFrom('seo_scores').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(stale);
  });
});
