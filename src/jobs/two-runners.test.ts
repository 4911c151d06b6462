/**
 * Two runners (two processes' worth: separate connection pools) on one database never run a job
 * twice and share the work.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../app-context.js';
import { defineArea } from '../area.js';
import { Areas } from '../areas.js';
import { allAreas } from '../namespaces/index.js';
import { fixtureContext } from '../namespaces/oembed/oembed-fixtures.js';
import { createDb, type Db } from '../storage/db.js';
import { migrateToLatest } from '../storage/migrate.js';
import { DIALECTS, createTestDb, TEST_PG_URL } from '../storage/test-db.js';
import { Jobs } from './runner.js';
import { claimJobs, insertJob } from './store.js';

const JOBS = 120;

async function twoDatabases(engine: 'sqlite' | 'postgres'): Promise<{ a: Db; b: Db; close: () => Promise<void> }> {
  if (engine === 'postgres') {
    const first = await createTestDb('postgres');
    const b = createDb({ url: TEST_PG_URL, pgSchema: first.pgSchema!, poolSize: 5 });
    return { a: first.db, b, close: async () => { await b.destroy(); await first.destroy(); } };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobs-'));
  const file = path.join(dir, 'two.sqlite');
  const a = createDb({ url: file });
  await migrateToLatest(a);
  const b = createDb({ url: file });
  return { a, b, close: async () => { await a.destroy(); await b.destroy(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

describe.each(DIALECTS)('two runners on one %s database', (engine) => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of closers) await c();
  });

  it('run every job exactly once between them', async () => {
    const { a, b, close } = await twoDatabases(engine);
    closers.push(close);
    /** Which runner ran each job, once per run. */
    const runs = new Map<number, string[]>();
    const contexts = new Map<AppContext, string>();
    const area = defineArea({
      id: 'jobtest',
      title: 'Job tests',
      description: 'test area',
      namespaces: [],
      jobs: {
        'jobtest.count': async (ctx, _payload, job) => {
          await new Promise((r) => setTimeout(r, Math.random() * 5));
          runs.set(job.id, [...(runs.get(job.id) ?? []), contexts.get(ctx)!]);
        },
      },
    });
    const make = async (db: Db, name: string) => {
      const ctx: AppContext = { ...fixtureContext(db), log: (await import('pino')).pino({ level: 'warn' }), areas: new Areas([...allAreas(), area]), jobs: new Jobs(() => ctx, { pollMs: 10, concurrency: 4 }) };
      contexts.set(ctx, name);
      return { ctx, name };
    };
    const one = await make(a, 'one');
    const two = await make(b, 'two');
    for (let i = 0; i < JOBS; i++) await one.ctx.jobs.enqueue('jobtest.count', { i });
    one.ctx.jobs.start();
    two.ctx.jobs.start();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await one.ctx.jobs.counts()).done < JOBS) await new Promise((r) => setTimeout(r, 25));
    await Promise.all([one.ctx.jobs.stop(), two.ctx.jobs.stop()]);
    expect(await one.ctx.jobs.counts()).toMatchObject({ done: JOBS, queued: 0, running: 0, failed: 0 });
    expect(runs.size).toBe(JOBS);
    expect([...runs.values()].filter((r) => r.length !== 1)).toEqual([]);
    const byOne = [...runs.values()].filter(([n]) => n === 'one').length;
    expect(byOne).toBeGreaterThan(0);
    expect(byOne).toBeLessThan(JOBS);
  }, 60_000);

  it('claim at most their limit and never the same rows at once', async () => {
    const { a, b, close } = await twoDatabases(engine);
    closers.push(close);
    const now = new Date('2026-11-23T10:00:00Z');
    const until = new Date(now.getTime() + 60_000);
    for (let i = 0; i < 20; i++) await insertJob(a, now, 'k', { i });
    const seen: number[] = [];
    for (let round = 0; round < 3; round++) {
      const [x, y] = await Promise.all([claimJobs(a, now, until, 'A', ['k'], 4), claimJobs(b, now, until, 'B', ['k'], 4)]);
      expect(x.length).toBeLessThanOrEqual(4);
      expect(y.length).toBeLessThanOrEqual(4);
      seen.push(...x.map((r) => r.id), ...y.map((r) => r.id));
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(20);
  });
});
