import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, DIALECTS, type TestDb } from '../../storage/test-db.js';
import { CACHE_MAX_ENTRIES, CACHE_TTL_SECONDS, proxyCacheKey, readProxyCache, writeProxyCache } from './proxy-cache.repo.js';

describe('proxyCacheKey', () => {
  it('ignores _wpnonce and key order, and changes with any other parameter', () => {
    const a = proxyCacheKey({ url: 'https://x.test/', maxwidth: 600, format: 'json', discover: true });
    expect(proxyCacheKey({ discover: true, format: 'json', maxwidth: 600, url: 'https://x.test/', _wpnonce: 'abc' })).toBe(a);
    expect(proxyCacheKey({ url: 'https://x.test/', maxwidth: 500, format: 'json', discover: true })).not.toBe(a);
    expect(proxyCacheKey({ url: 'https://x.test/', maxwidth: 600, format: 'json', discover: false })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe.each(DIALECTS)('proxy cache on %s', (engine) => {
  let t: TestDb;
  const t0 = new Date('2026-06-01T12:00:00Z');
  const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  beforeAll(async () => {
    t = await createTestDb(engine);
  });
  afterAll(() => t.destroy());

  it('returns what was stored until it expires after a day', async () => {
    await writeProxyCache(t.db, 'k1', { type: 'rich', html: '<p>x</p>' }, t0);
    expect(await readProxyCache(t.db, 'k1', later(60))).toEqual({ type: 'rich', html: '<p>x</p>' });
    expect(await readProxyCache(t.db, 'k1', later(CACHE_TTL_SECONDS - 1))).toBeDefined();
    expect(await readProxyCache(t.db, 'k1', later(CACHE_TTL_SECONDS))).toBeUndefined();
    expect(await readProxyCache(t.db, 'other', later(60))).toBeUndefined();
  });

  it('replaces an entry written again', async () => {
    await writeProxyCache(t.db, 'k2', { v: 1 }, t0);
    await writeProxyCache(t.db, 'k2', { v: 2 }, t0);
    expect(await readProxyCache(t.db, 'k2', t0)).toEqual({ v: 2 });
  });

  it('drops expired entries when writing', async () => {
    await writeProxyCache(t.db, 'old', { v: 1 }, t0);
    await writeProxyCache(t.db, 'new', { v: 2 }, later(CACHE_TTL_SECONDS + 1));
    const keys = (await t.db.selectFrom('oembed_cache').select('cache_key').execute()).map((r) => r.cache_key);
    expect(keys).toEqual(['new']);
  });

  it(`keeps at most ${CACHE_MAX_ENTRIES} entries, dropping those nearest expiry`, async () => {
    await t.db.deleteFrom('oembed_cache').execute();
    const rows = Array.from({ length: CACHE_MAX_ENTRIES }, (_, i) => ({
      cache_key: `fill-${String(i).padStart(5, '0')}`,
      value: '{}',
      created_gmt: '2026-06-01 12:00:00',
      expires_gmt: i < 2 ? '2026-06-02 11:00:00' : '2026-06-02 12:00:00',
    }));
    for (let i = 0; i < rows.length; i += 500) await t.db.insertInto('oembed_cache').values(rows.slice(i, i + 500)).execute();
    await writeProxyCache(t.db, 'newest', { v: 1 }, t0);
    const { count } = await t.db.selectFrom('oembed_cache').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(Number(count)).toBe(CACHE_MAX_ENTRIES);
    expect(await readProxyCache(t.db, 'newest', t0)).toEqual({ v: 1 });
    expect(await t.db.selectFrom('oembed_cache').select('cache_key').where('cache_key', '=', 'fill-00000').executeTakeFirst()).toBeUndefined();
    expect(await t.db.selectFrom('oembed_cache').select('cache_key').where('cache_key', '=', 'fill-00001').executeTakeFirst()).toBeDefined();
  });
});
