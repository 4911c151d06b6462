import { describe, expect, it } from 'vitest';
import { MAX_CACHED_CHARS, MAX_CACHED_ENTRIES, ResponseCache } from './response-cache.js';
import { RestResponse, type RestRequest } from './route.js';
import { noteWrite } from './write-generation.js';

/** A signed-out GET of `route` with `query`, as the dispatcher hands it to the cache. */
const get = (route: string, query: Record<string, string>) =>
  ({ method: 'GET', user: null, auth: { method: 'none' }, rawBody: undefined, json: undefined, body: {}, locals: {}, route, query }) as unknown as RestRequest;

const answer = (chars: number) => new RestResponse({ text: 'x'.repeat(chars) });

describe('ResponseCache', () => {
  it('answers the same query from the cache within its time', () => {
    const cache = new ResponseCache();
    const key = cache.keyOf(get('/e', { page: '1' }))!;
    cache.set(key, answer(10), 60_000);
    expect(cache.get(cache.keyOf(get('/e', { page: '1' }))!)?.status).toBe(200);
    expect(cache.get(cache.keyOf(get('/e', { page: '2' }))!)).toBeUndefined();
  });

  it('keeps at most its bound of entries, whatever the number of distinct queries', () => {
    const cache = new ResponseCache();
    for (let i = 0; i < 100_000; i++) cache.set(cache.keyOf(get('/e', { search: `q${i}` }))!, answer(10), 60_000);
    expect(cache.size).toBeLessThanOrEqual(MAX_CACHED_ENTRIES);
    expect(cache.size).toBeGreaterThan(0);
  });

  it('keeps at most its bound of characters, however large the answers', () => {
    const cache = new ResponseCache();
    for (let i = 0; i < MAX_CACHED_ENTRIES; i++) cache.set(cache.keyOf(get('/e', { search: `q${i}` }))!, answer(20_000), 60_000);
    expect(cache.chars).toBeLessThanOrEqual(MAX_CACHED_CHARS);
    expect(cache.size).toBeGreaterThan(100);
  });

  it('drops the answers of earlier write generations, which no key can reach again', () => {
    const cache = new ResponseCache();
    for (let i = 0; i < 100; i++) cache.set(cache.keyOf(get('/e', { page: String(i) }))!, answer(100), 60_000);
    expect(cache.size).toBe(100);
    noteWrite();
    cache.set(cache.keyOf(get('/e', { page: '1' }))!, answer(100), 60_000);
    expect(cache.size).toBe(1);
  });

  it('does not keep an answer whose key was taken before a write (it would be stale)', () => {
    const cache = new ResponseCache();
    const key = cache.keyOf(get('/e', { page: '1' }))!;
    noteWrite();
    cache.set(key, answer(100), 60_000);
    expect(cache.size).toBe(0);
  });

  it('sweeps expired entries when it stores new ones', async () => {
    const cache = new ResponseCache();
    for (let i = 0; i < 50; i++) cache.set(cache.keyOf(get('/e', { page: String(i) }))!, answer(100), 1);
    await new Promise((r) => setTimeout(r, 5));
    cache.set(cache.keyOf(get('/e', { page: 'new' }))!, answer(100), 60_000);
    expect(cache.size).toBe(1);
  });
});
